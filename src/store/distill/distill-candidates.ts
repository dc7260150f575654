/**
 * `lore distill` and `lore scan --distill`: candidates sent one at a time to the configured model,
 * each answer checked and written back. For each candidate:
 *   prompt (redacted) → cache key → cached answer, or budget reservation → call → settle, remember
 *   → read the answer → apply it (schema and trigger checks) or keep the candidate with a note.
 * A candidate is never sent twice: an answer is remembered whatever it was worth, and only a
 * failed call (timeout, unreachable endpoint, HTTP error) is asked again on a later run.
 */
import { applyDistilled, noteDistill } from '../../core/distill/apply-distilled.js';
import type { DistillMeta } from '../../core/distill/apply-distilled.js';
import { budgetDay, estimateTokens } from '../../core/distill/distill-budget.js';
import { distillInfoOf } from '../../core/distill/distill-info.js';
import { distillPrompt } from '../../core/distill/distill-prompt.js';
import type { DistillPrompt } from '../../core/distill/distill-prompt.js';
import { readDistillAnswer } from '../../core/distill/read-distill-answer.js';
import type { Tier } from '../../core/lesson/schema.js';
import { findCandidate, surveyCandidates } from '../candidates/candidate-actions.js';
import type { Problem } from '../../core/errors.js';
import type { FoundCandidate } from '../candidates/candidate-actions.js';
import type { Workspace } from '../workspace/workspace.js';
import { openDistillLedger, requestKey } from './distill-ledger.js';
import type { DistillLedger } from './distill-ledger.js';
import type { Completion } from './distill-provider.js';
import type { DistillSettings } from './distill-settings.js';

export const DISTILL_RESULTS = ['applied', 'refused', 'failed', 'over-budget'] as const;
export type DistillOutcome = (typeof DISTILL_RESULTS)[number];

export type DistillResult = {
  id: string;
  tier: Tier;
  outcome: DistillOutcome;
  /** The answer came from the cache: no call was made. */
  cached: boolean;
  /** Why it was refused, failed or not sent. */
  note?: string;
  /** The summary capture wrote, and the one the candidate has now. */
  before: string;
  summary: string;
  /** Tokens the call took (reported by the endpoint, or estimated). */
  tokens?: number;
};

export type BudgetReport = {
  day: string;
  calls: number;
  tokens: number;
  dailyCalls: number;
  dailyTokens: number;
};

export type DistillRun = {
  provider: string;
  model: string | null;
  endpoint: string;
  results: DistillResult[];
  budget: BudgetReport;
  /** Candidate files that cannot be read, skipped (a run over every candidate names them). */
  problems: Problem[];
};

export type DistillOptions = {
  /** Candidate ids or prefixes; default every candidate not distilled or refused yet. */
  refs?: readonly string[];
  /** Exactly these candidates (what a scan just touched), when not yet distilled or refused. */
  only?: readonly { tier: Tier; id: string }[];
  limit?: number;
  /** Ask again even when an answer is cached. */
  force?: boolean;
  nowMs: number;
  /** Local names to redact (the account, the home folder's name). */
  names: readonly string[];
  /** Each result as it is known, for progress. */
  onResult?: (result: DistillResult) => void;
};

/**
 * Never distilled, or only failed calls so far. A refused answer is cached and would be refused
 * again; a distilled candidate is asked again only when named (or with `force`).
 */
function pending(found: FoundCandidate): boolean {
  const info = distillInfoOf(found.record);
  return info === undefined || (info.status === 'failed' && info.heuristic === undefined);
}

export function selectForDistill(
  ws: Workspace,
  options: DistillOptions,
): { chosen: FoundCandidate[]; problems: Problem[] } {
  let chosen: FoundCandidate[];
  let problems: Problem[] = [];
  if (options.refs !== undefined && options.refs.length > 0) {
    // Two prefixes of one candidate name it once.
    const byFile = new Map(
      options.refs.map((ref) => findCandidate(ws, ref)).map((found) => [found.file, found]),
    );
    chosen = [...byFile.values()];
  } else {
    const wanted = options.only && new Set(options.only.map((c) => `${c.tier}:${c.id}`));
    const survey = surveyCandidates(ws);
    chosen = survey.candidates.filter(
      (found) => (wanted === undefined || wanted.has(`${found.tier}:${found.id}`)) && pending(found),
    );
    // Every candidate was asked for: one that cannot be read is named, not passed over in silence.
    if (wanted === undefined)
      problems = survey.broken.map((c) => ({
        file: ws.displayPath(c.file),
        ...(c.line !== undefined ? { line: c.line } : {}),
        message: `candidate ${c.id} skipped: ${c.problem} (fix the file, or delete its folder)`,
        severity: 'error' as const,
      }));
  }
  return { chosen: options.limit === undefined ? chosen : chosen.slice(0, options.limit), problems };
}

type Asked =
  | { ok: true; text: string; cached: boolean; tokens?: number }
  | { ok: false; outcome: 'failed' | 'over-budget'; note: string };

/** The model's answer to a prompt: from the cache, or from one call the budget admits. */
async function ask(
  settings: DistillSettings,
  ledger: DistillLedger,
  prompt: DistillPrompt,
  context: { key: string; day: string; nowIso: string; force: boolean },
): Promise<Asked> {
  const { provider } = settings;
  const hit = context.force ? undefined : ledger.answer(context.key);
  if (hit !== undefined) return { ok: true, text: hit.text, cached: true };
  const promptTokens = estimateTokens(prompt.system + prompt.user);
  const reserve = promptTokens + settings.maxOutputTokens;
  const admission = ledger.reserve(context.day, settings.limits, reserve);
  if (!admission.ok) return { ok: false, outcome: 'over-budget', note: admission.reason };
  let completion: Completion;
  try {
    completion = await provider.complete({
      system: prompt.system,
      user: prompt.user,
      maxOutputTokens: settings.maxOutputTokens,
      timeoutMs: settings.timeoutMs,
    });
  } catch (error) {
    completion = { ok: false, kind: 'error', message: (error as Error)?.message ?? String(error) };
  }
  if (!completion.ok) {
    // What a failed call cost: nothing when it never arrived, the worst case after a timeout (the
    // model may have answered into the void), the prompt when the endpoint refused it.
    const spent =
      completion.kind === 'unreachable'
        ? { calls: 0 as const, tokens: 0 }
        : { calls: 1 as const, tokens: completion.kind === 'timeout' ? reserve : promptTokens };
    ledger.settle(context.day, reserve, spent);
    return { ok: false, outcome: 'failed', note: completion.message };
  }
  const tokens = completion.usage.inputTokens + completion.usage.outputTokens;
  ledger.settle(context.day, reserve, { calls: 1, tokens });
  ledger.remember({
    key: context.key,
    at: context.nowIso,
    provider: provider.name,
    model: provider.model ?? null,
    text: completion.text,
    usage: completion.usage,
  });
  return { ok: true, text: completion.text, cached: false, tokens };
}

/** One candidate: asked, then applied or noted. */
async function distillOne(
  found: FoundCandidate,
  settings: DistillSettings,
  ledger: DistillLedger,
  options: DistillOptions & { day: string; nowIso: string },
): Promise<DistillResult> {
  const { provider } = settings;
  const prompt = distillPrompt(found.record, { names: options.names });
  const key = requestKey(provider, prompt);
  const meta: DistillMeta = { provider: provider.name, model: provider.model, nowIso: options.nowIso, key };
  const before = distillInfoOf(found.record)?.heuristic?.summary ?? found.record.summary;
  const asked = await ask(settings, ledger, prompt, {
    key,
    day: options.day,
    nowIso: options.nowIso,
    force: options.force === true,
  });
  const base = { id: found.id, tier: found.tier, before };
  if (!asked.ok && asked.outcome === 'over-budget')
    return {
      ...base,
      outcome: 'over-budget',
      cached: false,
      note: asked.note,
      summary: found.record.summary,
    };
  let outcome: DistillOutcome = 'failed';
  let note: string | undefined = asked.ok ? undefined : asked.note;
  const stored = found.store.update(found.id, (current) => {
    if (!asked.ok) return noteDistill(current, 'failed', asked.note, meta);
    const read = readDistillAnswer(asked.text);
    const applied = read.ok ? applyDistilled(current, read.value, meta) : read;
    if (applied.ok) {
      outcome = 'applied';
      return applied.record;
    }
    outcome = 'refused';
    note = applied.note;
    return noteDistill(current, 'refused', applied.note, meta);
  });
  return {
    ...base,
    outcome,
    cached: asked.ok && asked.cached,
    ...(note !== undefined ? { note } : {}),
    summary: stored.record.summary,
    ...(asked.ok && asked.tokens !== undefined ? { tokens: asked.tokens } : {}),
  };
}

export async function distillCandidates(
  ws: Workspace,
  settings: DistillSettings,
  options: DistillOptions,
): Promise<DistillRun> {
  const ledger = openDistillLedger(ws.user.layout.cacheDir);
  const nowIso = new Date(options.nowMs).toISOString();
  const day = budgetDay(nowIso);
  const results: DistillResult[] = [];
  // One at a time: the budget is checked before each call, and a slow endpoint is not flooded.
  const { chosen, problems } = selectForDistill(ws, options);
  for (const found of chosen) {
    const result = await distillOne(found, settings, ledger, { ...options, day, nowIso });
    results.push(result);
    options.onResult?.(result);
  }
  const spent = ledger.spent(day);
  return {
    provider: settings.provider.name,
    model: settings.provider.model ?? null,
    endpoint: settings.provider.endpoint,
    results,
    budget: { ...spent, ...settings.limits },
    problems,
  };
}

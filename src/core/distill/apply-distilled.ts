/**
 * A model's distilled lesson applied to a candidate, or refused with a note: the distilled record
 * must validate against the lesson schema (one-line summary, safe regexes, relative globs, tags
 * without spaces) and its trigger must still fire on the candidate's evidence. Refused, the
 * candidate keeps its text and only its `distill` note changes.
 *
 * Applied, the summary and the COIA fields replace capture's wording (the mistake and remediation
 * move into the `distill.heuristic` snapshot beside the old summary and triggers, so review can
 * show both and nothing is lost); a suggested trigger list replaces capture's, an empty one keeps
 * it; the model's tags join capture's.
 */
import type { CandidateRecord } from '../capture/merge-candidate.js';
import { LessonSchema } from '../lesson/schema.js';
import { createGlobMatcher } from '../match/glob.js';
import { candidateEvidence } from './candidate-evidence.js';
import type { CandidateEvidence } from './candidate-evidence.js';
import { distillInfoOf, heuristicText } from './distill-info.js';
import type { DistillInfo, DistillStatus } from './distill-info.js';
import type { DistilledLesson } from './read-distill-answer.js';

export type DistillMeta = { provider: string; model: string | undefined; nowIso: string; key: string };

export type Applied = { ok: true; record: CandidateRecord } | { ok: false; note: string };

const tidy = (items: readonly string[], lower = false): string[] => [
  ...new Set(
    items.map((item) => (lower ? item.trim().toLowerCase() : item.trim())).filter((item) => item !== ''),
  ),
];

const quote = (text: string): string => (text.length <= 100 ? text : `${text.slice(0, 99)}…`);

/** Why a suggested trigger no longer fires on the evidence, or undefined when every part does. */
export function triggerMismatch(
  trigger: { commands: readonly string[]; paths: readonly string[]; tools: readonly string[] },
  evidence: CandidateEvidence,
): string | undefined {
  if (trigger.commands.length > 0 && evidence.commands.length === 0)
    return 'the model suggests command triggers, but the candidate shows no failed command to check them against';
  for (const source of trigger.commands) {
    const regex = new RegExp(source);
    if (!evidence.commands.some((command) => regex.test(command)))
      return `the suggested command trigger /${quote(source)}/ does not match the failed command \`${quote(evidence.commands[0] ?? '')}\``;
  }
  if (trigger.paths.length > 0 && evidence.paths.length === 0)
    return 'the model suggests path triggers, but the candidate shows no file path to check them against';
  for (const glob of trigger.paths) {
    const matches = createGlobMatcher(glob);
    if (!evidence.paths.some((path) => matches(path)))
      return `the suggested path trigger ${quote(glob)} does not match ${evidence.paths.map(quote).join(', ')}`;
  }
  const known = new Set(evidence.tools.map((tool) => tool.toLowerCase()));
  const stranger = trigger.tools.find((tool) => known.size > 0 && !known.has(tool.toLowerCase()));
  if (stranger !== undefined)
    return `the suggested tool ${stranger} is not the one the mistake was made with (${evidence.tools.join(', ')})`;
  return undefined;
}

function schemaNote(record: CandidateRecord): string | undefined {
  const { capture: _capture, distill: _distill, ...lesson } = record;
  const checked = LessonSchema.safeParse(lesson);
  if (checked.success) return undefined;
  const issues = checked.error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.join('.') || '(record)'}: ${issue.message}`);
  return `the distilled lesson is not valid (${issues.join('; ')})`;
}

export function applyDistilled(
  record: CandidateRecord,
  distilled: DistilledLesson,
  meta: DistillMeta,
): Applied {
  const heuristic = heuristicText(record);
  const trigger = {
    commands: tidy(distilled.trigger.commands),
    paths: tidy(distilled.trigger.paths),
    tools: tidy(distilled.trigger.tools),
  };
  const { mistake: _mistake, remediation: _remediation, ...rest } = record;
  const info: DistillInfo = {
    status: 'applied',
    provider: meta.provider,
    ...(meta.model !== undefined ? { model: meta.model } : {}),
    at: meta.nowIso,
    key: meta.key,
    heuristic,
  };
  const next: CandidateRecord = {
    ...rest,
    summary: distilled.summary.trim(),
    context: distilled.context.trim(),
    observation: distilled.observation.trim(),
    implication: distilled.implication.trim(),
    action: distilled.action.trim(),
    tools: trigger.tools.length > 0 ? trigger.tools : heuristic.tools,
    commands: trigger.commands.length > 0 ? trigger.commands : heuristic.commands,
    paths: trigger.paths.length > 0 ? trigger.paths : heuristic.paths,
    tags: tidy([...heuristic.tags, ...distilled.tags], true),
    updatedAt: meta.nowIso,
    distill: info,
  };
  // The schema first: it refuses regexes that can backtrack catastrophically, which must never
  // run against the evidence.
  const invalid = schemaNote(next);
  if (invalid !== undefined) return { ok: false, note: invalid };
  const mismatch = triggerMismatch(trigger, candidateEvidence(record));
  if (mismatch !== undefined) return { ok: false, note: mismatch };
  return { ok: true, record: next };
}

/**
 * The candidate as it was, with a note on a distillation that was refused or failed. A candidate
 * distilled before keeps its distilled text and snapshot.
 */
export function noteDistill(
  record: CandidateRecord,
  status: Exclude<DistillStatus, 'applied'>,
  note: string,
  meta: Omit<DistillMeta, 'key'> & { key?: string },
): CandidateRecord {
  const before = distillInfoOf(record);
  const info: DistillInfo = {
    status,
    note,
    provider: meta.provider,
    ...(meta.model !== undefined ? { model: meta.model } : {}),
    at: meta.nowIso,
    ...(meta.key !== undefined ? { key: meta.key } : {}),
    ...(before?.heuristic !== undefined ? { heuristic: before.heuristic } : {}),
  };
  return { ...record, distill: info };
}

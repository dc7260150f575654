/**
 * The hook's own pipeline run over recorded sessions, in process: each session's start, its
 * prompts and its tool calls, in order, through `selectLessons` over one manifest, with the
 * replayed session's own dedup state (a seen set per agent context, claims session-wide, as the
 * hook keeps them) and the same budgets. Pure: the manifest, the sessions and the host adapters
 * come in; what each lesson was injected on, and which lessons' triggers match each call, come out.
 *
 * Delivery forms: a denial is a `guard` (or a `checkpoint`: a lesson of that type denies the first
 * matching call of a session and lets the rest through); prompt and session-start context is
 * `before-call`; PreToolUse context (Gemini: AfterTool) is `after-call`.
 */
import type { Agent } from '../capture/events.js';
import { candidateOrdinals, createLessonCursor } from '../inject/candidate-ordinals.js';
import type { LiteralLookup } from '../inject/literal-keys.js';
import { createMatcher, errorReasons } from '../inject/create-matcher.js';
import { formatDecision } from '../inject/format-decision.js';
import { parseHookPayload } from '../inject/parse-hook-input.js';
import { applyClaims, selectLessons } from '../inject/select-lessons.js';
import type {
  HookAdapter,
  HookEvent,
  Included,
  InjectionPlan,
  LessonReader,
  Manifest,
  TextReader,
} from '../inject/types.js';
import type { ReplayCall, SessionCalls } from '../outcome/call-outcome.js';
import type { DeliveryForm } from './replay-report.js';
import {
  callPayloads,
  pathsInside,
  promptPayload,
  sessionCwd,
  sessionStartPayload,
} from './replay-payload.js';

/** One lesson delivered once: on a call (guard, checkpoint, after-call) or before calls (before-call). */
export type Injection = {
  lesson: string;
  form: DeliveryForm;
  /**
   * The call it acted on (guard, checkpoint, after-call), or for before-call context the first call
   * it reached (`calls.length` when none followed).
   */
  at: number;
  /** Before-call context: the end (exclusive) of the calls of its turn (a prompt's, or the whole session's). */
  until: number;
  /** Where it was delivered: the call's (or the prompt's) file and line. */
  file: string;
  line: number;
  /** UTF-8 bytes of its text as delivered. */
  bytes: number;
};

export type SessionReplay = {
  session: SessionCalls;
  injections: Injection[];
  /** Call index -> the lessons whose trigger matches that call (whatever the budget and dedup did). */
  matched: Map<number, Set<string>>;
  /**
   * Call index -> the lessons whose trigger matches that call before it runs: a lesson that waits
   * for its error counts by its other triggers. What a guard or checkpoint could have acted on.
   */
  matchedBefore?: Map<number, Set<string>>;
  /** Calls that got context or a denial. */
  callsWithInjection: number;
  /** UTF-8 bytes of everything injected (the lessons' part: header and texts, or the denial). */
  bytes: number;
  guardDenials: number;
  checkpointDenials: number;
  /** Calls of tools the hook never sees (the host's hook ignores them). */
  unknownTools: number;
  subagentCalls: number;
};

export type ReplayHosts = Record<Agent, HookAdapter>;

export type ReplayInput = {
  manifest: Pick<Manifest, 'head' | 'words'>;
  readLesson: LessonReader;
  readText: TextReader;
  literals: LiteralLookup;
  hosts: ReplayHosts;
  /**
   * `--as-of`: the first call index of a session at which each lesson existed (a lesson fires only
   * from there on); absent lessons existed all along.
   */
  existsFrom?: (session: SessionCalls, lesson: string) => number;
};

/** UTF-8 length without Buffer (core runs anywhere). */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      bytes += 4;
      i += 1;
    } else bytes += 3;
  }
  return bytes;
}

/** The agent context a call is made in: the main agent, or a subagent (one per subagent file). */
export function agentScope(call: ReplayCall): string {
  return call.sidechain ? `sub:${call.file}` : 'main';
}

/**
 * The lessons whose trigger matches an event, as the hook's matcher says before ranking and budgets:
 * `matched` takes the call's result into account (a lesson that waits for its error matches a call
 * that printed one), `before` is what matched before the call ran (such a lesson by its other
 * triggers: what a guard or checkpoint could act on). One pass over the candidates.
 */
export function triggerMatches(
  event: HookEvent,
  head: Manifest['head'],
  readLesson: LessonReader,
  literals: LiteralLookup,
  repoPaths: readonly string[],
): { matched: Set<string>; before: Set<string> } {
  const matched = new Set<string>();
  const before = new Set<string>();
  // matched as before the call runs; a lesson that waits for its error then tries the call's result
  const { output, ...pending } = event;
  const matcher = createMatcher(pending, { repoPaths, stack: head.stack });
  const cursor = createLessonCursor(readLesson);
  for (const n of candidateOrdinals(event, head, repoPaths, literals)) {
    const lesson = cursor.at(n);
    const result = lesson === undefined ? undefined : matcher(lesson);
    if (lesson === undefined || result === undefined) continue;
    if (result.match !== undefined) {
      matched.add(lesson.id);
      before.add(lesson.id);
    } else if (result.skip?.reason === 'awaits-error') {
      before.add(lesson.id);
      if (output !== undefined && errorReasons(lesson.errors ?? [], output).length > 0)
        matched.add(lesson.id);
    }
  }
  return { matched, before };
}

function parseFor(adapter: HookAdapter, raw: Record<string, unknown>): HookEvent | undefined {
  const parsed = parseHookPayload(adapter.normalizeInput(raw));
  if (parsed === undefined || !adapter.events.includes(parsed.event)) return undefined;
  const phase = parsed.event === 'PreToolUse' ? adapter.callPhase?.(raw) : undefined;
  return { ...parsed, host: adapter.host, ...(phase === undefined ? {} : { phase }) };
}

/**
 * The hook's selection with one replayed session's state: a seen set per agent context, claims
 * session-wide; under `--as-of` the manifest shows a lesson only from the call it existed at.
 */
function createPlanner(session: SessionCalls, input: ReplayInput) {
  const { head } = input.manifest;
  const adapter = input.hosts[session.agent];
  const settings = { ...head.settings, maxChars: Math.min(head.settings.maxChars, adapter.maxChars) };
  const root = sessionCwd(session.project);
  const seen = new Map<string, Set<string>>();
  /** id -> priority of everything shown in the session, any agent (the hook's claims file). */
  const claimed = new Map<string, number>();
  const planner = { position: 0, select, forgetAfterCompaction };
  const readLesson: LessonReader =
    input.existsFrom === undefined
      ? input.readLesson
      : (n) => {
          const lesson = input.readLesson(n);
          return lesson === undefined || planner.position < (input.existsFrom?.(session, lesson.id) ?? 0)
            ? undefined
            : lesson;
        };
  function select(event: HookEvent, scope: string): InjectionPlan {
    const mine = seen.get(scope) ?? new Set<string>();
    seen.set(scope, mine);
    const elsewhere = new Set<string>();
    for (const [other, ids] of seen) if (other !== scope) for (const id of ids) elsewhere.add(id);
    const selection = selectLessons({
      event,
      head,
      readLesson,
      readText: input.readText,
      literals: input.literals,
      words: event.event === 'UserPromptSubmit' ? input.manifest.words : undefined,
      repoPaths: pathsInside(event.paths ?? [], root),
      state: { seen: mine, seenElsewhere: elsewhere, shownCount: mine.size, stateAvailable: true },
      settings,
    });
    return applyClaims(selection.decision.plan, (wanted) => {
      const got = new Set<string>();
      for (const { id, priority } of wanted) {
        if (claimed.has(id)) continue;
        claimed.set(id, priority);
        mine.add(id);
        got.add(id);
      }
      return got;
    });
  }
  /** A compaction, as the hook's SessionStart `compact` handles it: important lessons may go out again. */
  function forgetAfterCompaction(): void {
    for (const [id, priority] of [...claimed]) {
      if (priority < settings.compactForgetPriority) continue;
      claimed.delete(id);
      for (const ids of seen.values()) ids.delete(id);
    }
  }
  return planner;
}

/** A denied call's denials by form: the pipeline marks a checkpoint's (`kind`), the rest are guards'. */
function splitDenials(plan: InjectionPlan): { checkpoints: Included[]; guards: Included[] } {
  return {
    checkpoints: plan.denied.filter((item) => item.kind === 'checkpoint'),
    guards: plan.denied.filter((item) => item.kind !== 'checkpoint'),
  };
}

/** The lessons an included item stands for (an aggregated skill's pointer: its matched lessons). */
function lessonsOf(item: Included, matched: ReadonlySet<string>): string[] {
  return item.skill === undefined ? [item.id] : item.skill.lessons.filter((id) => matched.has(id));
}

/**
 * A session to replay: its calls and prompts, and where its context was compacted (the index of
 * the first call after each compaction), which the hook sees as a SessionStart with source `compact`.
 */
export type ReplaySessionCalls = SessionCalls & { compactions?: readonly number[] };

/** Replays one session (calls in the order they were made). */
export function replaySession(session: ReplaySessionCalls, input: ReplayInput): SessionReplay {
  const { head } = input.manifest;
  const adapter = input.hosts[session.agent];
  const root = sessionCwd(session.project);
  const planner = createPlanner(session, input);
  const out: SessionReplay = {
    session,
    injections: [],
    matched: new Map(),
    matchedBefore: new Map(),
    callsWithInjection: 0,
    bytes: 0,
    guardDenials: 0,
    checkpointDenials: 0,
    unknownTools: 0,
    subagentCalls: 0,
  };
  const calls = session.calls;
  const record = (
    lesson: string,
    form: DeliveryForm,
    at: number,
    until: number,
    place: { file: string; line: number },
    text: string,
  ) => {
    out.injections.push({
      lesson,
      form,
      at,
      until,
      file: place.file,
      line: place.line,
      bytes: utf8Length(text),
    });
  };

  const beforeCall = (event: HookEvent, at: number, until: number, place: { file: string; line: number }) => {
    planner.position = at;
    const plan = planner.select(event, 'main');
    if (plan.included.length === 0) return;
    const decision = formatDecision(event.event, plan);
    out.bytes += utf8Length(decision.context ?? '');
    for (const item of plan.included)
      for (const lesson of lessonsOf(item, new Set(item.skill?.lessons ?? [])))
        record(lesson, 'before-call', at, until, place, item.text);
  };

  const onCall = (call: ReplayCall, index: number) => {
    planner.position = index;
    const scope = agentScope(call);
    if (call.sidechain) out.subagentCalls += 1;
    const events = callPayloads(call, scope)
      .map((raw) => parseFor(adapter, raw))
      .filter((event): event is HookEvent => event !== undefined);
    const first = events[0];
    if (first === undefined) {
      out.unknownTools += 1;
      return;
    }
    // the trigger as a whole: a lesson that waits for its error matches a call that printed it
    const output = events.find((event) => event.output !== undefined)?.output;
    const matchEvent: HookEvent = { ...first, phase: undefined, ...(output === undefined ? {} : { output }) };
    const { matched, before } = triggerMatches(
      matchEvent,
      head,
      input.readLesson,
      input.literals,
      pathsInside(first.paths ?? [], root),
    );
    if (matched.size > 0) out.matched.set(index, matched);
    if (before.size > 0) out.matchedBefore?.set(index, before);
    const place = { file: call.file, line: call.line };
    let injected = false;
    for (const event of events) {
      const plan = planner.select(event, scope);
      if (plan.denied.length > 0) {
        const { checkpoints, guards } = splitDenials(plan);
        out.bytes += utf8Length(plan.denied.map((item) => item.text).join('\n\n'));
        for (const item of checkpoints) record(item.id, 'checkpoint', index, index + 1, place, item.text);
        for (const item of guards) record(item.id, 'guard', index, index + 1, place, item.text);
        if (checkpoints.length > 0) out.checkpointDenials += 1;
        if (guards.length > 0) out.guardDenials += 1;
        injected = true;
        break; // a denied call runs no further half
      }
      if (plan.included.length > 0) {
        out.bytes += utf8Length(formatDecision(event.event, plan).context ?? '');
        for (const item of plan.included)
          for (const lesson of lessonsOf(item, matched))
            record(lesson, 'after-call', index, index + 1, place, item.text);
        injected = true;
      }
    }
    if (injected) out.callsWithInjection += 1;
  };

  const firstPlace = { file: calls[0]?.file ?? '', line: calls[0]?.line ?? 0 };
  const start = parseFor(adapter, sessionStartPayload(session.agent, session.session, session.project));
  if (start !== undefined) beforeCall(start, 0, calls.length, firstPlace);
  const prompts = [...session.prompts].sort((a, b) => a.beforeCall - b.beforeCall);
  const compactions = [...(session.compactions ?? [])].sort((a, b) => a - b);
  let p = 0;
  let k = 0;
  for (let i = 0; i <= calls.length; i += 1) {
    while (k < compactions.length && (compactions[k] ?? 0) <= i) {
      k += 1;
      planner.forgetAfterCompaction();
      const compact = parseFor(adapter, {
        ...sessionStartPayload(session.agent, session.session, session.project),
        source: 'compact',
      });
      const at = calls[Math.min(i, calls.length - 1)];
      const place = { file: at?.file ?? firstPlace.file, line: at?.line ?? 0 };
      if (compact !== undefined) beforeCall(compact, i, calls.length, place);
    }
    while (p < prompts.length && (prompts[p]?.beforeCall ?? 0) <= i) {
      const prompt = prompts[p] as (typeof prompts)[number];
      p += 1;
      const until = prompts[p]?.beforeCall ?? calls.length;
      const event = parseFor(
        adapter,
        promptPayload(session.agent, session.session, session.project, prompt.text),
      );
      const file = calls[Math.min(i, calls.length - 1)]?.file ?? firstPlace.file;
      if (event !== undefined) beforeCall(event, i, until, { file, line: prompt.line });
    }
    const call = calls[i];
    if (call !== undefined) onCall(call, i);
  }
  return out;
}

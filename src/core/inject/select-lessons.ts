/**
 * The hook's pipeline, top to bottom: load → match → rank → plan → format. Pure given the
 * manifest head, a block reader and the session state; `lore explain` runs the same function
 * (exhaustively). On a tool call or a prompt the stages run as a stream: candidates are read and
 * matched in rank order and planned as they come, until the plan is settled.
 */
import { stackAllows } from './detect-stack.js';
import { formatDecision, headerOverhead } from './format-decision.js';
import { attachTexts, candidateOrdinals, createLessonCursor } from './candidate-ordinals.js';
import { agentAllows, createMatcher, isPromptEvent } from './create-matcher.js';
import { planInjection } from './plan-injection.js';
import type { PlanState } from './plan-injection.js';
import { checkpointDenies, deniesCalls, rankMatches } from './rank-matches.js';
import { LESSON_PROTOCOL } from './session-protocol.js';
import type { LiteralLookup } from './literal-keys.js';
import type {
  HookDecision,
  HookEvent,
  InjectionPlan,
  InjectSettings,
  LessonReader,
  ManifestHead,
  ManifestLesson,
  ManifestText,
  ManifestWords,
  Match,
  Skip,
  TextReader,
} from './types.js';

export type SelectInput = {
  event: HookEvent;
  head: ManifestHead;
  readLesson: LessonReader;
  readText: TextReader;
  /** Finds the literal keys a tool call or prompt satisfies. */
  literals: LiteralLookup;
  /** Needed for prompts only. */
  words?: ManifestWords;
  /** The event's paths, repo-relative (inside the project only). */
  repoPaths: readonly string[];
  state: PlanState;
  /** The manifest's settings, possibly narrowed by the host adapter. */
  settings: InjectSettings;
  /**
   * Match every candidate and attach every match's text (`lore explain`). Otherwise a tool call
   * walks its candidates in rank order and stops once the plan is settled, and texts are read only
   * for the lessons that get as far as the budget.
   */
  exhaustive?: boolean;
};

export type Selection = {
  decision: HookDecision;
  /** Lessons read and matched. */
  candidates: number;
  /** Lessons read from the manifest. */
  read: number;
  /** Matches looked at, best first (with texts when exhaustive). */
  matches: Match[];
  /** The texts read, by ordinal. */
  texts: Map<number, ManifestText>;
};

const EMPTY_PLAN = (): InjectionPlan => ({ included: [], denied: [], skipped: [] });

function compareMatches(a: Match, b: Match): number {
  return (
    b.strength - a.strength ||
    b.lesson.score - a.lesson.score ||
    (a.lesson.id < b.lesson.id ? -1 : a.lesson.id > b.lesson.id ? 1 : 0)
  );
}

/**
 * Matches of the ordinals `from <= n < to` of `ordinals`, lazily and in order, merged with the
 * already sorted `eager` matches.
 */
function* mergeRange(
  ordinals: readonly number[],
  from: number,
  to: number,
  at: (n: number) => ManifestLesson | undefined,
  match: (lesson: ManifestLesson) => Match | undefined,
  eager: readonly Match[],
): Generator<Match> {
  let e = 0;
  for (const n of ordinals) {
    if (n < from) continue;
    if (n >= to) break;
    const lesson = at(n);
    const found = lesson === undefined ? undefined : match(lesson);
    if (found === undefined) continue;
    while (e < eager.length && compareMatches(eager[e] as Match, found) < 0) yield eager[e++] as Match;
    yield found;
  }
  while (e < eager.length) yield eager[e++] as Match;
}

/** A lesson in a rank-ordered stream: matched when its turn comes, or already matched. */
type Ranked = { lesson: ManifestLesson; match?: Match };

/** Rank order among lessons of one strength: score, then id. */
function before(a: ManifestLesson, b: ManifestLesson): boolean {
  return a.score > b.score || (a.score === b.score && a.id < b.id);
}

/**
 * A prompt's matches in rank order, matched lazily. A lesson with a command or a path matches a
 * prompt only by naming it, with the strength it has in the manifest's rank order (3): those are
 * read in that order, the guards' region merged with the rest (a prompt denies nothing, so guards
 * are advice like any lesson) and with the overflow, and each is matched when its turn comes. A
 * lesson without either (found by a tag or by words, strength 2 or 1) ranks below all of them, so
 * those are matched, and sorted, only once the others leave room: a prompt that names a few files
 * stops reading after the lessons it shows.
 */
function* promptStream(
  ordinals: readonly number[],
  head: ManifestHead,
  at: (n: number) => ManifestLesson | undefined,
  match: (lesson: ManifestLesson) => Match | undefined,
): Generator<Match> {
  const weak: Match[] = [];
  const overflow: Ranked[] = [];
  for (const n of ordinals) {
    if (n < head.ranked) continue;
    const lesson = at(n);
    const found = lesson === undefined ? undefined : match(lesson);
    if (found === undefined) continue;
    if (found.strength >= 3) overflow.push({ lesson: found.lesson, match: found });
    else weak.push(found);
  }
  overflow.sort((a, b) => (before(a.lesson, b.lesson) ? -1 : 1));
  // where the lessons without a trigger start in the ranked region (it is sorted by strength)
  let rest = head.ranked;
  let restLesson: ManifestLesson | undefined;
  function* region(from: number, to: number, ranked: boolean): Generator<Ranked> {
    for (const n of ordinals) {
      if (n < from) continue;
      if (n >= to) break;
      const lesson = at(n);
      if (lesson === undefined) continue;
      if (ranked && lesson.strength < 3) {
        rest = n;
        restLesson = lesson;
        return;
      }
      yield { lesson };
    }
  }
  const streams = [region(0, head.guards, false), region(head.guards, head.ranked, true), overflow.values()];
  const heads = streams.map((stream) => stream.next());
  for (;;) {
    let best: number | undefined;
    heads.forEach((item, i) => {
      const current = best === undefined ? undefined : heads[best];
      if (!item.done && (current?.value === undefined || before(item.value.lesson, current.value.lesson)))
        best = i;
    });
    const item = best === undefined ? undefined : heads[best];
    if (best === undefined || item === undefined || item.done === true) break;
    heads[best] = (streams[best] as Iterator<Ranked>).next();
    const found = item.value.match ?? match(item.value.lesson);
    if (found === undefined) continue;
    if (found.strength < 3) {
      weak.push(found);
      continue;
    }
    yield found;
  }
  for (const n of ordinals) {
    if (n < rest) continue;
    if (n >= head.ranked) break;
    const lesson = n === rest && restLesson !== undefined ? restLesson : at(n);
    const found = lesson === undefined ? undefined : match(lesson);
    if (found !== undefined) weak.push(found);
  }
  yield* weak.sort(compareMatches);
}

/**
 * A tool call's matches in rank order: every match has its lesson's static strength, so the
 * ordinals are the rank order. Lessons changed since the last full build (the overflow) are
 * matched first, in full.
 */
function toolCallStream(
  ordinals: readonly number[],
  head: ManifestHead,
  guards: boolean,
  at: (n: number) => ManifestLesson | undefined,
  match: (lesson: ManifestLesson) => Match | undefined,
): Iterable<Match> {
  const overflow: Match[] = [];
  for (const n of ordinals) {
    if (n < head.ranked) continue;
    const lesson = at(n);
    const found = lesson === undefined ? undefined : match(lesson);
    if (found !== undefined) overflow.push(found);
  }
  overflow.sort(compareMatches);
  if (guards) {
    // Guards that can deny come first; past them a denied call is settled.
    const denying = overflow.filter((m) => deniesCalls(m.lesson));
    const rest = overflow.filter((m) => !deniesCalls(m.lesson));
    return (function* () {
      yield* mergeRange(ordinals, 0, head.guards, at, match, denying);
      yield* mergeRange(ordinals, head.guards, head.ranked, at, match, rest);
    })();
  }
  // Guards are advice: rank them with the rest (all of them are matched). Checkpoints still
  // deny, so they come first.
  const guardMatches = [...mergeRange(ordinals, 0, head.guards, at, match, [])];
  const checkpoints = [...guardMatches, ...overflow]
    .filter((m) => checkpointDenies(m.lesson))
    .sort(compareMatches);
  const eager = [...guardMatches, ...overflow]
    .filter((m) => !checkpointDenies(m.lesson))
    .sort(compareMatches);
  return (function* () {
    yield* checkpoints;
    yield* mergeRange(ordinals, head.guards, head.ranked, at, match, eager);
  })();
}

export function selectLessons(input: SelectInput): Selection {
  const { event, head, settings } = input;
  const texts = new Map<number, ManifestText>();
  const textOf = (match: Match) => {
    const text = match.text ?? texts.get(match.lesson.n) ?? input.readText(match.lesson.n);
    if (text !== undefined) texts.set(match.lesson.n, text);
    return text;
  };
  if (event.event === 'SubagentStart') {
    return {
      decision: formatDecision(event.event, EMPTY_PLAN(), LESSON_PROTOCOL),
      candidates: 0,
      read: 0,
      matches: [],
      texts,
    };
  }
  const ordinals = candidateOrdinals(event, head, input.repoPaths, input.literals, input.words);
  const cursor = createLessonCursor(input.readLesson);
  const withTexts = (matches: Match[]) =>
    input.exhaustive === true ? attachTexts(matches, input.readText) : matches;

  if (event.event === 'SessionStart') {
    const skipped: Skip[] = [];
    const matches: Match[] = [];
    for (const n of ordinals) {
      const lesson = cursor.at(n);
      if (lesson === undefined) continue;
      if (!stackAllows(lesson.stack, head.stack))
        skipped.push({ id: lesson.id, reason: 'stack-mismatch', matchedBy: ['startup'] });
      else if (!agentAllows(lesson, event))
        skipped.push({ id: lesson.id, reason: 'agent-mismatch', matchedBy: ['startup'] });
      else matches.push({ lesson, matchedBy: ['startup'], strength: 0 });
    }
    const ranked = withTexts(rankMatches(matches));
    const plan = planInjection(ranked, input.state, {
      settings,
      overhead: headerOverhead(event.event),
      allowDeny: false,
      maxLessons: settings.startupLessons,
      maxChars: settings.startupChars,
      textOf,
      skills: head.skills,
    });
    plan.skipped.push(...skipped);
    return {
      decision: formatDecision(event.event, plan, LESSON_PROTOCOL),
      candidates: matches.length + skipped.length,
      read: cursor.read,
      matches: ranked,
      texts,
    };
  }

  const matcher = createMatcher(event, { repoPaths: input.repoPaths, stack: head.stack });
  const skipped: Skip[] = [];
  let candidates = 0;
  const seenIds = new Set<string>();
  const match = (lesson: ManifestLesson): Match | undefined => {
    if (seenIds.has(lesson.id)) return undefined;
    seenIds.add(lesson.id);
    candidates += 1;
    const result = matcher(lesson);
    if (result?.skip) skipped.push(result.skip);
    return result?.match;
  };
  const looked: Match[] = [];
  const options = {
    settings,
    overhead: headerOverhead(event.event),
    allowDeny: event.event === 'PreToolUse' && event.phase !== 'after' && event.phase !== 'outcome',
    allowAdvice: event.phase !== 'before',
    guardsRanBefore: event.phase === 'after' || event.phase === 'outcome',
    command: event.command,
    textOf,
    skills: head.skills,
  };

  // A call whose prompt is matched as one (Agent, Task) may deny and is rare: match everything.
  if (
    input.exhaustive === true ||
    (isPromptEvent(event) && event.event !== 'UserPromptSubmit') ||
    (event.event !== 'PreToolUse' && event.event !== 'UserPromptSubmit')
  ) {
    const matches: Match[] = [];
    for (const n of ordinals) {
      const lesson = cursor.at(n);
      const found = lesson === undefined ? undefined : match(lesson);
      if (found !== undefined) matches.push(found);
    }
    const ranked = withTexts(rankMatches(matches));
    const plan = planInjection(ranked, input.state, options);
    plan.skipped.push(...skipped);
    return {
      decision: formatDecision(event.event, plan),
      candidates,
      read: cursor.read,
      matches: ranked,
      texts,
    };
  }

  const at = (n: number) => cursor.at(n);
  const stream =
    event.event === 'UserPromptSubmit'
      ? promptStream(ordinals, head, at, match)
      : toolCallStream(ordinals, head, settings.guards, at, match);
  const record = (matches: Iterable<Match>) =>
    (function* () {
      for (const m of matches) {
        looked.push(m);
        yield m;
      }
    })();
  const plan = planInjection(record(stream), input.state, { ...options, stopWhenFull: true });
  plan.skipped.push(...skipped);
  return {
    decision: formatDecision(event.event, plan),
    candidates,
    read: cursor.read,
    matches: looked,
    texts,
  };
}

/** The text that opens a session's or subagent's context: the #lesson protocol. */
export function preambleFor(event: HookEvent['event']): string | undefined {
  return event === 'SessionStart' || event === 'SubagentStart' ? LESSON_PROTOCOL : undefined;
}

/**
 * Keeps the lessons this process managed to claim (its claim came first in the session's file); the
 * others were taken by a parallel hook in the same context and become `already-shown`. A
 * checkpoint's denial is claimed the same way: one that cannot be claimed (a parallel hook of the
 * session claimed it first, or the session state failed) does not deny, so a checkpoint never
 * denies twice nor without a record. Advice the plan dropped for the denied call stays dropped.
 */
export function applyClaims(
  plan: InjectionPlan,
  claim: (wanted: readonly { id: string; priority: number }[]) => ReadonlySet<string>,
): InjectionPlan {
  // a checkpoint's denial is claimed at priority 0: a compaction never forgets it, so it never
  // denies a second time
  const checkpoints = plan.denied.filter((item) => item.kind === 'checkpoint');
  const got = claim([
    ...checkpoints.map((item) => ({ id: item.id, priority: 0 })),
    ...plan.included.map((item) => ({ id: item.id, priority: item.priority })),
  ]);
  const included = [];
  const skipped = [...plan.skipped];
  const denied = plan.denied.filter((item) => {
    if (item.kind !== 'checkpoint' || got.has(item.id)) return true;
    skipped.push({ id: item.id, reason: 'already-shown', matchedBy: item.matchedBy });
    return false;
  });
  for (const item of plan.included) {
    if (got.has(item.id)) included.push(item);
    else if (item.skill === undefined)
      skipped.push({ id: item.id, reason: 'already-shown', matchedBy: item.matchedBy });
    else {
      // a parallel hook pointed at the same skill: its lessons are covered
      for (const id of item.skill.lessons)
        skipped.push({ id, reason: 'in-skill', matchedBy: item.matchedBy, skill: item.skill.name });
    }
  }
  return { ...plan, included, denied, skipped };
}

/**
 * What came of each injection of one session, judged by its delivery form (DESIGN.md §4, issue 17):
 * - a **guard** by the call it denied and the corrected attempts after it;
 * - **before-call** context (prompt, session start, MCP) by the calls that followed it;
 * - **after-call** context (PreToolUse `additionalContext`, Gemini AfterTool) by the NEXT attempts
 *   of the same kind, never by the call it was attached to: that call had already run.
 *
 * A call is "the lesson's mistake" when the lesson's trigger matches it and it failed with the
 * class of error of the lesson's `mistake`. Verdicts: `repeated` (the mistake came back where the
 * lesson could have stopped it), `prevented` (the mistake was in play and did not come back: the
 * next attempt succeeded), `noise` (nothing of its kind went wrong, or nothing followed to judge
 * by), `unlinked` (the call it preceded is not in the transcript). While a session may still grow
 * (`settled` false), an injection the transcript cannot decide yet stays unjudged. Pure.
 */
import { nextAttempt } from '../outcome/call-outcome.js';
import type { ReplayCall } from '../outcome/call-outcome.js';
import { sameErrorClass } from '../outcome/error-class.js';
import type { ErrorClass } from '../outcome/error-class.js';
import type { Injection } from './audit-injections.js';
import { linkInjection } from './link-injection.js';
import type { OutcomeRecord, OutcomeVerdict } from './outcome-record.js';

export type LessonFacts = {
  /** The class of the lesson's mistake (`mistakeClass`); undefined: any failure is it. */
  mistake: ErrorClass | undefined;
  /** Whether the lesson's trigger matches a call (the hook's own matcher). */
  triggers(call: ReplayCall): boolean;
};

export type SessionView = {
  calls: readonly ReplayCall[];
  /** False while the transcript may still grow: inconclusive injections wait for a later scan. */
  settled: boolean;
};

export type Judged = Omit<OutcomeRecord, 'judgedAt'>;

type Decision = { verdict: OutcomeVerdict; evidence?: ReplayCall } | 'pending';

function isMistake(facts: LessonFacts, call: ReplayCall): boolean {
  return (
    call.outcome === 'failed' &&
    call.errorClass !== undefined &&
    facts.triggers(call) &&
    sameErrorClass(facts.mistake, call.errorClass)
  );
}

/**
 * Walks attempts in order: the first that is the mistake repeats it; the first that succeeds ends
 * it (`prevented` when the mistake was in play, else `noise`); other failures are passed over.
 */
function walk(
  attempts: Iterable<ReplayCall>,
  facts: LessonFacts,
  inPlay: boolean,
  settled: boolean,
  skip: (call: ReplayCall) => boolean,
): Decision {
  for (const call of attempts) {
    if (skip(call)) continue;
    if (isMistake(facts, call)) return { verdict: 'repeated', evidence: call };
    if (call.outcome === 'ok') return { verdict: inPlay ? 'prevented' : 'noise', evidence: call };
    if (call.outcome === 'no-result' && !settled) return 'pending';
  }
  return settled ? { verdict: 'noise' } : 'pending';
}

/** The chain of next attempts of the same kind after index `from`. */
function* attemptsAfter(calls: readonly ReplayCall[], from: number): Generator<ReplayCall> {
  let current = calls[from];
  let index = from;
  while (current !== undefined) {
    const next = nextAttempt(calls, index);
    if (next === undefined) return;
    yield next;
    index = calls.indexOf(next, index + 1);
    current = next;
  }
}

function decide(
  injection: Injection,
  index: number,
  session: SessionView,
  facts: LessonFacts,
  deniedByIt: ReadonlySet<ReplayCall>,
): Decision {
  const { calls, settled } = session;
  const skip = (call: ReplayCall) => deniedByIt.has(call);
  if (injection.form === 'before-call') {
    const inPlay = calls.slice(0, index).some((call) => isMistake(facts, call));
    const following = calls.slice(index).filter((call) => facts.triggers(call));
    return walk(following, facts, inPlay, settled, skip);
  }
  const attached = calls[index] as ReplayCall;
  // a guard's denied call was about to make the mistake; after-call context arrived with its result
  const inPlay = injection.form === 'guard' || injection.form === 'checkpoint' || isMistake(facts, attached);
  return walk(attemptsAfter(calls, index), facts, inPlay, settled, skip);
}

export type SessionJudgement = {
  judged: Judged[];
  /** Injections the transcript cannot decide yet (the session is still going). */
  pending: Injection[];
};

/**
 * Judges the injections of one session. `factsOf` gives the lesson's mistake and trigger, or
 * undefined for a lesson no longer in the store (its injections are left unjudged).
 */
export function judgeSession(
  injections: readonly Injection[],
  session: SessionView,
  factsOf: (lesson: string) => LessonFacts | undefined,
): SessionJudgement & { unknownLessons: Injection[] } {
  const links = injections.map((injection) => ({ injection, link: linkInjection(injection, session.calls) }));
  // a guard that denied the retry too prevented it again: the retry is not a repeat
  const denied = new Map<string, Set<ReplayCall>>();
  for (const { injection, link } of links) {
    if (injection.form !== 'guard' || link.index === undefined) continue;
    const set = denied.get(injection.lesson) ?? new Set<ReplayCall>();
    set.add(session.calls[link.index] as ReplayCall);
    denied.set(injection.lesson, set);
  }
  const out: SessionJudgement & { unknownLessons: Injection[] } = {
    judged: [],
    pending: [],
    unknownLessons: [],
  };
  for (const { injection, link } of links) {
    const base = {
      injection: injection.id,
      lesson: injection.lesson,
      session: injection.session,
      injectedAt: injection.time,
      form: injection.form,
    };
    const facts = factsOf(injection.lesson);
    if (facts === undefined) {
      out.unknownLessons.push(injection);
      continue;
    }
    if (link.index === undefined) {
      if (!session.settled) out.pending.push(injection);
      else if (injection.form === 'before-call')
        out.judged.push({ ...base, verdict: 'noise', linkedBy: 'none' });
      else out.judged.push({ ...base, verdict: 'unlinked', linkedBy: 'none' });
      continue;
    }
    const decision = decide(injection, link.index, session, facts, denied.get(injection.lesson) ?? new Set());
    if (decision === 'pending') {
      out.pending.push(injection);
      continue;
    }
    const evidence = decision.evidence;
    out.judged.push({
      ...base,
      verdict: decision.verdict,
      linkedBy: link.by,
      ...(evidence === undefined ? {} : { evidence: { file: evidence.file, line: evidence.line } }),
    });
  }
  return out;
}

/**
 * `lore replay --as-of`: from which call of each session a lesson existed. A lesson exists from
 * its `createdAt`, or from the failure it was captured from when that is earlier: the first call
 * of one of its `sourceSessions` (when the replay holds it) that failed with its mistake, so a
 * lesson captured early in a history is measured on the repeats later in it. Pure.
 */
import type { ReplayCall, SessionCalls } from '../outcome/call-outcome.js';
import { sameErrorClass } from '../outcome/error-class.js';
import type { ErrorClass } from '../outcome/error-class.js';

export type LessonBirth = {
  id: string;
  createdAt: string;
  sourceSessions: readonly string[];
  mistakeClass: ErrorClass | undefined;
};

/** Where a lesson came to exist: a time, and when it was born in a replayed session, the call after its failure there. */
export type Birth = { time: string; session?: string; index?: number };

/** Each call's time, carried forward from the last call that had one (undefined before the first). */
export function carriedTimes(calls: readonly ReplayCall[]): (string | undefined)[] {
  let last: string | undefined;
  return calls.map((call) => {
    if (call.time !== undefined) last = call.time;
    return last;
  });
}

/** Whether a failed call is a lesson's mistake: its trigger matches the call and the error is of its class. */
export function isMistake(
  call: ReplayCall,
  matched: ReadonlySet<string> | undefined,
  lesson: string,
  mistakeClass: ErrorClass | undefined,
): boolean {
  return (
    call.outcome === 'failed' &&
    matched?.has(lesson) === true &&
    sameErrorClass(mistakeClass, call.errorClass ?? 'other')
  );
}

/**
 * The birth of each lesson. `matchesOf(session)` gives the lessons whose trigger matches each call
 * of a source session (computed only for those sessions).
 */
export function lessonBirths(
  lessons: readonly LessonBirth[],
  sessions: readonly SessionCalls[],
  matchesOf: (session: SessionCalls) => ReadonlyMap<number, ReadonlySet<string>>,
): Map<string, Birth> {
  const byId = new Map(sessions.map((session) => [session.session, session]));
  const memo = new Map<string, ReadonlyMap<number, ReadonlySet<string>>>();
  const births = new Map<string, Birth>();
  for (const lesson of lessons) {
    let birth: Birth = { time: lesson.createdAt };
    for (const ref of lesson.sourceSessions) {
      const session = byId.get(ref);
      if (session === undefined) continue;
      let matches = memo.get(ref);
      if (matches === undefined) {
        matches = matchesOf(session);
        memo.set(ref, matches);
      }
      const times = carriedTimes(session.calls);
      const failed = session.calls.findIndex((call, i) =>
        isMistake(call, matches.get(i), lesson.id, lesson.mistakeClass),
      );
      const index = failed >= 0 ? failed + 1 : session.calls.length;
      const time = times[Math.min(index, session.calls.length) - 1] ?? times.find((t) => t !== undefined);
      if (time !== undefined && time < birth.time) birth = { time, session: ref, index };
      else if (time === undefined && birth.session === undefined) birth = { ...birth, session: ref, index };
    }
    births.set(lesson.id, birth);
  }
  return births;
}

/**
 * The first call index of `session` at which a lesson born at `birth` existed: after its failure
 * in its own source session; elsewhere the first call later than its birth (a session without
 * any time never sees it: `Infinity`).
 */
export function existsFromIndex(
  session: SessionCalls,
  birth: Birth | undefined,
  times?: readonly (string | undefined)[],
): number {
  if (birth === undefined) return 0;
  if (birth.session === session.session && birth.index !== undefined) return birth.index;
  const carried = times ?? carriedTimes(session.calls);
  const index = carried.findIndex((time) => time !== undefined && time > birth.time);
  return index < 0 ? Number.POSITIVE_INFINITY : index;
}

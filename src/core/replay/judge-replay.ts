/**
 * Judging a replay, per lesson and delivery form (DESIGN.md §3, issue #17):
 * - a **fire** is one delivery (a denial, or context on a call, a prompt or a session start);
 * - a **hit** is a fire on a call that failed with the lesson's mistake (its trigger matches the
 *   call and the error is of the class of its `mistake`); before-call context hits when a call of
 *   its turn failed so;
 * - a **miss** is a call that failed with the lesson's mistake where the lesson fired neither on it
 *   nor before it in that session (with `--as-of`, only the calls after the lesson existed);
 * - **noise** is a fire where nothing of the kind went wrong: not on that call, nor on the next
 *   attempt of the same kind (before-call context: not in its turn);
 * - **prevented** counts the failing calls with its mistake the delivery could have stopped: a
 *   guard the denied call; a checkpoint the denied call and the repeats after it (it was read
 *   before them); before-call context every later one it reached; after-call context only the
 *   repeats after the call it came with (that call had already run).
 * Pure: the replayed sessions in, the figures out.
 */
import { nextAttempt } from '../outcome/call-outcome.js';
import type { ReplayCall } from '../outcome/call-outcome.js';
import type { ErrorClass } from '../outcome/error-class.js';
import { isMistake } from './lesson-existence.js';
import type { Injection, SessionReplay } from './replay-calls.js';
import { DELIVERY_FORMS, emptyFigures, precisionOf } from './replay-report.js';
import type { DeliveryForm, FormFigures, LessonReplay } from './replay-report.js';

export type JudgedLesson = {
  id: string;
  summary: string;
  type: string;
  toolOnly: boolean;
  /** It waits for its error (`errors`): it speaks only after a call that printed one. */
  waits?: boolean;
  mistakeClass: ErrorClass | undefined;
};

/** The calls behind a lesson's figures, for the suggestions (not part of the report). */
export type LessonEvidence = { hits: ReplayCall[]; noise: ReplayCall[]; repeatsAfterAdvice: number };

export type JudgeOptions = {
  asOf: boolean;
  /** `--as-of`: the first call index of a session at which a lesson existed. */
  existsFrom?: (session: SessionReplay['session'], lesson: string) => number;
};

export type Judged = { lessons: LessonReplay[]; evidence: Map<string, LessonEvidence> };

const ADVISORY = new Set<DeliveryForm>(['before-call', 'after-call']);

function indexOfCall(calls: readonly ReplayCall[], call: ReplayCall | undefined): number {
  return call === undefined ? -1 : calls.indexOf(call);
}

/** Where an injection reaches a failing call at index `m` in time to act on it. */
function reaches(injection: Injection, m: number): boolean {
  return injection.at <= m;
}

/** The failing calls with its mistake an injection could have stopped (indices). */
function preventedBy(injection: Injection, mistakes: readonly number[]): number[] {
  switch (injection.form) {
    case 'guard':
      return mistakes.filter((m) => m === injection.at);
    case 'checkpoint':
    case 'before-call':
      return mistakes.filter((m) => m >= injection.at);
    case 'after-call':
      return mistakes.filter((m) => m > injection.at);
  }
}

type Tally = {
  byForm: Map<DeliveryForm, FormFigures>;
  misses: number;
  prevented: number;
  recurrences: number;
  asCheckpoint: { denials: number; prevented: number };
  evidence: LessonEvidence;
};

export function judgeReplay(
  sessions: readonly SessionReplay[],
  lessons: readonly JudgedLesson[],
  options: JudgeOptions,
): Judged {
  const tallies = new Map<string, Tally>();
  for (const lesson of lessons)
    tallies.set(lesson.id, {
      byForm: new Map(),
      misses: 0,
      prevented: 0,
      recurrences: 0,
      asCheckpoint: { denials: 0, prevented: 0 },
      evidence: { hits: [], noise: [], repeatsAfterAdvice: 0 },
    });
  const formsFired = new Map<string, Set<DeliveryForm>>();
  for (const replay of sessions)
    for (const injection of replay.injections) {
      const set = formsFired.get(injection.lesson) ?? new Set();
      set.add(injection.form);
      formsFired.set(injection.lesson, set);
    }

  for (const replay of sessions) {
    const calls = replay.session.calls;
    const byLesson = new Map<string, Injection[]>();
    for (const injection of replay.injections) {
      const list = byLesson.get(injection.lesson) ?? [];
      list.push(injection);
      byLesson.set(injection.lesson, list);
    }
    for (const lesson of lessons) {
      const tally = tallies.get(lesson.id) as Tally;
      const mistakes: number[] = [];
      const matchedAt: number[] = [];
      const matchedBeforeAt: number[] = [];
      calls.forEach((call, i) => {
        const matched = replay.matched.get(i);
        if (matched?.has(lesson.id) === true) matchedAt.push(i);
        if ((replay.matchedBefore ?? replay.matched).get(i)?.has(lesson.id) === true) matchedBeforeAt.push(i);
        if (isMistake(call, matched, lesson.id, lesson.mistakeClass)) mistakes.push(i);
      });
      const mine = byLesson.get(lesson.id) ?? [];
      if (mistakes.length === 0 && mine.length === 0 && matchedBeforeAt.length === 0) continue;
      const isMistakeAt = new Set(mistakes);
      const prevented = new Set<number>();
      const preventedByForm = new Map<DeliveryForm, Set<number>>();
      const adviceRepeats = new Set<number>();
      for (const injection of mine) {
        const figures = tally.byForm.get(injection.form) ?? emptyFigures();
        tally.byForm.set(injection.form, figures);
        figures.fires += 1;
        if (injection.form === 'before-call') {
          const turn = mistakes.filter((m) => m >= injection.at && m < injection.until);
          if (turn.length > 0) {
            figures.hits += 1;
            tally.evidence.hits.push(calls[turn[0] as number] as ReplayCall);
          } else {
            figures.noise += 1;
            const call = calls[injection.at];
            if (call !== undefined) tally.evidence.noise.push(call);
          }
        } else {
          const call = calls[injection.at] as ReplayCall;
          const next = indexOfCall(calls, nextAttempt(calls, injection.at));
          if (isMistakeAt.has(injection.at)) {
            figures.hits += 1;
            tally.evidence.hits.push(call);
          } else if (!(next >= 0 && isMistakeAt.has(next))) {
            figures.noise += 1;
            tally.evidence.noise.push(call);
          }
        }
        const stopped = preventedBy(injection, mistakes);
        const formSet = preventedByForm.get(injection.form) ?? new Set();
        preventedByForm.set(injection.form, formSet);
        for (const m of stopped) {
          formSet.add(m);
          prevented.add(m);
          if (ADVISORY.has(injection.form)) adviceRepeats.add(m);
        }
      }
      for (const [form, set] of preventedByForm)
        (tally.byForm.get(form) as FormFigures).prevented += set.size;
      tally.prevented += prevented.size;
      tally.evidence.repeatsAfterAdvice += adviceRepeats.size;
      const from = options.existsFrom?.(replay.session, lesson.id) ?? 0;
      // as of its creation, a lesson answers only for the failures after it existed
      for (const m of mistakes) {
        if (m < from) continue;
        if (!mine.some((injection) => reaches(injection, m))) tally.misses += 1;
        for (const form of formsFired.get(lesson.id) ?? []) {
          if (!mine.some((injection) => injection.form === form && reaches(injection, m))) {
            const figures = tally.byForm.get(form) ?? emptyFigures();
            tally.byForm.set(form, figures);
            figures.misses += 1;
          }
        }
      }
      if (options.asOf) tally.recurrences += mistakes.filter((m) => m >= from).length;
      if (lesson.type !== 'guard' && lesson.type !== 'checkpoint') {
        // as a checkpoint it would act before the call: on its trigger, not waiting for an error
        const first = matchedBeforeAt.find((i) => i >= from);
        if (first !== undefined) {
          tally.asCheckpoint.denials += 1;
          tally.asCheckpoint.prevented += mistakes.filter((m) => m >= first).length;
        }
      }
    }
  }

  const out: LessonReplay[] = lessons.map((lesson) => {
    const tally = tallies.get(lesson.id) as Tally;
    const byForm: Partial<Record<DeliveryForm, FormFigures>> = {};
    for (const form of DELIVERY_FORMS) {
      const figures = tally.byForm.get(form);
      if (figures !== undefined) byForm[form] = figures;
    }
    const forms = Object.values(byForm);
    const sum = (key: keyof FormFigures) => forms.reduce((total, f) => total + f[key], 0);
    const fires = sum('fires');
    const hits = sum('hits');
    return {
      id: lesson.id,
      summary: lesson.summary,
      type: lesson.type,
      toolOnly: lesson.toolOnly,
      ...(lesson.waits === true ? { waits: true } : {}),
      fires,
      hits,
      misses: tally.misses,
      noise: sum('noise'),
      prevented: tally.prevented,
      precision: precisionOf({ fires, hits }),
      byForm,
      recurrences: tally.recurrences,
      ...(lesson.type === 'guard' || lesson.type === 'checkpoint'
        ? {}
        : { asCheckpoint: tally.asCheckpoint }),
    };
  });
  return { lessons: out, evidence: new Map([...tallies].map(([id, tally]) => [id, tally.evidence])) };
}

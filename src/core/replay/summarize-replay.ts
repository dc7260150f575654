/**
 * The `ReplayReport` of a replay: the overall figures (calls, calls with an injection, injections
 * and bytes per 100 calls, denials, what was missing or out of order in the transcripts), each
 * lesson's judged figures, sorted with the most telling first, and the suggestions. Pure.
 */
import type { CallCounts } from '../outcome/call-outcome.js';
import { judgeReplay } from './judge-replay.js';
import type { JudgedLesson, JudgeOptions } from './judge-replay.js';
import type { SessionReplay } from './replay-calls.js';
import type { LessonReplay, ReplayReport } from './replay-report.js';
import { suggestReplay } from './suggest-replay.js';

export type SummaryInput = {
  at: string;
  options: ReplayReport['options'];
  sessions: readonly SessionReplay[];
  /** Every lesson of the manifest that is judged (all, or those `--lesson` names). */
  lessons: readonly JudgedLesson[];
  files: number;
  brokenLines: number;
  calls: Pick<CallCounts, 'missingResults' | 'orphanResults' | 'clockBackwards'>;
  existsFrom?: JudgeOptions['existsFrom'];
};

const per100 = (value: number, calls: number) =>
  calls === 0 ? 0 : Math.round((value / calls) * 10000) / 100;

/** Most fires first (the lessons that cost the most context), then the most misses, then id. */
export function compareLessons(a: LessonReplay, b: LessonReplay): number {
  return b.fires - a.fires || b.misses - a.misses || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

export function summarizeReplay(input: SummaryInput): ReplayReport {
  const sum = (pick: (s: SessionReplay) => number) => input.sessions.reduce((total, s) => total + pick(s), 0);
  const calls = sum((s) => s.session.calls.length);
  const injections = sum((s) => s.injections.length);
  const bytes = sum((s) => s.bytes);
  const judged = judgeReplay(input.sessions, input.lessons, {
    asOf: input.options.asOf,
    ...(input.existsFrom === undefined ? {} : { existsFrom: input.existsFrom }),
  });
  const lessons = [...judged.lessons].sort(compareLessons);
  return {
    version: 1,
    at: input.at,
    options: input.options,
    counts: {
      files: input.files,
      sessions: input.sessions.length,
      brokenLines: input.brokenLines,
      missingResults: input.calls.missingResults,
      orphanResults: input.calls.orphanResults,
      clockBackwards: input.calls.clockBackwards,
      unknownTools: sum((s) => s.unknownTools),
      subagentCalls: sum((s) => s.subagentCalls),
    },
    calls,
    callsWithInjection: sum((s) => s.callsWithInjection),
    injections,
    bytes,
    injectionsPer100Calls: per100(injections, calls),
    bytesPer100Calls: per100(bytes, calls),
    guardDenials: sum((s) => s.guardDenials),
    checkpointDenials: sum((s) => s.checkpointDenials),
    lessons,
    suggestions: suggestReplay(lessons, judged.evidence, calls),
  };
}

/**
 * What lore measured about one lesson, for `lore show` and the lesson page: its figures in the last
 * replay (fires, hits, misses, noise, prevented, precision, by delivery form, as a checkpoint) and
 * what outcome-linked feedback concluded about its real injections (prevented, repeated, noise,
 * unlinked; the automatic helpful / not-helpful it wrote to `feedback.jsonl`).
 */
import type { Problem } from '../../core/errors.js';
import { summarizeLessonOutcomes } from '../../core/analytics/summarize-outcomes.js';
import type { LessonOutcomes } from '../../core/analytics/summarize-outcomes.js';
import type { LessonReplay, ReplaySuggestion } from '../../core/replay/replay-report.js';
import { readOutcomes } from '../analytics/read-outcomes.js';
import { readLastReplay } from '../replay/read-last-replay.js';
import type { Workspace } from '../workspace/workspace.js';
import { readFeedback } from './feedback.js';
import type { ResolvedLesson } from './lesson-writes.js';

/** The lesson's line of the last replay, with when that replay ran and what it suggests for it. */
export type LessonReplayFigures = LessonReplay & {
  /** When the replay ran (ISO). */
  at: string;
  /** Whether it ran with `--as-of` (lessons fire only after they existed). */
  asOf: boolean;
  /** Calls the replay ran through the hook's pipeline. */
  calls: number;
  suggestions: ReplaySuggestion[];
};

export type LessonOutcomeFigures = LessonOutcomes & {
  /** The automatic reports outcome feedback wrote to the lesson's feedback.jsonl (`source: outcome`). */
  feedback: { helpful: number; notHelpful: number };
};

export type LessonMeasures = {
  /** Null when there is no replay yet, or the last one did not include this lesson. */
  replay: LessonReplayFigures | null;
  /** When the last replay ran, whether or not it included this lesson; null before the first. */
  lastReplayAt: string | null;
  /** Null when no injection of the lesson has been judged and no outcome feedback was written. */
  outcomes: LessonOutcomeFigures | null;
  problems: Problem[];
};

export function readLessonMeasures(
  ws: Workspace,
  target: Pick<ResolvedLesson, 'tier' | 'id'>,
): LessonMeasures {
  const { last, problems } = readLastReplay(ws);
  const outcomesRead = readOutcomes(ws);
  const line = last?.report.lessons.find((lesson) => lesson.id === target.id);
  const replay =
    last && line
      ? {
          ...line,
          at: last.report.at,
          asOf: last.report.options.asOf,
          calls: last.report.calls,
          suggestions: last.report.suggestions.filter((s) => s.lesson === target.id),
        }
      : null;
  // the feedback source is a plain string on disk: 'outcome' is compared as one, whatever the union holds
  const automatic = readFeedback(ws, target).filter(
    (item) => (item.source as string | undefined) === 'outcome',
  );
  const judged = summarizeLessonOutcomes(outcomesRead.records.filter((r) => r.lesson === target.id)).get(
    target.id,
  );
  const feedback = {
    helpful: automatic.filter((item) => item.helpful).length,
    notHelpful: automatic.filter((item) => !item.helpful).length,
  };
  const outcomes =
    judged === undefined && automatic.length === 0
      ? null
      : {
          ...(judged ?? {
            prevented: 0,
            repeated: 0,
            noise: 0,
            unlinked: 0,
            total: 0,
            byForm: {},
            last: null,
          }),
          feedback,
        };
  return {
    replay,
    lastReplayAt: last?.report.at ?? null,
    outcomes,
    problems: [...problems, ...outcomesRead.problems],
  };
}

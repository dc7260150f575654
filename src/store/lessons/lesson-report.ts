/**
 * Everything known about one lesson, for `lore show` and the MCP tool `lore_show`: the record,
 * its votes, the feedback summary (the confidence in the record already carries it), and how often
 * it reached an agent (the audit log).
 */
import type { Lesson } from '../../core/lesson/schema.js';
import { summarizeVotes } from '../../core/rank/votes.js';
import type { Vote, VoteSummary } from '../../core/rank/votes.js';
import type { Problem } from '../../core/errors.js';
import { readFeedback, summarizeFeedback } from './feedback.js';
import type { FeedbackSummary } from './feedback.js';
import type { ResolvedLesson } from './lesson-writes.js';
import { NO_USAGE, readLessonUsage } from './lesson-usage.js';
import type { Workspace } from '../workspace/workspace.js';

export type LessonReport = {
  lesson: Lesson;
  file: string;
  votes: VoteSummary & { votes: Vote[] };
  feedback: FeedbackSummary;
  timesInjected: number;
  lastInjectedAt: string | null;
  problems: Problem[];
};

export function readLessonReport(ws: Workspace, target: ResolvedLesson, nowMs: number): LessonReport {
  const { votes, problems } = ws.store(target.tier).readVotes(target.id);
  const usage = readLessonUsage(ws.cacheDir).get(target.id) ?? NO_USAGE;
  return {
    lesson: target.lesson,
    file: ws.displayPath(target.file),
    votes: { ...summarizeVotes(votes, nowMs, ws.halfLifeDays), votes },
    feedback: summarizeFeedback(readFeedback(ws, target)),
    timesInjected: usage.timesInjected,
    lastInjectedAt: usage.lastInjectedAt,
    problems,
  };
}

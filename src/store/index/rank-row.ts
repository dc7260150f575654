/** An index row as list and search rank it: the one rank key, and the answer it becomes. */
import type { Lesson } from '../../core/lesson/schema.js';
import type { Rankable } from '../../core/rank/rank-results.js';
import { voteScore } from '../../core/rank/votes.js';
import type { IndexedLesson } from './index-types.js';

export type LessonRow = {
  rowid: number;
  record: string;
  file: string;
  times: string | null;
  last: string | null;
};

/** What ranking reads of a row besides the record. */
export type RankRow = LessonRow & { id: string; priority: number; confidence: number; updatedAt: string };

/** The rank columns of `lessons l LEFT JOIN votes v`, named as `RankRow` names them. */
export const RANK_COLUMNS_SQL = `l.rowid AS rowid, l.file AS file, v.times AS times, v.last AS last, l.id AS id,
  l.priority AS priority, l.confidence AS confidence, l.updated_at AS updatedAt`;

/**
 * A row's key in the one ordering (`relevance` 0 for a list, BM25 for a search), with the decayed
 * score of its votes.
 */
export function rankRow(
  row: Omit<RankRow, 'record' | 'rowid' | 'file' | 'last'>,
  relevance: number,
  nowMs: number,
  halfLifeDays: number,
): { voteScore: number; key: Rankable } {
  const times = row.times ? (JSON.parse(row.times) as string[]) : [];
  const score = voteScore(times, nowMs, halfLifeDays);
  return {
    voteScore: score,
    key: {
      id: row.id,
      relevance,
      voteScore: score,
      priority: row.priority,
      confidence: row.confidence,
      updatedAt: row.updatedAt,
    },
  };
}

export function toIndexed(row: LessonRow): IndexedLesson {
  const times = row.times ? (JSON.parse(row.times) as string[]) : [];
  return {
    lesson: JSON.parse(row.record) as Lesson,
    file: row.file,
    votes: { count: times.length, lastVotedAt: row.last, times },
  };
}

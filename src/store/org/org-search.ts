/**
 * Full-text search over the organisation's lessons: the generated `tsvector` column and its GIN
 * index. The same rules as the local index where PostgreSQL allows: the query's words (stop
 * words dropped, as `searchWords` does) joined with OR, fields weighted summary > tags and scope >
 * structured fields > body, then votes, priority, confidence, most recent, id. Where it differs
 * (README "Organisation tier"): PostgreSQL ranks by cover density (`ts_rank_cd`) instead of BM25,
 * stems English words (the local index does not), counts votes without the half-life decay, and
 * tags and scope share one weight.
 */
import { searchWords } from '../../core/search/fts-query.js';
import type { OrgDb } from './org-db.js';
import { LESSON_COLUMNS, toOrgLesson } from './org-lessons.js';
import type { LessonRow, LessonState, OrgLesson } from './org-lessons.js';

/** D, C, B, A: body 1, structured 2, tags and scope 4, summary 8 (the local BM25 weights, over 8). */
export const RANK_WEIGHTS = '{0.125, 0.25, 0.5, 1.0}';

export type OrgSearchHit = { score: number; lesson: OrgLesson };

/** `a | b | c` for to_tsquery: the words are letters and digits only, so nothing needs quoting. */
export function orgTsQuery(query: string): string | undefined {
  const words = searchWords(query);
  return words.length === 0 ? undefined : words.join(' | ');
}

export async function searchOrgLessons(
  db: OrgDb,
  orgId: number,
  query: string,
  options: { limit: number; state?: LessonState; project?: string },
): Promise<OrgSearchHit[]> {
  const tsQuery = orgTsQuery(query);
  if (tsQuery === undefined) return [];
  const rows = await db.query<LessonRow & { score: number; votes: string | number }>(
    `WITH q AS (SELECT to_tsquery('english', $2) AS q)
     SELECT ${LESSON_COLUMNS}, ts_rank_cd($5::real[], l.search, q.q) AS score,
       (SELECT count(*) FROM votes v WHERE v.org_id = l.org_id AND v.lesson_id = l.id) AS votes
     FROM lessons l CROSS JOIN q LEFT JOIN projects p ON p.id = l.project_id
     WHERE l.org_id = $1 AND l.search @@ q.q AND l.state = $3 AND (l.project_id IS NULL OR p.name = $4)
     ORDER BY round(ts_rank_cd($5::real[], l.search, q.q)::numeric, 6) DESC, votes DESC, l.priority DESC,
       l.confidence DESC, l.updated_at DESC, l.id
     LIMIT $6`,
    [orgId, tsQuery, options.state ?? 'accepted', options.project ?? null, RANK_WEIGHTS, options.limit],
  );
  return rows.map((row) => ({ score: Number(row.score), lesson: toOrgLesson(row, []) }));
}

/** `LessonIndex.search`: BM25 inside FTS5, then the one ordering, with the reasons each result matched. */
import type { Lesson } from '../../core/lesson/schema.js';
import { quantizeScore, rankBy } from '../../core/rank/rank-results.js';
import type { Rankable } from '../../core/rank/rank-results.js';
import { ftsOr, searchWords } from '../../core/search/fts-query.js';
import type { SqlDatabase } from '../sqlite/sqlite.js';
import { FTS_COLUMNS } from './index-schema.js';
import type { FieldWeights, SearchResult } from './index-types.js';
import { filterSql, matchDetails } from './list-filter.js';
import type { ListFilter } from './list-filter.js';
import { matchPathFilter } from './match-paths.js';
import { lessonTotal, wordRows } from './reader-memo.js';
import type { QueryContext } from './reader-memo.js';
import { RANK_COLUMNS_SQL, rankRow, toIndexed } from './rank-row.js';
import type { RankRow } from './rank-row.js';

type SearchFilter = ListFilter & { limit: number };

/** One search's SQL and JS filters, worked out once for every pool it scores. */
type SearchPlan = {
  ctx: QueryContext;
  filter: SearchFilter;
  where: string;
  params: (string | number)[];
  weightList: string;
  pathHits: Map<number, string[]> | undefined;
  nowMs: number;
  halfLifeDays: number;
};

type ScoredRow = RankRow & { score: number; keep: number };
type Candidate = { row: ScoredRow; matchedBy: string[]; voteScore: number; key: Rankable };

export function searchLessons(
  ctx: QueryContext,
  query: string,
  filter: SearchFilter,
  weights: FieldWeights,
  nowMs: number,
  halfLifeDays: number,
  contains?: (lessonGlob: string) => boolean,
): SearchResult[] {
  const words = searchWords(query);
  const full = ftsOr(words);
  if (full === undefined) return [];
  const params: (string | number)[] = [];
  const plan: SearchPlan = {
    ctx,
    filter,
    where: filterSql(filter, params),
    params,
    weightList: columnWeights(weights).join(', '),
    pathHits: filter.path === undefined ? undefined : matchPathFilter(ctx, filter.path, contains),
    nowMs,
    halfLifeDays,
  };

  // Words in at least half of the lessons get a BM25 IDF of zero (FTS5 floors it at 1e-6): they
  // cannot order results, only make FTS5 score most of the store. Leave them out while the other
  // words still find a full page; the lessons they alone match would rank last.
  const strong = strongWords(ctx, words);
  let fts = full;
  let candidates: Candidate[] | undefined;
  if (strong.length > 0 && strong.length < words.length) {
    fts = ftsOr(strong) as string;
    candidates = scoreCandidates(plan, fts);
    if (candidates.length < filter.limit) candidates = undefined;
  }
  if (candidates === undefined) {
    fts = full;
    candidates = scoreCandidates(plan, fts);
  }

  const top = rankBy(candidates, (candidate) => candidate.key)
    .slice(0, filter.limit)
    .map(({ row, matchedBy, voteScore, key }) => ({
      rowid: row.rowid,
      result: { ...toIndexed(row), relevance: key.relevance, voteScore, matchedBy },
    }));
  addTextReasons(ctx.db, fts, top);
  return top.map(({ result }) => result);
}

/** The words in fewer than half of the lessons (every word when there is only one). */
function strongWords(ctx: QueryContext, words: readonly string[]): readonly string[] {
  if (words.length <= 1) return words;
  const total = lessonTotal(ctx);
  const rows = wordRows(ctx, words, total);
  return words.filter((word) => (rows.get(word) ?? 0) * 2 < total);
}

/** Candidates in score order: ranked inside FTS5 first (BM25 only, no records), then joined. */
function scoreCandidates(plan: SearchPlan, fts: string): Candidate[] {
  const { ctx, filter, where, params, weightList, pathHits } = plan;
  // Tool and command filters act in JS after BM25, so with them the SQL must not cut the pool;
  // a path filter restricts the scored rows to the lessons its globs matched.
  const jsFilters = (filter.tools?.length ?? 0) > 0 || filter.command !== undefined;
  // With a path, only the lessons its globs matched are scored: `+rowid` keeps FTS5 walking its
  // matches (seeking each rowid would cost more) while SQLite skips bm25() for the rest.
  const pathIds = pathHits === undefined ? undefined : JSON.stringify([...pathHits.keys()]);
  let pool = jsFilters ? -1 : Math.max(filter.limit * 2, filter.limit + 20);
  for (;;) {
    const rows = ctx.db.all<ScoredRow>(
      `SELECT ${RANK_COLUMNS_SQL}, x.score AS score, ${where === '' ? '1' : `(${where})`} AS keep,
              l.record AS record
       FROM (SELECT rowid, bm25(lessons_fts, ${weightList}) AS score FROM lessons_fts
             WHERE lessons_fts MATCH ?${
               pathIds === undefined ? '' : ' AND +rowid IN (SELECT value FROM json_each(?))'
             }
             ORDER BY score LIMIT ?) x
       JOIN lessons l ON l.rowid = x.rowid
       LEFT JOIN votes v ON v.tier = l.tier AND v.id = l.id
       ORDER BY x.score`,
      ...params,
      fts,
      ...(pathIds === undefined ? [] : [pathIds]),
      pool,
    );
    const candidates: Candidate[] = [];
    for (const row of rows) {
      if (row.keep !== 1) continue;
      const matchedBy = matchDetails(() => JSON.parse(row.record) as Lesson, row.rowid, filter, pathHits);
      if (!matchedBy) continue;
      candidates.push({ row, matchedBy, ...rankRow(row, -row.score, plan.nowMs, plan.halfLifeDays) });
    }
    const last = rows[rows.length - 1];
    const boundary = candidates[filter.limit - 1];
    // Lessons below the cut score at most `last`; they cannot pass the limit-th result unless it
    // ties with them (then votes and priority decide): widen the pool and retry.
    const settled =
      pool < 0 ||
      rows.length < pool ||
      (boundary !== undefined &&
        last !== undefined &&
        quantizeScore(boundary.key.relevance) !== quantizeScore(-last.score));
    if (settled) return candidates;
    pool *= 4;
  }
}

function columnWeights(weights: FieldWeights): number[] {
  return FTS_COLUMNS.map((column) => {
    switch (column) {
      case 'summary':
        return weights.summary;
      case 'tags':
        return weights.tags;
      case 'structured':
        return weights.structured;
      case 'body':
        return weights.body;
      default:
        return weights.scope;
    }
  });
}

/**
 * `text:<field>` for every FTS column in which the query matched, found with highlight() in one
 * pass over the query's matches (`+rowid` keeps FTS5 from seeking each rowid, which costs more).
 */
function addTextReasons(
  db: SqlDatabase,
  fts: string,
  results: readonly { rowid: number; result: SearchResult }[],
): void {
  if (results.length === 0) return;
  const select = FTS_COLUMNS.map(
    (_, i) => `instr(highlight(lessons_fts, ${i}, char(1), char(2)), char(1)) > 0 AS c${i}`,
  ).join(', ');
  const rows = db.all<Record<string, number>>(
    `SELECT rowid AS rowid, ${select} FROM lessons_fts
     WHERE lessons_fts MATCH ? AND +rowid IN (SELECT value FROM json_each(?))`,
    fts,
    JSON.stringify(results.map(({ rowid }) => rowid)),
  );
  const byRowid = new Map(rows.map((row) => [row.rowid, row]));
  for (const { rowid, result } of results) {
    const row = byRowid.get(rowid);
    if (!row) continue;
    const text = FTS_COLUMNS.filter((_, i) => row[`c${i}`] === 1).map((column) => `text:${column}`);
    result.matchedBy = [...text, ...result.matchedBy];
  }
}

/**
 * How many lessons `searchLessons` would find with no limit, counted inside SQLite (no record
 * parsed, nothing ranked): exact for filters SQL holds whole (status, tier, tags), not for the
 * tool, command and path filters, which act in JS.
 */
export function countSearchMatches(ctx: QueryContext, query: string, filter: ListFilter): number {
  const full = ftsOr(searchWords(query));
  if (full === undefined) return 0;
  const params: (string | number)[] = [];
  const where = filterSql(filter, params);
  const row = ctx.db.get<{ n: number }>(
    `SELECT count(*) AS n FROM lessons l
     WHERE l.rowid IN (SELECT rowid FROM lessons_fts WHERE lessons_fts MATCH ?)${where === '' ? '' : ` AND (${where})`}`,
    full,
    ...params,
  );
  return row?.n ?? 0;
}

/** How many lessons wait for review, of every status (counted in SQLite, no record parsed). */
export function countNeedsReview(ctx: QueryContext): number {
  return ctx.db.get<{ n: number }>('SELECT count(*) AS n FROM lessons WHERE needs_review = 1')?.n ?? 0;
}

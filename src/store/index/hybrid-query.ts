/**
 * `lore search --hybrid` inside the index: the BM25 search (search-query.ts) over a wider pool,
 * the nearest lesson vectors (lesson-vectors.ts), the lessons only the vectors found read and
 * filtered like any other, then the blend (core/search/blend-hybrid.ts). `matchedBy` keeps the
 * `text:<field>` reasons and adds `semantic` for lessons among the nearest by meaning.
 */
import type { Lesson } from '../../core/lesson/schema.js';
import { blendHybrid } from '../../core/search/blend-hybrid.js';
import type { HybridCandidate } from '../../core/search/blend-hybrid.js';
import type { FieldWeights, SearchResult } from './index-types.js';
import { filterSql, matchDetails } from './list-filter.js';
import type { ListFilter } from './list-filter.js';
import { nearestLessons } from './lesson-vectors.js';
import { matchPaths } from './match-paths.js';
import type { QueryContext } from './reader-memo.js';
import { RANK_COLUMNS_SQL, rankRow, toIndexed } from './rank-row.js';
import type { RankRow } from './rank-row.js';
import { searchLessons } from './search-query.js';

export type HybridResult = SearchResult & { scores: { text: number; semantic: number } };

export type HybridQuery = {
  query: string;
  vector: Float32Array;
  filter: ListFilter & { limit: number };
  weights: FieldWeights;
  semanticWeight: number;
  /** Nearest vectors below this cosine similarity are noise, not a match. */
  minSimilarity: number;
  nowMs: number;
  halfLifeDays: number;
  /** Scan every vector instead of the ANN index (the benchmark's reference). */
  exact?: boolean;
};

const keyOf = (lesson: Pick<Lesson, 'tier' | 'id'>) => `${lesson.tier}/${lesson.id}`;

export function searchHybrid(ctx: QueryContext, q: HybridQuery): HybridResult[] {
  // twice the page from each signal: enough for the blend to reorder, small enough to stay fast
  const pool = Math.max(q.filter.limit * 2, 20);
  const lexical = searchLessons(
    ctx,
    q.query,
    { ...q.filter, limit: pool },
    q.weights,
    q.nowMs,
    q.halfLifeDays,
  );
  const nearest = nearestLessons(ctx.db, q.vector, pool, q.exact);
  const candidates = new Map<string, HybridCandidate<SearchResult>>();
  for (const result of lexical) {
    candidates.set(keyOf(result.lesson), {
      key: keyOf(result.lesson),
      item: result,
      rank: rankOf(result),
      text: result.relevance,
    });
  }
  const byRowid = new Map(
    nearest.filter((n) => n.similarity >= q.minSimilarity).map((n) => [n.rowid, n.similarity]),
  );
  for (const { rowid, result } of readFiltered(ctx, [...byRowid.keys()], q)) {
    const key = keyOf(result.lesson);
    const similarity = byRowid.get(rowid) as number;
    const known = candidates.get(key);
    if (known) known.semantic = similarity;
    else candidates.set(key, { key, item: result, rank: rankOf(result), semantic: similarity });
  }
  return blendHybrid([...candidates.values()], q.semanticWeight)
    .slice(0, q.filter.limit)
    .map(({ item, score, parts }) => ({
      ...item,
      relevance: score,
      matchedBy: parts.semantic > 0 ? [...item.matchedBy, 'semantic'] : item.matchedBy,
      scores: { text: Number(parts.text.toFixed(6)), semantic: Number(parts.semantic.toFixed(6)) },
    }));
}

function rankOf(result: SearchResult) {
  const { lesson } = result;
  return {
    id: lesson.id,
    relevance: 0,
    voteScore: result.voteScore,
    priority: lesson.priority,
    confidence: lesson.confidence,
    updatedAt: lesson.updatedAt,
  };
}

/** The lessons among `rowids` that pass the search's filter, as search results without text reasons. */
function readFiltered(
  ctx: QueryContext,
  rowids: readonly number[],
  q: HybridQuery,
): { rowid: number; result: SearchResult }[] {
  if (rowids.length === 0) return [];
  const params: (string | number)[] = [];
  const where = filterSql(q.filter, params);
  const rows = ctx.db.all<RankRow & { keep: number }>(
    `SELECT ${RANK_COLUMNS_SQL}, ${where === '' ? '1' : `(${where})`} AS keep, l.record AS record
     FROM lessons l LEFT JOIN votes v ON v.tier = l.tier AND v.id = l.id
     WHERE l.rowid IN (SELECT value FROM json_each(?))`,
    ...params,
    JSON.stringify(rowids),
  );
  const pathHits = q.filter.path === undefined ? undefined : matchPaths(ctx, q.filter.path);
  return rows.flatMap((row) => {
    if (row.keep !== 1) return [];
    const matchedBy = matchDetails(() => JSON.parse(row.record) as Lesson, row.rowid, q.filter, pathHits);
    if (!matchedBy) return [];
    const { voteScore } = rankRow(row, 0, q.nowMs, q.halfLifeDays);
    return [{ rowid: row.rowid, result: { ...toIndexed(row), relevance: 0, voteScore, matchedBy } }];
  });
}

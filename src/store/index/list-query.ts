/** `LessonIndex.list`: the lessons a filter keeps, in rank order. */
import { rankBy } from '../../core/rank/rank-results.js';
import type { ListedLesson } from './index-types.js';
import { columnsOnly, filterPredicate, filterSql, matchDetails } from './list-filter.js';
import type { ListFilter } from './list-filter.js';
import { matchPathFilter } from './match-paths.js';
import { rankColumns } from './reader-memo.js';
import type { QueryContext } from './reader-memo.js';
import { RANK_COLUMNS_SQL, rankRow, toIndexed } from './rank-row.js';
import type { RankRow } from './rank-row.js';

/** In rank order; with `limit`, only the first `limit` records are read and parsed. */
export function listLessons(
  ctx: QueryContext,
  filter: ListFilter,
  nowMs: number,
  halfLifeDays: number,
  limit?: number,
  contains?: (lessonGlob: string) => boolean,
): ListedLesson[] {
  const pathHits = filter.path === undefined ? undefined : matchPathFilter(ctx, filter.path, contains);
  // A reader that asks about paths again and again (the MCP sidecar) ranks from columns kept in
  // memory; records are read afterwards for the few that make the cut.
  const fromMemory =
    pathHits !== undefined && limit !== undefined && columnsOnly(filter) && (ctx.memo.pathLists += 1) > 1;
  const rows = fromMemory
    ? memoryRows(ctx, filter, pathHits)
    : sqlRows(ctx, filter, pathHits, limit !== undefined);
  // Ranked on the columns first; records are parsed in rank order, and only up to `limit`.
  const ranked = rankBy(
    rows
      .filter((row) => !pathHits || pathHits.has(row.rowid))
      .map((row) => ({ row, ...rankRow(row, 0, nowMs, halfLifeDays) })),
    (item) => item.key,
  );
  const listed: ListedLesson[] = [];
  for (const { row, voteScore } of ranked) {
    if (limit !== undefined && listed.length >= limit) break;
    if (limit !== undefined)
      row.record =
        ctx.db.get<{ record: string }>('SELECT record FROM lessons WHERE rowid = ?', row.rowid)?.record ??
        '{}';
    const item = toIndexed(row);
    const matchedBy = matchDetails(item, row.rowid, filter, pathHits);
    if (!matchedBy) continue;
    listed.push({ ...item, voteScore, matchedBy });
  }
  return listed;
}

/** The lessons a path matched that pass the filter, from the rank columns kept in memory. */
function memoryRows(ctx: QueryContext, filter: ListFilter, pathHits: Map<number, string[]>): RankRow[] {
  const columns = rankColumns(ctx);
  const keep = filterPredicate(filter);
  const rows: RankRow[] = [];
  for (const rowid of pathHits.keys()) {
    const row = columns.get(rowid);
    if (row && keep(row))
      rows.push({
        rowid: row.rowid,
        record: '',
        file: row.file,
        times: row.times,
        last: row.last,
        id: row.id,
        priority: row.priority,
        confidence: row.confidence,
        updatedAt: row.updatedAt,
      });
  }
  return rows;
}

/** The lessons that pass the filter (and that a path matched), from SQLite; records only without a limit. */
function sqlRows(
  { db }: QueryContext,
  filter: ListFilter,
  pathHits: Map<number, string[]> | undefined,
  limited: boolean,
): RankRow[] {
  const params: (string | number)[] = [];
  let where = filterSql(filter, params);
  if (pathHits) {
    // Only the lessons a glob matched: their records alone leave SQLite.
    where = `${where === '' ? '' : `${where} AND `}l.rowid IN (SELECT value FROM json_each(?))`;
    params.push(JSON.stringify([...pathHits.keys()]));
  }
  // With a limit, records are read afterwards for the few that make the cut.
  return db.all<RankRow>(
    `SELECT ${RANK_COLUMNS_SQL}, ${limited ? "''" : 'l.record'} AS record
     FROM lessons l LEFT JOIN votes v ON v.tier = l.tier AND v.id = l.id
     ${where === '' ? '' : `WHERE ${where}`}`,
    ...params,
  );
}

/** How many lessons `filter` keeps (its SQL part: status, tier, tags, confidence), counted in SQLite. */
export function countListed({ db }: QueryContext, filter: ListFilter): number {
  const params: (string | number)[] = [];
  const where = filterSql(filter, params);
  return (
    db.get<{ n: number }>(
      `SELECT count(*) AS n FROM lessons l${where === '' ? '' : ` WHERE ${where}`}`,
      ...params,
    )?.n ?? 0
  );
}

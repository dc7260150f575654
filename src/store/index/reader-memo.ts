/**
 * What readers that ask again and again (`lore mcp`, `lore serve`) keep between calls: word row
 * counts, the lessons each path matched, the path globs by literal, every lesson's rank columns.
 * A memo holds while the index holds the files it was built from (`at`, their aggregate
 * signature): a change by this process or any other, or a rebuild (new rowids), starts a new one.
 */
import type { SqlDatabase } from '../sqlite/sqlite.js';
import type { FilterColumns } from './list-filter.js';
import { RANK_COLUMNS_SQL } from './rank-row.js';
import type { RankRow } from './rank-row.js';

/** What a query runs against: the database, this reader's memo, and its compiled path regexes. */
export type QueryContext = { db: SqlDatabase; memo: Memo; regexes: Map<string, RegExp> };

export type PathRow = { lesson: number; glob: string; regex: string };

/** A lesson's ranking and filter columns, as a long-lived reader keeps them (no record). */
export type MemoRow = Omit<RankRow, 'record'> & FilterColumns;

/** Words whose row counts a long-lived reader remembers, and paths whose glob matches. */
const MEMO_WORDS = 4096;
export const MEMO_PATHS = 16;

export type Memo = {
  /** The aggregate signature of the files the index held when this memo began. */
  at: string | undefined;
  total?: number;
  wordRows: Map<string, number>;
  /** rowid -> matching globs, by path, least recently used first. */
  pathHits: Map<string, Map<number, string[]>>;
  /** Path globs by required literal, once a reader asked about a second path. */
  pathTable?: Map<string, PathRow[]>;
  pathQueries: number;
  /** Every lesson's ranking columns, once a reader listed a second path with a limit. */
  columns?: Map<number, MemoRow>;
  pathLists: number;
};

export function newMemo(at: string | undefined): Memo {
  return { at, wordRows: new Map(), pathHits: new Map(), pathQueries: 0, pathLists: 0 };
}

/** Every lesson's ranking columns, read once per memo: what `list` needs before any record. */
export function rankColumns({ db, memo }: QueryContext): Map<number, MemoRow> {
  return (memo.columns ??= new Map(
    db
      .all<MemoRow>(
        `SELECT ${RANK_COLUMNS_SQL}, l.tier AS tier, l.status AS status, l.needs_review AS needsReview
         FROM lessons l LEFT JOIN votes v ON v.tier = l.tier AND v.id = l.id`,
      )
      .map((row) => [row.rowid, row]),
  ));
}

/** How many lessons the index holds (the row count BM25 uses). */
export function lessonTotal({ db, memo }: QueryContext): number {
  return (memo.total ??= db.get<{ n: number }>('SELECT count(*) AS n FROM lessons')?.n ?? 0);
}

/**
 * How many lessons hold each word, counted up to half of them (past that a word's IDF is zero
 * whatever the count, and counting further would cost as much as scoring).
 */
export function wordRows(
  { db, memo }: QueryContext,
  words: readonly string[],
  total: number,
): Map<string, number> {
  const half = Math.ceil(total / 2);
  const rows = new Map<string, number>();
  for (const word of words) {
    let count = memo.wordRows.get(word);
    if (count === undefined) {
      count =
        db.get<{ n: number }>(
          'SELECT count(*) AS n FROM (SELECT 1 FROM lessons_fts WHERE lessons_fts MATCH ? LIMIT ?)',
          `"${word}"`,
          half,
        )?.n ?? 0;
      if (memo.wordRows.size >= MEMO_WORDS) memo.wordRows.clear();
      memo.wordRows.set(word, count);
    }
    rows.set(word, count);
  }
  return rows;
}

/**
 * The SQLite index: a cache of the lesson files, rebuilt from them at will.
 *
 * Every read refreshes it first: the tiers' lesson and vote files are stat-ed and their
 * signatures (mtime, size, inode) hashed; an unchanged hash costs one row read. Between full
 * scans a read skips the votes files that did not exist (see `freshnessContext`). Otherwise only
 * the files whose signature changed are parsed again. A missing, outdated or corrupt database is
 * deleted and rebuilt. Lesson parsing (YAML, zod) loads only when a file must be parsed, so a
 * fresh index answers without loading either.
 *
 * This file composes the modules beside it, each of which takes what it works on as an argument:
 * index-schema (tables, version), scan-tiers (the freshness scan), refresh-index and
 * write-file-rows (the rows of changed files), list-filter (the one filter description),
 * list-query and search-query, reader-memo and match-paths (what a long-lived reader keeps).
 */
import type { Problem } from '../../core/errors.js';
import type { RefEntry } from '../../core/lesson/resolve-ref.js';
import type { Tier } from '../../core/lesson/schema.js';
import { removeSqliteCache } from '../sqlite/open-sqlite-cache.js';
import { isCorruptionError } from '../sqlite/sqlite.js';
import type { SqlDatabase } from '../sqlite/sqlite.js';
import type { TierStore } from '../lessons/tier-store.js';
import { openIndexDatabase } from './index-schema.js';
import { findRefs, getLesson, indexStats, listProblems } from './index-lookups.js';
import type {
  FieldWeights,
  IndexedLesson,
  ListedLesson,
  RefreshReport,
  SearchResult,
} from './index-types.js';
import type { ListFilter } from './list-filter.js';
import { listLessons } from './list-query.js';
import { containmentFor } from './match-paths.js';
import { newMemo } from './reader-memo.js';
import type { QueryContext } from './reader-memo.js';
import { refreshIndex } from './refresh-index.js';
import type { RefreshState } from './refresh-index.js';
import { contentPartsOf } from './scan-tiers.js';
import { searchLessons } from './search-query.js';

export type {
  FieldWeights,
  IndexedLesson,
  ListedLesson,
  RefreshReport,
  SearchResult,
} from './index-types.js';
export type { ListFilter } from './list-filter.js';

/**
 * Queries refresh the index once per instance (the first call); `invalidate()` after a write makes
 * the next query look at the files again.
 */
export type LessonIndex = {
  refresh(): Promise<RefreshReport>;
  rebuild(): Promise<RefreshReport>;
  invalidate(): void;
  /** Refreshes only when nothing has since this instance opened or a write invalidated it. */
  settle(): Promise<RefreshReport>;
  /**
   * Scans every file (votes files and directory listings too): true when none changed since the
   * index was written (it then counts as refreshed, and `contentParts()` holds); false, with
   * nothing written, when one did or the database was missing, outdated or corrupt.
   */
  isCurrent(): Promise<boolean>;
  /**
   * What the last refresh saw of every lesson directory, by `tier:id`: `<lesson.yaml>|<votes.jsonl>`
   * signatures (file-signature.ts, `-` when missing), the parts of the manifest's content signature.
   */
  contentParts(): Record<string, string> | undefined;
  /**
   * The aggregate signature of every lesson and votes file as the last refresh saw them (equal
   * aggregates, equal files); undefined before one, or after one that stat-ed only the votes
   * files it knew of.
   */
  scanAggregate(): string | undefined;
  /** In rank order; with `limit`, only the first `limit` records are parsed. */
  list(filter: ListFilter, nowMs: number, halfLifeDays: number, limit?: number): Promise<ListedLesson[]>;
  search(
    query: string,
    filter: ListFilter & { limit: number },
    weights: FieldWeights,
    nowMs: number,
    halfLifeDays: number,
  ): Promise<SearchResult[]>;
  get(tier: Tier, id: string): Promise<IndexedLesson | undefined>;
  findRefs(ref: string): Promise<RefEntry[]>;
  problems(): Promise<Problem[]>;
  stats(): Promise<{ total: number; byStatus: Record<string, number>; indexedAt: string | null }>;
  /** Refreshes once, then runs `fn` on the database (hybrid search and the vector tables use it). */
  query<T>(fn: (ctx: QueryContext) => T): Promise<T>;
  close(): void;
};

export function openLessonIndex(
  dbPath: string,
  tiers: readonly TierStore[],
  displayPath: (p: string) => string,
): LessonIndex {
  let db: SqlDatabase | undefined;
  let lastReport: RefreshReport | undefined;
  const state: RefreshState = { lastScan: undefined, fullScanNext: false, globs: new Map() };
  /** What a long-lived reader keeps between calls (see reader-memo.ts). */
  let memo = newMemo(undefined);
  const regexes = new Map<string, RegExp>();

  const close = () => {
    db?.close();
    db = undefined;
  };

  /** Opens the database if needed, refreshes once (`force`: from scratch), and gives a query its context. */
  const prepare = async (force: boolean): Promise<QueryContext> => {
    let rebuilt = force;
    if (!db) {
      const opened = openIndexDatabase(dbPath);
      db = opened.db;
      // A corrupt file was replaced by an empty database: refresh it, and say so as a rebuild.
      rebuilt ||= opened.recovered;
    }
    if (rebuilt || !lastReport) {
      const report = await refreshIndex({ db, tiers, displayPath, state }, force);
      lastReport = rebuilt ? { ...report, rebuilt: true } : report;
      if (!report.fresh) memo = newMemo(undefined);
    }
    if (memo.at !== state.lastScan?.aggregate) memo = newMemo(state.lastScan?.aggregate);
    return { db, memo, regexes };
  };

  /** Refreshes once, then runs `fn`; a corrupt database is deleted and rebuilt, once. */
  const guarded = async <T>(fn: (ctx: QueryContext) => T): Promise<T> => {
    try {
      return fn(await prepare(false));
    } catch (error) {
      if (!isCorruptionError(error)) throw error;
      close();
      removeSqliteCache(dbPath);
      return fn(await prepare(true));
    }
  };

  return {
    refresh: async () => {
      lastReport = undefined;
      state.fullScanNext = true;
      return guarded(() => lastReport as RefreshReport);
    },
    rebuild: async () => {
      // From an empty file: faster than deleting every row, and it drops any damage.
      close();
      removeSqliteCache(dbPath);
      lastReport = undefined;
      const report = await guarded(() => lastReport as RefreshReport);
      return { ...report, rebuilt: true };
    },
    invalidate: () => {
      lastReport = undefined;
      state.fullScanNext = true;
    },
    settle: () => guarded(() => lastReport as RefreshReport),
    isCurrent: async () => {
      lastReport = undefined;
      state.fullScanNext = true;
      try {
        if (!db) {
          const opened = openIndexDatabase(dbPath);
          db = opened.db;
          if (opened.recovered) return false;
        }
        const report = await refreshIndex({ db, tiers, displayPath, state }, false, true);
        if (report.fresh) lastReport = report;
        return report.fresh;
      } catch (error) {
        if (!isCorruptionError(error)) throw error;
        return false;
      }
    },
    // a lite scan did not look for new votes files: callers stat what they need themselves
    contentParts: () =>
      state.lastScan === undefined || state.lastScan.lite ? undefined : contentPartsOf(state.lastScan),
    scanAggregate: () =>
      state.lastScan === undefined || state.lastScan.lite ? undefined : state.lastScan.aggregate,
    list: async (filter, nowMs, halfLifeDays, limit) => {
      const contains = await containmentFor(filter.path);
      return guarded((ctx) => listLessons(ctx, filter, nowMs, halfLifeDays, limit, contains));
    },
    search: async (query, filter, weights, nowMs, halfLifeDays) => {
      const contains = await containmentFor(filter.path);
      return guarded((ctx) => searchLessons(ctx, query, filter, weights, nowMs, halfLifeDays, contains));
    },
    get: (tier, id) => guarded(({ db: database }) => getLesson(database, tier, id)),
    findRefs: (ref) => guarded(({ db: database }) => findRefs(database, ref)),
    problems: () => guarded(({ db: database }) => listProblems(database)),
    stats: () => guarded(({ db: database }) => indexStats(database)),
    query: (fn) => guarded(fn),
    close,
  };
}

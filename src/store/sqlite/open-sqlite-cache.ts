/**
 * A SQLite database that is a cache (the lesson index, the docs body index): derived from files,
 * so anything wrong with it (another schema version, a corrupt file) is answered by starting
 * again from an empty database, never by an error.
 */
import { mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { LoreError } from '../../core/errors.js';
import { unlinkQuietly } from '../fs/fs-atomic.js';
import { isCorruptionError, openSqlite } from './sqlite.js';
import type { SqlDatabase } from './sqlite.js';

/**
 * A database's files. Both caches run in WAL mode (`-wal`, `-shm`), and a `-journal` is left by a
 * writer that died in rollback mode (before WAL was switched on): kept next to a new database,
 * SQLite would roll that hot journal back into it.
 */
export const SQLITE_FILE_SUFFIXES = ['', '-wal', '-shm', '-journal'] as const;

export type SqliteCacheSpec = {
  path: string;
  /** `PRAGMA user_version` of the current schema: a database with another one is started again. */
  version: number;
  /** The tables, created in one transaction when the database is new (`IF NOT EXISTS`). */
  schema: string;
  /** Run on every connection (busy timeout, cache sizes). */
  pragmas: string;
};

/**
 * A cache's write-ahead log (`-wal`) is cut back to nothing once it holds more than this. Every
 * process that opens a database no other process has open reads its whole log first (SQLite's WAL
 * recovery: one read(2) per page written since the log last restarted), and lore's processes never
 * leave it short by themselves: a CLI process exits without closing its connection (the last
 * connection's close is what checkpoints and deletes the log), and a log that a fresh process
 * recovered is not restarted by the next writer, which appends to it. So the log only grew: after
 * the first `lore sync` at 10,000 lessons it held some 10,500 pages (41 MB), read again by every
 * later `lore search` (30 ms at a load average of 4, a tenth of the whole command), and every
 * write then checkpointed all of them again (100 ms). 1 MiB (256 pages) costs a fresh reader well
 * under a millisecond.
 */
export const WAL_LIMIT_BYTES = 1 << 20;

/** `recovered`: the file was corrupt and has been replaced by an empty database. */
export type SqliteCache = { db: SqlDatabase; recovered: boolean };

/** libsql's error when SQLite cannot open the file at all (SQLITE_CANTOPEN, 14), without a code. */
function isOpenFailure(error: unknown): boolean {
  return /^ConnectionFailed\(.*: 14"?\)$/.test((error as Error | null)?.message ?? '');
}

/** Deletes a cache database with its companion files. */
export function removeSqliteCache(path: string): void {
  for (const suffix of SQLITE_FILE_SUFFIXES) unlinkQuietly(`${path}${suffix}`);
}

/**
 * Opens the cache at `spec.path`: created when missing, started again when its version differs,
 * deleted and created again (once) when it is not a usable database.
 */
export function openSqliteCache(spec: SqliteCacheSpec): SqliteCache {
  mkdirSync(dirname(spec.path), { recursive: true });
  const found = statSync(spec.path, { throwIfNoEntry: false });
  if (found !== undefined && !found.isFile()) {
    // not deleted: a cache is lore's, a directory in its place may be someone's work
    throw new LoreError(
      'io',
      `${spec.path} is a ${found.isDirectory() ? 'directory' : 'special file'}, where lore keeps a cache database`,
      { hint: 'move or delete it, then run the command again: lore builds the cache again from the files' },
    );
  }
  let db: SqlDatabase;
  let recovered = false;
  try {
    db = attempt(spec);
  } catch (error) {
    if (isOpenFailure(error))
      throw new LoreError('io', `cannot open the cache database ${spec.path} (${(error as Error).message})`, {
        hint: 'check that its folder can be written to (permissions, a full disk), then run the command again',
      });
    if (!isCorruptionError(error)) throw error;
    removeSqliteCache(spec.path);
    db = attempt(spec);
    recovered = true;
  }
  // a log left long (by an older lore, or a writer that died) is cut now, once, not at every open
  keepWalShort(spec.path, db);
  return { db: withShortWal(spec.path, db), recovered };
}

/**
 * `db`, whose write transactions leave the log short (WAL_LIMIT_BYTES): after the outermost one
 * commits, a log over the limit is checkpointed into the database and truncated.
 */
function withShortWal(path: string, db: SqlDatabase): SqlDatabase {
  let depth = 0;
  return {
    ...db,
    transaction<T>(fn: () => T): T {
      depth += 1;
      try {
        return db.transaction(fn);
      } finally {
        depth -= 1;
        if (depth === 0) keepWalShort(path, db);
      }
    },
  };
}

/**
 * Checkpoints the log into the database and truncates it when it is over WAL_LIMIT_BYTES (one stat
 * otherwise). Never waits: with a reader in the log (`lore mcp`, the dashboard) or another
 * checkpoint under way, SQLite gives up at once and the log is cut by a later write; a cache's
 * upkeep never fails the command, so errors are ignored too.
 */
export function keepWalShort(path: string, db: SqlDatabase): void {
  const size = statSync(`${path}-wal`, { throwIfNoEntry: false })?.size ?? 0;
  if (size <= WAL_LIMIT_BYTES) return;
  let timeout: number | undefined;
  try {
    timeout = db.get<{ timeout: number }>('PRAGMA busy_timeout')?.timeout;
    db.exec('PRAGMA busy_timeout = 0');
    db.get('PRAGMA wal_checkpoint(TRUNCATE)');
  } catch {
    // busy, or locked by a transaction still open: the next write tries again
  } finally {
    try {
      if (timeout !== undefined) db.exec(`PRAGMA busy_timeout = ${timeout}`);
    } catch {
      // the connection is unusable anyway
    }
  }
}

function attempt(spec: SqliteCacheSpec): SqlDatabase {
  const handle = connect(spec);
  let tables: number;
  try {
    const version = handle.get<{ user_version: number }>('PRAGMA user_version')?.user_version ?? 0;
    if (version === spec.version) return handle;
    tables =
      handle.get<{ n: number }>("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'")?.n ?? 0;
  } catch (error) {
    handle.close();
    throw error;
  }
  if (tables === 0) return create(spec, handle);
  // Another schema: a new file is faster than dropping every table, and drops any damage.
  handle.close();
  removeSqliteCache(spec.path);
  return create(spec, connect(spec));
}

/** The schema and its version, in an empty database. */
function create(spec: SqliteCacheSpec, handle: SqlDatabase): SqlDatabase {
  try {
    handle.exec('PRAGMA journal_mode = WAL');
    handle.transaction(() => {
      handle.exec(spec.schema);
      handle.exec(`PRAGMA user_version = ${spec.version}`);
    });
  } catch (error) {
    handle.close();
    throw error;
  }
  return handle;
}

function connect(spec: SqliteCacheSpec): SqlDatabase {
  const handle = openSqlite(spec.path);
  try {
    handle.exec(spec.pragmas);
  } catch (error) {
    handle.close();
    throw error;
  }
  return handle;
}

/**
 * A SQLite database that is a cache (the lesson index, the docs body index): derived from files,
 * so anything wrong with it (another schema version, a corrupt file) is answered by starting
 * again from an empty database, never by an error.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
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

/** `recovered`: the file was corrupt and has been replaced by an empty database. */
export type SqliteCache = { db: SqlDatabase; recovered: boolean };

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
  try {
    return { db: attempt(spec), recovered: false };
  } catch (error) {
    if (!isCorruptionError(error)) throw error;
    removeSqliteCache(spec.path);
    return { db: attempt(spec), recovered: true };
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

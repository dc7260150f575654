/**
 * The thin adapter over the SQLite driver (libsql: better-sqlite3's API, prebuilt binaries from
 * the npm registry, FTS5 included). Nothing else imports the driver, so it can be swapped for
 * node:sqlite or better-sqlite3 here alone.
 */
import { loadLibsql } from './libsql-target.js';
import type Database from 'libsql';

/** The driver, loaded when the first database is opened (a process that opens none never loads it). */
let driver: typeof Database | undefined;

/** A Uint8Array is bound as a BLOB; a BLOB is read back as an ArrayBuffer. */
export type SqlValue = string | number | bigint | null | Uint8Array;
export type SqlRow = Record<string, unknown>;

export type SqlDatabase = {
  exec(sql: string): void;
  all<T = SqlRow>(sql: string, ...params: SqlValue[]): T[];
  get<T = SqlRow>(sql: string, ...params: SqlValue[]): T | undefined;
  run(sql: string, ...params: SqlValue[]): void;
  /** Runs an INSERT and returns the rowid it created. */
  insert(sql: string, ...params: SqlValue[]): number;
  /** Runs `fn` in a write transaction taken up front (BEGIN IMMEDIATE). */
  transaction<T>(fn: () => T): T;
  close(): void;
};

/** SQLite result codes that mean the file is not a usable database: delete it and rebuild. */
export function isCorruptionError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return (
    typeof code === 'string' &&
    (code.startsWith('SQLITE_CORRUPT') || code.startsWith('SQLITE_NOTADB') || code === 'SQLITE_CANTOPEN')
  );
}

/**
 * The driver reads a lone object argument as named parameters (and panics on a Buffer, killing
 * the process): a lone BLOB goes in an array, which it binds by position.
 */
const bind = (params: SqlValue[]): SqlValue[] | [SqlValue[]] =>
  params.length === 1 && params[0] instanceof Uint8Array ? [params] : params;

export function openSqlite(path: string): SqlDatabase {
  driver ??= loadLibsql() as typeof Database;
  const db = new driver(path);
  type Statement = {
    all(...p: SqlValue[] | [SqlValue[]]): unknown[];
    get(...p: SqlValue[] | [SqlValue[]]): unknown;
    run(...p: SqlValue[] | [SqlValue[]]): unknown;
  };
  const statements = new Map<string, Statement>();
  const prepare = (sql: string) => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = db.prepare(sql) as unknown as Statement;
      statements.set(sql, statement);
    }
    return statement;
  };
  return {
    exec: (sql) => {
      db.exec(sql);
    },
    all: <T>(sql: string, ...params: SqlValue[]) => prepare(sql).all(...bind(params)) as T[],
    get: <T>(sql: string, ...params: SqlValue[]) => prepare(sql).get(...bind(params)) as T | undefined,
    run: (sql, ...params) => {
      prepare(sql).run(...bind(params));
    },
    insert: (sql, ...params) => {
      const info = prepare(sql).run(...bind(params)) as { lastInsertRowid: number | bigint };
      return Number(info.lastInsertRowid);
    },
    transaction: <T>(fn: () => T): T => db.transaction(fn).immediate(),
    close: () => {
      statements.clear();
      db.close();
    },
  };
}

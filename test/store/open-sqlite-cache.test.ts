/**
 * The one opener of lore's SQLite caches (the lesson index, the docs body index): a new file gets
 * the schema, another version or a corrupt file is started again with every companion file gone,
 * and both caches go through it.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { openDocsIndex } from '../../src/store/docs/docs-index.js';
import { openIndexDatabase } from '../../src/store/index/index-schema.js';
import {
  openSqliteCache,
  SQLITE_FILE_SUFFIXES,
  WAL_LIMIT_BYTES,
} from '../../src/store/sqlite/open-sqlite-cache.js';
import type { SqliteCacheSpec } from '../../src/store/sqlite/open-sqlite-cache.js';
import { openSqlite } from '../../src/store/sqlite/sqlite.js';
import type { SqlDatabase } from '../../src/store/sqlite/sqlite.js';

function setup() {
  const dir = mkdtempSync(join(tmpdir(), 'lore-sqlite-cache-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'cache', 'x.db');
  const spec = (version: number): SqliteCacheSpec => ({
    path,
    version,
    schema: `CREATE TABLE IF NOT EXISTS t${version}(v TEXT);`,
    pragmas: 'PRAGMA busy_timeout = 3000',
  });
  const tables = (version: number) => {
    const { db } = openSqliteCache(spec(version));
    onTestFinished(() => db.close());
    return db.all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'").map((r) => r.name);
  };
  return { dir, path, spec, tables };
}

const STALE = 'not a database, only a stale file';

/**
 * Garbage where the database is, and a stale -wal and -journal beside it. On a fresh path: a
 * connection this process closed may still hold its -wal and -shm until it is collected.
 */
function corrupt(path: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${STALE} `.repeat(200));
  for (const suffix of ['-wal', '-journal']) writeFileSync(`${path}${suffix}`, STALE);
}

/** The database's files that still hold what `corrupt` wrote. */
function staleLeft(path: string): string[] {
  return SQLITE_FILE_SUFFIXES.filter(
    (suffix) => existsSync(`${path}${suffix}`) && readFileSync(`${path}${suffix}`).includes(STALE),
  );
}

describe('openSqliteCache', () => {
  it('creates the schema in a new file (and its directory), and keeps it at the same version', () => {
    const { path, spec } = setup();
    const first = openSqliteCache(spec(1));
    expect(first.recovered).toBe(false);
    first.db.run('INSERT INTO t1(v) VALUES (?)', 'kept');
    first.db.close();
    const again = openSqliteCache(spec(1));
    onTestFinished(() => again.db.close());
    expect(again.db.all<{ v: string }>('SELECT v FROM t1')).toEqual([{ v: 'kept' }]);
    expect(existsSync(path)).toBe(true);
  });

  it('starts a database of another version again from an empty file', () => {
    const { spec, tables } = setup();
    const old = openSqliteCache(spec(1));
    old.db.close();
    expect(tables(2)).toEqual(['t2']);
  });

  it('replaces a corrupt file, and says so; no stale -wal or -journal survives', () => {
    const { path, spec } = setup();
    corrupt(path);
    const opened = openSqliteCache(spec(1));
    onTestFinished(() => opened.db.close());
    expect(opened.recovered).toBe(true);
    expect(opened.db.all('SELECT v FROM t1')).toEqual([]);
    expect(staleLeft(path)).toEqual([]);
    expect(SQLITE_FILE_SUFFIXES).toEqual(['', '-wal', '-shm', '-journal']);
  });

  it('gives other errors to the caller', () => {
    const { dir, spec } = setup();
    const bad = { ...spec(1), schema: 'CREATE TABLE broken(' };
    expect(() => openSqliteCache(bad)).toThrow();
    expect(readdirSync(dir)).toEqual(['cache']);
  });
});

describe('the write-ahead log stays short', () => {
  const walSize = (path: string) => statSync(`${path}-wal`, { throwIfNoEntry: false })?.size ?? 0;
  /** About 2 MB of rows in one transaction: more than the log may keep. */
  const fill = (db: SqlDatabase) =>
    db.transaction(() => {
      for (let i = 0; i < 500; i += 1) db.run('INSERT INTO t1(v) VALUES (?)', 'x'.repeat(4000));
    });

  it('a write transaction that leaves the log over the limit cuts it, rows kept', () => {
    const { path, spec } = setup();
    const { db } = openSqliteCache(spec(1));
    onTestFinished(() => db.close());
    fill(db);
    expect(walSize(path)).toBe(0);
    expect(db.get<{ n: number }>('SELECT count(*) AS n FROM t1')?.n).toBe(500);
    db.run('INSERT INTO t1(v) VALUES (?)', 'small');
    expect(walSize(path)).toBeGreaterThan(0);
    expect(walSize(path)).toBeLessThan(WAL_LIMIT_BYTES);
  });

  it('a log left long by a connection that never closed is cut when the cache opens', () => {
    const { path, spec } = setup();
    openSqliteCache(spec(1)).db.close();
    const raw = openSqlite(path);
    onTestFinished(() => raw.close());
    raw.exec('PRAGMA wal_autocheckpoint = 0');
    fill(raw);
    expect(walSize(path)).toBeGreaterThan(WAL_LIMIT_BYTES);
    const { db } = openSqliteCache(spec(1));
    onTestFinished(() => db.close());
    expect(walSize(path)).toBe(0);
    expect(db.get<{ n: number }>('SELECT count(*) AS n FROM t1')?.n).toBe(500);
  });

  it('does not wait for a reader in the log: the log stays, the busy timeout is restored', () => {
    const { path, spec } = setup();
    const { db } = openSqliteCache(spec(1));
    onTestFinished(() => db.close());
    db.run('INSERT INTO t1(v) VALUES (?)', 'first');
    const reader = openSqlite(path);
    onTestFinished(() => reader.close());
    reader.exec('BEGIN');
    reader.get('SELECT count(*) AS n FROM t1');
    const started = performance.now();
    fill(db);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(walSize(path)).toBeGreaterThan(WAL_LIMIT_BYTES);
    expect(db.get<{ timeout: number }>('PRAGMA busy_timeout')?.timeout).toBe(3000);
    reader.exec('COMMIT');
    fill(db);
    expect(walSize(path)).toBe(0);
  });
});

describe('both caches open through it', () => {
  it('the lesson index and the docs index each recover a corrupt file', () => {
    const { dir } = setup();
    const indexPath = join(dir, 'index.db');
    const docsPath = join(dir, 'docs.db');
    corrupt(indexPath);
    corrupt(docsPath);
    const index = openIndexDatabase(indexPath);
    onTestFinished(() => index.db.close());
    expect(index.recovered).toBe(true);
    expect(index.db.get<{ n: number }>('SELECT count(*) AS n FROM lessons')?.n).toBe(0);
    expect(staleLeft(indexPath)).toEqual([]);
    const docs = openDocsIndex(docsPath);
    onTestFinished(() => docs.close());
    expect(docs.hasBodies()).toBe(false);
    expect(staleLeft(docsPath)).toEqual([]);
  });

  it('a docs.db of another version is started again', () => {
    const { dir } = setup();
    const docsPath = join(dir, 'docs.db');
    const old = openSqlite(docsPath);
    old.exec('CREATE TABLE docs_meta(key TEXT PRIMARY KEY, value TEXT NOT NULL); PRAGMA user_version = 99;');
    old.run("INSERT INTO docs_meta(key, value) VALUES ('bodies', '1')");
    old.close();
    const docs = openDocsIndex(docsPath);
    onTestFinished(() => docs.close());
    expect(docs.hasBodies()).toBe(false);
  });
});

describe('openSqlite', () => {
  it('binds a lone BLOB by position (the driver would read it as named parameters) and reads it back', () => {
    const { dir } = setup();
    const db = openSqlite(join(dir, 'blob.db'));
    onTestFinished(() => db.close());
    db.exec('CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)');
    const bytes = new Uint8Array([0, 1, 2, 255]);
    db.run("INSERT INTO meta(key, value) VALUES ('form', ?)", Buffer.from(bytes));
    db.run('INSERT INTO meta(key, value) VALUES (?, ?)', 'two', bytes);
    const rows = db.all<{ value: ArrayBuffer }>('SELECT value FROM meta ORDER BY key');
    expect(rows.map((row) => [...new Uint8Array(row.value)])).toEqual([[...bytes], [...bytes]]);
    expect(
      db.get<{ kind: string }>('SELECT typeof(value) AS kind FROM meta WHERE value = ?', bytes)?.kind,
    ).toBe('blob');
  });
});

/**
 * The lesson index's tables (SQLite, FTS5) and their version: a database of another version is
 * started again from the lesson files (see open-sqlite-cache.ts).
 */
import { openSqliteCache } from '../sqlite/open-sqlite-cache.js';
import type { SqliteCache } from '../sqlite/open-sqlite-cache.js';

export const INDEX_VERSION = 6;

export const FTS_COLUMNS = [
  'summary',
  'tags',
  'tools',
  'commands',
  'paths',
  'stack',
  'category',
  'structured',
  'body',
] as const;
export type FtsColumn = (typeof FTS_COLUMNS)[number];

/** Every table a rebuild empties (`meta` stays: it says what the rows were built from). */
export const INDEX_TABLES = [
  'files',
  'lessons',
  'lesson_tags',
  'lesson_paths',
  'votes',
  'problems',
  'lessons_fts',
] as const;

const SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS files(path TEXT PRIMARY KEY, sig TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS lessons(
  rowid INTEGER PRIMARY KEY,
  tier TEXT NOT NULL, id TEXT NOT NULL, slug TEXT NOT NULL, summary TEXT NOT NULL,
  status TEXT NOT NULL, priority INTEGER NOT NULL, confidence REAL NOT NULL, needs_review INTEGER NOT NULL,
  updated_at TEXT NOT NULL,
  file TEXT NOT NULL UNIQUE, record TEXT NOT NULL,
  embed_hash TEXT NOT NULL DEFAULT '',
  UNIQUE(tier, id)
);
CREATE INDEX IF NOT EXISTS lessons_slug ON lessons(slug);
CREATE INDEX IF NOT EXISTS lessons_status ON lessons(status);
CREATE TABLE IF NOT EXISTS lesson_tags(lesson INTEGER NOT NULL, tag TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS lesson_tags_tag ON lesson_tags(tag);
CREATE INDEX IF NOT EXISTS lesson_tags_lesson ON lesson_tags(lesson);
CREATE TABLE IF NOT EXISTS lesson_paths(lesson INTEGER NOT NULL, glob TEXT NOT NULL, regex TEXT NOT NULL, literal TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS lesson_paths_lesson ON lesson_paths(lesson);
CREATE TABLE IF NOT EXISTS votes(tier TEXT NOT NULL, id TEXT NOT NULL, file TEXT NOT NULL, times TEXT NOT NULL, last TEXT, PRIMARY KEY(tier, id));
CREATE TABLE IF NOT EXISTS problems(file TEXT NOT NULL, source TEXT NOT NULL, line INTEGER, field TEXT, message TEXT NOT NULL, severity TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS problems_source ON problems(source);
CREATE VIRTUAL TABLE IF NOT EXISTS lessons_fts USING fts5(
  ${FTS_COLUMNS.join(', ')},
  tokenize = 'porter unicode61 remove_diacritics 2'
);
`;

/**
 * Each connection: wait out another writer; read pages through a memory map and keep up to 32 MB
 * of them (SQLite's default cache of 2 MB holds a fifth of 10,000 lessons, so a path query that
 * touches a few hundred rows paid a read(2) for most of them).
 */
const CONNECTION_PRAGMAS =
  'PRAGMA busy_timeout = 10000; PRAGMA mmap_size = 268435456; PRAGMA cache_size = -32000;';

/** The index database at `path`, with the current schema (`recovered`: it was corrupt, now empty). */
export function openIndexDatabase(path: string): SqliteCache {
  return openSqliteCache({ path, version: INDEX_VERSION, schema: SCHEMA_SQL, pragmas: CONNECTION_PRAGMAS });
}

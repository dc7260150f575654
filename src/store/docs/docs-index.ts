/**
 * The docs caches in `.lore/cache/`, apart from the lesson index (whose rebuild logic never sees
 * them); both are derived, and deleting them loses nothing:
 * - `docs-records.json`: each doc's record and problems by file signature (mtime, size, inode),
 *   so a read command parses only the files that changed since the last one (one file read and
 *   one JSON.parse when nothing changed; the parser is loaded only for changed files);
 * - `docs.db`: the body-level index `lore docs index` builds (FTS5), with a content hash per file
 *   (an unchanged file is skipped) and stale rows removed.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Problem } from '../../core/errors.js';
import type { DocRecord } from '../../core/docs/doc-record.js';
import { toFtsQuery } from '../../core/search/fts-query.js';
import { openSqliteCache } from '../sqlite/open-sqlite-cache.js';
import type { SqlDatabase } from '../sqlite/sqlite.js';
import type { indexDoc as IndexDoc } from '../../core/docs/index-doc.js';
import type { WalkedDoc } from './docs-walker.js';
import { writeFileAtomic } from '../fs/fs-atomic.js';
import { fileSignature, MISSING_SIGNATURE } from '../fs/file-signature.js';

const DOCS_INDEX_VERSION = 1;

const SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS docs_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS doc_body_files (path TEXT PRIMARY KEY, hash TEXT NOT NULL, body_rowid INTEGER NOT NULL);
CREATE VIRTUAL TABLE IF NOT EXISTS doc_bodies USING fts5(path UNINDEXED, summary, body, tokenize = 'porter unicode61');
`;

export type DocParseSettings = { taskPrefixes: readonly string[] };

export type LoadedDoc = { record: DocRecord; problems: Problem[]; root: string; abs: string };

export type BodyIndexReport = { indexed: number; unchanged: number; removed: number; total: number };

export type DocsIndex = {
  /** Builds or refreshes the body index; `force` re-reads every file. */
  indexBodies(docs: readonly LoadedDoc[], force: boolean): BodyIndexReport;
  /** Whether `lore docs index` has ever run here. */
  hasBodies(): boolean;
  /** BM25 over the indexed bodies: higher is better, by path. */
  searchBodies(query: string): Map<string, number>;
  close(): void;
};

/** The docs cache files, in the cache directory. */
export const DOCS_RECORDS_FILE = 'docs-records.json';
export const DOCS_WALK_FILE = 'docs-walk.json';
export const DOCS_DB_FILE = 'docs.db';

const RECORDS_VERSION = 1;
type RecordsCache = { version: number; key: string; entries: Record<string, [string, DocRecord, Problem[]]> };

/**
 * Records of the walked docs, in walk order, parsing only files whose signature changed since the
 * cache in `cacheFile` was written (and rewriting it when anything changed).
 */
export async function loadDocRecords(
  cacheFile: string,
  docs: readonly WalkedDoc[],
  settings: DocParseSettings,
  display: (doc: WalkedDoc) => string,
): Promise<LoadedDoc[]> {
  // the parser (yaml, zod) is loaded only when some doc changed since the cache was written
  const fromCache = loadDocRecordsWith(cacheFile, docs, settings, display, undefined);
  if (fromCache !== undefined) return fromCache;
  const { indexDoc } = await import('../../core/docs/index-doc.js');
  return loadDocRecordsWith(cacheFile, docs, settings, display, indexDoc) ?? [];
}

/**
 * The same, synchronously, with the parser supplied; without one (`parse` undefined), undefined
 * as soon as a doc needs parsing.
 */
export function loadDocRecordsWith(
  cacheFile: string,
  docs: readonly WalkedDoc[],
  settings: DocParseSettings,
  display: (doc: WalkedDoc) => string,
  parse: typeof IndexDoc | undefined,
): LoadedDoc[] | undefined {
  const key = JSON.stringify({ taskPrefixes: settings.taskPrefixes });
  let cache: RecordsCache | undefined;
  try {
    cache = JSON.parse(readFileSync(cacheFile, 'utf8')) as RecordsCache;
    if (cache.version !== RECORDS_VERSION || cache.key !== key || typeof cache.entries !== 'object')
      cache = undefined;
  } catch {
    cache = undefined;
  }
  const entries: RecordsCache['entries'] = {};
  const out: LoadedDoc[] = [];
  let changed = cache === undefined || Object.keys(cache.entries).length !== docs.length;
  for (const doc of docs) {
    const sig = fileSignature(doc.abs);
    if (sig === MISSING_SIGNATURE) continue;
    const hit = cache?.entries[doc.path];
    if (hit !== undefined && hit[0] === sig) {
      entries[doc.path] = hit;
      out.push({ record: hit[1], problems: hit[2], root: doc.root, abs: doc.abs });
      continue;
    }
    let text: string;
    try {
      text = readFileSync(doc.abs, 'utf8');
    } catch {
      continue;
    }
    if (parse === undefined) return undefined;
    const indexed = parse(doc.path, doc.root, text, {
      taskPrefixes: settings.taskPrefixes,
      file: display(doc),
    });
    entries[doc.path] = [sig, indexed.record, indexed.problems];
    out.push({ record: indexed.record, problems: indexed.problems, root: doc.root, abs: doc.abs });
    changed = true;
  }
  if (changed) {
    try {
      mkdirSync(dirname(cacheFile), { recursive: true });
      writeFileAtomic(
        cacheFile,
        JSON.stringify({ version: RECORDS_VERSION, key, entries } satisfies RecordsCache),
      );
    } catch {
      // a cache that cannot be written only costs speed next time
    }
  }
  return out;
}

export function openDocsIndex(dbPath: string): DocsIndex {
  let db: SqlDatabase | undefined;

  const open = (): SqlDatabase =>
    (db ??= openSqliteCache({
      path: dbPath,
      version: DOCS_INDEX_VERSION,
      schema: SCHEMA_SQL,
      pragmas: 'PRAGMA busy_timeout = 10000',
    }).db);

  return {
    indexBodies(docs, force) {
      const database = open();
      const existing = new Map(
        database
          .all<{ path: string; hash: string; body_rowid: number }>(
            'SELECT path, hash, body_rowid FROM doc_body_files',
          )
          .map((row) => [row.path, row] as const),
      );
      const report: BodyIndexReport = { indexed: 0, unchanged: 0, removed: 0, total: docs.length };
      const wanted = new Set(docs.map((doc) => doc.record.path));
      database.transaction(() => {
        for (const doc of docs) {
          let text: string;
          try {
            text = readFileSync(doc.abs, 'utf8');
          } catch {
            continue;
          }
          // node:crypto on first use, as in fs-atomic.ts
          const hash = process
            .getBuiltinModule('node:crypto')
            .createHash('sha256')
            .update(text)
            .digest('hex');
          const row = existing.get(doc.record.path);
          if (!force && row !== undefined && row.hash === hash) {
            report.unchanged += 1;
            continue;
          }
          if (row !== undefined) database.run('DELETE FROM doc_bodies WHERE rowid = ?', row.body_rowid);
          const body = text.slice(bodyOffset(text, doc.record.bodyLine));
          const rowid = database.insert(
            'INSERT INTO doc_bodies (path, summary, body) VALUES (?, ?, ?)',
            doc.record.path,
            doc.record.summary,
            body,
          );
          database.run(
            'INSERT OR REPLACE INTO doc_body_files (path, hash, body_rowid) VALUES (?, ?, ?)',
            doc.record.path,
            hash,
            rowid,
          );
          report.indexed += 1;
        }
        for (const [path, row] of existing) {
          if (wanted.has(path)) continue;
          database.run('DELETE FROM doc_bodies WHERE rowid = ?', row.body_rowid);
          database.run('DELETE FROM doc_body_files WHERE path = ?', path);
          report.removed += 1;
        }
        database.run(
          "INSERT OR REPLACE INTO docs_meta (key, value) VALUES ('bodies', ?)",
          String(Date.now()),
        );
      });
      return report;
    },

    hasBodies() {
      return open().get<{ value: string }>("SELECT value FROM docs_meta WHERE key = 'bodies'") !== undefined;
    },

    searchBodies(query) {
      const expression = toFtsQuery(query);
      const scores = new Map<string, number>();
      if (expression === undefined) return scores;
      const rows = open().all<{ path: string; rank: number }>(
        'SELECT path, bm25(doc_bodies, 0, 2, 1) AS rank FROM doc_bodies WHERE doc_bodies MATCH ? ORDER BY rank',
        expression,
      );
      for (const row of rows) scores.set(row.path, -row.rank);
      return scores;
    },

    close() {
      db?.close();
      db = undefined;
    },
  };
}

function bodyOffset(text: string, bodyLine: number): number {
  let offset = 0;
  for (let line = 1; line < bodyLine; line += 1) {
    const next = text.indexOf('\n', offset);
    if (next === -1) return text.length;
    offset = next + 1;
  }
  return offset;
}

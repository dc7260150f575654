/**
 * The docs cache, `.lore/cache/docs.db` (a file of its own, so the lesson index and its rebuild
 * logic never see it):
 * - `doc_records`: each doc's record and problems by file signature (mtime, size, inode), so a
 *   read command parses only the files that changed since the last one;
 * - `doc_bodies` (FTS5) and `doc_body_files`: the body-level index `lore docs index` builds,
 *   with a content hash per file (an unchanged file is skipped) and stale rows removed.
 * Everything here is derived: deleting the file loses nothing.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Problem } from '../core/errors.js';
import type { DocRecord } from '../core/docs/doc-schema.js';
import { indexDoc } from '../core/docs/index-doc.js';
import { toFtsQuery } from '../core/search/fts-query.js';
import { isCorruptionError, openSqlite } from './sqlite.js';
import type { SqlDatabase } from './sqlite.js';
import type { WalkedDoc } from './docs-walker.js';

const DOCS_INDEX_VERSION = 1;

const SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS docs_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS doc_records (
  path TEXT PRIMARY KEY, sig TEXT NOT NULL, record TEXT NOT NULL, problems TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS doc_body_files (path TEXT PRIMARY KEY, hash TEXT NOT NULL, body_rowid INTEGER NOT NULL);
CREATE VIRTUAL TABLE IF NOT EXISTS doc_bodies USING fts5(path UNINDEXED, summary, body, tokenize = 'porter unicode61');
`;

export type DocParseSettings = { taskPrefixes: readonly string[] };

export type LoadedDoc = { record: DocRecord; problems: Problem[]; root: string; abs: string };

export type BodyIndexReport = { indexed: number; unchanged: number; removed: number; total: number };

export type DocsIndex = {
  /** Records of the walked docs, parsing only files whose signature changed. */
  load(
    docs: readonly WalkedDoc[],
    settings: DocParseSettings,
    display: (doc: WalkedDoc) => string,
  ): LoadedDoc[];
  /** Builds or refreshes the body index; `force` re-reads every file. */
  indexBodies(docs: readonly LoadedDoc[], force: boolean): BodyIndexReport;
  /** Whether `lore docs index` has ever run here. */
  hasBodies(): boolean;
  /** BM25 over the indexed bodies: higher is better, by path. */
  searchBodies(query: string): Map<string, number>;
  close(): void;
};

function signature(abs: string): string | undefined {
  const stat = statSync(abs, { throwIfNoEntry: false });
  return stat ? `${stat.mtimeMs}:${stat.size}:${stat.ino}` : undefined;
}

export function openDocsIndex(dbPath: string): DocsIndex {
  let db: SqlDatabase | undefined;

  const open = (): SqlDatabase => {
    if (db) return db;
    mkdirSync(dirname(dbPath), { recursive: true });
    const attempt = (): SqlDatabase => {
      const handle = openSqlite(dbPath);
      try {
        handle.exec('PRAGMA busy_timeout = 10000');
        const version = handle.get<{ user_version: number }>('PRAGMA user_version')?.user_version ?? 0;
        if (version !== DOCS_INDEX_VERSION) {
          handle.exec('PRAGMA journal_mode = WAL');
          handle.transaction(() => {
            handle.exec(
              'DROP TABLE IF EXISTS docs_meta; DROP TABLE IF EXISTS doc_records; DROP TABLE IF EXISTS doc_body_files; DROP TABLE IF EXISTS doc_bodies;',
            );
            handle.exec(SCHEMA_SQL);
            handle.exec(`PRAGMA user_version = ${DOCS_INDEX_VERSION}`);
          });
        }
        return handle;
      } catch (error) {
        handle.close();
        throw error;
      }
    };
    try {
      db = attempt();
    } catch (error) {
      if (!isCorruptionError(error)) throw error;
      for (const suffix of ['', '-wal', '-shm']) rmSync(`${dbPath}${suffix}`, { force: true });
      db = attempt();
    }
    return db;
  };

  const settingsKey = (settings: DocParseSettings): string =>
    JSON.stringify({ taskPrefixes: settings.taskPrefixes });

  return {
    load(docs, settings, display) {
      const database = open();
      const key = settingsKey(settings);
      const storedKey = database.get<{ value: string }>(
        "SELECT value FROM docs_meta WHERE key = 'settings'",
      )?.value;
      const cached = new Map<string, { sig: string; record: string; problems: string }>();
      if (storedKey === key) {
        for (const row of database.all<{ path: string; sig: string; record: string; problems: string }>(
          'SELECT path, sig, record, problems FROM doc_records',
        )) {
          cached.set(row.path, row);
        }
      }
      const out: LoadedDoc[] = [];
      const changed: { path: string; sig: string; record: string; problems: string }[] = [];
      for (const doc of docs) {
        const sig = signature(doc.abs);
        if (sig === undefined) continue;
        const hit = cached.get(doc.path);
        if (hit !== undefined && hit.sig === sig) {
          const record = JSON.parse(hit.record) as DocRecord;
          out.push({
            record: { ...record, path: doc.path },
            problems: JSON.parse(hit.problems) as Problem[],
            root: doc.root,
            abs: doc.abs,
          });
          continue;
        }
        let text: string;
        try {
          text = readFileSync(doc.abs, 'utf8');
        } catch {
          continue;
        }
        const indexed = indexDoc(doc.path, doc.root, text, {
          taskPrefixes: settings.taskPrefixes,
          file: display(doc),
        });
        out.push({ record: indexed.record, problems: indexed.problems, root: doc.root, abs: doc.abs });
        changed.push({
          path: doc.path,
          sig,
          record: JSON.stringify(indexed.record),
          problems: JSON.stringify(indexed.problems),
        });
      }
      const walked = new Set(docs.map((doc) => doc.path));
      const stale = storedKey === key ? [...cached.keys()].filter((path) => !walked.has(path)) : [];
      if (changed.length > 0 || stale.length > 0 || storedKey !== key) {
        try {
          database.transaction(() => {
            if (storedKey !== key) {
              database.run('DELETE FROM doc_records');
              database.run("INSERT OR REPLACE INTO docs_meta (key, value) VALUES ('settings', ?)", key);
            }
            for (const row of changed) {
              database.run(
                'INSERT OR REPLACE INTO doc_records (path, sig, record, problems) VALUES (?, ?, ?, ?)',
                row.path,
                row.sig,
                row.record,
                row.problems,
              );
            }
            for (const path of stale) database.run('DELETE FROM doc_records WHERE path = ?', path);
          });
        } catch {
          // a cache that cannot be written only costs speed next time
        }
      }
      return out;
    },

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
          const hash = createHash('sha256').update(text).digest('hex');
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

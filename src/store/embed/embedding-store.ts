/**
 * The embeddings cache, `cache/embeddings.db`: one vector per (model, text hash), for lessons and
 * docs alike. It is a store of its own, apart from the lesson index: the index's rebuild and its
 * corruption retry delete `index.db`, never this file, so a rebuild re-embeds nothing; a text
 * that changed gets a new hash and a model change a new key, so both re-embed.
 *
 * Vectors go in as JSON text through `vector32(?)` (libsql 0.5.29 aborts the process on a Buffer
 * bound as a statement's only parameter) and are kept as float32 blobs, the format of the index's
 * `F32_BLOB` columns, so the index copies them without decoding.
 */
import { openSqliteCache } from '../sqlite/open-sqlite-cache.js';
import { fileSignature } from '../fs/file-signature.js';
import { loadLessonVectors } from '../index/lesson-vectors.js';
import type { QueryContext } from '../index/reader-memo.js';

export const EMBEDDINGS_DB_FILE = 'embeddings.db';

const STORE_VERSION = 2;

const SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS vectors(
  model TEXT NOT NULL, hash TEXT NOT NULL, dim INTEGER NOT NULL, embedding BLOB NOT NULL,
  PRIMARY KEY(model, hash)
);
CREATE TABLE IF NOT EXISTS doc_texts(
  model TEXT NOT NULL, path TEXT NOT NULL, sig TEXT NOT NULL, hash TEXT NOT NULL,
  PRIMARY KEY(model, path)
);
`;

/** A doc as last embedded: its file signature then, and the hash of the text embedded. */
export type DocText = { path: string; sig: string; hash: string };

export type EmbeddingStore = {
  path: string;
  /** The hashes of `hashes` that have no vector for `model` yet. */
  missing(model: string, hashes: readonly string[]): string[];
  /** Stores vectors in one transaction: a batch is kept whole or not at all. */
  put(model: string, entries: readonly { hash: string; vector: Float32Array }[]): void;
  /** The vectors of `hashes` for `model` that exist. */
  get(model: string, hashes: readonly string[]): Map<string, Float32Array>;
  /** The docs embedded with `model`, by path. */
  docTexts(model: string): Map<string, DocText>;
  /** Replaces the docs embedded with `model` (docs gone from the roots are forgotten). */
  setDocTexts(model: string, texts: readonly DocText[]): void;
  /** The dimension this model's vectors have (the first one stored), if any. */
  dimensionOf(model: string): number | undefined;
  close(): void;
};

/** Changes whenever the store is written (its file and WAL signatures), for the index's reload check. */
export function embeddingStoreSignature(path: string): string {
  return `${fileSignature(path)}|${fileSignature(`${path}-wal`)}`;
}

/** The dimension the cache at `path` holds for `model`, or undefined when it holds none. */
export function cachedDimension(path: string, model: string): number | undefined {
  const store = openEmbeddingStore(path);
  try {
    return store.dimensionOf(model);
  } finally {
    store.close();
  }
}

/**
 * The cache's vectors of `model` loaded into the index a query runs on, unless that index already
 * has them from this reader and this state of the cache. Returns how many were loaded.
 */
export function loadCachedLessonVectors(ctx: QueryContext, path: string, model: string, dim: number): number {
  return loadLessonVectors(ctx.db, path, model, dim, `${ctx.memo.at ?? ''}|${embeddingStoreSignature(path)}`);
}

export function openEmbeddingStore(path: string): EmbeddingStore {
  const { db } = openSqliteCache({
    path,
    version: STORE_VERSION,
    schema: SCHEMA_SQL,
    pragmas: 'PRAGMA busy_timeout = 10000;',
  });
  return {
    path,
    missing: (model, hashes) => {
      const have = new Set(
        inChunks(hashes, (chunk) =>
          db.all<{ hash: string }>(
            'SELECT hash FROM vectors WHERE model = ? AND hash IN (SELECT value FROM json_each(?))',
            model,
            JSON.stringify(chunk),
          ),
        ).map((row) => row.hash),
      );
      return [...new Set(hashes)].filter((hash) => !have.has(hash));
    },
    put: (model, entries) => {
      db.transaction(() => {
        for (const { hash, vector } of entries) {
          db.run(
            'INSERT OR REPLACE INTO vectors(model, hash, dim, embedding) VALUES (?, ?, ?, vector32(?))',
            model,
            hash,
            vector.length,
            JSON.stringify(Array.from(vector)),
          );
        }
      });
    },
    get: (model, hashes) =>
      new Map(
        inChunks(hashes, (chunk) =>
          db.all<{ hash: string; v: string }>(
            'SELECT hash, vector_extract(embedding) AS v FROM vectors WHERE model = ? AND hash IN (SELECT value FROM json_each(?))',
            model,
            JSON.stringify(chunk),
          ),
        ).map((row) => [row.hash, Float32Array.from(JSON.parse(row.v) as number[])]),
      ),
    docTexts: (model) =>
      new Map(
        db
          .all<DocText>('SELECT path, sig, hash FROM doc_texts WHERE model = ?', model)
          .map((row) => [row.path, row]),
      ),
    setDocTexts: (model, texts) => {
      db.transaction(() => {
        db.run('DELETE FROM doc_texts WHERE model = ?', model);
        for (const text of texts)
          db.run(
            'INSERT INTO doc_texts(model, path, sig, hash) VALUES (?, ?, ?, ?)',
            model,
            text.path,
            text.sig,
            text.hash,
          );
      });
    },
    dimensionOf: (model) =>
      db.get<{ dim: number }>('SELECT dim FROM vectors WHERE model = ? LIMIT 1', model)?.dim,
    close: () => db.close(),
  };
}

function inChunks<T>(items: readonly string[], fn: (chunk: readonly string[]) => T[]): T[] {
  const out: T[] = [];
  for (let i = 0; i < items.length; i += 5000) out.push(...fn(items.slice(i, i + 5000)));
  return out;
}

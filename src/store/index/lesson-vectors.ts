/**
 * The lessons' vectors inside the index: one table per dimension in use
 * (`lesson_vectors_<dim>`, an `F32_BLOB(<dim>)` column with libsql's ANN index), filled from the
 * embeddings cache (embedding-store.ts) by lesson identity and text hash. The tables are not in
 * `INDEX_TABLES`: a forced refresh keeps them and the reload drops only rows whose lesson changed
 * or went; a rebuild deletes index.db and the next reload copies every vector back from the cache,
 * without asking the model again.
 *
 * The ANN index is built with `compress_neighbors=float8, max_neighbors=20`: libsql's defaults
 * cost 26 ms per insert and 330 MB at 2,000 x 768, and their p99 was slower than exact search;
 * these settings gave a p99 of 5.1 ms at 10,000 x 768 against 28.7 ms exact (issue 21).
 */
import type { SqlDatabase } from '../sqlite/sqlite.js';

export type VectorStatus = { lessons: number; embedded: number };
export type Neighbour = { rowid: number; similarity: number };

const table = (dim: number) => `lesson_vectors_${Math.trunc(dim)}`;

function ensureTable(db: SqlDatabase, dim: number): void {
  const name = table(dim);
  db.exec(
    `CREATE TABLE IF NOT EXISTS ${name}(
       tier TEXT NOT NULL, id TEXT NOT NULL, hash TEXT NOT NULL, model TEXT NOT NULL,
       embedding F32_BLOB(${Math.trunc(dim)}) NOT NULL, UNIQUE(tier, id));
     CREATE INDEX IF NOT EXISTS ${name}_ann ON ${name}(
       libsql_vector_idx(embedding, 'metric=cosine', 'compress_neighbors=float8', 'max_neighbors=20'));`,
  );
}

function hasTable(db: SqlDatabase, dim: number): boolean {
  return (
    db.get("SELECT 1 AS one FROM sqlite_master WHERE type = 'table' AND name = ?", table(dim)) !== undefined
  );
}

/**
 * Brings `lesson_vectors_<dim>` in line with the lessons and the cache at `storePath` for `model`:
 * rows of changed, removed or other-model lessons go, cached vectors of the rest come in. Skipped
 * when `stamp` (the lessons' scan and the cache's signature) is what the last load saw.
 * Returns how many vectors it copied in.
 */
export function loadLessonVectors(
  db: SqlDatabase,
  storePath: string,
  model: string,
  dim: number,
  stamp: string,
): number {
  const key = `vectors:${table(dim)}`;
  const wanted = `${model}|${stamp}`;
  if (
    hasTable(db, dim) &&
    db.get<{ value: string }>('SELECT value FROM meta WHERE key = ?', key)?.value === wanted
  )
    return 0;
  ensureTable(db, dim);
  const name = table(dim);
  db.run('ATTACH DATABASE ? AS emb', storePath);
  try {
    return db.transaction(() => {
      db.run(
        `DELETE FROM ${name} WHERE model != ? OR NOT EXISTS (
           SELECT 1 FROM lessons l WHERE l.tier = ${name}.tier AND l.id = ${name}.id AND l.embed_hash = ${name}.hash)`,
        model,
      );
      const before = db.get<{ n: number }>(`SELECT count(*) AS n FROM ${name}`)?.n ?? 0;
      db.run(
        `INSERT INTO ${name}(tier, id, hash, model, embedding)
         SELECT l.tier, l.id, l.embed_hash, e.model, e.embedding FROM lessons l
         JOIN emb.vectors e ON e.model = ? AND e.hash = l.embed_hash AND e.dim = ?
         WHERE NOT EXISTS (SELECT 1 FROM ${name} v WHERE v.tier = l.tier AND v.id = l.id)`,
        model,
        dim,
      );
      const after = db.get<{ n: number }>(`SELECT count(*) AS n FROM ${name}`)?.n ?? 0;
      db.run('INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)', key, wanted);
      return after - before;
    });
  } finally {
    db.exec('DETACH DATABASE emb');
  }
}

/** How many lessons there are, and how many of them have a current vector of `model` at `dim`. */
export function lessonVectorStatus(db: SqlDatabase, model: string, dim: number | undefined): VectorStatus {
  const lessons = db.get<{ n: number }>('SELECT count(*) AS n FROM lessons')?.n ?? 0;
  if (dim === undefined || !hasTable(db, dim)) return { lessons, embedded: 0 };
  const name = table(dim);
  const embedded =
    db.get<{ n: number }>(
      `SELECT count(*) AS n FROM ${name} v JOIN lessons l ON l.tier = v.tier AND l.id = v.id AND l.embed_hash = v.hash
       WHERE v.model = ?`,
      model,
    )?.n ?? 0;
  return { lessons, embedded };
}

/**
 * The `k` lessons nearest to `vector` by cosine: through the ANN index, or (`exact`) by scanning
 * every vector. Similarity is 1 - cosine distance.
 */
export function nearestLessons(db: SqlDatabase, vector: Float32Array, k: number, exact = false): Neighbour[] {
  const dim = vector.length;
  if (!hasTable(db, dim)) return [];
  const name = table(dim);
  const json = JSON.stringify(Array.from(vector));
  const rows = exact
    ? db.all<{ rowid: number; d: number }>(
        `SELECT l.rowid AS rowid, x.d AS d FROM (
           SELECT tier, id, vector_distance_cos(embedding, vector32(?)) AS d FROM ${name} ORDER BY d LIMIT ?) x
         JOIN lessons l ON l.tier = x.tier AND l.id = x.id ORDER BY x.d`,
        json,
        k,
      )
    : db.all<{ rowid: number; d: number }>(
        `SELECT l.rowid AS rowid, vector_distance_cos(v.embedding, vector32(?)) AS d
         FROM vector_top_k('${name}_ann', vector32(?), ?) t
         JOIN ${name} v ON v.rowid = t.id
         JOIN lessons l ON l.tier = v.tier AND l.id = v.id
         ORDER BY d`,
        json,
        json,
        k,
      );
  return rows.map((row) => ({ rowid: row.rowid, similarity: 1 - row.d }));
}

/**
 * For every lesson with a vector at `dim`, its `k` nearest others through the ANN index, as
 * `tier:id` keys with their similarity (one index query per lesson: vector_top_k takes no
 * correlated argument).
 */
export function nearestToLesson(
  db: SqlDatabase,
  dim: number,
  k: number,
): { a: string; b: string; similarity: number }[] {
  if (!hasTable(db, dim)) return [];
  const name = table(dim);
  const rows = db.all<{ rowid: number; key: string }>(`SELECT rowid, tier || ':' || id AS key FROM ${name}`);
  const out: { a: string; b: string; similarity: number }[] = [];
  for (const row of rows) {
    const near = db.all<{ key: string; d: number }>(
      `SELECT v.tier || ':' || v.id AS key,
              vector_distance_cos(v.embedding, (SELECT embedding FROM ${name} WHERE rowid = ?)) AS d
       FROM vector_top_k('${name}_ann', (SELECT embedding FROM ${name} WHERE rowid = ?), ?) t
       JOIN ${name} v ON v.rowid = t.id`,
      row.rowid,
      row.rowid,
      k + 1,
    );
    for (const other of near) out.push({ a: row.key, b: other.key, similarity: 1 - other.d });
  }
  return out;
}

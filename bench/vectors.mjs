// Hybrid search benchmark (`node bench/run.mjs --only vectors [--sizes 1000,10000] [--dims 768]`):
// the generated stores of the store benchmark, embedded by the scripted embedding server
// (scripts/embedding-server.mjs: no real model can be fetched here, so the vectors are hashed bags
// of words, which costs the index the same as a model's), then in-process and steady state:
// BM25 search (the baseline, timed in the same run), hybrid search with the vector part through
// the ANN index, the same with exact kNN, and the vector part alone both ways. The query vectors
// are computed up front: the time a user's model takes to embed a query is its own. Also: the time
// to embed the store and build the ANN index, the time to rebuild the index's vector table from
// the embeddings cache (what a `lore sync` costs the next hybrid search), and the index's size
// per 1,000 lessons with and without vectors.
import { mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { embedText, startEmbeddingServer } from '../scripts/embedding-server.mjs';
import { embedWorkspace } from '../dist/store/embed/embed-workspace.js';
import { openEmbeddingProvider } from '../dist/store/embed/embedding-settings.js';
import { EMBEDDINGS_DB_FILE } from '../dist/store/embed/embedding-store.js';
import { searchHybrid } from '../dist/store/index/hybrid-query.js';
import { loadLessonVectors, nearestLessons } from '../dist/store/index/lesson-vectors.js';
import { openWorkspace } from '../dist/store/workspace/workspace.js';
import { ensureStore } from './generate.mjs';
import { summarize } from './stats.mjs';

/** Paraphrase-style queries (the store benchmark's words are BM25's; these lean on meaning). */
const QUERIES = [
  'pytest hangs',
  'test runner stuck in the pipeline',
  'docker build cache',
  'database migration fails on a big table',
  'npm install lockfile',
  'flaky test timeout',
  'secrets committed to the repository',
  'container cannot reach the host port',
  'how do I avoid breaking the build when upgrading dependencies in the monorepo',
  'timezone makes date assertions differ',
  'force push',
  'permission denied writing the cache folder',
];

const ms = (value) => `${value.toFixed(2)} ms`;
const mb = (bytes) => `${(bytes / 1048576).toFixed(1)} MB`;

function fileSize(path) {
  let total = 0;
  for (const suffix of ['', '-wal']) {
    try {
      total += statSync(`${path}${suffix}`).size;
    } catch {
      // no such file
    }
  }
  return total;
}

/** Alternates the variants query by query, so load on the machine falls on all of them alike. */
function timeVariants(variants, rounds) {
  const times = Object.fromEntries(Object.keys(variants).map((name) => [name, []]));
  for (let round = 0; round < rounds; round += 1) {
    for (const [name, fn] of Object.entries(variants)) {
      const started = performance.now();
      fn(round);
      times[name].push(performance.now() - started);
    }
  }
  return Object.fromEntries(Object.entries(times).map(([name, values]) => [name, summarize(values)]));
}

async function benchSize(dataDir, size, dims, queries, server) {
  const { root } = ensureStore(dataDir, size, (line) => console.log(`  ${line}`));
  const loreHome = join(dataDir, `vectors-home-${dims}`, '.lore');
  mkdirSync(loreHome, { recursive: true });
  const model = `bench-bow-${dims}`;
  writeFileSync(
    join(loreHome, 'config.yaml'),
    JSON.stringify({ embeddings: { provider: 'ollama', url: server.url, model, batchSize: 256 } }),
  );
  const env = { ...process.env, LORE_HOME: loreHome };
  const cacheDir = join(root, '.lore', 'cache');
  rmSync(join(cacheDir, EMBEDDINGS_DB_FILE), { force: true });
  rmSync(join(cacheDir, `${EMBEDDINGS_DB_FILE}-wal`), { force: true });
  const ws = await openWorkspace({ cwd: root, env });
  try {
    await ws.index.rebuild();
    await ws.index.query((ctx) => ctx.db.exec('PRAGMA wal_checkpoint(TRUNCATE)'));
    const indexPath = join(cacheDir, 'index.db');
    const lexicalSize = fileSize(indexPath);
    const settings = openEmbeddingProvider(ws, env);
    const embedStarted = performance.now();
    const report = await embedWorkspace(ws, settings);
    const embedMs = performance.now() - embedStarted;
    if (report.failure) throw new Error(`embedding failed: ${report.failure.message}`);
    await ws.index.query((ctx) => ctx.db.exec('PRAGMA wal_checkpoint(TRUNCATE)'));
    const vectorSize = fileSize(indexPath);
    const storeSize = fileSize(join(cacheDir, EMBEDDINGS_DB_FILE));
    // what the next hybrid search pays after `lore sync` deleted index.db: the table from the cache
    const reload = await ws.index.query((ctx) => {
      ctx.db.exec(`DROP TABLE lesson_vectors_${dims}`);
      const started = performance.now();
      const copied = loadLessonVectors(ctx.db, join(cacheDir, EMBEDDINGS_DB_FILE), model, dims, 'bench');
      return { ms: performance.now() - started, copied };
    });

    const vectors = QUERIES.map((q) => Float32Array.from(embedText(q, dims)));
    const weights = ws.config.search.weights;
    const nowMs = Date.now();
    const filter = { status: 'active', limit: 10 };
    const hybrid = (i, exact) =>
      ws.index.query((ctx) =>
        searchHybrid(ctx, {
          query: QUERIES[i % QUERIES.length],
          vector: vectors[i % QUERIES.length],
          filter,
          weights,
          semanticWeight: 0.5,
          minSimilarity: 0.3,
          nowMs,
          halfLifeDays: ws.halfLifeDays,
          exact,
        }),
      );
    // ws.index.query is async only until the first refresh: after it, each call's work is sync
    // inside the callback, so the timings below wrap the callback itself.
    const db = await ws.index.query((ctx) => ctx);
    const sync = (fn) => (i) => fn(i);
    for (let i = 0; i < 20; i += 1) {
      await hybrid(i, false);
      await hybrid(i, true);
    }
    const ctx = db;
    /** Query `i` with its vector, through the ANN index or (`exact`) past it. */
    const hybridRequest = (i, exact) => ({
      query: QUERIES[i % QUERIES.length],
      vector: vectors[i % QUERIES.length],
      filter,
      weights,
      semanticWeight: 0.5,
      minSimilarity: 0.3,
      nowMs,
      halfLifeDays: ws.halfLifeDays,
      exact,
    });
    const variants = {
      bm25: sync((i) =>
        searchHybridLexical(ctx, QUERIES[i % QUERIES.length], filter, weights, nowMs, ws.halfLifeDays),
      ),
      hybridAnn: sync((i) => searchHybrid(ctx, hybridRequest(i, false))),
      hybridExact: sync((i) => searchHybrid(ctx, hybridRequest(i, true))),
      annOnly: sync((i) => nearestLessons(ctx.db, vectors[i % QUERIES.length], 30)),
      exactOnly: sync((i) => nearestLessons(ctx.db, vectors[i % QUERIES.length], 30, true)),
    };
    const stats = timeVariants(variants, queries);
    // recall of the ANN index against exact kNN, top 10
    let agree = 0;
    for (const vector of vectors) {
      const ann = new Set(nearestLessons(ctx.db, vector, 10).map((n) => n.rowid));
      agree += nearestLessons(ctx.db, vector, 10, true).filter((n) => ann.has(n.rowid)).length;
    }
    return {
      size,
      dims,
      lessons: report.lessons.total,
      embedMs,
      reloadMs: reload.ms,
      stats,
      annRecallAt10: agree / (vectors.length * 10),
      sizes: {
        indexLexical: lexicalSize,
        indexWithVectors: vectorSize,
        vectorsPer1000: ((vectorSize - lexicalSize) / report.lessons.total) * 1000,
        cachePer1000: (storeSize / report.lessons.total) * 1000,
      },
    };
  } finally {
    ws.close();
  }
}

let searchLessonsFn;
function searchHybridLexical(ctx, query, filter, weights, nowMs, halfLifeDays) {
  return searchLessonsFn(ctx, query, filter, weights, nowMs, halfLifeDays);
}

export async function runVectorsBench({ dataDir, sizes = [1000, 10000], dims = 768, queries = 300 }) {
  ({ searchLessons: searchLessonsFn } = await import('../dist/store/index/search-query.js'));
  const server = await startEmbeddingServer({ dimensions: dims });
  const results = [];
  try {
    console.log('lore hybrid search benchmark');
    console.log(
      `  node ${process.version}, ${os.cpus().length} cores, load ${os
        .loadavg()
        .map((n) => n.toFixed(2))
        .join(' ')}; ${dims} dimensions, ${queries} rounds of ${QUERIES.length} queries`,
    );
    for (const size of sizes) {
      const r = await benchSize(dataDir, size, dims, queries, server);
      results.push(r);
      const { stats } = r;
      const line = (name, label) =>
        console.log(
          `    ${label.padEnd(34)} p50 ${ms(stats[name].p50)}  p99 ${ms(stats[name].p99)}  (${(stats[name].p50 / stats.bm25.p50).toFixed(2)}x BM25 p50)`,
        );
      console.log(
        `  ${r.lessons} lessons: embedded and indexed in ${(r.embedMs / 1000).toFixed(1)} s; vector table rebuilt from the cache in ${(r.reloadMs / 1000).toFixed(1)} s`,
      );
      line('bm25', 'BM25 search (baseline)');
      line('hybridAnn', 'hybrid, vectors through ANN');
      line('hybridExact', 'hybrid, exact kNN');
      line('annOnly', 'vector part alone, ANN (k=30)');
      line('exactOnly', 'vector part alone, exact (k=30)');
      console.log(
        `    ANN recall@10 against exact: ${(r.annRecallAt10 * 100).toFixed(0)}%; index ${mb(r.sizes.indexLexical)} without vectors, ${mb(r.sizes.indexWithVectors)} with (${mb(r.sizes.vectorsPer1000)} per 1,000 lessons); embeddings cache ${mb(r.sizes.cachePer1000)} per 1,000 lessons`,
      );
    }
  } finally {
    await server.close();
  }
  return results;
}

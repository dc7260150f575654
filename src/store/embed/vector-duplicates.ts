/**
 * Near-duplicates by meaning, for `lore dedupe` and for a lesson about to be written: pairs of active lessons whose vectors (already in
 * the embeddings cache: nothing is sent to a model here) are at least `duplicates` similar, found
 * through the ANN index (each lesson's few nearest), so paraphrases the word check misses are
 * caught too. Nothing when embeddings are off or no lesson is embedded.
 */
import { join } from 'node:path';
import { LoreError } from '../../core/errors.js';
import { lessonEmbeddingText } from '../../core/search/embedding-text.js';
import { nearestLessons, nearestToLesson } from '../index/lesson-vectors.js';
import type { Workspace } from '../workspace/workspace.js';
import { embeddingHash } from './embedding-hash.js';
import { embeddingModelOf, embeddingsConfig, openEmbeddingProvider } from './embedding-settings.js';
import {
  EMBEDDINGS_DB_FILE,
  cachedDimension,
  loadCachedLessonVectors,
  openEmbeddingStore,
} from './embedding-store.js';

export type SemanticPair = { a: string; b: string; similarity: number };

/** Nearest lessons looked at per lesson: more than any real set of near-duplicates. */
const NEIGHBOURS = 6;

/** Pairs of `tier:id` keys (both in `keys`), each once, most similar first. */
export async function findSemanticPairs(ws: Workspace, keys: ReadonlySet<string>): Promise<SemanticPair[]> {
  const config = embeddingsConfig(ws);
  const model = embeddingModelOf(config);
  if (model === undefined) return [];
  const storePath = join(ws.cacheDir, EMBEDDINGS_DB_FILE);
  const found = cachedDimension(storePath, model);
  if (found === undefined) return [];
  const pairs = await ws.index.query((ctx) => {
    loadCachedLessonVectors(ctx, storePath, model, found);
    return nearestToLesson(ctx.db, found, NEIGHBOURS);
  });
  const seen = new Set<string>();
  const out: SemanticPair[] = [];
  for (const { a, b, similarity } of pairs) {
    if (a === b || similarity < config.duplicateSimilarity || !keys.has(a) || !keys.has(b)) continue;
    const [lo, hi] = a < b ? [a, b] : [b, a];
    if (seen.has(`${lo}|${hi}`)) continue;
    seen.add(`${lo}|${hi}`);
    out.push({ a: lo, b: hi, similarity });
  }
  return out.sort((x, y) => y.similarity - x.similarity || (x.a < y.a ? -1 : 1));
}

/** How long a write waits for the draft's vector at most: a slow model never holds up `lore add`. */
export const AUTHORING_TIMEOUT_MS = 2000;

/**
 * Active lessons whose vectors are at least `embeddings.duplicateSimilarity` alike to a draft about
 * to be written, when embeddings are configured and lessons embedded. The draft is embedded with
 * a short timeout (its vector is cached, so `lore sync --embed` will not ask for it again); any
 * failure, or no provider, gives none: the word check alone decides then.
 */
export async function findSemanticNeighbours(
  ws: Workspace,
  env: NodeJS.ProcessEnv,
  draft: {
    summary: string;
    mistake?: string | undefined;
    remediation?: string | undefined;
    body?: string | undefined;
  },
): Promise<{ tier: string; id: string; similarity: number }[]> {
  let settings;
  try {
    settings = openEmbeddingProvider(ws, env);
  } catch (error) {
    if (error instanceof LoreError) return [];
    throw error;
  }
  if (settings === undefined) return [];
  const { provider } = settings;
  const storePath = join(ws.cacheDir, EMBEDDINGS_DB_FILE);
  const store = openEmbeddingStore(storePath);
  let vector: Float32Array | undefined;
  let dim: number | undefined;
  try {
    dim = store.dimensionOf(provider.model);
    if (dim === undefined) return [];
    const hash = embeddingHash(lessonEmbeddingText(draft));
    vector = store.get(provider.model, [hash]).get(hash);
    if (vector === undefined) {
      const answer = await provider.embed(
        [lessonEmbeddingText(draft)],
        Math.min(settings.timeoutMs, AUTHORING_TIMEOUT_MS),
      );
      if (!answer.ok || answer.dimensions !== dim) return [];
      vector = answer.vectors[0] as Float32Array;
      store.put(provider.model, [{ hash, vector }]);
    }
  } finally {
    store.close();
  }
  const found = dim;
  const query = vector;
  const floor = settings.duplicateSimilarity;
  return ws.index.query((ctx) => {
    loadCachedLessonVectors(ctx, storePath, provider.model, found);
    const near = nearestLessons(ctx.db, query, NEIGHBOURS).filter((n) => n.similarity >= floor);
    if (near.length === 0) return [];
    const rows = ctx.db.all<{ rowid: number; tier: string; id: string }>(
      "SELECT rowid, tier, id FROM lessons WHERE status = 'active' AND rowid IN (SELECT value FROM json_each(?))",
      JSON.stringify(near.map((n) => n.rowid)),
    );
    const byRowid = new Map(rows.map((row) => [row.rowid, row]));
    return near.flatMap((n) => {
      const row = byRowid.get(n.rowid);
      return row === undefined ? [] : [{ tier: row.tier, id: row.id, similarity: n.similarity }];
    });
  });
}

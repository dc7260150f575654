/**
 * Near-duplicates by meaning for `lore dedupe`: pairs of active lessons whose vectors (already in
 * the embeddings cache: nothing is sent to a model here) are at least `duplicates` similar, found
 * through the ANN index (each lesson's few nearest), so paraphrases the word check misses are
 * caught too. Nothing when embeddings are off or no lesson is embedded.
 */
import { join } from 'node:path';
import { loadLessonVectors, nearestToLesson } from '../index/lesson-vectors.js';
import type { Workspace } from '../workspace/workspace.js';
import { embeddingModelOf, embeddingsConfig } from './embedding-settings.js';
import { EMBEDDINGS_DB_FILE, embeddingStoreSignature, openEmbeddingStore } from './embedding-store.js';

export type SemanticPair = { a: string; b: string; similarity: number };

/** Nearest lessons looked at per lesson: more than any real set of near-duplicates. */
const NEIGHBOURS = 6;

/** Pairs of `tier:id` keys (both in `keys`), each once, most similar first. */
export async function findSemanticPairs(ws: Workspace, keys: ReadonlySet<string>): Promise<SemanticPair[]> {
  const config = embeddingsConfig(ws);
  const model = embeddingModelOf(config);
  if (model === undefined) return [];
  const storePath = join(ws.cacheDir, EMBEDDINGS_DB_FILE);
  const store = openEmbeddingStore(storePath);
  let dim: number | undefined;
  try {
    dim = store.dimensionOf(model);
  } finally {
    store.close();
  }
  if (dim === undefined) return [];
  const found = dim;
  const pairs = await ws.index.query((ctx) => {
    loadLessonVectors(
      ctx.db,
      storePath,
      model,
      found,
      `${ctx.memo.at ?? ''}|${embeddingStoreSignature(storePath)}`,
    );
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

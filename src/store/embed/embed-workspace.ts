/**
 * `lore sync --embed`: every lesson whose text has no vector for the configured model yet is
 * embedded, in batches, into the embeddings cache, and the index's vector table is brought up to
 * date. A batch is stored whole or not at all; a failure stops the run with what was embedded so
 * far kept, and the rest waits (search finds it by its words and says so).
 */
import { join } from 'node:path';
import type { Lesson } from '../../core/lesson/schema.js';
import { lessonEmbeddingText } from '../../core/search/embedding-text.js';
import { lessonVectorStatus } from '../index/lesson-vectors.js';
import type { Workspace } from '../workspace/workspace.js';
import { embedDocs } from './doc-vectors.js';
import type { DocEmbedReport } from './doc-vectors.js';
import type { EmbedFailureKind } from './embedding-provider.js';
import { embeddingModelOf, embeddingsConfig } from './embedding-settings.js';
import type { EmbeddingSettings } from './embedding-settings.js';
import {
  EMBEDDINGS_DB_FILE,
  cachedDimension,
  loadCachedLessonVectors,
  openEmbeddingStore,
} from './embedding-store.js';

export type EmbedReport = {
  provider: string;
  model: string;
  endpoint: string;
  dimensions: number | null;
  /** Distinct lesson texts, how many were embedded now, how many the cache already had. */
  texts: number;
  embedded: number;
  cached: number;
  /** Lessons with a current vector in the index after the run. */
  lessons: { total: number; withVectors: number };
  failure?: { kind: EmbedFailureKind; message: string; waiting: number };
  /** The docs under the docs roots: embedded after the lessons, unless the lessons failed. */
  docs?: DocEmbedReport;
};

/**
 * After a rebuild (`lore sync`): the cached vectors of the configured model copied back into the
 * new index, so the first hybrid search does not pay for the ANN index. No model is asked.
 * Returns how many lessons have vectors, or undefined when embeddings are off or none are cached.
 */
export async function reloadLessonVectors(ws: Workspace): Promise<number | undefined> {
  const model = embeddingModelOf(embeddingsConfig(ws));
  if (model === undefined) return undefined;
  const storePath = join(ws.cacheDir, EMBEDDINGS_DB_FILE);
  const found = cachedDimension(storePath, model);
  if (found === undefined) return undefined;
  return ws.index.query((ctx) => {
    loadCachedLessonVectors(ctx, storePath, model, found);
    return lessonVectorStatus(ctx.db, model, found).embedded;
  });
}

export type EmbedProgress = (done: number, total: number) => void;

export async function embedWorkspace(
  ws: Workspace,
  settings: EmbeddingSettings,
  onProgress?: EmbedProgress,
): Promise<EmbedReport> {
  const { provider } = settings;
  const storePath = join(ws.cacheDir, EMBEDDINGS_DB_FILE);
  const rows = await ws.index.query((ctx) =>
    ctx.db.all<{ hash: string; record: string }>('SELECT embed_hash AS hash, record FROM lessons'),
  );
  const texts = new Map<string, string>();
  for (const row of rows) {
    if (!texts.has(row.hash)) texts.set(row.hash, lessonEmbeddingText(JSON.parse(row.record) as Lesson));
  }
  const store = openEmbeddingStore(storePath);
  let dimensions: number | undefined;
  let embedded = 0;
  let failure: EmbedReport['failure'];
  let missing: string[];
  try {
    dimensions = store.dimensionOf(provider.model);
    missing = store.missing(provider.model, [...texts.keys()]);
    onProgress?.(0, missing.length);
    for (let i = 0; i < missing.length; i += settings.batchSize) {
      const batch = missing.slice(i, i + settings.batchSize);
      const answer = await provider.embed(
        batch.map((hash) => texts.get(hash) as string),
        settings.timeoutMs,
      );
      if (answer.ok && dimensions !== undefined && answer.dimensions !== dimensions) {
        failure = {
          kind: 'dimension',
          message: `${provider.model} answered ${answer.dimensions}-dimensional vectors, but ${dimensions} are stored for it: if the model changed, give it its own name in embeddings.model`,
          waiting: missing.length - i,
        };
        break;
      }
      if (!answer.ok) {
        failure = { kind: answer.kind, message: answer.message, waiting: missing.length - i };
        break;
      }
      dimensions ??= answer.dimensions;
      store.put(
        provider.model,
        batch.map((hash, n) => ({ hash, vector: answer.vectors[n] as Float32Array })),
      );
      embedded += batch.length;
      onProgress?.(embedded, missing.length);
    }
  } finally {
    store.close();
  }
  const dim = dimensions;
  const lessons = await ws.index.query((ctx) => {
    if (dim === undefined) return { total: rows.length, withVectors: 0 };
    loadCachedLessonVectors(ctx, storePath, provider.model, dim);
    const status = lessonVectorStatus(ctx.db, provider.model, dim);
    return { total: status.lessons, withVectors: status.embedded };
  });
  const docs = failure === undefined ? await embedDocs(ws, settings) : undefined;
  return {
    ...(docs === undefined ? {} : { docs }),
    provider: provider.name,
    model: provider.model,
    endpoint: provider.endpoint,
    dimensions: dimensions ?? null,
    texts: texts.size,
    embedded,
    cached: texts.size - missing.length,
    lessons,
    ...(failure === undefined ? (docs?.failure === undefined ? {} : { failure: docs.failure }) : { failure }),
  };
}

/**
 * The docs' share of hybrid search: `lore sync --embed` embeds each doc's summary and body (only
 * docs whose file changed since, by file signature) into the same embeddings cache as the lessons,
 * and `lore search --kind doc --hybrid` scores the docs by the cosine similarity of their vectors
 * to the query's, computed here (a docs corpus is small enough to compare with every doc).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LoreError } from '../../core/errors.js';
import { splitFrontmatter } from '../../core/docs/split-frontmatter.js';
import { cosineSimilarity, docEmbeddingText } from '../../core/search/embedding-text.js';
import { docsScope, loadAll } from '../docs/docs-actions.js';
import type { SemanticDocScores } from '../docs/docs-actions.js';
import { fileSignature } from '../fs/file-signature.js';
import type { Workspace } from '../workspace/workspace.js';
import { embeddingHash } from './embedding-hash.js';
import type { EmbedFailureKind } from './embedding-provider.js';
import { EMBEDDINGS_OFF, openEmbeddingProvider } from './embedding-settings.js';
import type { EmbeddingSettings } from './embedding-settings.js';
import { EMBEDDINGS_DB_FILE, openEmbeddingStore } from './embedding-store.js';
import type { DocText } from './embedding-store.js';

export type DocEmbedReport = {
  docs: number;
  embedded: number;
  cached: number;
  failure?: { kind: EmbedFailureKind; message: string; waiting: number };
};

export async function embedDocs(ws: Workspace, settings: EmbeddingSettings): Promise<DocEmbedReport> {
  const { provider } = settings;
  const { docs } = await loadAll(docsScope(ws));
  const store = openEmbeddingStore(join(ws.cacheDir, EMBEDDINGS_DB_FILE));
  try {
    const known = store.docTexts(provider.model);
    const texts: DocText[] = [];
    const bodies = new Map<string, string>();
    for (const doc of docs) {
      const sig = fileSignature(doc.abs);
      const before = known.get(doc.record.path);
      if (before !== undefined && before.sig === sig) {
        texts.push(before);
        continue;
      }
      let text: string;
      try {
        text = readFileSync(doc.abs, 'utf8');
      } catch {
        continue; // gone since the walk: the next run forgets it
      }
      const embedded = docEmbeddingText(doc.record.summary, splitFrontmatter(text).body);
      const hash = embeddingHash(embedded);
      bodies.set(hash, embedded);
      texts.push({ path: doc.record.path, sig, hash });
    }
    const missing = store.missing(
      provider.model,
      texts.map((t) => t.hash),
    );
    const dimensions = store.dimensionOf(provider.model);
    let embedded = 0;
    let failure: DocEmbedReport['failure'];
    for (let i = 0; i < missing.length; i += settings.batchSize) {
      const batch = missing.slice(i, i + settings.batchSize);
      const answer = await provider.embed(
        batch.map((hash) => bodies.get(hash) ?? ''),
        settings.timeoutMs,
      );
      if (!answer.ok || (dimensions !== undefined && answer.dimensions !== dimensions)) {
        failure = answer.ok
          ? {
              kind: 'dimension',
              message: `${provider.model} answered ${answer.dimensions}-dimensional vectors, ${dimensions} are stored for it`,
              waiting: missing.length - i,
            }
          : { kind: answer.kind, message: answer.message, waiting: missing.length - i };
        break;
      }
      store.put(
        provider.model,
        batch.map((hash, n) => ({ hash, vector: answer.vectors[n] as Float32Array })),
      );
      embedded += batch.length;
    }
    // a doc whose text did not get a vector is not recorded: the next run embeds it
    const stored = new Set(missing.slice(0, embedded));
    const waiting = new Set(missing.slice(embedded));
    store.setDocTexts(
      provider.model,
      texts.filter((t) => !waiting.has(t.hash) || stored.has(t.hash)),
    );
    return {
      docs: texts.length,
      embedded,
      cached: texts.length - missing.length,
      ...(failure === undefined ? {} : { failure }),
    };
  } finally {
    store.close();
  }
}

/**
 * The docs' similarity to `query` for a hybrid docs search, or why there is none (no provider,
 * nothing embedded, the endpoint failed): the docs search then blends what it has and says so.
 */
export async function semanticDocScores(
  ws: Workspace,
  env: NodeJS.ProcessEnv,
  query: string,
): Promise<{ semantic?: SemanticDocScores; note?: string }> {
  let settings: EmbeddingSettings | undefined;
  try {
    settings = openEmbeddingProvider(ws, env);
  } catch (error) {
    if (!(error instanceof LoreError)) throw error;
    return { note: `${error.message}; docs are not searched by meaning` };
  }
  if (settings === undefined) return { note: `${EMBEDDINGS_OFF}; docs are not searched by meaning` };
  const { provider } = settings;
  const store = openEmbeddingStore(join(ws.cacheDir, EMBEDDINGS_DB_FILE));
  try {
    const texts = store.docTexts(provider.model);
    if (texts.size === 0)
      return { note: 'no doc is embedded yet: run `lore sync --embed`; docs are not searched by meaning' };
    const answer = await provider.embed([query], settings.timeoutMs);
    if (!answer.ok)
      return {
        note: `the embedding endpoint ${provider.endpoint} failed: ${answer.message}; docs are not searched by meaning`,
      };
    const vector = answer.vectors[0] as Float32Array;
    const vectors = store.get(
      provider.model,
      [...texts.values()].map((t) => t.hash),
    );
    const scores = new Map<string, number>();
    for (const text of texts.values()) {
      const other = vectors.get(text.hash);
      if (other === undefined) continue;
      const similarity = cosineSimilarity(vector, other);
      if (similarity >= settings.minSimilarity) scores.set(text.path, similarity);
    }
    return { semantic: { scores, weight: settings.weight } };
  } finally {
    store.close();
  }
}

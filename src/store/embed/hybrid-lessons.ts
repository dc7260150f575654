/**
 * Hybrid lesson search for every surface (CLI, MCP, HTTP): the query embedded by the configured
 * provider, the cached lesson vectors brought into the index, then the blend. Anything in the way
 * (no provider, a provider that is down, slow or answers another dimension, no vectors yet) gives
 * the lexical results with `fallback` saying why and what to fix; nothing is written on the way.
 */
import { join } from 'node:path';
import { LoreError } from '../../core/errors.js';
import type { ListFilter, SearchResult } from '../index/lesson-index.js';
import { searchHybrid } from '../index/hybrid-query.js';
import { lessonVectorStatus } from '../index/lesson-vectors.js';
import type { Workspace } from '../workspace/workspace.js';
import type { EmbedFailureKind } from './embedding-provider.js';
import { EMBEDDINGS_OFF, openEmbeddingProvider } from './embedding-settings.js';
import type { EmbeddingSettings } from './embedding-settings.js';
import { EMBEDDINGS_DB_FILE, cachedDimension, loadCachedLessonVectors } from './embedding-store.js';

export type LessonHit = SearchResult & { scores?: { text: number; semantic: number } };

export type LessonSearch = {
  mode: 'lexical' | 'hybrid';
  /** Why a hybrid search gave lexical results only, and what to do about it. */
  fallback?: string;
  /** Lessons without a current vector: found by their words only. */
  unembedded?: { count: number; total: number; note: string };
  results: LessonHit[];
};

export type LessonSearchRequest = {
  query: string;
  filter: ListFilter & { limit: number };
  nowMs: number;
  hybrid: boolean;
  exact?: boolean;
};

const FIX: Record<EmbedFailureKind, string> = {
  unreachable: 'start the embedding server or fix embeddings.url',
  timeout: 'the server may be loading the model: try again, or raise embeddings.timeoutSeconds',
  error: 'check embeddings.model and the server log',
  malformed: 'check that embeddings.url and embeddings.provider name the same API',
  dimension: 'the model changed under the same name: run `lore sync --embed` to embed the lessons again',
};

/** A query embedded for a hybrid search, or why it could not be (its lexical results say so). */
export type QueryVector =
  { vector: Float32Array; settings: EmbeddingSettings; dim: number } | { fallback: string };

/**
 * The query embedded by the configured provider: the one step of a hybrid search that waits on
 * the network (up to `embeddings.timeoutSeconds`), apart from the rest so a server can take it
 * outside the queue its other calls wait in (`lore mcp`, `lore serve`): a slow model then holds
 * up only the search that asked for it. Reads the config and the vector cache, writes nothing.
 */
export async function embedQuery(ws: Workspace, env: NodeJS.ProcessEnv, query: string): Promise<QueryVector> {
  let settings;
  try {
    settings = openEmbeddingProvider(ws, env);
  } catch (error) {
    if (!(error instanceof LoreError)) throw error;
    return { fallback: `${error.message}${error.hint === undefined ? '' : ` (${error.hint})`}` };
  }
  if (settings === undefined) return { fallback: EMBEDDINGS_OFF };
  const { provider } = settings;
  const dim = cachedDimension(join(ws.cacheDir, EMBEDDINGS_DB_FILE), provider.model);
  if (dim === undefined)
    return { fallback: `no lesson is embedded with ${provider.model} yet: run \`lore sync --embed\`` };
  const answer = await provider.embed([query], settings.timeoutMs);
  if (!answer.ok)
    return {
      fallback: `the embedding endpoint ${provider.endpoint} failed: ${answer.message} (${FIX[answer.kind]})`,
    };
  const vector = answer.vectors[0];
  if (vector === undefined || vector.length !== dim)
    return {
      fallback: `${provider.model} answered a ${vector?.length ?? 0}-dimensional query vector, but the lessons were embedded with ${dim} (${FIX.dimension})`,
    };
  return { vector, settings, dim };
}

/**
 * A lesson search, hybrid when asked for and possible. `embedded`: the query's vector when the
 * caller embedded it already (`embedQuery`, outside its queue); else it is embedded here.
 */
export async function searchLessonsWith(
  ws: Workspace,
  env: NodeJS.ProcessEnv,
  req: LessonSearchRequest,
  embedded?: QueryVector,
): Promise<LessonSearch> {
  const lexical = async (fallback?: string): Promise<LessonSearch> => ({
    mode: 'lexical',
    ...(fallback === undefined ? {} : { fallback: `${fallback}; showing lexical results only` }),
    results: await ws.index.search(
      req.query,
      req.filter,
      ws.config.search.weights,
      req.nowMs,
      ws.halfLifeDays,
    ),
  });
  if (!req.hybrid) return lexical();
  const query = embedded ?? (await embedQuery(ws, env, req.query));
  if ('fallback' in query) return lexical(query.fallback);
  const { vector, settings, dim } = query;
  const { provider } = settings;
  const storePath = join(ws.cacheDir, EMBEDDINGS_DB_FILE);
  const status = await ws.index.query((ctx) => {
    loadCachedLessonVectors(ctx, storePath, provider.model, dim);
    return lessonVectorStatus(ctx.db, provider.model, dim);
  });
  if (status.embedded === 0)
    return lexical(`no lesson is embedded with ${provider.model} yet: run \`lore sync --embed\``);
  const results = await ws.index.query((ctx) =>
    searchHybrid(ctx, {
      query: req.query,
      vector,
      filter: req.filter,
      weights: ws.config.search.weights,
      semanticWeight: settings.weight,
      minSimilarity: settings.minSimilarity,
      nowMs: req.nowMs,
      halfLifeDays: ws.halfLifeDays,
      exact: req.exact,
    }),
  );
  const count = status.lessons - status.embedded;
  return {
    mode: 'hybrid',
    ...(count > 0
      ? {
          unembedded: {
            count,
            total: status.lessons,
            note: `${count} of ${status.lessons} lesson(s) are not embedded yet and were found by their words only: run \`lore sync --embed\``,
          },
        }
      : {}),
    results,
  };
}

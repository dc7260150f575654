/**
 * The embedding provider from the `embeddings` config: which API, where, with which key (read from
 * the environment variable the config names, never stored). As with `distill`, where requests go
 * is taken from the user's own config: a project config (committed, so written by whoever wrote
 * the repository) may pick the provider, the model and a loopback endpoint, but an endpoint off
 * this machine, a key variable or a model directory it sets is refused, because it could send the
 * user's key or lessons somewhere they did not choose.
 */
import { basename, resolve } from 'node:path';
import { LoreError } from '../../core/errors.js';
import type { Config } from '../../core/lesson/schema.js';
import { isLoopback } from '../distill/distill-settings.js';
import { parseConfigLayers } from '../workspace/config-file.js';
import type { Workspace } from '../workspace/workspace.js';
import { createOllamaEmbedder, createOpenAiEmbedder } from './embedding-apis.js';
import type { EmbeddingProvider } from './embedding-provider.js';
import { createLocalEmbedder } from './local-embedder.js';

export type EmbeddingSettings = {
  provider: EmbeddingProvider;
  timeoutMs: number;
  batchSize: number;
  /** The semantic share of a hybrid score. */
  weight: number;
  minSimilarity: number;
  duplicateSimilarity: number;
};

const DEFAULT_URLS = { openai: 'https://api.openai.com/v1', ollama: 'http://127.0.0.1:11434' } as const;

export const EMBEDDINGS_HELP = 'see "Hybrid search with embeddings" in the README';

/** How to turn hybrid search on, for messages that say it is off. */
export const EMBEDDINGS_OFF =
  'no embedding provider is configured (embeddings.provider is none): set embeddings.provider (openai, ollama or local) and embeddings.model in ~/.lore/config.yaml or .lore/config.yaml';

type EmbeddingsConfig = Config['embeddings'];

/** The config's `embeddings` section (a config cached by an older lore has none: off). */
export function embeddingsConfig(ws: Workspace): EmbeddingsConfig {
  return (
    (ws.config.embeddings as EmbeddingsConfig | undefined) ?? {
      provider: 'none',
      weight: 0.5,
      minSimilarity: 0.3,
      duplicateSimilarity: 0.9,
      batchSize: 32,
      timeoutSeconds: 30,
    }
  );
}

/**
 * The model name vectors are cached under, without opening the provider (no key, no endpoint
 * checks): what `lore dedupe` needs to read vectors already embedded. Undefined when off.
 */
export function embeddingModelOf(config: EmbeddingsConfig): string | undefined {
  if (config.provider === 'none') return undefined;
  if (config.provider === 'local')
    return config.model ?? (config.path === undefined ? undefined : basename(resolve(config.path)));
  return config.model;
}

function refuseProjectEndpoints(ws: Workspace, config: EmbeddingsConfig): void {
  if (ws.project === undefined) return;
  const userFile = ws.user.layout.configFile;
  const mine = (parseConfigLayers([userFile], ws.displayPath).config.embeddings ??
    {}) as Partial<EmbeddingsConfig>;
  for (const key of ['url', 'apiKeyEnv', 'path'] as const) {
    if (JSON.stringify(config[key]) === JSON.stringify(mine[key])) continue;
    if (key === 'url' && config.url !== undefined && isLoopback(config.url)) continue;
    throw new LoreError(
      'invalid',
      `${ws.displayPath(ws.project.layout.configFile)} sets embeddings.${key}; lore takes it from your user config only, so a repository cannot send your API key or your lessons where you did not choose`,
      { hint: `set embeddings.${key} in ${ws.displayPath(userFile)} instead (${EMBEDDINGS_HELP})` },
    );
  }
}

/** The configured provider, or undefined when embeddings are off. Throws on a config it cannot use. */
export function openEmbeddingProvider(ws: Workspace, env: NodeJS.ProcessEnv): EmbeddingSettings | undefined {
  const config = embeddingsConfig(ws);
  if (config.provider === 'none') return undefined;
  refuseProjectEndpoints(ws, config);
  const common = {
    timeoutMs: config.timeoutSeconds * 1000,
    batchSize: config.batchSize,
    weight: config.weight,
    minSimilarity: config.minSimilarity,
    duplicateSimilarity: config.duplicateSimilarity,
  };
  if (config.provider === 'local') {
    if (config.path === undefined)
      throw new LoreError('invalid', 'embeddings.provider is local, but embeddings.path is not set', {
        hint: `point embeddings.path at a transformers.js model directory in your user config (${EMBEDDINGS_HELP})`,
      });
    return { ...common, provider: createLocalEmbedder({ path: config.path, model: config.model }) };
  }
  if (config.model === undefined)
    throw new LoreError(
      'invalid',
      `embeddings.provider is ${config.provider}, but embeddings.model is not set`,
      {
        hint: `name the embedding model the endpoint serves in embeddings.model, e.g. nomic-embed-text (${EMBEDDINGS_HELP})`,
      },
    );
  const url = config.url ?? DEFAULT_URLS[config.provider];
  const keyEnv = config.apiKeyEnv ?? (config.provider === 'openai' ? 'OPENAI_API_KEY' : undefined);
  const apiKey = keyEnv === undefined ? undefined : env[keyEnv]?.trim() || undefined;
  if (apiKey === undefined && config.apiKeyEnv !== undefined)
    throw new LoreError('invalid', `${config.apiKeyEnv} is not set; embeddings.apiKeyEnv names it`, {
      hint: `export ${config.apiKeyEnv}=... (lore reads the key from the environment and never stores it)`,
    });
  if (apiKey === undefined && !isLoopback(url) && config.provider === 'openai')
    throw new LoreError('invalid', `${keyEnv} is not set; ${url} needs an API key`, {
      hint: `export ${keyEnv}=..., or name another variable in embeddings.apiKeyEnv (${EMBEDDINGS_HELP})`,
    });
  const settings = { url, model: config.model, apiKey };
  return {
    ...common,
    provider: config.provider === 'openai' ? createOpenAiEmbedder(settings) : createOllamaEmbedder(settings),
  };
}

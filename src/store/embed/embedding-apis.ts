/**
 * The two HTTP shapes: OpenAI-style embeddings (`POST {url}/embeddings`, which OpenAI, vLLM,
 * LM Studio and Ollama's /v1 all serve) and Ollama's own `POST {url}/api/embed`. One request per
 * batch through Node's fetch, cut off at the timeout (the distill providers' postJson).
 */
import { postJson } from '../distill/api-providers.js';
import { checkVectors } from './embedding-provider.js';
import type { Embedded, EmbeddingProvider } from './embedding-provider.js';

export type EmbeddingApiSettings = { url: string; model: string; apiKey: string | undefined };

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const trimSlash = (url: string) => url.replace(/\/+$/, '');

/**
 * A provider of one HTTP shape: the request is the same (`{ model, input }`, a bearer key when
 * set); `vectors` reads the answer's list of embeddings, in input order, or says what is missing.
 */
function apiEmbedder(
  name: string,
  endpoint: string,
  settings: EmbeddingApiSettings,
  vectors: (json: unknown) => unknown[] | string,
): EmbeddingProvider {
  return {
    name,
    model: settings.model,
    endpoint,
    async embed(texts, timeoutMs): Promise<Embedded> {
      if (texts.length === 0) return { ok: true, vectors: [], dimensions: 0 };
      const headers: Record<string, string> = {};
      if (settings.apiKey !== undefined) headers.authorization = `Bearer ${settings.apiKey}`;
      const answer = await postJson(endpoint, headers, { model: settings.model, input: texts }, timeoutMs);
      if (!answer.ok) return answer;
      const found = vectors(answer.json);
      if (typeof found === 'string') return { ok: false, kind: 'malformed', message: found };
      return checkVectors(found, texts.length);
    },
  };
}

export function createOpenAiEmbedder(settings: EmbeddingApiSettings): EmbeddingProvider {
  return apiEmbedder('openai', `${trimSlash(settings.url)}/embeddings`, settings, (json) => {
    const data = isObject(json) && Array.isArray(json.data) ? json.data : undefined;
    if (data === undefined) return 'the answer has no `data` list (not /v1/embeddings?)';
    // `index` says which input each embedding belongs to; servers may answer out of order
    const ordered: unknown[] = new Array<unknown>(data.length);
    for (const [position, item] of data.entries()) {
      const index = isObject(item) && typeof item.index === 'number' ? item.index : position;
      ordered[index] = isObject(item) ? item.embedding : undefined;
    }
    return ordered;
  });
}

export function createOllamaEmbedder(settings: EmbeddingApiSettings): EmbeddingProvider {
  return apiEmbedder('ollama', `${trimSlash(settings.url)}/api/embed`, settings, (json) =>
    isObject(json) && Array.isArray(json.embeddings)
      ? json.embeddings
      : 'the answer has no `embeddings` list (not /api/embed?)',
  );
}

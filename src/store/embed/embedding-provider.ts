/**
 * The one interface every embedding model is reached through: texts in, one vector per text out
 * (all of one dimension), or a failure that says what went wrong and what to fix. Providers add
 * no behaviour (no retries, no caching): the caller decides, and a failure never loses anything
 * because nothing is written until vectors come back whole.
 */

export type EmbedFailureKind =
  /** Nothing reached the model: refused connection, unknown host, a missing local package. */
  | 'unreachable'
  /** No answer within the timeout. */
  | 'timeout'
  /** The endpoint answered with an error. */
  | 'error'
  /** An answer that is not the API's shape, or not one finite vector per text. */
  | 'malformed'
  /** Vectors of another dimension than the ones asked for (or stored for this model). */
  | 'dimension';

export type Embedded =
  | { ok: true; vectors: Float32Array[]; dimensions: number }
  | { ok: false; kind: EmbedFailureKind; message: string };

export type EmbeddingProvider = {
  /** `openai`, `ollama` or `local`. */
  name: string;
  model: string;
  /** Where requests go, for people: a URL or a directory. */
  endpoint: string;
  embed(texts: readonly string[], timeoutMs: number): Promise<Embedded>;
};

/**
 * An answer's vectors checked: one per text, numbers only, all of one length (and of `expected`
 * when given). Every provider's answer passes through here.
 */
export function checkVectors(raw: unknown, count: number, expected?: number): Embedded {
  if (!Array.isArray(raw) || raw.length !== count)
    return {
      ok: false,
      kind: 'malformed',
      message: `asked for ${count} vector(s), got ${Array.isArray(raw) ? raw.length : 'none'}`,
    };
  const vectors: Float32Array[] = [];
  for (const item of raw) {
    if (!Array.isArray(item) && !(item instanceof Float32Array))
      return { ok: false, kind: 'malformed', message: 'an embedding is not a list of numbers' };
    const values = item as ArrayLike<unknown>;
    const vector = new Float32Array(values.length);
    for (let i = 0; i < values.length; i++) {
      const value = values[i];
      if (typeof value !== 'number' || !Number.isFinite(value))
        return {
          ok: false,
          kind: 'malformed',
          message: 'an embedding holds something other than finite numbers',
        };
      vector[i] = value;
    }
    vectors.push(vector);
  }
  const dimensions = vectors[0]?.length ?? expected ?? 0;
  if (count > 0 && dimensions === 0)
    return { ok: false, kind: 'malformed', message: 'the endpoint answered empty embeddings' };
  if (vectors.some((vector) => vector.length !== dimensions))
    return { ok: false, kind: 'malformed', message: 'the embeddings in one answer differ in length' };
  if (expected !== undefined && count > 0 && dimensions !== expected)
    return {
      ok: false,
      kind: 'dimension',
      message: `the model answered ${dimensions}-dimensional vectors, ${expected} were expected`,
    };
  return { ok: true, vectors, dimensions };
}

/**
 * The embedding providers' contract, run on both HTTP shapes against the scripted embedding
 * server on 127.0.0.1: vectors in input order and of one dimension, and each way an endpoint can
 * fail told apart (nothing listening, no answer in time, an error status, not JSON, too few
 * vectors for the texts).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, onTestFinished } from 'vitest';
import { embedText, startEmbeddingServer } from '../../scripts/embedding-server.mjs';
import { createOllamaEmbedder, createOpenAiEmbedder } from '../../src/store/embed/embedding-apis.js';
import type { EmbeddingProvider } from '../../src/store/embed/embedding-provider.js';

const SHAPES = [
  ['openai', (url: string) => createOpenAiEmbedder({ url: `${url}/v1`, model: 'm', apiKey: 'sk-test' })],
  ['ollama', (url: string) => createOllamaEmbedder({ url, model: 'm', apiKey: undefined })],
] as const satisfies readonly (readonly [string, (url: string) => EmbeddingProvider])[];

async function started(mode?: 'hang' | 'status500' | 'garbage') {
  const server = await startEmbeddingServer({ dimensions: 32, ...(mode === undefined ? {} : { mode }) });
  onTestFinished(() => server.close());
  return server;
}

/** A server that answers one vector whatever it is asked: the wrong count. */
async function oneVectorServer(): Promise<string> {
  const server = createServer((req, res) => {
    req.resume().on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const vector = [1, 0, 0];
      res.end(
        JSON.stringify(
          req.url === '/api/embed' ? { embeddings: [vector] } : { data: [{ index: 0, embedding: vector }] },
        ),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe.each(SHAPES)('%s embeddings', (name, create) => {
  it('answers one vector per text, in input order, and sends the key only when there is one', async () => {
    const server = await started();
    const texts = ['pytest waits on a TTY', 'docker port 5432', 'rebase before push'];
    const answer = await create(server.url).embed(texts, 5000);
    expect(answer).toMatchObject({ ok: true, dimensions: 32 });
    const { vectors } = answer as Extract<typeof answer, { ok: true }>;
    expect(vectors.map((v) => Array.from(v))).toEqual(
      texts.map((t) => Array.from(Float32Array.from(embedText(t, 32)))),
    );
    expect(server.requests[0]?.path).toBe(name === 'openai' ? '/v1/embeddings' : '/api/embed');
    expect(server.requests[0]?.headers.authorization).toBe(name === 'openai' ? 'Bearer sk-test' : undefined);
    expect(server.requests[0]).toMatchObject({ model: 'm', input: texts });
    expect(await create(server.url).embed([], 5000)).toEqual({ ok: true, vectors: [], dimensions: 0 });
  });

  it.each([
    ['hang', 'timeout', 'no answer within 1 s'],
    ['status500', 'error', 'HTTP 500'],
    ['garbage', 'malformed', 'something other than JSON'],
  ] as const)('a server that answers %s: %s', async (mode, kind, message) => {
    const server = await started(mode);
    const answer = await create(server.url).embed(['x'], 1000);
    expect(answer).toMatchObject({ ok: false, kind });
    expect(answer.ok ? '' : answer.message).toContain(message);
  });

  it('nothing listening: unreachable; too few vectors: malformed', async () => {
    const server = await started();
    const url = server.url;
    await server.close();
    expect(await create(url).embed(['x'], 1000)).toMatchObject({ ok: false, kind: 'unreachable' });
    const short = await create(await oneVectorServer()).embed(['a', 'b'], 1000);
    expect(short).toMatchObject({ ok: false, kind: 'malformed', message: 'asked for 2 vector(s), got 1' });
  });
});

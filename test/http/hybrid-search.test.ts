/** `GET /api/search?hybrid=1` and `/api/lessons?q=&hybrid=1`, in-process, against the scripted embedding server. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { startEmbeddingServer } from '../../scripts/embedding-server.mjs';
import { embedWorkspace } from '../../src/store/embed/embed-workspace.js';
import { openEmbeddingProvider } from '../../src/store/embed/embedding-settings.js';
import { createAppSandbox } from '../helpers/http.js';

type SearchBody = { mode?: string; fallback?: string; results: { id: string; matchedBy: string[] }[] };
type ListBody = { items: { id: string }[]; notice?: string };

describe('hybrid search over HTTP', () => {
  it('blends in meaning with hybrid=1, says why when it cannot, and refuses a bad flag', async () => {
    const endpoint = await startEmbeddingServer({ dimensions: 256 });
    onTestFinished(() => endpoint.close());
    const sandbox = createAppSandbox();
    const tty = await sandbox.add({ summary: 'pytest waits on a TTY: run it with CI=1' });
    await sandbox.add({ summary: 'docker compose: free port 5432 before starting postgres' });
    const home = sandbox.env.LORE_HOME as string;
    mkdirSync(home, { recursive: true });
    writeFileSync(
      join(home, 'config.yaml'),
      JSON.stringify({ embeddings: { provider: 'ollama', url: endpoint.url, model: 'bow-256' } }),
    );
    const query = encodeURIComponent('why does my test runner hang in the pipeline');

    // nothing embedded yet: BM25 results and the reason
    const before = (await sandbox.app.request(`/api/search?q=${query}&hybrid=1`)).json<SearchBody>();
    expect(before).toMatchObject({ mode: 'lexical', results: [] });
    expect(before.fallback).toContain('lore sync --embed');

    const ws = await sandbox.open();
    try {
      const settings = openEmbeddingProvider(ws, sandbox.env);
      expect(settings).toBeDefined();
      const report = await embedWorkspace(ws, settings as NonNullable<typeof settings>);
      expect(report).toMatchObject({ embedded: 2, lessons: { total: 2, withVectors: 2 } });
    } finally {
      ws.close();
    }

    const found = (await sandbox.app.request(`/api/search?q=${query}&hybrid=1`)).json<SearchBody>();
    expect(found.mode).toBe('hybrid');
    expect(found.results.map((r) => [r.id, r.matchedBy])).toEqual([[tty, ['semantic']]]);
    const listed = (await sandbox.app.request(`/api/lessons?q=${query}&hybrid=1`)).json<ListBody>();
    expect(listed.items.map((item) => item.id)).toEqual([tty]);
    expect(listed.notice).toBeUndefined();
    const words = (await sandbox.app.request(`/api/lessons?q=${query}`)).json<ListBody>();
    expect(words.items).toEqual([]);

    endpoint.setMode('hang');
    writeFileSync(
      join(home, 'config.yaml'),
      JSON.stringify({
        embeddings: { provider: 'ollama', url: endpoint.url, model: 'bow-256', timeoutSeconds: 1 },
      }),
    );
    const slow = (await sandbox.app.request(`/api/lessons?q=pytest&hybrid=1`)).json<ListBody>();
    expect(slow.items.map((item) => item.id)).toEqual([tty]);
    expect(slow.notice).toContain('no answer within 1 s');

    const bad = await sandbox.app.request('/api/search?q=pytest&hybrid=maybe');
    expect(bad.status).toBe(400);
  });
});

/** MCP `lore_search` with `hybrid: true`, against the scripted embedding server on 127.0.0.1. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it, onTestFinished } from 'vitest';
import { startEmbeddingServer } from '../../scripts/embedding-server.mjs';
import { createSandbox, seedLessons } from '../helpers/cli.js';
import { connectMcp } from '../helpers/mcp.js';

type SearchAnswer = { results: { id: string; matched_by: string[] }[]; mode?: string; fallback?: string };

describe('lore_search hybrid', () => {
  it('finds a lesson by meaning, and falls back with the reason when the server fails', async () => {
    const endpoint = await startEmbeddingServer({ dimensions: 256 });
    onTestFinished(() => endpoint.close());
    const sandbox = createSandbox();
    seedLessons(sandbox, [
      { id: 'tty0000001', summary: 'pytest waits on a TTY: run it with CI=1' },
      { id: 'dckr000001', summary: 'docker compose: free port 5432 before starting postgres' },
    ]);
    mkdirSync(sandbox.userTier, { recursive: true });
    writeFileSync(
      join(sandbox.userTier, 'config.yaml'),
      JSON.stringify({
        embeddings: { provider: 'openai', url: `${endpoint.url}/v1`, model: 'bow-256', timeoutSeconds: 1 },
      }),
    );
    // runAsync: the scripted server answers from this process's event loop
    expect((await sandbox.runAsync(['sync', '--embed'])).code).toBe(0);
    const client = await connectMcp(sandbox);
    const call = async (args: Record<string, unknown>) =>
      ((await client.callTool({ name: 'lore_search', arguments: args })) as CallToolResult)
        .structuredContent as SearchAnswer;

    const lexical = await call({ query: 'why does my test runner hang in the pipeline' });
    expect(lexical.results).toEqual([]);
    expect(lexical.mode).toBeUndefined();
    const hybrid = await call({ query: 'why does my test runner hang in the pipeline', hybrid: true });
    expect(hybrid.mode).toBe('hybrid');
    expect(hybrid.results.map((r) => [r.id, r.matched_by])).toEqual([['tty0000001', ['semantic']]]);

    endpoint.setMode('status500');
    const fallback = await call({ query: 'pytest', hybrid: true });
    expect(fallback).toMatchObject({ mode: 'lexical', results: [{ id: 'tty0000001' }] });
    expect(fallback.fallback).toContain('HTTP 500');

    // a model that does not answer holds up the search that asked for it, not the other calls
    endpoint.setMode('hang');
    const started = performance.now();
    const slow = call({ query: 'pytest', hybrid: true }).then((answer) => ({
      answer,
      ms: performance.now() - started,
    }));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const shown = (await client.callTool({
      name: 'lore_show',
      arguments: { id: 'dckr000001' },
    })) as CallToolResult;
    const showMs = performance.now() - started;
    expect(shown.isError).toBeFalsy();
    const { answer, ms } = await slow;
    expect(answer.fallback).toContain('the server may be loading the model');
    expect(ms).toBeGreaterThan(900);
    expect(showMs).toBeLessThan(ms - 300);
  });
});

/**
 * `lore search --hybrid` and `lore sync --embed` end to end: the built CLI against the scripted
 * embedding server on 127.0.0.1 (scripts/embedding-server.mjs: hashed bag of words plus a synonym
 * table, so a paraphrase with no shared word lands near its lesson), for both API shapes, and
 * against a server that hangs, answers 500 or answers the wrong dimension: search falls back to
 * BM25, says what to fix, and no lesson is lost.
 */
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { startEmbeddingServer } from '../../scripts/embedding-server.mjs';
import { createSandbox, seedLessons } from '../helpers/cli.js';
import type { Sandbox } from '../helpers/cli.js';

type HybridJson = {
  mode: 'lexical' | 'hybrid';
  fallback?: string;
  unembedded?: { count: number; total: number };
  results: { id: string; matchedBy: string[]; scores?: { text: number; semantic: number } }[];
};
type SyncJson = {
  lessons: number;
  embeddings: {
    embedded: number;
    cached: number;
    dimensions: number | null;
    lessons: { total: number; withVectors: number };
    failure?: { kind: string; message: string; waiting: number };
  };
};

const LESSONS = [
  { id: 'tty0000001', summary: 'pytest waits on a TTY: run it with CI=1' },
  { id: 'dckr000001', summary: 'docker compose: free port 5432 before starting postgres' },
  { id: 'rebase0001', summary: 'Rebase onto the remote branch before pushing' },
  { id: 'tzzz000001', summary: 'Set TZ=UTC so date assertions agree on every machine' },
];

async function server(dimensions = 256) {
  const started = await startEmbeddingServer({ dimensions });
  onTestFinished(() => started.close());
  return started;
}

function configure(sandbox: Sandbox, where: 'user' | 'project', embeddings: Record<string, unknown>): void {
  const dir = where === 'user' ? sandbox.userTier : sandbox.inRepo('.lore');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'config.yaml'), JSON.stringify({ embeddings }));
}

function seeded(): Sandbox {
  const sandbox = createSandbox();
  seedLessons(sandbox, LESSONS);
  return sandbox;
}

const PARAPHRASE = 'why does my test runner hang in the pipeline';

describe('lore search --hybrid', () => {
  it('without a provider: BM25 results, and says once how to turn it on', async () => {
    const sandbox = seeded();
    const run = await sandbox.runAsync(['search', '--hybrid', 'pytest', '--json']);
    expect(run.code).toBe(0);
    const data = run.json<HybridJson>();
    expect(data.mode).toBe('lexical');
    expect(data.results.map((r) => r.id)).toEqual(['tty0000001']);
    expect(run.stderr.match(/no embedding provider is configured/g)).toHaveLength(1);
    expect(run.stderr).toContain('set embeddings.provider');
    // the paraphrase shares no word with the lesson: BM25 alone finds nothing
    const words = await sandbox.runAsync(['search', PARAPHRASE, '--json']);
    expect(words.json<HybridJson>().results).toEqual([]);
  });

  it.each(['openai', 'ollama'] as const)(
    '%s: finds a lesson by meaning after sync --embed, and caches vectors',
    async (api) => {
      const endpoint = await server();
      const sandbox = seeded();
      configure(sandbox, 'user', {
        provider: api,
        url: api === 'openai' ? `${endpoint.url}/v1` : endpoint.url,
        model: 'bow-256',
      });
      const before = await sandbox.runAsync(['search', '--hybrid', PARAPHRASE, '--json']);
      expect(before.json<HybridJson>()).toMatchObject({ mode: 'lexical', results: [] });
      expect(before.stderr).toContain('run `lore sync --embed`');
      expect(endpoint.requests).toHaveLength(0);

      const sync = await sandbox.runAsync(['sync', '--embed', '--json']);
      expect(sync.code).toBe(0);
      expect(sync.json<SyncJson>().embeddings).toMatchObject({
        embedded: 4,
        cached: 0,
        dimensions: 256,
        lessons: { total: 4, withVectors: 4 },
      });
      expect(endpoint.requests[0]?.path).toBe(api === 'openai' ? '/v1/embeddings' : '/api/embed');

      const found = await sandbox.runAsync(['search', '--hybrid', PARAPHRASE, '--json']);
      expect(found.code).toBe(0);
      const data = found.json<HybridJson>();
      expect(data.mode).toBe('hybrid');
      expect(data.results[0]).toMatchObject({ id: 'tty0000001', matchedBy: ['semantic'] });
      expect(data.results.map((r) => r.id)).not.toContain('dckr000001');
      expect(found.stderr).toBe('');

      // a rebuild re-embeds nothing: the vectors live in their own cache
      const again = (await sandbox.runAsync(['sync', '--embed', '--json'])).json<SyncJson>();
      expect(again.embeddings).toMatchObject({ embedded: 0, cached: 4, lessons: { withVectors: 4 } });
      // a changed lesson is re-embedded alone; until then search says it waits
      const edit = await sandbox.runAsync([
        'update',
        'tzzz000001',
        '--summary',
        'Pin the timezone in date tests',
      ]);
      expect(edit.code).toBe(0);
      const waiting = await sandbox.runAsync(['search', '--hybrid', 'clock zone', '--json']);
      expect(waiting.json<HybridJson>().unembedded).toMatchObject({ count: 1, total: 4 });
      expect(waiting.stderr).toContain('1 of 4 lesson(s) are not embedded yet');
      const one = (await sandbox.runAsync(['sync', '--embed', '--json'])).json<SyncJson>();
      expect(one.embeddings).toMatchObject({ embedded: 1, cached: 3 });
      const zone = (
        await sandbox.runAsync(['search', '--hybrid', 'clock zone', '--json'])
      ).json<HybridJson>();
      expect(zone.results[0]).toMatchObject({ id: 'tzzz000001', matchedBy: ['semantic'] });

      // another model re-embeds everything
      configure(sandbox, 'user', {
        provider: api,
        url: api === 'openai' ? `${endpoint.url}/v1` : endpoint.url,
        model: 'bow-other',
      });
      const other = (await sandbox.runAsync(['sync', '--embed', '--json'])).json<SyncJson>();
      expect(other.embeddings).toMatchObject({ embedded: 4, cached: 0 });
    },
  );

  it('a lesson that wins on words and meaning ranks first, with both reasons', async () => {
    const endpoint = await server();
    const sandbox = seeded();
    configure(sandbox, 'user', { provider: 'ollama', url: endpoint.url, model: 'bow-256' });
    expect((await sandbox.runAsync(['sync', '--embed'])).code).toBe(0);
    // a plain sync rebuilds the index and copies the cached vectors back, asking no model
    const asked = endpoint.requests.length;
    const rebuilt = await sandbox.runAsync(['sync', '--json']);
    expect(rebuilt.json<{ withVectors: number }>().withVectors).toBe(4);
    expect(endpoint.requests).toHaveLength(asked);
    const data = (
      await sandbox.runAsync(['search', '--hybrid', 'postgres port', '--json'])
    ).json<HybridJson>();
    expect(data.results[0]?.id).toBe('dckr000001');
    expect(data.results[0]?.matchedBy).toEqual(['text:summary', 'semantic']);
    expect(data.results[0]?.scores).toEqual({ text: 1, semantic: 1 });
  });

  it.each([
    ['hang', 'no answer within 1 s', 'raise embeddings.timeoutSeconds'],
    ['status500', 'HTTP 500', 'check embeddings.model'],
    ['wrongDim', '255-dimensional query vector', 'lore sync --embed'],
    ['garbage', 'something other than JSON', 'check that embeddings.url'],
  ] as const)(
    'a server that answers %s: BM25 results, what to fix, nothing lost',
    async (mode, said, fix) => {
      const endpoint = await server();
      const sandbox = seeded();
      configure(sandbox, 'user', {
        provider: 'openai',
        url: `${endpoint.url}/v1`,
        model: 'bow-256',
        timeoutSeconds: 1,
      });
      expect((await sandbox.runAsync(['sync', '--embed'])).code).toBe(0);
      endpoint.setMode(mode);
      const run = await sandbox.runAsync(['search', '--hybrid', 'pytest', '--json']);
      expect(run.code).toBe(0);
      const data = run.json<HybridJson>();
      expect(data.mode).toBe('lexical');
      expect(data.results.map((r) => r.id)).toEqual(['tty0000001']);
      expect(data.fallback).toContain(said);
      expect(data.fallback).toContain(fix);
      expect(run.stderr).toContain(said);
      expect(readdirSync(sandbox.inRepo('.lore', 'lessons')).sort()).toEqual(LESSONS.map((l) => l.id).sort());
    },
  );

  it('sync --embed against a failing server exits 1, keeps the lessons, and they wait', async () => {
    const endpoint = await server();
    const sandbox = seeded();
    configure(sandbox, 'user', { provider: 'ollama', url: endpoint.url, model: 'bow-256', batchSize: 2 });
    endpoint.setMode('status500');
    const run = await sandbox.runAsync(['sync', '--embed', '--json']);
    expect(run.code).toBe(1);
    expect(run.json<SyncJson>()).toMatchObject({
      lessons: 4,
      embeddings: { embedded: 0, failure: { kind: 'error', waiting: 4 } },
    });
    endpoint.setMode('ok');
    const next = (await sandbox.runAsync(['sync', '--embed', '--json'])).json<SyncJson>();
    expect(next.embeddings).toMatchObject({ embedded: 4, lessons: { withVectors: 4 } });
    expect(endpoint.requests.filter((r) => r.input.length > 0).every((r) => r.input.length <= 2)).toBe(true);
  });

  it('refuses a project config that sends lessons off this machine', async () => {
    const sandbox = seeded();
    configure(sandbox, 'project', {
      provider: 'openai',
      url: 'https://embeddings.example.com/v1',
      model: 'm',
    });
    const run = await sandbox.runAsync(['sync', '--embed']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('sets embeddings.url; lore takes it from your user config only');
    const search = await sandbox.runAsync(['search', '--hybrid', 'pytest', '--json']);
    expect(search.json<HybridJson>().fallback).toContain('sets embeddings.url');
  });

  it('lore dedupe pairs paraphrases by their vectors, and only with embeddings', async () => {
    const endpoint = await server();
    const sandbox = seeded();
    seedLessons(sandbox, [
      {
        id: 'tty0000002',
        summary: 'The test runner hangs in the pipeline on an interactive terminal prompt',
      },
    ]);
    type DedupeJson = {
      groups: { keep: { id: string }; others: { id: string }[]; pairs: { semantic?: number }[] }[];
    };
    const words = (await sandbox.runAsync(['dedupe', '--json'])).json<DedupeJson>();
    expect(words.groups).toEqual([]);
    configure(sandbox, 'user', {
      provider: 'ollama',
      url: endpoint.url,
      model: 'bow-256',
      duplicateSimilarity: 0.8,
    });
    expect((await sandbox.runAsync(['sync', '--embed'])).code).toBe(0);
    const meaning = (await sandbox.runAsync(['dedupe', '--json'])).json<DedupeJson>();
    expect(meaning.groups).toHaveLength(1);
    const ids = [meaning.groups[0]?.keep.id, ...(meaning.groups[0]?.others ?? []).map((o) => o.id)].sort();
    expect(ids).toEqual(['tty0000001', 'tty0000002']);
    expect(meaning.groups[0]?.pairs[0]?.semantic).toBeGreaterThanOrEqual(0.8);
    // above the threshold, the pair is not a duplicate
    configure(sandbox, 'user', {
      provider: 'ollama',
      url: endpoint.url,
      model: 'bow-256',
      duplicateSimilarity: 0.9,
    });
    expect((await sandbox.runAsync(['dedupe', '--json'])).json<DedupeJson>().groups).toEqual([]);
  });

  it('docs: sync --embed embeds them, search --kind doc --hybrid finds them by meaning', async () => {
    const endpoint = await server();
    const sandbox = seeded();
    mkdirSync(sandbox.inRepo('docs'), { recursive: true });
    writeFileSync(
      sandbox.inRepo('docs', 'terminal.md'),
      '---\ntype: runbook\nsummary: Interactive prompts under pytest\n---\nA TTY makes the suite wait: export CI=1.\n',
    );
    writeFileSync(
      sandbox.inRepo('docs', 'ports.md'),
      '---\ntype: runbook\nsummary: Postgres in docker compose\n---\nFree 5432 first.\n',
    );
    type DocsJson = { mode: string; results: { path: string; matchedBy: string[] }[] };
    const off = await sandbox.runAsync(['search', '--kind', 'doc', '--hybrid', PARAPHRASE, '--json']);
    expect(off.json<DocsJson>().results).toEqual([]);
    expect(off.stderr).toContain('no embedding provider is configured');
    configure(sandbox, 'user', { provider: 'openai', url: `${endpoint.url}/v1`, model: 'bow-256' });
    const sync = (await sandbox.runAsync(['sync', '--embed', '--json'])).json<
      SyncJson & { embeddings: { docs: unknown } }
    >();
    expect(sync.embeddings.docs).toEqual({ docs: 2, embedded: 2, cached: 0 });
    const found = await sandbox.runAsync(['search', '--kind', 'doc', '--hybrid', PARAPHRASE, '--json']);
    expect(found.code).toBe(0);
    expect(found.json<DocsJson>().results).toEqual([
      expect.objectContaining({ path: 'docs/terminal.md', matchedBy: ['semantic'] }),
    ]);
    expect(found.stderr).toBe('');
    const again = (await sandbox.runAsync(['sync', '--embed', '--json'])).json<
      SyncJson & { embeddings: { docs: unknown } }
    >();
    expect(again.embeddings.docs).toEqual({ docs: 2, embedded: 0, cached: 2 });
  });

  it('local: says what to install when transformers.js is absent, and which directory is missing', async () => {
    const sandbox = seeded();
    const modelDir = join(sandbox.base, 'models', 'all-MiniLM-L6-v2');
    configure(sandbox, 'user', { provider: 'local', path: join(sandbox.base, 'nowhere') });
    const missingDir = await sandbox.runAsync(['sync', '--embed', '--json']);
    expect(missingDir.code).toBe(1);
    expect(missingDir.json<SyncJson>().embeddings.failure?.message).toContain('nowhere does not exist');
    mkdirSync(modelDir, { recursive: true });
    configure(sandbox, 'user', { provider: 'local', path: modelDir });
    const run = await sandbox.runAsync(['sync', '--embed', '--json']);
    expect(run.code).toBe(1);
    expect(run.json<SyncJson>().embeddings).toMatchObject({
      embedded: 0,
      failure: { kind: 'unreachable', waiting: 4 },
    });
    expect(run.json<SyncJson>().embeddings.failure?.message).toContain(
      '@huggingface/transformers is not installed',
    );
    const search = await sandbox.runAsync(['search', '--hybrid', 'pytest', '--json']);
    expect(search.json<HybridJson>()).toMatchObject({ mode: 'lexical', results: [{ id: 'tty0000001' }] });
  });

  it('lore add names a paraphrase already in the store, and a slow model never holds the write', async () => {
    const endpoint = await server();
    const sandbox = seeded();
    configure(sandbox, 'user', {
      provider: 'ollama',
      url: endpoint.url,
      model: 'bow-256',
      duplicateSimilarity: 0.8,
    });
    expect((await sandbox.runAsync(['sync', '--embed'])).code).toBe(0);
    type AddJson = { id: string; duplicates: { id: string; semantic?: number }[] };
    const summary = 'The test runner hangs in the pipeline on an interactive terminal prompt';
    const added = await sandbox.runAsync(['add', '--summary', summary, '--json']);
    expect(added.code).toBe(0);
    expect(added.json<AddJson>().duplicates).toEqual([
      expect.objectContaining({ id: 'tty0000001', semantic: expect.any(Number) }),
    ]);
    // the draft's vector was cached: the next sync --embed asks for nothing new
    expect((await sandbox.runAsync(['sync', '--embed', '--json'])).json<SyncJson>().embeddings.embedded).toBe(
      0,
    );
    endpoint.setMode('hang');
    const slow = await sandbox.runAsync([
      'add',
      '--summary',
      'Headless jobs freeze waiting on stdin',
      '--json',
    ]);
    expect(slow.code).toBe(0);
    expect(slow.json<AddJson>().duplicates).toEqual([]);
  });

  it('sync --embed without a provider is a clear error', async () => {
    const sandbox = seeded();
    const run = await sandbox.runAsync(['sync', '--embed']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('no embedding provider is configured');
  });
});

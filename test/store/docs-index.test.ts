/**
 * The docs cache and body index in `.lore/cache/docs.db`: records follow the files, the body
 * index skips unchanged content and drops stale rows, and the lesson index is never touched.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { loadDocRecords, openDocsIndex } from '../../src/store/docs/docs-index.js';
import { walkDocs } from '../../src/store/docs/docs-walker.js';

function setup(files: Record<string, string>) {
  const repo = mkdtempSync(join(tmpdir(), 'lore-docs-index-'));
  onTestFinished(() => rmSync(repo, { recursive: true, force: true }));
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(repo, path)), { recursive: true });
    writeFileSync(join(repo, path), text);
  };
  for (const [path, text] of Object.entries(files)) write(path, text);
  const cache = join(repo, '.lore', 'cache');
  const index = openDocsIndex(join(cache, 'docs.db'));
  onTestFinished(() => index.close());
  const load = () =>
    loadDocRecords(
      join(cache, 'docs-records.json'),
      walkDocs(repo, ['docs']).docs,
      { taskPrefixes: [] },
      (doc) => doc.path,
    );
  return { repo, cache, index, write, load };
}

describe('docs index', async () => {
  it('re-reads only changed files and forgets deleted ones', async () => {
    const { repo, index, write, load } = setup({ 'docs/a.md': '# Alpha\n', 'docs/b.md': '# Beta\n' });
    expect((await load()).map((doc) => doc.record.summary)).toEqual(['Alpha', 'Beta']);
    write('docs/a.md', '# Alpha two, longer\n');
    unlinkSync(join(repo, 'docs/b.md'));
    expect((await load()).map((doc) => doc.record.summary)).toEqual(['Alpha two, longer']);
    expect(index.hasBodies()).toBe(false);
  });

  it('indexes bodies with a content-hash skip, --force and stale-row removal', async () => {
    const { repo, index, write, load } = setup({
      'docs/a.md': '---\ntype: pattern\nsummary: Retry\n---\nUse jittered backoff for retries.\n',
      'docs/b.md': '# Cache\nEvict by LRU.\n',
    });
    expect(index.indexBodies(await load(), false)).toEqual({
      indexed: 2,
      unchanged: 0,
      removed: 0,
      total: 2,
    });
    expect(index.hasBodies()).toBe(true);
    expect(index.indexBodies(await load(), false)).toEqual({
      indexed: 0,
      unchanged: 2,
      removed: 0,
      total: 2,
    });
    expect(index.indexBodies(await load(), true)).toEqual({ indexed: 2, unchanged: 0, removed: 0, total: 2 });
    expect([...index.searchBodies('jittered backoff').keys()]).toEqual(['docs/a.md']);
    write('docs/b.md', '# Cache\nEvict with jitter too.\n');
    unlinkSync(join(repo, 'docs/a.md'));
    expect(index.indexBodies(await load(), false)).toEqual({
      indexed: 1,
      unchanged: 0,
      removed: 1,
      total: 1,
    });
    expect([...index.searchBodies('jitter').keys()]).toEqual(['docs/b.md']);
    expect(index.searchBodies('backoff').size).toBe(0);
    expect(index.searchBodies('the').size).toBe(0);
  });

  it('lives in its own files beside the lesson index', async () => {
    const { cache, index, load } = setup({ 'docs/a.md': '# A\n' });
    index.indexBodies(await load(), false);
    expect(readdirSync(cache).filter((name) => name.startsWith('index.db'))).toEqual([]);
    expect(readdirSync(cache)).toEqual(expect.arrayContaining(['docs.db', 'docs-records.json']));
  });

  it('rebuilds corrupt cache files', async () => {
    const { cache, index, load } = setup({ 'docs/a.md': '# A\n' });
    mkdirSync(cache, { recursive: true });
    writeFileSync(
      join(cache, 'docs.db'),
      'this is not a database, just text long enough to be noticed '.repeat(40),
    );
    writeFileSync(join(cache, 'docs-records.json'), '{"version": 1, "key": ');
    expect((await load()).map((doc) => doc.record.summary)).toEqual(['A']);
    expect(index.indexBodies(await load(), false).indexed).toBe(1);
  });

  it('re-parses when taskPrefixes change', async () => {
    const { repo, cache } = setup({
      'docs/a.md': '---\ntype: design\nsummary: A\nrelated_artifacts: [OPS-1]\n---\n',
    });
    const file = join(cache, 'docs-records.json');
    const walk = walkDocs(repo, ['docs']).docs;
    const none = await loadDocRecords(file, walk, { taskPrefixes: [] }, (doc) => doc.path);
    expect(none[0]?.problems.map((p) => p.field)).toEqual(['related_artifacts.0']);
    const ops = await loadDocRecords(file, walk, { taskPrefixes: ['OPS'] }, (doc) => doc.path);
    expect(ops[0]?.problems).toEqual([]);
    expect(ops[0]?.record.relatedArtifacts).toEqual(['OPS-1']);
  });
});

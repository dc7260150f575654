/**
 * The docs walker on a real temporary tree: a root pointed above `.lore/`, gitignored files and
 * directories (nested .gitignore, negation, .git/info/exclude), skipped directories, symlinks
 * staying inside and escaping, `*` roots and a deterministic order.
 */
import { mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { normalizeDocsRoot, walkDocs, walkDocsCached } from '../../src/store/docs/docs-walker.js';

function makeTree(files: Record<string, string>): string {
  const base = mkdtempSync(join(tmpdir(), 'lore-docs-walk-'));
  onTestFinished(() => rmSync(base, { recursive: true, force: true }));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(base, path)), { recursive: true });
    writeFileSync(join(base, path), text);
  }
  return base;
}

const paths = (repo: string, roots: string[]): string[] => walkDocs(repo, roots).docs.map((doc) => doc.path);

describe('walkDocs', () => {
  it('never enters .lore/, .git, node_modules or target, even from a root above them', () => {
    const repo = makeTree({
      'README.md': '# r',
      '.lore/lessons/x/notes.md': 'lore data',
      '.lore/cache/a.md': 'cache',
      '.git/info/a.md': 'git',
      'node_modules/pkg/README.md': 'dep',
      'target/doc/x.md': 'rust',
      'sub/node_modules/y.md': 'dep',
      'sub/guide.md': '# g',
      'docs/a.md': '# a',
    });
    expect(paths(repo, ['.'])).toEqual(['README.md', 'docs/a.md', 'sub/guide.md']);
    expect(walkDocs(repo, ['.lore']).roots).toEqual([
      { pattern: '.lore', directories: [], skipped: '.lore/ is never a docs root' },
    ]);
    expect(paths(repo, ['.lore/lessons', './docs/../.lore'])).toEqual([]);
  });

  it('honours .gitignore files at every level, negations and .git/info/exclude', () => {
    const repo = makeTree({
      '.gitignore': 'docs/generated/\n*.draft.md\n',
      '.git/info/exclude': 'docs/local.md\n',
      'docs/a.md': '',
      'docs/b.draft.md': '',
      'docs/local.md': '',
      'docs/generated/api.md': '',
      'docs/team/.gitignore': 'private/\n!keep.draft.md\n',
      'docs/team/keep.draft.md': '',
      'docs/team/private/secret.md': '',
      'docs/team/public.md': '',
    });
    expect(paths(repo, ['docs'])).toEqual(['docs/a.md', 'docs/team/keep.draft.md', 'docs/team/public.md']);
  });

  it('follows symlinks that stay inside the repository and skips those that escape or reach .lore/', () => {
    const outside = makeTree({ 'secret.md': 'outside', 'dir/more.md': 'outside' });
    const repo = makeTree({
      'docs/a.md': '',
      'shared/inside.md': '',
      'shared/sub/deep.md': '',
      '.lore/private.md': '',
    });
    symlinkSync(join(repo, 'shared/inside.md'), join(repo, 'docs/linked.md'));
    symlinkSync(join(repo, 'shared/sub'), join(repo, 'docs/sub-link'));
    symlinkSync(join(outside, 'secret.md'), join(repo, 'docs/escape.md'));
    symlinkSync(join(outside, 'dir'), join(repo, 'docs/escape-dir'));
    symlinkSync(join(repo, '.lore'), join(repo, 'docs/lore-link'));
    symlinkSync(join(repo, 'docs'), join(repo, 'docs/loop'));
    symlinkSync(join(repo, 'missing.md'), join(repo, 'docs/dangling.md'));
    expect(paths(repo, ['docs'])).toEqual(['docs/a.md', 'docs/linked.md', 'docs/sub-link/deep.md']);
  });

  it('expands * roots, reports roots that gave nothing, and keeps one entry per file', () => {
    const repo = makeTree({
      'packages/web/docs/w.md': '',
      'packages/api/docs/b.md': '',
      'packages/api/docs/notes.txt': '',
      'packages/lib/src/x.md': '',
      'docs/d.markdown': '',
      'docs/e.mdx': '',
    });
    const walk = walkDocs(repo, ['packages/*/docs', 'docs', 'docs/', 'nope', '../elsewhere']);
    expect(walk.docs.map((doc) => [doc.path, doc.root])).toEqual([
      ['docs/d.markdown', 'docs'],
      ['docs/e.mdx', 'docs'],
      ['packages/api/docs/b.md', 'packages/api/docs'],
      ['packages/web/docs/w.md', 'packages/web/docs'],
    ]);
    expect(walk.roots.map((root) => [root.pattern, root.directories, root.skipped])).toEqual([
      ['packages/*/docs', ['packages/api/docs', 'packages/web/docs'], undefined],
      ['docs', ['docs'], undefined],
      ['docs/', ['docs'], undefined],
      ['nope', [], 'no such directory'],
      ['../elsewhere', [], 'outside the repository'],
    ]);
  });
});

describe('walkDocsCached', () => {
  it('follows added, renamed and deleted files, new directories and edited .gitignore files', () => {
    const repo = makeTree({ 'docs/a.md': '', 'docs/sub/b.md': '', '.gitignore': '' });
    const cacheFile = join(repo, '.lore', 'cache', 'docs-walk.json');
    const cached = () => walkDocsCached(repo, ['docs'], cacheFile).docs.map((doc) => doc.path);
    expect(cached()).toEqual(['docs/a.md', 'docs/sub/b.md']);
    expect(cached()).toEqual(['docs/a.md', 'docs/sub/b.md']);
    writeFileSync(join(repo, 'docs/sub/c.md'), '');
    expect(cached()).toEqual(['docs/a.md', 'docs/sub/b.md', 'docs/sub/c.md']);
    renameSync(join(repo, 'docs/a.md'), join(repo, 'docs/z.md'));
    mkdirSync(join(repo, 'docs/new'));
    writeFileSync(join(repo, 'docs/new/n.md'), '');
    expect(cached()).toEqual(['docs/new/n.md', 'docs/sub/b.md', 'docs/sub/c.md', 'docs/z.md']);
    writeFileSync(join(repo, '.gitignore'), 'docs/sub/\n');
    expect(cached()).toEqual(['docs/new/n.md', 'docs/z.md']);
    writeFileSync(join(repo, 'docs/new/.gitignore'), 'n.md\n');
    expect(cached()).toEqual(['docs/z.md']);
    unlinkSync(join(repo, 'docs/z.md'));
    expect(cached()).toEqual([]);
    expect(walkDocsCached(repo, ['.'], cacheFile).docs.map((doc) => doc.path)).toEqual([]);
    writeFileSync(join(repo, 'top.md'), '');
    expect(walkDocsCached(repo, ['.'], cacheFile).docs.map((doc) => doc.path)).toEqual(['top.md']);
  });

  it('notices a root that appears later', () => {
    const repo = makeTree({ 'README.md': '' });
    const cacheFile = join(repo, '.lore', 'cache', 'docs-walk.json');
    expect(walkDocsCached(repo, ['handbook/*'], cacheFile).docs).toEqual([]);
    mkdirSync(join(repo, 'handbook/team'), { recursive: true });
    writeFileSync(join(repo, 'handbook/team/t.md'), '');
    expect(walkDocsCached(repo, ['handbook/*'], cacheFile).docs.map((doc) => doc.path)).toEqual([
      'handbook/team/t.md',
    ]);
  });
});

describe('normalizeDocsRoot', () => {
  it.each([
    ['docs', 'docs'],
    ['./docs/', 'docs'],
    ['.', '.'],
    ['a/../b', 'b'],
    ['..', undefined],
    ['/etc', undefined],
    ['docs\\design', 'docs/design'],
  ])('%s -> %s', (input, expected) => {
    expect(normalizeDocsRoot(input)).toBe(expected);
  });
});

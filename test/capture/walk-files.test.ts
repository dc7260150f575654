// walk() lists what Node's recursive readdir lists (it replaced it for speed): every file below a
// root, symbolic links not followed, sorted; a file root is itself; a missing root nothing.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { walk } from '../../src/capture/walk-files.js';

const fixtures = fileURLToPath(new URL('../fixtures/transcripts/', import.meta.url));
const base = mkdtempSync(join(tmpdir(), 'lore-walk-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** What the scan listed before walk-files.ts: Node's recursive readdir, files only, sorted. */
function recursiveReaddir(root: string): string[] {
  return readdirSync(root, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

function tree(): string {
  const root = join(base, 'tree');
  mkdirSync(join(root, 'a', 'b', 'c'), { recursive: true });
  mkdirSync(join(root, 'empty'));
  for (const file of ['x.jsonl', 'a/y.jsonl', 'a/b/z.json', 'a/b/c/.hidden', 'a/b/c/w w.jsonl'])
    writeFileSync(join(root, file), '{}\n');
  symlinkSync(join(root, 'a'), join(root, 'link-to-dir'));
  symlinkSync(join(root, 'x.jsonl'), join(root, 'link-to-file.jsonl'));
  return root;
}

describe('walk', () => {
  const root = tree();
  it.each([
    ['the fixtures', fixtures],
    ['a tree with links and an empty folder', root],
    ['a root with a trailing slash', `${root}/`],
    ['a root spelt with ..', join(root, 'a', '..') + '/../tree/./a'],
    ['a relative root', relative(process.cwd(), join(root, 'a'))],
  ])('lists %s as the recursive readdir does', (_name, dir) => {
    expect(walk(dir)).toEqual(recursiveReaddir(dir));
  });

  it('gives a file root as itself and a missing root as nothing', () => {
    expect(walk(join(root, 'x.jsonl'))).toEqual([join(root, 'x.jsonl')]);
    expect(walk(join(root, 'missing'))).toEqual([]);
  });
});

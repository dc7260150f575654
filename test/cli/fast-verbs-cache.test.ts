/**
 * The fast verbs run from their CommonJS bundle (dist/cli-bundle/fast-core.cjs) and V8's code
 * cache (src/cli/fast-launch.ts): one cache per verb, in `$TMPDIR/lore-cli-<verb>-<uid>/`,
 * written by the verb's first run after the command and reused, not written again, by the next.
 * Every other verb runs the same way from the whole CLI's bundle (full-core.cjs, src/cli/bin.ts).
 */
import { mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../helpers/cli.js';

const uid = process.getuid?.() ?? 'user';

/** The one cache file in `<tmp>/<dir>-<uid>/`, with what shows whether it was written again. */
function cacheIn(tmp: string, dir: string) {
  const [file, ...others] = readdirSync(join(tmp, `${dir}-${uid}`));
  expect(others).toEqual([]);
  const stat = statSync(join(tmp, `${dir}-${uid}`, file ?? ''));
  return { file, ino: stat.ino, mtimeMs: stat.mtimeMs, size: stat.size };
}

describe('the fast verbs code caches', () => {
  it('each verb writes its own cache once, and its next run reads it', () => {
    const sandbox = createSandbox();
    sandbox.add(['--summary', 'pytest hangs on a TTY prompt: run it with CI=1', '--tool', 'Bash']);
    const tmp = join(sandbox.base, 'tmp');
    mkdirSync(tmp);
    const env = { TMPDIR: tmp };
    const cacheOf = (verb: string) => cacheIn(tmp, `lore-cli-${verb}`);
    expect(sandbox.run(['search', 'pytest'], { env }).code).toBe(0);
    expect(sandbox.run(['list'], { env }).code).toBe(0);
    const search = cacheOf('search');
    const list = cacheOf('list');
    expect(search.size).toBeGreaterThan(1000);
    expect(list.size).toBeGreaterThan(1000);

    const again = sandbox.run(['search', 'pytest'], { env });
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('pytest hangs');
    // V8 accepted it: a rejected cache would have been written again
    expect(cacheOf('search')).toEqual(search);
    expect(readdirSync(tmp).sort()).toEqual([`lore-cli-list-${uid}`, `lore-cli-search-${uid}`]);
  });
});

describe('the whole CLI code caches', () => {
  it('every other verb runs from full-core.cjs with a cache of its own, read again by its next run', () => {
    const sandbox = createSandbox();
    const tmp = join(sandbox.base, 'tmp');
    mkdirSync(tmp);
    const env = { TMPDIR: tmp };
    const cacheOf = (verb: string) => cacheIn(tmp, `lore-cli-full-${verb}`);
    const add = (summary: string) =>
      sandbox.run(['add', '--summary', summary, '--tool', 'Bash', '--json'], { env });
    expect(add('pytest hangs on a TTY prompt: run it with CI=1').code).toBe(0);
    const first = cacheOf('add');
    expect(first.file).toMatch(/^code-[0-9a-f]{16}-\d+-v[\d.]+-\w+\.bin$/);
    expect(first.size).toBeGreaterThan(10_000);

    const second = add('git stash drops untracked files: use git stash -u');
    expect(second.code).toBe(0);
    expect(second.json<{ id: string }>().id).toMatch(/^[a-z0-9]{10}$/);
    // V8 accepted it: a rejected cache would have been written again
    expect(cacheOf('add')).toEqual(first);

    // a verb's name must look like one to name a directory; anything else shares `other`
    const unknown = sandbox.run(['../../escape'], { env });
    expect(unknown.code).toBe(2);
    expect(readdirSync(tmp).sort()).toEqual([`lore-cli-full-add-${uid}`, `lore-cli-full-other-${uid}`]);
  });
});

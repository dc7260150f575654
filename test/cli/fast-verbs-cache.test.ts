/**
 * The fast verbs run from their CommonJS bundle (dist/cli-bundle/fast-core.cjs) and V8's code
 * cache (src/cli/fast-launch.ts): one cache per verb, in `$TMPDIR/lore-cli-<verb>-<uid>/`,
 * written by the verb's first run after the command and reused, not written again, by the next.
 */
import { mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../helpers/cli.js';

const uid = process.getuid?.() ?? 'user';

describe('the fast verbs code caches', () => {
  it('each verb writes its own cache once, and its next run reads it', () => {
    const sandbox = createSandbox();
    sandbox.add(['--summary', 'pytest hangs on a TTY prompt: run it with CI=1', '--tool', 'Bash']);
    const tmp = join(sandbox.base, 'tmp');
    mkdirSync(tmp);
    const env = { TMPDIR: tmp };
    const cacheOf = (verb: string) => {
      const dir = join(tmp, `lore-cli-${verb}-${uid}`);
      const [file] = readdirSync(dir);
      const stat = statSync(join(dir, file ?? ''));
      return { file, ino: stat.ino, mtimeMs: stat.mtimeMs, size: stat.size };
    };
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

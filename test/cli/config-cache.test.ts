// The parsed config is cached in .lore/cache/config.json. A cache written by an older lore (one
// that knew fewer config keys) must be parsed again, not trusted: its config lacks sections the
// newer code reads.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../helpers/cli.js';

type Cached = { key: string; config: Record<string, unknown>; problems: unknown[] };

describe('config cache', () => {
  it('a cache from a lore with other config keys is parsed again, and every verb keeps working', () => {
    const sandbox = createSandbox();
    sandbox.add(['--summary', 'pytest hangs on a TTY', '--tool', 'Bash', '--tag', 'tool:pytest']);
    const cachePath = join(sandbox.repo, '.lore', 'cache', 'config.json');
    const cached = JSON.parse(readFileSync(cachePath, 'utf8')) as Cached;
    // What an older lore wrote: the same files, no fingerprint, and no aggregate/views sections.
    const { aggregate: _aggregate, views: _views, ...olderConfig } = cached.config;
    const olderKey = cached.key
      .split('|')
      .filter((part) => part.includes(':'))
      .join('|');
    writeFileSync(cachePath, JSON.stringify({ key: olderKey, config: olderConfig, problems: [] }));

    const sync = sandbox.run(['sync', '--json']);
    const add = sandbox.run(['add', '--summary', 'git stash drops untracked files', '--json']);
    expect([sync.code, sync.stderr, add.code]).toEqual([0, '', 0]);
    const rewritten = JSON.parse(readFileSync(cachePath, 'utf8')) as Cached;
    expect(Object.keys(rewritten.config)).toEqual(expect.arrayContaining(['aggregate', 'views']));
  });
});

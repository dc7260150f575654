// `lore sync` with nothing changed since the last full build keeps the index and the manifest
// (one scan, nothing parsed); any change to what they are built from rebuilds both.
import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../helpers/cli.js';
import type { Sandbox } from '../helpers/cli.js';

type SyncJson = { lessons: number; rebuilt: boolean; manifest: { lessons: number; stack: string[] } };

function synced(): { sandbox: Sandbox; ids: string[] } {
  const sandbox = createSandbox();
  const ids = [
    sandbox.add(['--summary', 'pytest hangs on a TTY prompt', '--command', '^pytest\\b']),
    sandbox.add(['--summary', 'npm ci, never npm install', '--path', 'package-lock.json']),
  ];
  expect(sync(sandbox).rebuilt).toBe(true);
  return { sandbox, ids };
}

function sync(sandbox: Sandbox, args: string[] = []): SyncJson {
  const run = sandbox.run(['sync', ...args, '--json']);
  expect([run.code, run.stderr]).toEqual([0, '']);
  return run.json<SyncJson>();
}

describe('lore sync with nothing changed', () => {
  it('keeps the index and the manifest, and reports what they hold', () => {
    const { sandbox } = synced();
    expect(sync(sandbox)).toMatchObject({ lessons: 2, rebuilt: false, manifest: { lessons: 2, stack: [] } });
    expect(sandbox.run(['sync']).stdout).toContain('nothing changed: kept the index of 2 lesson(s)');
    expect(sync(sandbox, ['--force']).rebuilt).toBe(true);
  });

  it.each([
    [
      'a lesson edited in place',
      (sandbox: Sandbox, [id]: string[]) => {
        const file = sandbox.lessonFile(id as string);
        writeFileSync(file, readFileSync(file, 'utf8').replace('TTY prompt', 'TTY prompt in CI'));
      },
    ],
    [
      'a vote appended by hand',
      (sandbox: Sandbox, [, id]: string[]) =>
        appendFileSync(
          join(sandbox.inRepo('.lore/lessons', id as string), 'votes.jsonl'),
          '{"model":"m","task":"t","at":"2025-01-01T00:00:00.000Z"}\n',
        ),
    ],
    [
      'a write through lore (the manifest was patched)',
      (sandbox: Sandbox) => sandbox.add(['--summary', 'git stash drops untracked files']),
    ],
    [
      'the config',
      (sandbox: Sandbox) =>
        writeFileSync(sandbox.inRepo('.lore', 'config.yaml'), 'inject:\n  maxLessons: 1\n'),
    ],
    [
      'a project doc',
      (sandbox: Sandbox) => {
        mkdirSync(sandbox.inRepo('docs'));
        writeFileSync(
          sandbox.inRepo('docs', 'auth.md'),
          '---\npaths: [src/auth/**]\n---\n# Auth\n\nTokens.\n',
        );
      },
    ],
    [
      'the stack',
      (sandbox: Sandbox) =>
        writeFileSync(sandbox.inRepo('package.json'), '{"dependencies":{"react":"^19.0.0"}}\n'),
    ],
  ])('rebuilds both after %s, then keeps them again', (_name, change) => {
    const { sandbox, ids } = synced();
    change(sandbox, ids);
    const rebuilt = sync(sandbox);
    expect(rebuilt.rebuilt).toBe(true);
    expect(sync(sandbox)).toEqual({ ...rebuilt, rebuilt: false, ms: expect.any(Number) });
  });
});

describe('lore sync over a damaged cache', () => {
  it('a file where the manifest folder should be is replaced by a fresh manifest', () => {
    const { sandbox } = synced();
    const manifest = sandbox.inRepo('.lore', 'cache', 'manifest');
    rmSync(manifest, { recursive: true, force: true });
    writeFileSync(manifest, 'not a folder');
    const sync = sandbox.run(['sync', '--force', '--json']);
    expect(sync.code, sync.stderr).toBe(0);
    expect(existsSync(join(manifest, 'head.json'))).toBe(true);
  });
});

// A folder or a transcript under a scan root that lore may not read (chmod 000): the scan skips it,
// names it (text and `--json` `problems`) and reads everything else, instead of stopping with an
// internal error.
// lore replay and lore protocol skip it as well. Permissions do not bind root, whose capabilities
// override them: run as root, lore runs as root without CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH
// (setpriv), which a chmod 000 folder stops as it stops any user. (Not as another user: the
// checkout may sit below a folder only root can enter, as a CI clone in a mktemp -d does.)
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createSandbox, LORE_BIN } from '../helpers/cli.js';
import type { Sandbox } from '../helpers/cli.js';

type ScanJson = {
  new: number;
  files: number;
  problems: { file: string; line: number | null; message: string }[];
};

/** Claude Code records of a `git commit` that fails and the one that works. */
function errorThenFix(): string {
  const base = { sessionId: 's-locked', cwd: '/work/app' };
  const pair = (id: string, command: string, result: string, error: boolean) => [
    {
      ...base,
      type: 'assistant',
      uuid: `a${id}`,
      message: {
        id: `m${id}`,
        role: 'assistant',
        content: [{ type: 'tool_use', id, name: 'Bash', input: { command } }],
      },
    },
    {
      ...base,
      type: 'user',
      uuid: `u${id}`,
      message: {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: id, is_error: error, content: result }],
      },
    },
  ];
  return [
    ...pair(
      't1',
      'git commit -m "Add the parser"',
      'Exit code 128\nerror: gpg failed to sign the data',
      true,
    ),
    ...pair('t2', 'git commit --no-gpg-sign -m "Add the parser"', '[main 1a2b3c4] Add the parser', false),
  ]
    .map((record) => `${JSON.stringify(record)}\n`)
    .join('');
}

const asRoot = process.getuid?.() === 0;

/** A sandbox with `t/ok/s.jsonl` readable and `t/locked/s.jsonl` in a folder lore may not read. */
function lockedTree(): Sandbox {
  const sandbox = createSandbox();
  for (const folder of ['ok', 'locked']) {
    mkdirSync(sandbox.inRepo('t', folder), { recursive: true });
    writeFileSync(sandbox.inRepo('t', folder, 's.jsonl'), errorThenFix());
  }
  chmodSync(sandbox.inRepo('t', 'locked'), 0o000);
  return sandbox;
}

function lore(sandbox: Sandbox, args: string[]) {
  const lore = [process.execPath, LORE_BIN, ...args];
  const [command, ...rest] = asRoot
    ? ['setpriv', '--bounding-set=-dac_override,-dac_read_search', '--inh-caps=-all', '--', ...lore]
    : lore;
  return spawnSync(command as string, rest, { cwd: sandbox.repo, env: sandbox.env, encoding: 'utf8' });
}

describe('an unreadable transcript under a --path folder', () => {
  it('is skipped and named by lore scan, lore replay and lore protocol, and the rest read', () => {
    const sandbox = lockedTree();
    chmodSync(sandbox.inRepo('t', 'locked'), 0o755);
    chmodSync(sandbox.inRepo('t', 'locked', 's.jsonl'), 0o000);
    const run = lore(sandbox, ['scan', '--path', 't', '--json']);
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      files: 1,
      new: 1,
      problems: [{ file: 't/locked/s.jsonl', line: null }],
    });
    expect(run.stderr).toContain(
      'lore scan: t/locked/s.jsonl: could not be read (permission denied, EACCES)',
    );
    const replay = lore(sandbox, ['replay', '--path', 't', '--json']);
    expect(replay.status, replay.stderr).toBe(0);
    expect(JSON.parse(replay.stdout)).toMatchObject({ counts: { files: 1, sessions: 1, brokenLines: 1 } });
    const protocol = lore(sandbox, ['protocol', '--path', 't', '--json']);
    expect(protocol.status, protocol.stderr).toBe(0);
    expect(protocol.stderr).toContain('s.jsonl: could not be read (permission denied, EACCES): skipped');
  });
});

describe('an unreadable folder under a scan root', () => {
  it('is skipped and named, and everything else is read', () => {
    const sandbox = lockedTree();
    const run = lore(sandbox, ['scan', '--path', 't', '--json']);
    expect(run.status, run.stderr).toBe(0);
    const data = JSON.parse(run.stdout) as ScanJson;
    expect(data).toMatchObject({ files: 1, new: 1 });
    expect(data.problems).toEqual([
      {
        file: 't/locked',
        line: null,
        message: expect.stringContaining('could not be read (permission denied, EACCES): skipped') as string,
      },
    ]);
    expect(run.stderr).toContain('lore scan: t/locked: folder could not be read (permission denied, EACCES)');
    // a scan with nothing new still says so
    const again = lore(sandbox, ['scan', '--path', 't']);
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toContain('(0 changed)');
    expect(again.stderr).toContain('lore scan: t/locked: folder could not be read');
  });

  it('is skipped by lore replay and lore protocol too', () => {
    const sandbox = lockedTree();
    const replay = lore(sandbox, ['replay', '--path', 't', '--json']);
    expect(replay.status, replay.stderr).toBe(0);
    expect(JSON.parse(replay.stdout)).toMatchObject({ counts: { files: 1, sessions: 1 } });
    const protocol = lore(sandbox, ['protocol', '--path', 't', '--json']);
    expect(protocol.status, protocol.stderr).toBe(0);
    expect(protocol.stderr).toContain('locked: could not be read (permission denied, EACCES): skipped');
  });
});

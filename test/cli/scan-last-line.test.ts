// A finished transcript whose last record has no newline after it: read once its file is quiet
// (not written to for QUIET_MS), held back while it may still be being written, and never read
// twice when the writer later appends its newline and more records.
import { appendFileSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../helpers/cli.js';
import type { Sandbox } from '../helpers/cli.js';

type ScanJson = {
  episodes: number;
  new: number;
  candidates: { summary: string; evidence: { line: number }[] }[];
};

/** Claude Code records of one call that fails and its fix (`n`: 1 or 2, for two different pairs). */
function errorThenFix(n: 1 | 2): string[] {
  const base = { sessionId: 's-last-line', cwd: '/work/app' };
  const pairs = {
    1: [
      ['git commit -m "Add the parser"', 'Exit code 128\nerror: gpg failed to sign the data', true],
      ['git commit --no-gpg-sign -m "Add the parser"', '[main 1a2b3c4] Add the parser', false],
    ],
    2: [
      ['npm test -- --grep foo', "Error: Cannot find module 'jest-environment-jsdom'\nExit code 1", true],
      ['npm test -- --grep foo --env=node', 'PASS src/foo.test.ts\nTests: 3 passed', false],
    ],
  } as const;
  return pairs[n].flatMap(([command, result, error], i) => {
    const id = `t${n}${i}`;
    const timestamp = `2026-01-02T10:0${n}:0${i}Z`;
    return [
      {
        ...base,
        type: 'assistant',
        timestamp,
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
        timestamp,
        uuid: `u${id}`,
        message: {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: id, is_error: error, content: result }],
        },
      },
    ].map((record) => JSON.stringify(record));
  });
}

const OLD = new Date('2026-01-02T12:00:00Z');

function setUp(): { sandbox: Sandbox; file: string } {
  const sandbox = createSandbox();
  mkdirSync(sandbox.inRepo('t'));
  const file = sandbox.inRepo('t', 'session.jsonl');
  // no newline after the last record
  writeFileSync(file, errorThenFix(1).join('\n'));
  return { sandbox, file };
}

function scan(sandbox: Sandbox): ScanJson {
  const run = sandbox.run(['scan', '--path', 't', '--json']);
  expect(run.code, run.stderr).toBe(0);
  return run.json<ScanJson>();
}

describe('a last record without its newline', () => {
  it('is read once the file is quiet, and only once', () => {
    const { sandbox, file } = setUp();
    utimesSync(file, OLD, OLD);
    expect(scan(sandbox)).toMatchObject({ episodes: 1, new: 1 });
    expect(scan(sandbox)).toMatchObject({ episodes: 0, new: 0 });
  });

  it('is held back while the file was just written, and read when it is quiet', () => {
    const { sandbox, file } = setUp();
    expect(scan(sandbox)).toMatchObject({ episodes: 0, new: 0 });
    utimesSync(file, OLD, OLD);
    expect(scan(sandbox)).toMatchObject({ episodes: 1, new: 1 });
    expect(scan(sandbox)).toMatchObject({ episodes: 0, new: 0 });
  });

  it('is not read again when the writer appends its newline and more records', () => {
    const { sandbox, file } = setUp();
    utimesSync(file, OLD, OLD);
    expect(scan(sandbox)).toMatchObject({ episodes: 1, new: 1 });
    appendFileSync(file, `\n${errorThenFix(2).join('\n')}\n`);
    utimesSync(file, OLD, OLD);
    const after = scan(sandbox);
    expect(after).toMatchObject({ episodes: 1, new: 1 });
    // numbered as one read of the whole file numbers them
    expect(after.candidates.map((c) => c.evidence.map((ref) => ref.line))).toEqual([[5, 6, 7, 8]]);
    const listed = sandbox
      .run(['candidates', 'list', '--json'])
      .json<{ candidates: { occurrences: number }[] }>();
    expect(listed.candidates.map((c) => c.occurrences)).toEqual([1, 1]);
  });
});

describe('lore replay and a last record without its newline', () => {
  type ReplayJson = { calls: number; counts: { brokenLines: number; missingResults: number } };
  const replay = (sandbox: Sandbox) => {
    const run = sandbox.run(['replay', '--path', 't', '--json']);
    expect(run.code, run.stderr).toBe(0);
    return run.json<ReplayJson>();
  };

  it('reads it in a quiet file, and counts no broken line', () => {
    const { sandbox, file } = setUp();
    utimesSync(file, OLD, OLD);
    expect(replay(sandbox)).toMatchObject({ calls: 2, counts: { brokenLines: 0, missingResults: 0 } });
  });

  it('counts it as a broken line while the file was just written', () => {
    const { sandbox } = setUp();
    expect(replay(sandbox)).toMatchObject({ calls: 2, counts: { brokenLines: 1, missingResults: 1 } });
  });
});

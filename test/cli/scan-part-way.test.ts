// A background scan can run while another session is still being written: `lore scan` part way
// through a session and again at its end must leave the review queue as one scan of the whole
// session leaves it. Two shapes that did not: three failed tries read before the fix (the first
// scan settled them as a retry loop, and its "Do not retry" text stayed after the fix came), and a
// Gemini CLI chat document rewritten with the fix (the failure read by the first scan never met
// the fix, so the episode was lost).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../helpers/cli.js';
import type { Sandbox } from '../helpers/cli.js';

const FAILED = "Error: Cannot find module 'jest-environment-jsdom'\nExit code 1";

type Listed = { summary: string; occurrences: number; confidence: number };

function queue(sandbox: Sandbox): Listed[] {
  const run = sandbox.run(['candidates', 'list', '--json']);
  expect(run.code, run.stderr).toBe(0);
  return run
    .json<{ candidates: Listed[] }>()
    .candidates.map(({ summary, occurrences, confidence }) => ({ summary, occurrences, confidence }));
}

function scan(sandbox: Sandbox): void {
  const run = sandbox.run(['scan', '--json']);
  expect(run.code, run.stderr).toBe(0);
}

/** Claude Code records: three `npm test` variants that fail, then the one that works. */
function retryLoop(): string[] {
  let n = 0;
  const meta = () => ({
    sessionId: 'b7a1c2d3-0000-4000-8000-000000000001',
    cwd: '/home/dev/work',
    timestamp: new Date(Date.UTC(2026, 0, 2, 10, 0, n)).toISOString(),
    uuid: `u${n++}`,
  });
  const records: object[] = [];
  const attempt = (id: string, command: string, output: string, error: boolean) => {
    records.push({
      ...meta(),
      type: 'assistant',
      message: {
        id: `m${id}`,
        role: 'assistant',
        content: [{ type: 'tool_use', id, name: 'Bash', input: { command } }],
      },
    });
    records.push({
      ...meta(),
      type: 'user',
      message: {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: id, content: output, ...(error ? { is_error: true } : {}) },
        ],
      },
    });
  };
  attempt('c1', 'npm test -- --grep foo', FAILED, true);
  attempt('c2', 'npm test -- --grep foo --verbose', FAILED, true);
  attempt('c3', 'npm test -- --grep foo --ci', FAILED, true);
  attempt('c4', 'npm test -- --grep foo --env=node', 'PASS src/foo.test.ts\nTests: 3 passed', false);
  return records.map((record) => `${JSON.stringify(record)}\n`);
}

/** A Gemini CLI chat document (the single-document `.json` form) holding its first `count` messages. */
function chatDocument(count: number): string {
  const call = (id: string, command: string, output: string, status: string) => ({
    id,
    name: 'run_shell_command',
    args: { command },
    status,
    result: [{ functionResponse: { id, name: 'run_shell_command', response: { output } } }],
  });
  const messages = [
    { id: 'u1', type: 'user', content: 'run the tests' },
    {
      id: 'g1',
      type: 'gemini',
      content: '',
      toolCalls: [call('t1', 'npm test -- --grep foo', FAILED.replace('Exit code', 'Exit Code:'), 'error')],
    },
    {
      id: 'g2',
      type: 'gemini',
      content: '',
      toolCalls: [call('t2', 'npm test -- --grep foo --env=node', 'PASS\nExit Code: 0', 'success')],
    },
  ];
  return JSON.stringify(
    { sessionId: 'g1s', projectHash: 'abc', messages: messages.slice(0, count) },
    null,
    2,
  );
}

describe('lore scan part way through a session, then at its end', () => {
  it('a retry loop read before its fix: the fix replaces the loop, as in one scan', () => {
    const lines = retryLoop();
    const write = (sandbox: Sandbox, upTo: number) => {
      const dir = join(sandbox.home, '.claude', 'projects', '-home-dev-work');
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'b7a1c2d3-0000-4000-8000-000000000001.jsonl'), lines.slice(0, upTo).join(''));
    };
    const whole = createSandbox();
    write(whole, lines.length);
    scan(whole);
    const once = queue(whole);
    expect(once).toHaveLength(1);
    expect(once[0]!.summary).toContain('--env=node');

    const apart = createSandbox();
    write(apart, 6);
    scan(apart);
    const loop = queue(apart);
    expect(loop.map((c) => c.summary)).toEqual([expect.stringContaining('Do not retry')]);
    write(apart, lines.length);
    scan(apart);
    expect(queue(apart)).toEqual(once);
  });

  it('a Gemini chat document rewritten with the fix: the episode is found, as in one scan', () => {
    const write = (sandbox: Sandbox, count: number) => {
      const dir = join(sandbox.home, '.gemini', 'tmp', 'abc', 'chats');
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'session-2026-01-02T10-00-g1.json'), chatDocument(count));
    };
    const whole = createSandbox();
    write(whole, 3);
    scan(whole);
    const once = queue(whole);
    expect(once).toHaveLength(1);
    expect(once[0]!.summary).toContain('--env=node');

    const apart = createSandbox();
    write(apart, 2);
    scan(apart);
    expect(queue(apart)).toEqual([]);
    write(apart, 3);
    scan(apart);
    expect(queue(apart)).toEqual(once);
  });
});

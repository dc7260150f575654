// A file scanned part way (a background scan while the session is still being written) and then
// to its end finds the same episodes as one scan of the whole file: calls written before their
// results, a failure further back than a dozen events, a Codex patch too large to keep whole.
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Agent } from '../../src/core/capture/events.js';
import { scanTranscripts } from '../../src/capture/scan-transcripts.js';

let base = '';
afterEach(() => rmSync(base, { recursive: true, force: true }));

/** The episodes of scanning `lines` in steps, cut after each line number in `cuts`. */
function inSteps(lines: object[], cuts: number[], file: string, agent: Agent): string[] {
  const dir = mkdtempSync(join(base, 'run-'));
  const path = join(dir, 'root', file);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, '');
  const found: string[] = [];
  let from = 0;
  for (const cut of [...cuts, lines.length]) {
    appendFileSync(
      path,
      lines
        .slice(from, cut)
        .map((line) => `${JSON.stringify(line)}\n`)
        .join(''),
    );
    from = cut;
    const report = scanTranscripts({
      roots: [{ path: join(dir, 'root'), agent }],
      statePath: join(dir, 'state.json'),
      detector: { window: 40 },
      redact: { names: [] },
      threads: 'never',
    });
    for (const e of report.episodes)
      found.push(
        `${e.kind} ${e.evidence.map((ref) => ref.line).join(',')} fix=${e.fix?.kind === 'tool-call' ? e.fix.callId : '-'}`,
      );
  }
  return found;
}

let second = 0;
const at = () => new Date(Date.UTC(2026, 0, 2, 10, 0, second++)).toISOString();
const meta = () => ({ sessionId: 's1', cwd: '/home/dev/work', timestamp: at(), uuid: `u${second}` });
const call = (id: string, name: string, input: object) => ({
  ...meta(),
  type: 'assistant',
  message: { id: `m${id}`, role: 'assistant', content: [{ type: 'tool_use', id, name, input }] },
});
const result = (id: string, text: string, error = false) => ({
  ...meta(),
  type: 'user',
  message: {
    role: 'user',
    content: [{ type: 'tool_result', tool_use_id: id, content: text, ...(error ? { is_error: true } : {}) }],
  },
});
const FAILED = "Error: Cannot find module 'jest-environment-jsdom'\nExit code 1";
const PASSED = 'PASS src/foo.test.ts\nTests: 3 passed';
const read = (k: number) => [
  call(`r${k}`, 'Read', { file_path: `/home/dev/work/src/f${k}.ts` }),
  result(`r${k}`, `     1→export const x = ${k};`),
];

describe('a file scanned part way, then to its end', () => {
  it.each([
    [
      'calls written before their results, cut between them',
      () => [
        call('c1', 'Bash', { command: 'npm test -- --grep foo' }),
        call('r1', 'Read', { file_path: '/home/dev/work/a.ts' }),
        call('r2', 'Read', { file_path: '/home/dev/work/b.ts' }),
        call('r3', 'Read', { file_path: '/home/dev/work/c.ts' }),
        result('c1', FAILED, true),
        result('r1', '1→a'),
        result('r2', '1→b'),
        result('r3', '1→c'),
        call('c2', 'Bash', { command: 'npm test -- --grep foo --env=node' }),
        result('c2', PASSED),
      ],
      4,
    ],
    [
      'a failure more than a dozen events before the cut',
      () => [
        call('c1', 'Bash', { command: 'npm test -- --grep foo' }),
        result('c1', FAILED, true),
        ...[0, 1, 2, 3, 4, 5, 6].flatMap(read),
        call('c2', 'Bash', { command: 'npm test -- --grep foo --env=node' }),
        result('c2', PASSED),
      ],
      15,
    ],
  ])('%s: the same episodes', (_name, lines, cut) => {
    base = mkdtempSync(join(tmpdir(), 'lore-cuts-'));
    const all = lines();
    const whole = inSteps(all, [], 'p/s1.jsonl', 'claude-code');
    expect(whole).toHaveLength(1);
    expect(inSteps(all, [cut], 'p/s1.jsonl', 'claude-code')).toEqual(whole);
  });

  it('a Codex patch too large to keep whole still names its file after the cut', () => {
    base = mkdtempSync(join(tmpdir(), 'lore-cuts-'));
    const patch = (from: number, to: number) =>
      `*** Begin Patch\n*** Update File: script.js\n@@\n${' const a = 1;\n'.repeat(250)}-const b = ${from};\n+const b = ${to};\n*** End Patch\n`;
    const item = (payload: object) => ({ timestamp: at(), type: 'response_item', payload });
    const lines = [
      { timestamp: at(), type: 'session_meta', payload: { id: 'cx1', cwd: '/home/dev/work' } },
      item({
        type: 'custom_tool_call',
        status: 'completed',
        call_id: 'p1',
        name: 'apply_patch',
        input: patch(2, 3),
      }),
      item({
        type: 'custom_tool_call_output',
        call_id: 'p1',
        output:
          'apply_patch verification failed: Failed to find expected lines in /home/dev/work/script.js:\n-const b = 2;',
      }),
      item({
        type: 'function_call',
        name: 'shell',
        arguments: JSON.stringify({ command: ['bash', '-lc', 'cat script.js'] }),
        call_id: 'r1',
      }),
      item({
        type: 'function_call_output',
        call_id: 'r1',
        output: JSON.stringify({ output: 'const a = 1;\nconst b = 4;\n', metadata: { exit_code: 0 } }),
      }),
      item({
        type: 'custom_tool_call',
        status: 'completed',
        call_id: 'p2',
        name: 'apply_patch',
        input: patch(4, 5),
      }),
      item({
        type: 'custom_tool_call_output',
        call_id: 'p2',
        output: JSON.stringify({
          output: 'Success. Updated the following files:\nM script.js\n',
          metadata: { exit_code: 0 },
        }),
      }),
    ];
    const file = 'sessions/2026/01/02/rollout-2026-01-02T10-00-00-cx1.jsonl';
    const whole = inSteps(lines, [], file, 'codex');
    expect(whole).toHaveLength(1);
    expect(inSteps(lines, [3], file, 'codex')).toEqual(whole);
  });
});

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileEvents } from '../../src/capture/file-events.js';
import type { TranscriptEvent } from '../../src/core/capture/events.js';
import { collectCalls, nextAttempt, sameKind } from '../../src/core/outcome/call-outcome.js';
import { errorClass, sameErrorClass } from '../../src/core/outcome/error-class.js';

describe('errorClass', () => {
  it.each([
    ['bash: pytset: command not found', 'missing-program'],
    ["'wmic' is not recognized as an internal or external command", 'missing-program'],
    ["ModuleNotFoundError: No module named 'requests'", 'missing-module'],
    ["Error: Cannot find module 'zod'", 'missing-module'],
    ['cat: notes.txt: No such file or directory', 'missing-file'],
    ['File does not exist.', 'missing-file'],
    ['mkdir: cannot create directory /opt/x: Permission denied', 'permission'],
    ['Command timed out after 2m 0.0s', 'timeout'],
    ['error: unknown option `--frobnicate`', 'usage'],
    ['Invalid Parameters -- try "/?" for help', 'usage'],
    ['SyntaxError: Unexpected token } in JSON at position 12', 'syntax'],
    ['ssh: Could not resolve hostname example.invalid: Name or service not known', 'network'],
    ['FAILED tests/test_api.py::test_get - AssertionError', 'test-failure'],
    ["src/a.ts(3,1): error TS2304: Cannot find name 'x'.", 'build-error'],
    ['fatal: destination path repo already exists and is not an empty directory', 'conflict'],
    ['Do you want to continue? [y/N]', 'interactive'],
    ['exit code 3', 'other'],
  ] as const)('%s is %s', (text, kind) => {
    expect(errorClass(text)).toBe(kind);
  });

  it.each([
    [undefined, 'usage', true],
    ['other', 'missing-file', true],
    ['missing-file', 'missing-file', true],
    ['missing-file', 'other', false],
    ['missing-program', 'test-failure', false],
  ] as const)('a %s mistake is met by a %s failure: %s', (expected, found, same) => {
    expect(sameErrorClass(expected, found)).toBe(same);
  });
});

const origin = { agent: 'claude-code', session: 's1', project: '/p', file: 'f.jsonl' } as const;
let line = 0;
function at(time: string) {
  line += 1;
  return { ...origin, timestamp: time, line };
}
const call = (id: string, command: string, time: string): TranscriptEvent => ({
  ...at(time),
  kind: 'tool-call',
  callId: id,
  tool: 'Bash',
  input: { command },
});
const result = (id: string, ok: boolean, text: string, time: string): TranscriptEvent => ({
  ...at(time),
  kind: 'tool-result',
  callId: id,
  tool: 'Bash',
  ok,
  text,
  exitCode: ok ? 0 : 1,
  failure: ok ? 'none' : 'exit-code',
});

describe('collectCalls', () => {
  it('pairs calls with results, classes failures and counts what is missing or out of order', () => {
    line = 0;
    const { sessions, counts } = collectCalls([
      { ...at('2026-01-01T00:00:00Z'), kind: 'user-text', text: 'run the tests' },
      call('a', 'pytest -x', '2026-01-01T00:00:01Z'),
      result('a', false, 'bash: pytest: command not found', '2026-01-01T00:00:02Z'),
      call('b', 'python -m pytest -x', '2026-01-01T00:00:03Z'),
      result('b', true, '3 passed', '2026-01-01T00:00:04Z'),
      call('c', 'git push', '2026-01-01T00:00:00Z'),
      { ...at('2026-01-01T00:00:05Z'), kind: 'rejection', callId: 'c', text: 'User rejected' },
      result('zzz', true, 'orphan', '2026-01-01T00:00:06Z'),
      call('d', 'pytest -k api', '2026-01-01T00:00:07Z'),
    ]);
    expect(sessions).toHaveLength(1);
    const calls = sessions[0]?.calls ?? [];
    expect(calls.map((c) => [c.keys, c.outcome, c.errorClass])).toEqual([
      [['pytest'], 'failed', 'missing-program'],
      [['python -m pytest'], 'ok', undefined],
      [['git push'], 'rejected', undefined],
      [['pytest'], 'no-result', undefined],
    ]);
    expect(calls[0]?.gist).toBe('bash: pytest: command not found');
    expect(sessions[0]?.prompts).toEqual([
      { text: 'run the tests', line: 1, time: '2026-01-01T00:00:00Z', beforeCall: 0 },
    ]);
    expect(counts).toEqual({ calls: 4, failed: 1, missingResults: 1, orphanResults: 1, clockBackwards: 1 });
    expect(sameKind(calls[0]!, calls[3]!)).toBe(true);
    expect(sameKind(calls[0]!, calls[1]!)).toBe(false);
    expect(nextAttempt(calls, 0)).toBe(calls[3]);
    expect(nextAttempt(calls, 1)).toBeUndefined();
  });

  it.each([
    ['gemini', 'run_shell_command', 'failed'],
    ['codex', 'exec_command', 'failed'],
    ['claude-code', 'Bash', 'ok'],
  ] as const)('a cd on its own in %s (%s) is %s: the next call starts over there', (agent, tool, outcome) => {
    const where = { ...origin, agent, timestamp: undefined, line: 1 };
    const { sessions } = collectCalls([
      { ...where, kind: 'tool-call', callId: 'x', tool, input: { command: 'cd app' } },
      { ...where, kind: 'tool-result', callId: 'x', tool, ok: true, text: '', exitCode: 0, failure: 'none' },
    ]);
    const [cd] = sessions[0]?.calls ?? [];
    expect(cd?.outcome).toBe(outcome);
    if (outcome === 'failed') expect(cd?.gist).toMatch(/^cd app changed nothing/);
  });

  it('a command whose output opens with its own error failed, though a pipe hid its exit code', () => {
    const where = { ...origin, agent: 'claude-code' as const, timestamp: undefined, line: 1 };
    const said =
      'Error: Input must be provided either through stdin or as a prompt argument when using --print';
    const { sessions } = collectCalls([
      {
        ...where,
        kind: 'tool-call',
        callId: 'x',
        tool: 'Bash',
        input: { command: 'claude --chrome 2>&1 | head -50' },
      },
      {
        ...where,
        kind: 'tool-result',
        callId: 'x',
        tool: 'Bash',
        ok: true,
        text: said,
        exitCode: undefined,
        failure: 'none',
      },
    ]);
    const [piped] = sessions[0]?.calls ?? [];
    expect([piped?.outcome, piped?.gist]).toEqual(['failed', said]);
  });

  it('reads a real Claude Code transcript into ordered calls with outcomes', () => {
    const file = join(
      'test/fixtures/transcripts/claude-code',
      'M-Thisness__M-Claude__Archives__0eda269a-9c44-481b-958d-23a3c6361259.jsonl',
    );
    const { sessions, counts } = collectCalls(fileEvents(file).events);
    const calls = sessions.flatMap((s) => s.calls);
    expect(calls.length).toBe(counts.calls);
    expect(calls.length).toBeGreaterThan(0);
    expect(
      calls.every((c, i) => i === 0 || c.line > calls[i - 1]!.line || c.session !== calls[i - 1]!.session),
    ).toBe(true);
    expect(calls.filter((c) => c.outcome === 'failed').length).toBe(counts.failed);
    expect(calls.filter((c) => c.outcome === 'failed').every((c) => c.errorClass !== undefined)).toBe(true);
  });
});

// `lore replay`'s reading of transcripts: hand-made Claude Code files with the bad input replay
// must count and survive (a truncated last line, a call without its result, a result without its
// call, a clock going backwards, a subagent file interleaved with its session), and the real
// fixtures.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readReplayTranscripts } from '../../src/capture/replay-transcripts.js';

const dir = mkdtempSync(join(tmpdir(), 'lore-replay-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const S = 'aaaaaaaa-0000-4000-8000-000000000001';
const at = (second: number) => `2026-01-01T00:00:${String(second).padStart(2, '0')}.000Z`;
const base = (second: number, sidechain = false) => ({
  isSidechain: sidechain,
  uuid: `u${second}`,
  timestamp: at(second),
  cwd: '/repo',
  sessionId: S,
});
const prompt = (second: number, text: string) =>
  JSON.stringify({ ...base(second), type: 'user', message: { role: 'user', content: text } });
const call = (second: number, id: string, command: string, sidechain = false) =>
  JSON.stringify({
    ...base(second, sidechain),
    type: 'assistant',
    message: { role: 'assistant', content: [{ type: 'tool_use', id, name: 'Bash', input: { command } }] },
  });
const result = (second: number, id: string, text: string, error: boolean, sidechain = false) =>
  JSON.stringify({
    ...base(second, sidechain),
    type: 'user',
    message: {
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: id, content: text, is_error: error }],
    },
  });

describe('readReplayTranscripts', () => {
  it('counts bad input, never throws, and merges a subagent file into its session in time order', () => {
    mkdirSync(join(dir, 'proj', S, 'subagents'), { recursive: true });
    writeFileSync(
      join(dir, 'proj', `${S}.jsonl`),
      [
        prompt(1, 'run the script'),
        call(2, 't1', 'python a.py'),
        result(3, 't1', 'bash: python: command not found', true),
        result(4, 'nobody', 'a result whose call is not here', false),
        JSON.stringify({ ...base(9), type: 'system', subtype: 'compact_boundary' }),
        call(10, 't3', 'python3 a.py'),
        result(11, 't3', 'ok', false),
        call(5, 't4', 'ls'), // the clock goes backwards
        call(12, 't5', 'git push'), // no result: the file ends
        '{"type":"assistant","message":{"content":[{"type":"tool_use"', // truncated last line
      ].join('\n'),
    );
    writeFileSync(
      join(dir, 'proj', S, 'subagents', 'agent-x1.jsonl'),
      `${[call(6, 's1', 'pytest', true), result(7, 's1', '1 passed', false, true)].join('\n')}\n`,
    );
    const read = readReplayTranscripts([{ path: join(dir, 'proj') }]);
    expect(read.files).toBe(2);
    expect(read.brokenLines).toBe(1);
    expect(read.counts).toMatchObject({ calls: 5, missingResults: 2, orphanResults: 1, clockBackwards: 1 });
    expect(read.sessions).toHaveLength(1);
    const session = read.sessions[0]!;
    expect(session.calls.map((c) => [c.command, c.sidechain, c.outcome])).toEqual([
      ['python a.py', false, 'failed'],
      ['pytest', true, 'ok'],
      ['python3 a.py', false, 'ok'],
      ['ls', false, 'no-result'],
      ['git push', false, 'no-result'],
    ]);
    expect(session.prompts.map((p) => [p.text, p.beforeCall])).toEqual([['run the script', 0]]);
    // compacted after the subagent's call: before the third call of the merged session
    expect(session.compactions).toEqual([2]);
  });

  it('--since drops older calls and prompts, keeping the prompts before the calls they preceded', () => {
    const read = readReplayTranscripts([{ path: join(dir, 'proj') }], { since: at(6) });
    expect(read.sessions[0]?.calls.map((c) => c.command)).toEqual(['pytest', 'python3 a.py', 'git push']);
    expect(read.sessions[0]?.prompts).toEqual([]);
  });

  it('reads every labeled fixture without throwing', () => {
    const read = readReplayTranscripts([{ path: 'test/fixtures/transcripts' }]);
    expect(read.files).toBeGreaterThan(100);
    expect(read.sessions.reduce((n, s) => n + s.calls.length, 0)).toBe(read.counts.calls);
    for (const session of read.sessions)
      expect(session.prompts.every((p) => p.beforeCall >= 0 && p.beforeCall <= session.calls.length)).toBe(
        true,
      );
  });
});

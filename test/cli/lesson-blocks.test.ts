// Every `#lesson` block in the recorded fixtures (Claude Code and Codex sessions recorded from the
// real binaries, a Gemini one written by hand: see the SOURCES.md beside them) yields exactly one
// candidate, and once approved its lesson fires on the block's own trigger: `lore scan`, `lore
// candidates approve`, then `lore explain` with a call the trigger names.
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../helpers/cli.js';

const fixtures = fileURLToPath(new URL('../fixtures/transcripts/', import.meta.url));

type Call = { tool: string; command?: string; path?: string };
type ScanJson = { candidates: { id: string; tier: number }[] };
type ListJson = { candidates: { id: string; tier: number; kind: string; occurrences: number }[] };
type ExplainJson = { included: { id: string; matched_by: string[] }[] };

/** The fixture, and for each block in it a call its trigger names (the failed command's neighbours). */
const FIXTURES: [string, Call[]][] = [
  [
    'claude-code/lesson-blocks-2.1.330/cdf0eb85-dd47-4f9f-9ec4-46a641170adc.jsonl',
    [{ tool: 'Bash', command: 'cargo test --all' }],
  ],
  [
    'codex/sessions/2026/11/26/rollout-2026-11-26T05-40-01-01a2165e-324c-7ee3-bb86-66950026b225.jsonl',
    [{ tool: 'Bash', command: 'go test ./pkg/...' }],
  ],
  [
    'gemini/chats/session-2026-11-26T05-30-9b1e4c2a.jsonl',
    [
      { tool: 'Bash', command: 'pip install requests' },
      { tool: 'Edit', path: 'requirements.txt' },
    ],
  ],
];

const explainArgs = (call: Call) => [
  'explain',
  '--tool',
  call.tool,
  ...(call.command !== undefined ? ['--command', call.command] : ['--path', call.path ?? '']),
  '--json',
];

describe('#lesson blocks in the recorded fixtures', () => {
  it.each(FIXTURES)(
    '%s: one candidate per block, each firing on its trigger once approved',
    (fixture, calls) => {
      const sandbox = createSandbox();
      const scan = sandbox.run(['scan', '--path', join(fixtures, fixture), '--json']).json<ScanJson>();
      const approved = scan.candidates.map(
        (candidate) =>
          sandbox.run(['candidates', 'approve', candidate.id, '--json']).json<{ id: string }>().id,
      );
      const fired = calls.map((call) =>
        sandbox
          .run(explainArgs(call))
          .json<ExplainJson>()
          .included.map((item) => item.id),
      );

      expect(scan.candidates.map((candidate) => candidate.tier)).toEqual(calls.map(() => 1));
      expect(fired.map((ids) => ids.length)).toEqual(calls.map(() => 1));
      expect(new Set(fired.flat())).toEqual(new Set(approved));
    },
  );
});

describe('a block written after a scan found its failure', () => {
  it('takes over the heuristic candidate: one candidate, no new occurrence; approving it decides both', () => {
    const sandbox = createSandbox();
    const lines = readFileSync(join(fixtures, 'gemini/chats/session-2026-11-26T05-30-9b1e4c2a.jsonl'), 'utf8')
      .split('\n')
      .map((line) => `${line}\n`);
    // The fix is on line 11, the block on line 14: the first scan sees the failure and its fix.
    const transcript = join(sandbox.base, 'chats', 'session-a.jsonl');
    const copy = join(sandbox.base, 'chats', 'session-b.jsonl');
    mkdirSync(join(sandbox.base, 'chats'));
    writeFileSync(transcript, lines.slice(0, 13).join(''));
    const first = sandbox.run(['scan', '--path', transcript, '--json']).json<ScanJson>();
    appendFileSync(transcript, lines.slice(13, 16).join(''));
    const second = sandbox.run(['scan', '--path', transcript, '--json']).json<ScanJson>();
    const listed = sandbox.run(['candidates', 'list', '--json']).json<ListJson>().candidates;
    sandbox.run(['candidates', 'approve', listed[0]?.id ?? '', '--json']);
    writeFileSync(copy, lines.slice(0, 13).join(''));
    const again = sandbox.run(['scan', '--path', copy, '--json']).json<ScanJson>();

    expect(first.candidates.map((c) => c.tier)).toEqual([2]);
    expect(second.candidates.map((c) => [c.id, c.tier])).toEqual([[first.candidates[0]?.id, 1]]);
    expect(listed.map((c) => [c.id, c.kind, c.occurrences])).toEqual([
      [first.candidates[0]?.id, 'lesson-block', 1],
    ]);
    expect(again.candidates).toEqual([]);
  });

  it('takes it over too when many events lie between the fix and the block', () => {
    const sandbox = createSandbox();
    const lines = readFileSync(join(fixtures, 'gemini/chats/session-2026-11-26T05-30-9b1e4c2a.jsonl'), 'utf8')
      .split('\n')
      .map((line) => `${line}\n`);
    // Thirty short exchanges after the fix: more than the events a scan keeps for the next one.
    const filler = Array.from(
      { length: 30 },
      (_, i) =>
        `${JSON.stringify({ id: `f${i}`, timestamp: '2026-11-26T05:30:05.000Z', type: 'user', content: [{ text: `and step ${i}?` }] })}\n`,
    );
    const transcript = join(sandbox.base, 'chats', 'session-a.jsonl');
    mkdirSync(join(sandbox.base, 'chats'));
    writeFileSync(transcript, [...lines.slice(0, 13), ...filler].join(''));
    const first = sandbox.run(['scan', '--path', transcript, '--json']).json<ScanJson>();
    appendFileSync(transcript, lines.slice(13, 16).join(''));
    const second = sandbox.run(['scan', '--path', transcript, '--json']).json<ScanJson>();
    const listed = sandbox.run(['candidates', 'list', '--json']).json<ListJson>().candidates;

    expect(first.candidates.map((c) => c.tier)).toEqual([2]);
    expect(second.candidates.map((c) => [c.id, c.tier])).toEqual([[first.candidates[0]?.id, 1]]);
    expect(listed.map((c) => [c.id, c.kind])).toEqual([[first.candidates[0]?.id, 'lesson-block']]);
  });
});

// Lines a redaction pass cut short (real ones from the public fixtures): the Claude Code reader
// keeps the tool call or result the part before the cut still holds, pairs the result with its
// call (or the newest call waiting for one), marks the call's input as cut, and still counts the
// line as broken.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { partialString, salvageRecord } from '../../src/capture/claude-code/salvage.js';
import { fileEvents } from '../../src/capture/file-events.js';
import type { ToolCall, ToolResult } from '../../src/core/capture/events.js';

const root = fileURLToPath(new URL('../fixtures/transcripts/claude-code/', import.meta.url));
const lines = (file: string) => readFileSync(join(root, file), 'utf8').split('\n');
const PACKAGE = 'M-Thisness__M-Claude__Archives__554b9fa6-f719-40e8-ba70-beee69bd60b5.jsonl';

describe('a JSON string cut short', () => {
  it.each([
    ['a whole string', '"abc\\n" rest', { value: 'abc\n', closed: true }],
    ['cut in the middle', '"abc def', { value: 'abc def', closed: false }],
    ['cut inside an escape', '"abc\\', { value: 'abc', closed: false }],
    ['cut inside a unicode escape', '"a\\u00', { value: 'a', closed: false }],
    ['an escaped quote is not the end', '"say \\"hi\\"" x', { value: 'say "hi"', closed: true }],
  ])('%s', (_name, text, want) => {
    expect(partialString(text, 1)).toEqual(want);
  });
});

describe('Claude Code lines cut short', () => {
  it('a Write cut inside its content keeps its id, tool and file_path, and its result pairs with it', () => {
    const all = lines(PACKAGE);
    const cut = all[83] ?? '';
    expect(() => JSON.parse(cut) as unknown).toThrow();
    const record = salvageRecord(cut) as { message: { content: Record<string, unknown>[] } };
    expect(record).toMatchObject({ type: 'assistant', sessionId: '554b9fa6-f719-40e8-ba70-beee69bd60b5' });
    expect(record.message.content[0]).toMatchObject({
      type: 'tool_use',
      id: 'toolu_01HK3apAYdFwGkh7Bfcc2a4E',
      name: 'Write',
      input: { file_path: '/Users/[USER]/Developer/M-Thisness/cosmic-apple-tile/Package.swift' },
    });
    // the cut content is not passed off as the whole
    expect(record.message.content[0]?.input).not.toHaveProperty('content');

    const read = fileEvents(join(root, PACKAGE));
    const call = read.events.find(
      (e): e is ToolCall => e.kind === 'tool-call' && e.callId === 'toolu_01HK3apAYdFwGkh7Bfcc2a4E',
    );
    expect(call).toMatchObject({ line: 84, tool: 'Write', inputCut: true });
    const result = read.events.find(
      (e): e is ToolResult => e.kind === 'tool-result' && e.callId === 'toolu_01HK3apAYdFwGkh7Bfcc2a4E',
    );
    expect(result).toMatchObject({ line: 85, tool: 'Write', ok: false });
    expect(read.broken).toBeGreaterThan(0);
  });

  it("a result cut before its call's id belongs to the newest call still waiting", () => {
    const dir = mkdtempSync(join(tmpdir(), 'lore-salvage-'));
    const base = '"sessionId":"s1","cwd":"/work/app","isSidechain":false';
    const file = join(dir, 's1.jsonl');
    writeFileSync(
      file,
      [
        `{${base},"message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"toolu_A","name":"Bash","input":{"command":"ls /nope"}}]},"type":"assistant","timestamp":"2026-01-01T00:00:00Z"}`,
        // cut by a redaction pass inside the result text: no is_error, no tool_use_id
        `{"parentUuid":"x",${base},"type":"user","message":{"role":"user","content":[{"type":"tool_result","content":"ls: /nope: No such file or directory\\nMail To: [REDACTED_RECIPIENT]`,
        `{${base},"message":{"id":"m2","role":"assistant","content":[{"type":"text","text":"done"}]},"type":"assistant","timestamp":"2026-01-01T00:00:02Z"}`,
        '',
      ].join('\n'),
    );
    const read = fileEvents(file);
    expect(read.events.filter((e) => e.kind === 'tool-result')).toEqual([
      expect.objectContaining({ callId: 'toolu_A', tool: 'Bash', line: 2 }),
    ]);
    const result = read.events.find((e): e is ToolResult => e.kind === 'tool-result');
    expect(result?.text).toContain('No such file or directory');
    expect(read.broken).toBe(1);
  });

  it('a shell command cut short keeps its beginning (the program and subcommand), marked as cut', () => {
    const cut =
      '{"sessionId":"s1","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"toolu_B","name":"Bash","input":{"command":"git commit -m \\"docs: Mail To: [REDACTED_RECIPIENT]';
    const record = salvageRecord(cut) as { message: { content: { input: Record<string, string> }[] } };
    expect(record.message.content[0]?.input).toEqual({
      command: 'git commit -m "docs: Mail To: [REDACTED_RECIPIENT]',
    });
  });

  it('a cut line that holds no tool call or result stays broken, with nothing kept', () => {
    const thinking =
      '{"sessionId":"s1","message":{"role":"assistant","content":[{"type":"thinking","thinking":"Now I see the picture: [REDACTED_SUBJECT]';
    expect(salvageRecord(thinking)).toBeUndefined();
    expect(salvageRecord('not json at all')).toBeUndefined();
  });
});

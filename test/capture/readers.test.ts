// One contract suite run against every transcript reader, over the labeled real fixtures.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { READERS, detectAgent } from '../../src/capture/readers.js';
import { walk } from '../../src/capture/walk-files.js';
import { fileEvents } from '../../src/capture/file-events.js';

const root = fileURLToPath(new URL('../fixtures/transcripts/', import.meta.url));

const eventsOf = (path: string) => fileEvents(path);

function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined; // a broken line: the scanner counts it, the parser never sees it
  }
}

/** Events the parser would make of the lines its byte prefilter skips (there must be none). */
function hiddenEvents(file: string): string[] {
  const reader = READERS[detectAgent(file) ?? 'claude-code'];
  const parser = reader.createParser({ file, sidechain: false, project: undefined, carry: {} });
  return readFileSync(file, 'utf8')
    .split('\n')
    .flatMap((text, index) => {
      const record = text === '' || parser.wants(Buffer.from(text)) ? undefined : parsed(text);
      return record === undefined
        ? []
        : parser.parse(record, index + 1).map((e) => `${file}:${index + 1} ${e.kind}`);
    });
}

const cases = (Object.keys(READERS) as (keyof typeof READERS)[]).map((agent) => {
  const files = walk(join(root, agent)).filter((path) => detectAgent(path) === agent);
  return [agent, files] as const;
});

describe.each(cases)('%s reader contract', (agent, files) => {
  it('has fixtures', () => {
    expect(files.length).toBeGreaterThan(0);
  });
  it.each(files.map((file) => [file.slice(root.length), file]))(
    '%s: events carry origin and stay inside the file',
    (_name, file) => {
      const { events, lines, broken } = eventsOf(file);
      expect(events.length).toBeGreaterThan(0);
      for (const event of events) {
        expect(event).toMatchObject({ agent, file });
        expect(event.session).not.toBe('');
        expect(event.line).toBeGreaterThanOrEqual(1);
        expect(event.line).toBeLessThanOrEqual(lines);
      }
      const results = events.filter((e) => e.kind === 'tool-result');
      const calls = new Set(
        events.filter((e) => e.kind === 'tool-call').map((e) => (e as { callId: string }).callId),
      );
      // A result without its call only where the owner's redaction broke lines (the call's among them).
      const orphans = results.filter((r) => !calls.has((r as { callId: string }).callId));
      expect(orphans.length).toBeLessThanOrEqual(broken);
    },
  );
  it('its byte prefilter never hides an event: a line it skips parses to nothing', () => {
    const hidden = files.filter((file) => !READERS[agent].isDocument(file)).flatMap(hiddenEvents);
    expect(hidden).toEqual([]);
  });
  it("never mines hook-injected text (the fixtures' MARK_ markers)", () => {
    const texts = files.flatMap((file) =>
      eventsOf(file).events.flatMap((e) =>
        e.kind === 'user-text' || e.kind === 'assistant-text' ? [e.text] : [],
      ),
    );
    expect(texts.join('\n')).not.toMatch(
      /[CG]?MARK_(SESSION|PROMPT|PRE|POST|BEFOREAGENT|AFTERTOOL|SESSIONSTART|PROMPTSUBMIT|PRETOOL|POSTTOOL|POSTFAIL)/,
    );
  });
});

describe('Claude Code specifics', () => {
  const current = join(root, 'claude-code/current-2.1.330');
  it('marks subagents in all three layouts as sidechains', () => {
    const inline = eventsOf(
      join(root, 'claude-code/d-kimuson__claude-code-viewer__fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl'),
    ).events;
    const flat = eventsOf(
      join(root, 'claude-code/M-Thisness__M-Claude__Archives__agent-abc3cb6.jsonl'),
    ).events;
    const nested = eventsOf(
      join(current, '10bfa583-1ab1-439a-973a-ad3d97e4fbed/subagents/agent-aa862d010cae1a731.jsonl'),
    ).events;
    expect(inline.some((e) => e.sidechain === true) && inline.some((e) => e.sidechain !== true)).toBe(true);
    expect(flat.every((e) => e.sidechain === true)).toBe(true);
    expect(nested.every((e) => e.sidechain === true)).toBe(true);
  });
  it('reads split replies, failures, compaction; a hook deny and a permission refusal are rejections', () => {
    const main = eventsOf(join(current, '10bfa583-1ab1-439a-973a-ad3d97e4fbed.jsonl')).events;
    expect(main.filter((e) => e.line === 24 || e.line === 25).map((e) => e.kind)).toEqual([
      'assistant-text',
      'tool-call',
    ]);
    expect(main.find((e) => e.kind === 'tool-result' && e.line === 42)).toMatchObject({
      ok: false,
      exitCode: 2,
    });
    expect(main.some((e) => e.kind === 'compaction' && e.line === 76)).toBe(true);
    const deny = eventsOf(join(current, '56e6f324-fb4e-42f1-9b27-123615b83bbf.jsonl')).events;
    expect(deny.filter((e) => e.kind === 'rejection').map((e) => e.line)).toEqual([22, 30, 36]);
  });
  it.each([
    ['{"type":"user","message":{"role":"user","content":"hi"}}', true],
    [
      '{"message":{"content":[{"type":"tool_use","id":"t","name":"Bash","input":{}}]},"type":"assistant"}',
      true,
    ],
    ['{"message":{"content":[{"type":"text","text":"ok"}]},"type": "assistant"}', true],
    ['{"type":"system","subtype":"compact_boundary"}', true],
    [
      '{"message":{"content":[{"type":"thinking","thinking":"\\"type\\":\\"text\\"","signature":"x"}]},"type":"assistant"}',
      false,
    ],
    [
      '{"type":"attachment","attachment":{"type":"hook_additional_context","content":["\\"type\\":\\"user\\""]}}',
      false,
    ],
    ['{"type":"system","subtype":"api_error"}', false],
    ['{"type":"api-request-blob","blob":[{"type":"text","text":"x"}]}', false],
  ])('the byte prefilter decodes %s: %s', (line, wanted) => {
    const parser = READERS['claude-code'].createParser({
      file: 'x.jsonl',
      sidechain: false,
      project: undefined,
      carry: {},
    });
    expect(parser.wants(Buffer.from(line))).toBe(wanted);
  });
  it("counts broken lines the owner's redaction left (as SOURCES.md lists them)", () => {
    const file = join(
      root,
      'claude-code/M-Thisness__M-Claude__Archives__c10f5964-20bd-4783-aa1a-30b06c8a702a.jsonl',
    );
    expect(eventsOf(file).broken).toBe(5);
  });
});

describe('Codex and Gemini specifics', () => {
  it('reads exit codes from Codex output and the same rollout compressed with zstd', () => {
    const dir = join(root, 'codex/sessions/2026/11/22');
    const plain = eventsOf(
      join(dir, 'rollout-2026-11-22T05-57-32-01a201d4-ca42-7533-96f0-ab002b23a368.jsonl'),
    ).events;
    const packed = eventsOf(join(dir, 'rollout-2026-11-22T06-00-00-compressed-copy.jsonl.zst')).events;
    expect(plain.find((e) => e.kind === 'tool-result' && !e.ok)).toMatchObject({ exitCode: 2, line: 24 });
    expect(packed.map((e) => [e.kind, e.line])).toEqual(plain.map((e) => [e.kind, e.line]));
    expect(plain.some((e) => e.kind === 'user-text' && e.text.includes('CMARK'))).toBe(false);
  });
  it.each([
    [
      'a refused patch written as plain text (older rollouts)',
      'apply_patch verification failed: Failed to find expected lines in script.js:\n  const x = 1;',
      { kind: 'tool-result', ok: false, failure: 'error-flag' },
    ],
    [
      'a refused patch inside the JSON output shape',
      JSON.stringify({ output: 'apply_patch verification failed: invalid hunk at line 3', metadata: {} }),
      { kind: 'tool-result', ok: false, failure: 'error-flag' },
    ],
    [
      'the payload object with success: false',
      { content: 'failed to parse function arguments: missing field `cmd`', success: false },
      { kind: 'tool-result', ok: false, failure: 'error-flag' },
    ],
    [
      'the payload object with success: true',
      { content: 'Success. Updated the following files:\nM script.js', success: true },
      { kind: 'tool-result', ok: true },
    ],
    [
      'a patch the person declined',
      { content: 'patch rejected by user', success: false },
      { kind: 'rejection' },
    ],
    ['a command the person declined', 'exec command rejected by user', { kind: 'rejection' }],
  ])('Codex: %s', (_name, output, expected) => {
    const parser = READERS.codex.createParser({
      file: 'r.jsonl',
      sidechain: false,
      project: undefined,
      carry: {},
    });
    const call = { type: 'custom_tool_call', call_id: 'c1', name: 'apply_patch', input: '*** Begin Patch' };
    parser.parse({ type: 'response_item', payload: call }, 1);
    const events = parser.parse(
      { type: 'response_item', payload: { type: 'custom_tool_call_output', call_id: 'c1', output } },
      2,
    );
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject(expected);
  });
  it('Gemini: the last line for a message id wins; tool status error is a failure', () => {
    const events = eventsOf(join(root, 'gemini/chats/session-2026-11-22T05-58-de10ef8f.jsonl')).events;
    const calls = events.filter((e) => e.kind === 'tool-call');
    expect(calls.map((e) => e.line)).toEqual([7, 12]);
    expect(events.find((e) => e.kind === 'tool-result' && !e.ok)).toMatchObject({
      line: 12,
      failure: 'error-flag',
    });
    expect(
      readFileSync(join(root, 'gemini/chats/session-2026-11-22T05-58-de10ef8f.jsonl'), 'utf8').split('\n')[4],
    ).toContain('"id":"0585f7ad');
  });
});

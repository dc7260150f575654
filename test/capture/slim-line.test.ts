// Claude Code's `toolUseResult` copy is cut out of a line before decoding; the record the parser
// gets must hold everything else unchanged and the two facts it reads of that copy.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { endOfValue, withoutToolUseResult } from '../../src/capture/claude-code/slim-line.js';

type Line = Record<string, unknown> & { toolUseResult?: unknown };

/** What the parser reads of a `toolUseResult`. */
function facts(value: unknown) {
  return {
    error: typeof value === 'string' && value.startsWith('Error'),
    interrupted:
      typeof value === 'object' &&
      value !== null &&
      (value as { interrupted?: unknown }).interrupted === true,
  };
}

function slimmed(record: Line): Line {
  return JSON.parse(withoutToolUseResult(Buffer.from(JSON.stringify(record))).toString('utf8')) as Line;
}

const big = 'x'.repeat(400);
const base = {
  parentUuid: 'a',
  type: 'user',
  message: { role: 'user', content: [{ tool_use_id: 't1', type: 'tool_result', content: 'ok' }] },
  uuid: 'u',
};

describe('withoutToolUseResult', () => {
  it.each([
    ['a string error', `Error: Exit code 1\n${big}`],
    ['a string that is no error', `fine ${big}`],
    ['an object, interrupted', { stdout: big, stderr: '', interrupted: true }],
    ['an object, not interrupted', { stdout: big, stderr: '"quoted" \\ back', interrupted: false }],
    ['an object with nested arrays', { file: { content: big, lines: [1, [2, 3], { a: '}]' }] } }],
    ['an array', [big, { interrupted: true }]],
  ])('keeps the other fields and the facts of %s', (_, value) => {
    for (const after of [{}, { sourceToolAssistantUUID: 'b' }]) {
      const record: Line = { ...base, toolUseResult: value, ...after };
      const slim = slimmed(record);
      const { toolUseResult: _cut, ...rest } = slim;
      const { toolUseResult: _whole, ...expected } = record;
      expect(rest).toEqual(expected);
      expect(facts(slim.toolUseResult)).toEqual(facts(value));
    }
  });

  it('leaves a line without one, or with a small one, as it was', () => {
    for (const record of [base, { ...base, toolUseResult: 'Error: short' }]) {
      const line = Buffer.from(JSON.stringify(record));
      expect(withoutToolUseResult(line)).toBe(line);
    }
  });

  it('leaves a line cut short inside the value as it was', () => {
    const whole = JSON.stringify({ ...base, toolUseResult: { stdout: big } });
    const cut = Buffer.from(whole.slice(0, whole.length - 100));
    expect(withoutToolUseResult(cut)).toBe(cut);
  });

  it('finds the end of any JSON value, whatever its strings hold', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.string(), (value, tail) => {
        const text = JSON.stringify(value);
        const line = Buffer.from(`${text},${JSON.stringify(tail)}}`);
        expect(endOfValue(line, 0)).toBe(Buffer.byteLength(text));
      }),
    );
  });

  it('reads every real Claude Code fixture line to the same facts', () => {
    const file = fileURLToPath(
      new URL(
        '../fixtures/transcripts/claude-code/M-Thisness__M-Claude__CHAT_LOGS__de73bc86-61f0-4c55-98af-c43cf612e3f6.jsonl',
        import.meta.url,
      ),
    );
    let cut = 0;
    for (const text of readFileSync(file, 'utf8').split('\n')) {
      let record: Line;
      try {
        record = JSON.parse(text) as Line;
      } catch {
        continue;
      }
      const line = Buffer.from(text);
      const slim = withoutToolUseResult(line);
      if (slim === line) continue;
      cut += 1;
      const parsed = JSON.parse(slim.toString('utf8')) as Line;
      expect(parsed.message).toEqual(record.message);
      expect(facts(parsed.toolUseResult)).toEqual(facts(record.toolUseResult));
    }
    expect(cut).toBeGreaterThan(50);
  });
});

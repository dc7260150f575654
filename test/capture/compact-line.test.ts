import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeLine, KEEP_HEAD, KEEP_TAIL, LONG_LINE, LONG_STRING } from '../../src/capture/compact-line.js';

const bytes = (value: unknown) => Buffer.from(JSON.stringify(value));

describe('decodeLine', () => {
  it('decodes short lines whole', () => {
    const line = bytes({ type: 'user', message: { content: 'x'.repeat(LONG_LINE - 100) } });
    expect(decodeLine(line)).toBe(line.toString('utf8'));
  });

  it('cuts the middle of long strings and keeps every other field', () => {
    const output = `${'head '.repeat(3000)}MIDDLE${' tail'.repeat(3000)}`;
    const record = {
      type: 'user',
      message: { content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: output }] },
      toolUseResult: { stdout: output, interrupted: false },
      uuid: 'u1',
    };
    const parsed = JSON.parse(decodeLine(bytes(record))) as typeof record;
    const text = parsed.message.content[0]?.content ?? '';
    expect(text.startsWith(output.slice(0, KEEP_HEAD - 16))).toBe(true);
    expect(text.endsWith(output.slice(-(KEEP_TAIL - 16)))).toBe(true);
    expect(text).not.toContain('MIDDLE');
    expect(text).toMatch(/ \[\.\.\. \d+ bytes not read \.\.\.\] /);
    expect(parsed.toolUseResult.stdout).toBe(text);
    expect({ ...parsed, message: undefined, toolUseResult: undefined }).toEqual({
      ...record,
      message: undefined,
      toolUseResult: undefined,
    });
  });

  it('decodes a line with a #lesson block whole, wherever the block is', () => {
    const text = `${'x'.repeat(LONG_STRING)}\n#lesson\ntool: Bash\n#/lesson\n${'y'.repeat(LONG_STRING)}`;
    const line = bytes({ type: 'assistant', message: { content: [{ type: 'text', text }] } });
    expect(decodeLine(line)).toBe(line.toString('utf8'));
  });

  it('returns a broken line whole, so JSON.parse reports it', () => {
    const line = Buffer.from(`{"type":"user","content":"${'x'.repeat(LONG_LINE)}`);
    expect(decodeLine(line)).toBe(line.toString('utf8'));
  });

  it('never splits an escape sequence or a UTF-8 character, and keeps the structure', () => {
    const piece = fc.constantFrom('a', ' ', '\n', '"', '\\', '\t', 'é', '漢', '😀', '\u0001', '\\n', '"}');
    fc.assert(
      fc.property(fc.array(piece, { minLength: 4000, maxLength: 9000 }), fc.nat(3), (parts, extra) => {
        const big = parts.join('');
        const record = { id: 'x', items: [big, { text: big.slice(extra), n: extra }], tail: 'end' };
        const parsed = JSON.parse(decodeLine(bytes(record))) as typeof record;
        const [first, second] = parsed.items as [string, { text: string; n: number }];
        for (const [cut, original] of [
          [first, big],
          [second.text, big.slice(extra)],
        ] as const) {
          // Either whole, or a true head and a true tail of the original around the marker.
          const [head = '', tail = ''] = cut.split(/ \[\.\.\. \d+ bytes not read \.\.\.\] /);
          expect(cut === original || head.length + tail.length < original.length).toBe(true);
          expect(original.startsWith(head)).toBe(true);
          expect(original.endsWith(tail)).toBe(true);
        }
        expect(second.n).toBe(extra);
        expect(parsed.tail).toBe('end');
      }),
      { numRuns: 60 },
    );
  });
});

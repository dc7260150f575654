// The one-pass check for assistant lines that hold only thinking (claude-code/parser.ts) answers
// as the rule it replaced (any thinking marker and no text or tool_use marker, each searched
// through the whole line) on every line of the real fixtures and on the edge cases below.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { thinkingOnly } from '../../src/capture/claude-code/parser.js';

const THINKING = ['"type":"thinking"', '"type":"redacted_thinking"'].map((m) => Buffer.from(m));
const SPOKEN = ['"type":"text"', '"type":"tool_use"', '"type": "text"', '"type": "tool_use"'].map((m) =>
  Buffer.from(m),
);
const reference = (line: Buffer) =>
  THINKING.some((m) => line.includes(m)) && !SPOKEN.some((m) => line.includes(m));

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.jsonl') ? [path] : [];
  });
}

describe('thinkingOnly', () => {
  it('agrees with the whole-line marker rule on every line of the fixtures', () => {
    const root = fileURLToPath(new URL('../fixtures/transcripts/', import.meta.url));
    let lines = 0;
    let thinking = 0;
    for (const file of files(root)) {
      const bytes = readFileSync(file);
      for (
        let start = 0, end = bytes.indexOf(10);
        end >= 0;
        start = end + 1, end = bytes.indexOf(10, start)
      ) {
        const line = bytes.subarray(start, end);
        lines += 1;
        const expected = reference(line);
        if (expected) thinking += 1;
        if (thinkingOnly(line) !== expected)
          expect.fail(`${file}:${lines}: ${line.toString('utf8', 0, 200)}`);
      }
    }
    expect(lines).toBeGreaterThan(1000);
    expect(thinking).toBeGreaterThan(10);
  });

  it.each([
    ['{"content":[{"type":"thinking","thinking":"x"}],"type":"assistant"}', true],
    ['{"content":[{"type":"redacted_thinking","data":"x"}],"type":"assistant"}', true],
    ['{"content":[{"type":"thinking","thinking":"x"},{"type":"text","text":"y"}]}', false],
    ['{"content":[{"type":"thinking","thinking":"x"},{"type": "tool_use","id":"t"}]}', false],
    ['{"content":[{"type":"thinking","thinking":"\\"type\\":\\"text\\""}]}', true],
    ['{"content":[{"type": "thinking","thinking":"x"}]}', false],
    ['{"content":[{"type":"text_editor","x":1},{"type":"thinking"}]}', true],
    ['{"content":[{"type":"text","text":"a"}]}', false],
    ['{"type":"assistant"}', false],
    ['', false],
  ])('%s: %s', (line, expected) => {
    expect(thinkingOnly(Buffer.from(line))).toBe(expected);
    expect(reference(Buffer.from(line))).toBe(expected);
  });
});

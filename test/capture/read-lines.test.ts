// The byte-level line reader under lore scan: every complete line, whole and numbered, whatever
// chunk boundaries it crosses (lines of many chunks, lines ending exactly at a chunk's end), a
// last line without its newline left for the next scan unless the caller takes it (then read on
// past it once, whatever is appended), and reading on from a saved offset.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CHUNK_SIZE, readLinesFrom, readZstdLinesFrom } from '../../src/capture/read-lines.js';

let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A line of `length` bytes (no newline), its bytes drawn from `seed`. */
function lineOf(length: number, seed: number): Buffer {
  const line = Buffer.alloc(length);
  let state = seed * 2654435761;
  for (let i = 0; i < length; i += 1) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    line[i] = 32 + (state >>> 25); // printable, never a newline
  }
  return line;
}

function read(path: string, offset: number, line: number) {
  const lines: { text: Buffer; number: number }[] = [];
  const result = readLinesFrom(path, offset, line, (text, number) =>
    lines.push({ text: Buffer.from(text), number }),
  );
  return { lines, result };
}

describe('readLinesFrom', () => {
  it.each([
    ['short lines', [5, 0, 17, 1, 200], true],
    ['a line ending at the chunk end', [CHUNK_SIZE - 1, 3], true],
    ['a line of exactly one chunk', [CHUNK_SIZE, 2, CHUNK_SIZE], true],
    ['lines of several chunks', [10, 3 * CHUNK_SIZE + 7, 4, 2 * CHUNK_SIZE - 1, 9], true],
    ['a last line without its newline', [12, CHUNK_SIZE + 5, 30], false],
  ] as const)('%s: every complete line, numbered, and where to read on', (_name, lengths, lastEnds) => {
    dir = mkdtempSync(join(tmpdir(), 'lore-lines-'));
    const path = join(dir, 't.jsonl');
    const lines = lengths.map((length, i) => lineOf(length, i + 1));
    const parts = lines.flatMap((line, i) =>
      i < lines.length - 1 || lastEnds ? [line, Buffer.from('\n')] : [line],
    );
    writeFileSync(path, Buffer.concat(parts));
    const complete = lastEnds ? lines : lines.slice(0, -1);
    const ends = complete.map((_, i) => complete.slice(0, i + 1).reduce((sum, l) => sum + l.length + 1, 0));

    const whole = read(path, 0, 0);
    expect(whole.lines.map((l) => l.number)).toEqual(complete.map((_, i) => i + 1));
    whole.lines.forEach((l, i) => expect(l.text.equals(complete[i] as Buffer)).toBe(true));
    expect(whole.result).toEqual({
      offset: ends.at(-1) ?? 0,
      line: complete.length,
      bytes: parts.reduce((sum, p) => sum + p.length, 0),
      open: false,
      held: !lastEnds,
    });

    // on from after each complete line, as a later scan reads on from its saved offset
    ends.forEach((end, k) => {
      const after = read(path, end, k + 1);
      expect(after.lines.map((l) => l.number)).toEqual(complete.slice(k + 1).map((_, i) => k + 2 + i));
      after.lines.forEach((l, i) => expect(l.text.equals(complete[k + 1 + i] as Buffer)).toBe(true));
      expect(after.result.offset).toBe(ends.at(-1));
    });
  });
});

/** A file written as `first`, read whole taking its last line; then `appended` to it, read on from there. */
function readTwice(first: string, appended: string, zstd: boolean) {
  dir = mkdtempSync(join(tmpdir(), 'lore-lines-'));
  const plain = join(dir, 't.jsonl');
  const path = zstd ? `${plain}.zst` : plain;
  const write = (text: string) => {
    writeFileSync(plain, text);
    if (zstd) execFileSync('zstd', ['-q', '-f', plain, '-o', path]);
  };
  const readFrom = zstd ? readZstdLinesFrom : readLinesFrom;
  const collect = (offset: number, line: number, open: boolean) => {
    const lines: string[] = [];
    const result = readFrom(
      path,
      offset,
      line,
      (text, number) => lines.push(`${number}:${text.toString()}`),
      {
        open,
        takeLast: (text) => text.toString().endsWith('}'),
      },
    );
    return { lines, result };
  };
  write(first);
  const before = collect(0, 0, false);
  write(first + appended);
  const after = collect(before.result.offset, before.result.line, before.result.open);
  return { before, after };
}

describe('a last line without its newline, taken by the caller', () => {
  it.each([
    ['a newline and a record', '{"a":1}\n{"b":2}', '\n{"c":3}\n', ['3:{"c":3}']],
    ['a record on the next line, no newline first', '{"a":1}\n{"b":2}', '\n{"c":3}', ['3:{"c":3}']],
    ['more of the same line, then a record', '{"a":1}\n{"b":2}', ' \n{"c":3}\n', ['3:{"c":3}']],
    ['the newline alone', '{"a":1}\n{"b":2}', '\n', []],
    ['nothing', '{"a":1}\n{"b":2}', '', []],
  ] as const)(
    '%s appended: read once, numbered as one whole read numbers it',
    (_name, first, appended, later) => {
      for (const zstd of [false, true]) {
        const { before, after } = readTwice(first, appended, zstd);
        expect(before.lines).toEqual(['1:{"a":1}', '2:{"b":2}']);
        expect(before.result).toMatchObject({ offset: first.length, line: 2, open: true, held: false });
        expect(after.lines).toEqual(later);
        expect(after.result.line).toBe(2 + later.length);
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  it('a last line the caller does not take is held, and the offset stops before it', () => {
    const { before } = readTwice('{"a":1}\n{"b":', '', false);
    expect(before.lines).toEqual(['1:{"a":1}']);
    expect(before.result).toMatchObject({ offset: 8, line: 1, open: false, held: true });
  });
});

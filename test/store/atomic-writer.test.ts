// openAtomicWriter: a file written in pieces replaces the old one whole at commit, or not at all.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isTempName, openAtomicWriter } from '../../src/store/fs/fs-atomic.js';

let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('openAtomicWriter', () => {
  it('leaves the old file whole until commit, then it holds every piece', () => {
    dir = mkdtempSync(join(tmpdir(), 'lore-writer-'));
    const path = join(dir, 'state.json');
    writeFileSync(path, 'old');
    const writer = openAtomicWriter(path);
    const pieces = Array.from({ length: 3000 }, (_, n) => `${n}:${'é'.repeat(n % 50)};`);
    for (const piece of pieces) writer.write(piece);
    // past the buffer: some of it is on disk already, under the temporary name only
    expect(readFileSync(path, 'utf8')).toBe('old');
    expect(readdirSync(dir).filter(isTempName)).toHaveLength(1);
    writer.commit();
    writer.abort();
    expect(readFileSync(path, 'utf8')).toBe(pieces.join(''));
    expect(readdirSync(dir)).toEqual(['state.json']);
    expect(() => writer.write('more')).toThrow(/closed/);
  });

  it('abort keeps the old file and removes the temporary one', () => {
    dir = mkdtempSync(join(tmpdir(), 'lore-writer-'));
    const path = join(dir, 'state.json');
    writeFileSync(path, 'old');
    const writer = openAtomicWriter(path);
    writer.write('x'.repeat(200_000));
    writer.abort();
    writer.abort();
    expect(readFileSync(path, 'utf8')).toBe('old');
    expect(readdirSync(dir)).toEqual(['state.json']);
    expect(() => writer.commit()).toThrow(/closed/);
  });
});

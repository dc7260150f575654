/**
 * The one file signature (fs/file-signature.ts) that every cache compares: what changes it, what
 * does not, and the two forms (numbers for the index's scan, a string for everything else) agree.
 */
import {
  mkdirSync,
  mkdtempSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  fileSignature,
  MISSING_SIGNATURE,
  STAMP_WIDTH,
  stampSignature,
} from '../../src/store/fs/file-signature.js';
import { inDirectory, stampFile, stampPaths, statNumbers } from '../../src/store/fs/stat-numbers.js';

function setup() {
  const dir = mkdtempSync(join(tmpdir(), 'lore-signature-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'lesson.yaml');
  writeFileSync(file, 'summary: one\n');
  return { dir, file };
}

/** Sets a file's mtime (and atime) to `ms`. */
const setTime = (path: string, ms: number) => utimesSync(path, ms / 1000, ms / 1000);

describe('fileSignature', () => {
  it('is the mtime in µs, the size and the inode', () => {
    const { file } = setup();
    const stat = statSync(file);
    expect(fileSignature(file)).toBe(`${Math.round(stat.mtimeMs * 1000)}:${stat.size}:${stat.ino}`);
  });

  it('changes on an in-place edit that keeps the size, and on a rename over the file at the same mtime', () => {
    const { dir, file } = setup();
    setTime(file, 1_700_000_000_000);
    const before = fileSignature(file);
    writeFileSync(file, 'summary: two\n');
    setTime(file, 1_700_000_000_001);
    const edited = fileSignature(file);
    expect(edited).not.toBe(before);

    const replacement = join(dir, 'next.yaml');
    writeFileSync(replacement, 'summary: two\n');
    setTime(replacement, 1_700_000_000_001);
    renameSync(replacement, file);
    expect(fileSignature(file)).not.toBe(edited);
  });

  it('is the same while nothing changes (a read, an atime)', () => {
    const { file } = setup();
    setTime(file, 1_700_000_000_000);
    const before = fileSignature(file);
    utimesSync(file, 0, 1_700_000_000);
    expect(fileSignature(file)).toBe(before);
  });

  it.each([
    ['a missing file', (dir: string) => join(dir, 'gone.yaml')],
    ['a path through a file', (dir: string) => join(dir, 'lesson.yaml', 'votes.jsonl')],
  ])('is "-" for %s', (_name, pathIn) => {
    const { dir } = setup();
    expect(fileSignature(pathIn(dir))).toBe(MISSING_SIGNATURE);
  });

  it('stampFile and stampSignature give the same signature, and NaN stamps for a missing file', () => {
    const { dir, file } = setup();
    const stamps = new Float64Array(2 * STAMP_WIDTH);
    expect(stampFile(file, stamps, 0)).toBe(true);
    expect(stampFile(join(dir, 'gone'), stamps, STAMP_WIDTH)).toBe(false);
    expect(stampSignature(stamps, 0)).toBe(fileSignature(file));
    expect(stampSignature(stamps, STAMP_WIDTH)).toBe(MISSING_SIGNATURE);
    expect([...stamps.subarray(STAMP_WIDTH)].every(Number.isNaN)).toBe(true);
  });
});

describe('stampPaths', () => {
  it('stamps each path as stampFile does: files of several name lengths, missing ones, one through a file', () => {
    const { dir, file } = setup();
    mkdirSync(join(dir, 'a-longer-name'));
    writeFileSync(join(dir, 'a-longer-name', 'lesson.yaml'), 'summary: two\n');
    utimesSync(file, 1_700_000_000.123456, 1_700_000_000.123456);
    const names = ['lesson.yaml', 'gone.yaml', `a-longer-name${sep}lesson.yaml`, `lesson.yaml${sep}x`];
    const encoded = names.map((name) => Buffer.from(name));
    const prefix = `${dir}${sep}`;
    const base = Buffer.byteLength(prefix) + Math.max(...encoded.map((path) => path.length));
    const bytes = Buffer.alloc(base + encoded.reduce((sum, path) => sum + path.length, 0));
    const ends = new Uint32Array(names.length + 2);
    ends[1] = 0;
    for (const [i, path] of encoded.entries()) {
      ends[i + 2] = (ends[i + 1] as number) + path.length;
      path.copy(bytes, base + (ends[i + 1] as number));
    }
    const at = bytes.write(prefix, 0);
    const stamps = new Float64Array(names.length * STAMP_WIDTH);
    stampPaths({ bytes, at, ends, from: 1, base, count: names.length }, stamps);
    const expected = new Float64Array(names.length * STAMP_WIDTH);
    for (const [i, name] of names.entries()) stampFile(join(dir, name), expected, i * STAMP_WIDTH);
    expect(stamps).toEqual(expected);
    expect(stampSignature(stamps, 0)).toBe(fileSignature(file));
    expect([1, 3].map((i) => stampSignature(stamps, i * STAMP_WIDTH))).toEqual([
      MISSING_SIGNATURE,
      MISSING_SIGNATURE,
    ]);
  });
});

describe('statNumbers', () => {
  it('gives what statSync gives (mtimeMs to the bit, size, inode) for a file and a directory', () => {
    const { dir, file } = setup();
    utimesSync(file, 1_700_000_000.123456, 1_700_000_000.123456);
    const numbers = [file, dir].map((path) => statNumbers(path));
    const stats = [file, dir].map((path) => statSync(path));
    expect(numbers).toEqual(stats.map((stat) => ({ mtimeMs: stat.mtimeMs, size: stat.size, ino: stat.ino })));
  });

  it.each([
    ['a missing file', (dir: string) => join(dir, 'gone.yaml')],
    ['a path through a file', (dir: string) => join(dir, 'lesson.yaml', 'votes.jsonl')],
  ])('is undefined for %s', (_name, pathIn) => {
    const { dir } = setup();
    expect(statNumbers(pathIn(dir))).toBeUndefined();
  });
});

describe('inDirectory', () => {
  it('runs with an empty prefix inside the folder, and the working directory back after', () => {
    const { dir, file } = setup();
    const before = process.cwd();
    const seen = inDirectory(dir, (prefix) => ({
      prefix,
      cwd: process.cwd(),
      numbers: statNumbers(`${prefix}lesson.yaml`),
    }));
    expect(seen).toEqual({ prefix: '', cwd: realpathSync(dir), numbers: statNumbers(file) });
    expect(process.cwd()).toBe(before);
  });

  it('moves back when the function throws, and gives its error', () => {
    const { dir } = setup();
    const before = process.cwd();
    expect(() =>
      inDirectory(dir, () => {
        throw new Error('scan failed');
      }),
    ).toThrow('scan failed');
    expect(process.cwd()).toBe(before);
  });

  it.each([
    ['a folder that does not exist', (dir: string) => join(dir, 'gone')],
    ['a file', (dir: string) => join(dir, 'lesson.yaml')],
  ])('names files by the absolute prefix in %s, from where it was', (_name, target) => {
    const { dir } = setup();
    const before = process.cwd();
    const seen = inDirectory(target(dir), (prefix) => ({ prefix, cwd: process.cwd() }));
    expect(seen).toEqual({ prefix: `${target(dir)}${sep}`, cwd: before });
  });

  it('stays where it is for a relative folder', () => {
    const { dir } = setup();
    mkdirSync(join(dir, 'lessons'));
    const before = process.cwd();
    process.chdir(dir);
    onTestFinished(() => process.chdir(before));
    const seen = inDirectory('lessons', (prefix) => ({ prefix, cwd: process.cwd() }));
    expect(seen).toEqual({ prefix: `lessons${sep}`, cwd: realpathSync(dir) });
  });
});

/**
 * The lite freshness check from its stored form (src/store/index/lite-aggregate.ts): the same
 * aggregate scanTiers gives from the same hint, a different one after any edit in place, no form
 * for a scan that saw anything but lesson folders, and undefined (scanTiers then decides) whenever
 * it cannot be sure.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { encodeLiteForm, liteAggregate } from '../../src/store/index/lite-aggregate.js';
import { createAggregate } from '../../src/store/index/scan-aggregate.js';
import { scanTiers } from '../../src/store/index/scan-tiers.js';
import { createTierStore } from '../../src/store/lessons/tier-store.js';
import type { TierStore } from '../../src/store/lessons/tier-store.js';

const T0 = 1_700_000_000;

/**
 * A project and a user tier: lessons a..e and one with a non-ASCII name, votes on b and d, a dot
 * folder; the user tier has one; `absent` names a tier without a lessons folder.
 */
function stores() {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'lore-lite-')));
  onTestFinished(() => rmSync(base, { recursive: true, force: true }));
  const tiers: TierStore[] = [
    createTierStore('project', join(base, 'project')),
    createTierStore('user', join(base, 'user')),
    createTierStore('org', join(base, 'absent')),
  ];
  const write = (tier: TierStore, name: string, file: string, text: string) => {
    mkdirSync(join(tier.layout.lessonsDir, name), { recursive: true });
    const path = join(tier.layout.lessonsDir, name, file);
    writeFileSync(path, text);
    utimesSync(path, T0, T0);
    return path;
  };
  const [project, user] = tiers as [TierStore, TierStore];
  const files = Object.fromEntries(
    ['aaaaaaaaaa', 'bbbbbbbbbb', 'cccccccccc', 'dddddddddd', 'ee', 'été-ünïcode'].map((name) => [
      name,
      write(project, name, 'lesson.yaml', `summary: ${name}\n`),
    ]),
  );
  write(project, 'bbbbbbbbbb', 'votes.jsonl', '{}\n');
  write(project, 'dddddddddd', 'votes.jsonl', '{}\n{}\n');
  mkdirSync(join(project.layout.lessonsDir, '.staging'));
  write(user, 'uuuuuuuuuu', 'lesson.yaml', 'summary: u\n');
  const full = scanTiers(tiers);
  const hint = { voted: new Set(full.voted), listings: full.listings };
  const form = encodeLiteForm(full) as Uint8Array;
  return { base, tiers, project, files, full, hint, form, write };
}

/** The form as SQLite gives a BLOB back: an ArrayBuffer of its own. */
const asStored = (form: Uint8Array): ArrayBuffer => form.slice().buffer;

describe('liteAggregate', () => {
  it('gives the aggregate scanTiers gives, from the same hint, non-ASCII names included', () => {
    const { tiers, full, hint, form } = stores();
    expect(full.voted.sort()).toEqual(['0:bbbbbbbbbb', '0:dddddddddd']);
    expect(full.listings[2]).toBeNull();
    expect(liteAggregate(tiers, form)).toBe(scanTiers(tiers, hint).aggregate);
    expect(liteAggregate(tiers, asStored(form))).toBe(full.aggregate);
  });

  it('differs after an edit in place that keeps the size, and after a vote appended', () => {
    const { tiers, files, form, full } = stores();
    writeFileSync(files.cccccccccc as string, 'summary: CC\n'.padEnd(`summary: cccccccccc\n`.length));
    utimesSync(files.cccccccccc as string, T0 + 1, T0 + 1);
    expect(liteAggregate(tiers, form)).not.toBe(full.aggregate);
    const again = stores();
    again.write(again.project, 'dddddddddd', 'votes.jsonl', '{}\n{}\n{}\n');
    expect(liteAggregate(again.tiers, again.form)).not.toBe(again.full.aggregate);
    const third = stores();
    writeFileSync(third.files['été-ünïcode'] as string, 'summary: changed\n');
    expect(liteAggregate(third.tiers, third.form)).not.toBe(third.full.aggregate);
  });

  it('counts a votes file gone as scanTiers does: the aggregate differs, no error', () => {
    const { tiers, project, form, full, hint } = stores();
    rmSync(join(project.layout.lessonsDir, 'bbbbbbbbbb', 'votes.jsonl'));
    expect(liteAggregate(tiers, form)).toBe(scanTiers(tiers, hint).aggregate);
    expect(liteAggregate(tiers, form)).not.toBe(full.aggregate);
  });

  it('agrees with scanTiers through the full-path names too (a folder it does not move into)', () => {
    const { base, form, full } = stores();
    const before = process.cwd();
    process.chdir(base);
    onTestFinished(() => process.chdir(before));
    // relative folders: inDirectory names the files by `<folder>/<name>/...` from here
    const relative = [
      createTierStore('project', 'project'),
      createTierStore('user', 'user'),
      createTierStore('org', 'absent'),
    ];
    expect(liteAggregate(relative, form)).toBe(full.aggregate);
  });

  it('cannot tell (undefined) for a listed lesson.yaml gone', () => {
    const { tiers, files, form } = stores();
    rmSync(files.aaaaaaaaaa as string);
    expect(liteAggregate(tiers, form)).toBeUndefined();
  });

  const word = (form: Uint8Array, at: number, value: number) => {
    const copy = form.slice();
    new DataView(copy.buffer).setUint32(4 * at, value, true);
    return copy;
  };

  it.each([
    ['another layout', (form: Uint8Array) => word(form, 0, 0x3246_4c4c)],
    ['another number of tiers', (form: Uint8Array) => word(form, 1, 2)],
    ['a path longer than the longest', (form: Uint8Array) => word(form, 2, 4)],
    ['a form cut short', (form: Uint8Array) => form.subarray(0, 40)],
    ['a form cut to its head', (form: Uint8Array) => form.subarray(0, 8)],
    ['an offset past the end', (form: Uint8Array) => word(form, 3 + 6 + 2 * 6, 1 << 30)],
  ])('cannot tell (undefined) for %s', (_name, change) => {
    const { tiers, form } = stores();
    expect(liteAggregate(tiers, change(form))).toBeUndefined();
  });
});

describe('encodeLiteForm', () => {
  it('writes no form for a lite scan', () => {
    const { tiers, hint } = stores();
    expect(encodeLiteForm(scanTiers(tiers, hint))).toBeUndefined();
  });

  it.each([
    ['a folder without lesson.yaml', (dir: string) => mkdirSync(join(dir, 'orphanedxx'))],
    ['a legacy lesson file', (dir: string) => writeFileSync(join(dir, 'old-lesson.yaml'), 'summary: x\n')],
    ['a stray file', (dir: string) => writeFileSync(join(dir, 'README'), 'notes\n')],
  ])('writes no form when the scan saw %s', (_name, add) => {
    const { tiers, project } = stores();
    add(project.layout.lessonsDir);
    expect(encodeLiteForm(scanTiers(tiers))).toBeUndefined();
  });

  it('gives the same aggregate for ASCII names only (offsets counted without encoding each name)', () => {
    const { tiers, files, full } = stores();
    rmSync(join(files['été-ünïcode'] as string, '..'), { recursive: true });
    const ascii = scanTiers(tiers);
    expect(ascii.aggregate).not.toBe(full.aggregate);
    expect(liteAggregate(tiers, encodeLiteForm(ascii) as Uint8Array)).toBe(ascii.aggregate);
  });

  it('writes one for tiers without lessons (an empty folder, no folder)', () => {
    const { base } = stores();
    const tiers = [
      createTierStore('project', join(base, 'empty')),
      createTierStore('user', join(base, 'none')),
    ];
    mkdirSync(tiers[0]?.layout.lessonsDir as string, { recursive: true });
    const full = scanTiers(tiers);
    expect(liteAggregate(tiers, encodeLiteForm(full) as Uint8Array)).toBe(full.aggregate);
  });
});

describe('createAggregate', () => {
  /** The aggregate as indexes on disk were written with it: sums modulo 2^32 by `%`. */
  function reference(seeds: Uint32Array, stamps: Float64Array, files: number): string {
    let sumA = 0;
    let sumB = 0;
    let count = 0;
    for (let i = 0; i < files; i += 1) {
      const micros = stamps[3 * i] as number;
      if (Number.isNaN(micros)) continue;
      const low = (micros % 0x100000000) >>> 0;
      const high = (micros / 0x100000000) >>> 0;
      const size = (stamps[3 * i + 1] as number) >>> 0;
      const ino = (stamps[3 * i + 2] as number) >>> 0;
      let a = seeds[2 * i] as number;
      for (const word of [low, high, size, ino]) a = Math.imul(a ^ word, 0x01000193);
      let b = Math.imul((seeds[2 * i + 1] as number) ^ low, 0x5bd1e995);
      for (const word of [high, size, ino]) b = Math.imul(b ^ (b >>> 13) ^ word, 0x5bd1e995);
      b ^= b >>> 13;
      sumA = (sumA + (a >>> 0)) % 0x100000000;
      sumB = (sumB + (b >>> 0)) % 0x100000000;
      count += 1;
    }
    return `${sumA.toString(16)}${sumB.toString(16)}:${count}`;
  }

  it('gives the value indexes were written with: sums that wrap, unreadable (-1), pre-1970 and missing files', () => {
    const files = 5000;
    const seeds = new Uint32Array(2 * files);
    const stamps = new Float64Array(3 * files);
    for (let i = 0; i < files; i += 1) {
      seeds[2 * i] = Math.imul(i + 1, 0x9e3779b1) >>> 0;
      seeds[2 * i + 1] = Math.imul(i + 7, 0x85ebca6b) >>> 0;
      stamps[3 * i] = 1_764_300_000_123_456 + i * 987_654_321;
      stamps[3 * i + 1] = 100 + i * 13;
      stamps[3 * i + 2] = 4_000_000_000 + i;
    }
    stamps.fill(-1, 3 * 10, 3 * 11);
    stamps[3 * 20] = -86_400_000_000;
    stamps[3 * 30] = Number.NaN;
    const aggregate = createAggregate();
    expect(aggregate.addSeeded(seeds, 0, stamps, files)).toBe(1);
    expect(aggregate.value()).toBe(reference(seeds, stamps, files));
    // and in two calls, as the lite check adds the lessons and then the votes files
    const inParts = createAggregate();
    inParts.addSeeded(seeds, 0, stamps, 2500);
    inParts.addSeeded(seeds, 5000, stamps.subarray(3 * 2500), 2500);
    expect(inParts.value()).toBe(aggregate.value());
  });
});

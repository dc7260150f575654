/**
 * The lite freshness check without a string per lesson (src/store/index/lite-aggregate.ts): the
 * same aggregate scanTiers gives from the same hint, a different one after any edit in place, and
 * undefined (scanTiers then decides) whenever it cannot be sure.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { listingRanges, liteAggregate } from '../../src/store/index/lite-aggregate.js';
import { scanTiers } from '../../src/store/index/scan-tiers.js';
import { createTierStore } from '../../src/store/lessons/tier-store.js';
import type { TierStore } from '../../src/store/lessons/tier-store.js';

const T0 = 1_700_000_000;

/** A project and a user tier: lessons a..e, votes on b and d, a dot folder; the user tier has one. */
function stores() {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'lore-lite-')));
  onTestFinished(() => rmSync(base, { recursive: true, force: true }));
  const tiers: TierStore[] = [
    createTierStore('project', join(base, 'project')),
    createTierStore('user', join(base, 'user')),
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
    ['aaaaaaaaaa', 'bbbbbbbbbb', 'cccccccccc', 'dddddddddd', 'ee'].map((name) => [
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
  const texts = { listings: JSON.stringify(full.listings), voted: full.voted.join('\n') };
  return { tiers, project, files, full, hint, texts, write };
}

describe('liteAggregate', () => {
  it('gives the aggregate scanTiers gives, from the same hint', () => {
    const { tiers, full, hint, texts } = stores();
    expect(full.voted.sort()).toEqual(['0:bbbbbbbbbb', '0:dddddddddd']);
    expect(liteAggregate(tiers, texts.listings, texts.voted)).toBe(scanTiers(tiers, hint).aggregate);
    expect(liteAggregate(tiers, texts.listings, texts.voted)).toBe(full.aggregate);
  });

  it('differs after an edit in place that keeps the size, and after a vote appended', () => {
    const { tiers, files, texts, full } = stores();
    writeFileSync(files.cccccccccc as string, 'summary: CC\n'.padEnd(`summary: cccccccccc\n`.length));
    utimesSync(files.cccccccccc as string, T0 + 1, T0 + 1);
    expect(liteAggregate(tiers, texts.listings, texts.voted)).not.toBe(full.aggregate);
    const again = stores();
    again.write(again.project, 'dddddddddd', 'votes.jsonl', '{}\n{}\n{}\n');
    expect(liteAggregate(again.tiers, again.texts.listings, again.texts.voted)).not.toBe(
      again.full.aggregate,
    );
  });

  it('agrees with scanTiers through the full-path names too (a folder it does not move into)', () => {
    const { tiers, texts, full } = stores();
    const before = process.cwd();
    const base = join(tiers[0]?.layout.dir ?? '', '..');
    process.chdir(base);
    onTestFinished(() => process.chdir(before));
    // relative folders: inDirectory names the files by `<folder>/<name>/...` from here
    const relative = [createTierStore('project', 'project'), createTierStore('user', 'user')];
    expect(liteAggregate(relative, texts.listings, texts.voted)).toBe(full.aggregate);
  });

  it('cannot tell (undefined) for a listed name without lesson.yaml', () => {
    const { tiers, files, texts } = stores();
    rmSync(files.aaaaaaaaaa as string);
    expect(liteAggregate(tiers, texts.listings, texts.voted)).toBeUndefined();
  });

  it.each([
    ['a name that is not ASCII', (text: string) => text.replace('"ee"', '"\u00e9e"')],
    ['a name written with an escape', (text: string) => text.replace('"ee"', '"e\\u0065"')],
    ['another number of tiers', (text: string) => text.replace(/\]$/, ',null]')],
    ['text that is not the stored form', (text: string) => `${text} `],
  ])('cannot tell (undefined) for %s', (_name, change) => {
    const { tiers, texts } = stores();
    expect(liteAggregate(tiers, change(texts.listings), texts.voted)).toBeUndefined();
  });
});

describe('listingRanges', () => {
  const names = (text: string, tiers: number) => {
    const bytes = Buffer.from(text);
    const ranges = listingRanges(bytes, tiers);
    const name = (n: number) =>
      bytes.subarray(ranges?.bounds[2 * n] as number, ranges?.bounds[2 * n + 1] as number).toString();
    return ranges?.tiers.map(
      (span) => span && Array.from({ length: span[1] - span[0] }, (_, i) => name(span[0] + i)),
    );
  };

  it('reads what JSON.stringify wrote: names per tier, null for a tier without a folder', () => {
    const listings = [['a1', 'b2'], null, [], ['.x']];
    expect(names(JSON.stringify(listings), 4)).toEqual(listings);
  });

  it.each(['', '[', '[]', '[["a"]', '[["a",]]', '[[a]]', '[nul]', '[["a"]]x'])('refuses %j', (text) => {
    expect(names(text, 1)).toBeUndefined();
  });
});

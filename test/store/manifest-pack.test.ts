import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { encodePack, openPack } from '../../src/store/hook-state/manifest-pack.js';

const dir = mkdtempSync(join(tmpdir(), 'lore-pack-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
function packFile(bytes: Buffer): string {
  const path = join(dir, `p${(files += 1)}.pack`);
  writeFileSync(path, bytes);
  return path;
}

describe('packs', () => {
  it('every record reads back alone, holes read as undefined', () => {
    const record = fc.oneof(
      fc.constant(null),
      fc.record({ id: fc.string(), n: fc.nat(), text: fc.string({ unit: 'grapheme', maxLength: 300 }) }),
    );
    fc.assert(
      fc.property(fc.array(record, { maxLength: 40 }), (records) => {
        const pack = openPack(packFile(encodePack(records)));
        try {
          expect(pack.size()).toBe(records.length);
          // in a shuffled order: each read stands alone
          for (const i of [...records.keys()].reverse())
            expect(pack.read(i)).toEqual(records[i] ?? undefined);
          expect(pack.read(records.length)).toBeUndefined();
          expect(pack.read(-1)).toBeUndefined();
        } finally {
          pack.close();
        }
      }),
      { numRuns: 100 },
    );
  });

  it('records on several pages of the offsets table (1,024 records a page), at and across their edges', () => {
    const records = Array.from({ length: 2500 }, (_, n) => (n % 7 === 3 ? null : { n, id: `r${n}` }));
    const pack = openPack(packFile(encodePack(records)));
    try {
      for (const i of [2499, 0, 1023, 1024, 1025, 2047, 2048, 17, 1500, 2400])
        expect(pack.read(i)).toEqual(records[i] ?? undefined);
      expect(
        records.every((record, i) => JSON.stringify(pack.read(i)) === JSON.stringify(record ?? undefined)),
      ).toBe(true);
      expect([pack.read(2500), pack.damaged()]).toEqual([undefined, false]);
    } finally {
      pack.close();
    }
  });

  it('a record longer than the read buffer', () => {
    const big = { text: 'x'.repeat(100_000) };
    const pack = openPack(packFile(encodePack([{ a: 1 }, big])));
    expect(pack.read(1)).toEqual(big);
    expect(pack.read(0)).toEqual({ a: 1 });
    pack.close();
  });

  it.each([
    ['a missing file', join(dir, 'missing.pack')],
    ['an empty file', () => packFile(Buffer.alloc(0))],
    ['another format', () => packFile(Buffer.from('[{"id":"a"}]'))],
    ['a truncated pack', () => packFile(encodePack([{ a: 1 }, { b: 2 }]).subarray(0, 22))],
  ])('%s reads as holes and says so', (_name, make) => {
    const pack = openPack(typeof make === 'string' ? make : make());
    expect(pack.read(0)).toBeUndefined();
    expect(pack.read(1)).toBeUndefined();
    if (_name !== 'a truncated pack') expect(pack.size()).toBe(-1);
    pack.close();
  });

  it('a record that is not JSON reads as a hole; the others still read', () => {
    const bytes = encodePack([{ a: 1 }, { b: 2 }, { c: 3 }]);
    const second = bytes.indexOf('{"b"');
    bytes.write('}}}}}}}', second, 'latin1');
    const pack = openPack(packFile(bytes));
    expect([pack.read(0), pack.read(1), pack.read(2)]).toEqual([{ a: 1 }, undefined, { c: 3 }]);
    pack.close();
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ranWithin, utcIso } from '../../src/core/utc-time.js';

describe('ranWithin: a stamp that holds off a background run', () => {
  const hour = 3_600_000;
  const now = 1_795_000_000_000;
  it.each([
    ['no stamp', undefined, false],
    ['just now', now, true],
    ['59 minutes ago', now - 59 * 60_000, true],
    ['an hour ago: due again', now - hour, false],
    ['a day ago', now - 24 * hour, false],
    ['a second in the future (the clock was set back)', now + 1000, false],
    ['a year in the future', now + 365 * 24 * hour, false],
  ] as const)('%s', (_name, last, within) => {
    expect(ranWithin(last, now, hour)).toBe(within);
  });
});

describe('utcIso', () => {
  it.each([
    0, 951_782_400_000, 1_795_000_000_123, 253_402_300_799_999, -62_135_596_800_000, 1_709_164_800_000,
  ])('%d', (ms) => expect(utcIso(ms)).toBe(new Date(ms).toISOString()));

  it('is Date#toISOString for every whole millisecond of years 0 to 9999', () => {
    fc.assert(
      fc.property(fc.integer({ min: -62_167_219_200_000, max: 253_402_300_799_999 }), (ms) => {
        expect(utcIso(ms)).toBe(new Date(ms).toISOString());
      }),
      { numRuns: 20_000 },
    );
  });
});

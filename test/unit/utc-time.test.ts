import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { utcIso } from '../../src/core/utc-time.js';

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

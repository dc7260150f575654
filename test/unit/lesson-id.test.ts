import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createLessonId,
  ID_LENGTH,
  ID_RANDOM_BYTES,
  isLessonId,
  slugify,
} from '../../src/core/lesson/lesson-id.js';
import { ID_PATTERN, SLUG_PATTERN } from '../../src/core/lesson/constants.js';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
/** createLessonId reads 7 bytes (56 bits) and keeps the low 50: the top 6 bits of byte 0 are unused. */
const USED_BITS = (1n << 50n) - 1n;

const arbBytes = fc.uint8Array({ minLength: ID_RANDOM_BYTES, maxLength: ID_RANDOM_BYTES });

function usedBits(bytes: Uint8Array): bigint {
  let bits = 0n;
  for (const byte of bytes.subarray(0, ID_RANDOM_BYTES)) bits = (bits << 8n) | BigInt(byte);
  return bits & USED_BITS;
}

function decode(id: string): bigint {
  let bits = 0n;
  for (const char of id) bits = (bits << 5n) | BigInt(ALPHABET.indexOf(char));
  return bits;
}

describe('createLessonId', () => {
  it.each([
    { bytes: [0, 0, 0, 0, 0, 0, 0], id: '0000000000' },
    { bytes: [0, 0, 0, 0, 0, 0, 1], id: '0000000001' },
    { bytes: [0, 0, 0, 0, 0, 0, 31], id: '000000000z' },
    { bytes: [0, 0, 0, 0, 0, 0, 32], id: '0000000010' },
    { bytes: [3, 255, 255, 255, 255, 255, 255], id: 'zzzzzzzzzz' },
    { bytes: [255, 255, 255, 255, 255, 255, 255], id: 'zzzzzzzzzz' },
    { bytes: [0xfc, 0, 0, 0, 0, 0, 0], id: '0000000000' },
    { bytes: [1, 0, 0, 0, 0, 0, 0], id: '8000000000' },
  ])('$bytes -> $id', ({ bytes, id }) => {
    expect(createLessonId(Uint8Array.from(bytes))).toBe(id);
  });

  it('ignores bytes after the seventh', () => {
    expect(createLessonId(Uint8Array.from([1, 2, 3, 4, 5, 6, 7, 8, 9]))).toBe(
      createLessonId(Uint8Array.from([1, 2, 3, 4, 5, 6, 7])),
    );
  });

  it('refuses fewer than 7 bytes', () => {
    expect(() => createLessonId(new Uint8Array(6))).toThrow(/7 random bytes/);
  });

  it('is deterministic (property)', () => {
    fc.assert(
      fc.property(arbBytes, (bytes) => createLessonId(bytes) === createLessonId(Uint8Array.from(bytes))),
    );
  });

  it('always matches ID_PATTERN and isLessonId (property)', () => {
    fc.assert(
      fc.property(arbBytes, (bytes) => {
        const id = createLessonId(bytes);
        expect(id).toHaveLength(ID_LENGTH);
        expect(id).toMatch(ID_PATTERN);
        expect(isLessonId(id)).toBe(true);
      }),
    );
  });

  it('encodes exactly the low 50 bits, so it is injective over them (property)', () => {
    fc.assert(fc.property(arbBytes, (bytes) => decode(createLessonId(bytes)) === usedBits(bytes)));
  });

  it('different inputs give different ids unless they differ only in unused bits (property)', () => {
    fc.assert(
      fc.property(arbBytes, arbBytes, (a, b) => {
        expect(createLessonId(a) === createLessonId(b)).toBe(usedBits(a) === usedBits(b));
      }),
    );
  });

  it('inputs that differ in one used bit give different ids (property)', () => {
    fc.assert(
      fc.property(arbBytes, fc.integer({ min: 0, max: 49 }), (bytes, bit) => {
        const flipped = Uint8Array.from(bytes);
        const byte = ID_RANDOM_BYTES - 1 - Math.floor(bit / 8);
        flipped[byte] = (flipped[byte] ?? 0) ^ (1 << (bit % 8));
        expect(createLessonId(flipped)).not.toBe(createLessonId(bytes));
      }),
    );
  });
});

describe('isLessonId', () => {
  it.each([
    { value: '01abcdefgh', ok: true },
    { value: 'zzzzzzzzzz', ok: true },
    { value: '01ABCDEFGH', ok: false },
    { value: '01abcdefgi', ok: false },
    { value: '01abcdefgl', ok: false },
    { value: '01abcdefgo', ok: false },
    { value: '01abcdefgu', ok: false },
    { value: '01abcdefg', ok: false },
    { value: '01abcdefghj', ok: false },
    { value: '', ok: false },
  ])('$value -> $ok', ({ value, ok }) => {
    expect(isLessonId(value)).toBe(ok);
  });
});

describe('slugify', () => {
  it.each([
    {
      name: 'stop words dropped',
      summary: 'Pytest hangs on a TTY without --no-header',
      slug: 'pytest-hangs-tty-without-no-header',
    },
    { name: 'stop words kept when fewer than two other words', summary: 'The API', slug: 'the-api' },
    { name: 'only stop words', summary: 'to be or not to be', slug: 'to-be-or-not-to-be' },
    { name: 'punctuation splits words', summary: "don't use rm -rf /!", slug: 'don-t-use-rm-rf' },
    { name: 'accents removed', summary: 'Café crème brûlée', slug: 'cafe-creme-brulee' },
    { name: 'non-latin letters dropped', summary: 'Ошибка в pytest и jest', slug: 'pytest-jest' },
    { name: 'digits kept', summary: 'Use Node 20 not 18', slug: 'use-node-20-not-18' },
    { name: 'upper case lowered', summary: 'NEVER Force PUSH', slug: 'never-force-push' },
    { name: 'empty', summary: '', slug: 'lesson' },
    { name: 'punctuation only', summary: '!!! ... ???', slug: 'lesson' },
    { name: 'non-latin only', summary: '日本語', slug: 'lesson' },
    {
      name: 'at most seven words',
      summary: 'one two three four five six seven eight nine',
      slug: 'one-two-three-four-five-six-seven',
    },
    {
      name: 'at most 60 characters, whole words only',
      summary: `${'a'.repeat(20)} ${'b'.repeat(20)} ${'c'.repeat(20)}`,
      slug: `${'a'.repeat(20)}-${'b'.repeat(20)}`,
    },
  ])('$name: "$summary" -> $slug', ({ summary, slug }) => {
    expect(slugify(summary)).toBe(slug);
  });

  it('always returns a valid slug of at most 60 characters (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 300 }), (summary) => {
        const slug = slugify(summary);
        expect(slug).toMatch(SLUG_PATTERN);
        expect(slug.length).toBeLessThanOrEqual(60);
      }),
    );
  });
});

/**
 * Lesson ids and slugs.
 *
 * An id is 10 characters of lowercase Crockford base32 drawn from 50 random bits: two branches
 * that each add lessons never collide in practice (one in ~10^7 at 10,000 lessons), so merges
 * need no coordination, and any unique prefix is short to type. The caller supplies the random
 * bytes, which keeps this module pure and testable.
 */
import { ID_PATTERN } from './constants.js';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
export const ID_LENGTH = 10;
export const ID_RANDOM_BYTES = 7;

export function createLessonId(random: Uint8Array): string {
  if (random.length < ID_RANDOM_BYTES)
    throw new Error(`createLessonId needs ${ID_RANDOM_BYTES} random bytes`);
  let bits = 0n;
  for (let i = 0; i < ID_RANDOM_BYTES; i += 1) bits = (bits << 8n) | BigInt(random[i] ?? 0);
  let id = '';
  for (let i = 0; i < ID_LENGTH; i += 1) {
    id = ALPHABET[Number(bits & 31n)] + id;
    bits >>= 5n;
  }
  return id;
}

export function isLessonId(value: string): boolean {
  return ID_PATTERN.test(value);
}

const SLUG_STOP_WORDS = new Set([
  'a',
  'an',
  'the',
  'of',
  'to',
  'and',
  'or',
  'in',
  'on',
  'for',
  'with',
  'is',
  'be',
]);
const SLUG_MAX_WORDS = 7;
const SLUG_MAX_LENGTH = 60;

/** A readable handle derived from the summary: `pytest-hangs-on-tty-without-no-header`. */
export function slugify(summary: string): string {
  const words = summary
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 0);
  const meaningful = words.filter((word) => !SLUG_STOP_WORDS.has(word));
  const chosen = (meaningful.length >= 2 ? meaningful : words).slice(0, SLUG_MAX_WORDS);
  let slug = '';
  for (const word of chosen) {
    const next = slug === '' ? word : `${slug}-${word}`;
    if (next.length > SLUG_MAX_LENGTH) break;
    slug = next;
  }
  return slug === '' ? 'lesson' : slug;
}

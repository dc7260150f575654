/**
 * How the literal index (`src/store/hook-state/literal-index.ts`) finds a key without looking at
 * every key: each key is filed under one short run of characters (a gram) taken from one of its
 * literals, and a hook call looks up the grams at every position of its command or paths. A key
 * whose literals all occur has its gram at the position where that literal occurs, so looking up
 * every position finds every satisfied key (and some others, which the full test then drops): the
 * cost of a call grows with the length of its input, not with the number of keys.
 *
 * The gram of a key is the rarest (over all keys of the index) of the `GRAM`-character runs of its
 * literals, so keys that share a prefix (`handler_12.py`, `handler_13.py`) spread over the table;
 * a key whose literals are all shorter than `GRAM` is filed under its longest literal whole.
 */
import { ANCHOR_MARK } from './literal-keys.js';

export const GRAM = 3;

/** A 32-bit hash of `text[from, from + length)`, the same on both sides (FNV-1a, then mixed). */
export function gramHash(text: string, from: number, length: number): number {
  let h = 0x811c9dc5 ^ length;
  for (let i = from; i < from + length; i += 1) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return h >>> 0;
}

/** The literals of a key's literal part (`a\u0001b`), without the mark of an anchored one. */
export function keyLiterals(part: string): string[] {
  return part
    .split('\u0001')
    .map((literal) => (literal.startsWith(ANCHOR_MARK) ? literal.slice(1) : literal));
}

/** The grams a key may be filed under: every `GRAM`-run of its literals, or its longest literal. */
export function candidateGrams(literals: readonly string[]): string[] {
  const out = new Set<string>();
  for (const literal of literals) {
    for (let i = 0; i + GRAM <= literal.length; i += 1) out.add(literal.slice(i, i + GRAM));
  }
  if (out.size > 0) return [...out];
  const longest = literals.reduce((a, b) => (b.length > a.length ? b : a), '');
  return longest === '' ? [] : [longest];
}

/**
 * The gram of each key (by the literal parts of its entries, `a\u0001b`): the run fewest keys
 * share, ties broken by the smaller string so a build is deterministic. Undefined for a key with
 * no literal (never filed: the manifest files no such key).
 */
export function chooseGrams(parts: readonly string[]): (string | undefined)[] {
  const candidates = parts.map((part) => candidateGrams(keyLiterals(part)));
  const count = new Map<string, number>();
  for (const grams of candidates) for (const gram of grams) count.set(gram, (count.get(gram) ?? 0) + 1);
  return candidates.map((grams) => {
    let best: string | undefined;
    let bestCount = Infinity;
    for (const gram of grams) {
      const n = count.get(gram) ?? 0;
      if (n < bestCount || (n === bestCount && best !== undefined && gram < best)) {
        best = gram;
        bestCount = n;
      }
    }
    return best;
  });
}

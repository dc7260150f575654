/**
 * Every likely duplicate pair in a set of lessons, without comparing all pairs: an inverted index
 * over the lessons' words proposes, for each lesson, the `pool` others that share the most (and
 * the rarest) words with it, the way BM25 would rank them; only those pairs are scored
 * (score-duplicate.ts). Words found in more than 2,000 lessons propose nothing (on a big store
 * they would make this quadratic, and they cannot tell lessons apart) unless a lesson has no other
 * word. Two lessons that share no word are never proposed. Then the pairs are grouped into
 * connected sets. Pure.
 */
import { scoreShingles, shinglesOf } from './score-duplicate.js';
import type { DuplicateInput, DuplicateScore, Shingles } from './score-duplicate.js';

export type DuplicateItem = { key: string; lesson: DuplicateInput };
export type DuplicatePair = DuplicateScore & { a: string; b: string };

/** Candidates scored per lesson: more than any real set of near-duplicates. */
export const DEFAULT_POOL = 20;
/** Words in more lessons than this propose no candidates. */
const COMMON_WORD_LESSONS = 2000;

export function findDuplicatePairs(
  items: readonly DuplicateItem[],
  options: { threshold: number; pool?: number },
): DuplicatePair[] {
  const pool = options.pool ?? DEFAULT_POOL;
  const shingles: Shingles[] = items.map((item) => shinglesOf(item.lesson));
  const postings = new Map<string, number[]>();
  shingles.forEach((s, i) => {
    for (const word of s.words) {
      const list = postings.get(word);
      if (list) list.push(i);
      else postings.set(word, [i]);
    }
  });
  const count = items.length;
  const idf = (df: number) => Math.log(1 + count / df);

  const pairs: DuplicatePair[] = [];
  const seen = new Set<string>();
  shingles.forEach((mine, i) => {
    const words = [...mine.words];
    const telling = words.filter((word) => (postings.get(word)?.length ?? 0) <= COMMON_WORD_LESSONS);
    const weights = new Map<number, number>();
    for (const word of telling.length > 0 ? telling : words) {
      const list = postings.get(word) ?? [];
      const weight = idf(list.length);
      for (const j of list) if (j !== i) weights.set(j, (weights.get(j) ?? 0) + weight);
    }
    const candidates = [...weights.entries()]
      .sort((x, y) => y[1] - x[1] || x[0] - y[0])
      .slice(0, pool)
      .map(([j]) => j);
    for (const j of candidates) {
      const [lo, hi] = i < j ? [i, j] : [j, i];
      const pairKey = `${lo}:${hi}`;
      if (seen.has(pairKey)) continue;
      seen.add(pairKey);
      const score = scoreShingles(shingles[lo] as Shingles, shingles[hi] as Shingles);
      if (score.score >= options.threshold) {
        pairs.push({ a: (items[lo] as DuplicateItem).key, b: (items[hi] as DuplicateItem).key, ...score });
      }
    }
  });
  return pairs.sort((x, y) => y.score - x.score || (x.a < y.a ? -1 : x.a > y.a ? 1 : x.b < y.b ? -1 : 1));
}

/** Connected sets of keys, each sorted, the sets in order of their first key. */
export function groupPairs(pairs: readonly Pick<DuplicatePair, 'a' | 'b'>[]): string[][] {
  const parent = new Map<string, string>();
  const root = (key: string): string => {
    let r = key;
    for (let up = parent.get(r); up !== undefined && up !== r; up = parent.get(r)) r = up;
    parent.set(key, r);
    return r;
  };
  for (const { a, b } of pairs) {
    if (!parent.has(a)) parent.set(a, a);
    if (!parent.has(b)) parent.set(b, b);
    const [ra, rb] = [root(a), root(b)];
    if (ra !== rb) parent.set(ra < rb ? rb : ra, ra < rb ? ra : rb);
  }
  const groups = new Map<string, string[]>();
  for (const key of parent.keys()) {
    const r = root(key);
    groups.set(r, [...(groups.get(r) ?? []), key]);
  }
  return [...groups.values()]
    .map((keys) => keys.sort())
    .sort((x, y) => ((x[0] ?? '') < (y[0] ?? '') ? -1 : 1));
}

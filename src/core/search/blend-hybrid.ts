/**
 * The hybrid ranking of lessons: BM25 and cosine scores, each min-max normalised over the
 * candidates either signal found (docs' `normalizeMinMax`, so lessons and docs blend alike), mixed
 * by the semantic weight, then the one ordering (votes, priority, ...) for equal blends.
 */
import { normalizeMinMax } from '../docs/blend-doc-scores.js';
import { rankBy } from '../rank/rank-results.js';
import type { Rankable } from '../rank/rank-results.js';

export type HybridCandidate<T> = {
  key: string;
  item: T;
  /** The lesson's rank key (its relevance is replaced by the blend). */
  rank: Rankable;
  /** BM25 relevance, higher is better; absent when the words did not find it. */
  text?: number;
  /** Cosine similarity; absent when it was not among the nearest vectors. */
  semantic?: number;
};

export type HybridHit<T> = { item: T; score: number; parts: { text: number; semantic: number } };

export function blendHybrid<T>(
  candidates: readonly HybridCandidate<T>[],
  semanticWeight: number,
): HybridHit<T>[] {
  const weight = Math.min(1, Math.max(0, semanticWeight));
  const keys = candidates.map((c) => c.key);
  const collect = (pick: (c: HybridCandidate<T>) => number | undefined) =>
    new Map(candidates.flatMap((c) => (pick(c) === undefined ? [] : [[c.key, pick(c) as number] as const])));
  const text = normalizeMinMax(
    collect((c) => c.text),
    keys,
  );
  const semantic = normalizeMinMax(
    collect((c) => c.semantic),
    keys,
  );
  const hits = candidates.map((c) => {
    const parts = { text: text.get(c.key) ?? 0, semantic: semantic.get(c.key) ?? 0 };
    return {
      candidate: c,
      hit: { item: c.item, score: (1 - weight) * parts.text + weight * parts.semantic, parts },
    };
  });
  return rankBy(
    hits.filter(({ hit }) => hit.score > 0),
    ({ candidate, hit }) => ({ ...candidate.rank, relevance: hit.score }),
  ).map(({ hit }) => hit);
}

/**
 * The hybrid search: several scorers each give raw scores per doc path; each is min-max
 * normalised to 0..1 over the docs any scorer found, then they are blended by weight.
 *
 * A scorer is a provider: the lexical scorer (score-docs.ts) and the body index (FTS5 BM25, in
 * the store) today; an embedding provider can implement the same interface later.
 */
import type { DocRecord } from './doc-record.js';

export type DocScorer = {
  /** Shown in results (`matchedBy`) and in `--json`. */
  readonly name: string;
  /** Raw scores by doc path, higher is better; docs it does not find are left out. */
  score(query: string, records: readonly DocRecord[]): Promise<ReadonlyMap<string, number>>;
};

export type WeightedScores = { name: string; weight: number; scores: ReadonlyMap<string, number> };

export type BlendedHit = {
  path: string;
  score: number;
  /** Each scorer's normalised score for this doc. */
  parts: Record<string, number>;
};

export function normalizeMinMax(
  scores: ReadonlyMap<string, number>,
  paths: readonly string[],
): Map<string, number> {
  const values = paths.map((path) => scores.get(path) ?? 0);
  const min = Math.min(0, ...values);
  const max = Math.max(...values, 0);
  const span = max - min;
  return new Map(paths.map((path) => [path, span === 0 ? 0 : ((scores.get(path) ?? 0) - min) / span]));
}

export function blendDocScores(inputs: readonly WeightedScores[]): BlendedHit[] {
  const paths = [...new Set(inputs.flatMap((input) => [...input.scores.keys()]))].sort();
  const total = inputs.reduce((sum, input) => sum + input.weight, 0);
  const normalized = inputs.map((input) => ({ input, values: normalizeMinMax(input.scores, paths) }));
  return paths
    .map((path) => {
      const parts: Record<string, number> = {};
      let score = 0;
      for (const { input, values } of normalized) {
        const value = values.get(path) ?? 0;
        parts[input.name] = value;
        score += total === 0 ? 0 : (input.weight / total) * value;
      }
      return { path, score, parts };
    })
    .filter((hit) => hit.score > 0)
    .sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

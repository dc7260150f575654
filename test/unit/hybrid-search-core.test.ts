import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { blendHybrid } from '../../src/core/search/blend-hybrid.js';
import type { HybridCandidate } from '../../src/core/search/blend-hybrid.js';
import { cosineSimilarity, lessonEmbeddingText } from '../../src/core/search/embedding-text.js';
import { checkVectors } from '../../src/store/embed/embedding-provider.js';

const rank = (id: string) => ({
  id,
  relevance: 0,
  voteScore: 0,
  priority: 5,
  confidence: 0.9,
  updatedAt: '2025-01-01T00:00:00.000Z',
});
const candidate = (id: string, text?: number, semantic?: number): HybridCandidate<string> => ({
  key: id,
  item: id,
  rank: rank(id),
  ...(text === undefined ? {} : { text }),
  ...(semantic === undefined ? {} : { semantic }),
});

describe('blendHybrid', () => {
  it('ranks a lesson that wins on both signals first, whatever the weight', () => {
    const score = fc.double({ min: 0, max: 50, noNaN: true });
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.option(score, { nil: undefined }),
            fc.option(fc.double({ min: -1, max: 0.99, noNaN: true }), { nil: undefined }),
          ),
          {
            maxLength: 30,
          },
        ),
        fc.double({ min: 0, max: 50, noNaN: true }),
        fc.double({ min: 0.01, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (others, bump, similarity, weight) => {
          const bestText = Math.max(0, ...others.map(([t]) => t ?? 0)) + bump + 0.001;
          const bestSemantic = Math.max(similarity, ...others.map(([, s]) => (s ?? 0) + 0.001));
          const winner = candidate('zzzwinner', bestText, Math.min(1, bestSemantic + 0.001));
          const hits = blendHybrid([...others.map(([t, s], i) => candidate(`c${i}`, t, s)), winner], weight);
          expect(hits[0]?.item).toBe('zzzwinner');
        },
      ),
    );
  });

  it.each([
    // [weight, expected order]: all on words, all on meaning (a, words only, drops out), even
    [0, ['a', 'b']],
    [1, ['c', 'b']],
    [0.5, ['b', 'a', 'c']],
  ] as const)('weight %s orders %j', (weight, order) => {
    const hits = blendHybrid(
      [candidate('a', 10), candidate('b', 8, 0.6), candidate('c', undefined, 0.9)],
      weight,
    );
    expect(hits.map((h) => h.item)).toEqual(order);
  });

  it('says which part each score came from, normalised to 0..1', () => {
    const hits = blendHybrid([candidate('a', 4, 0.5), candidate('b', 2)], 0.5);
    expect(hits).toEqual([
      { item: 'a', score: 1, parts: { text: 1, semantic: 1 } },
      { item: 'b', score: 0.25, parts: { text: 0.5, semantic: 0 } },
    ]);
  });

  it('breaks equal blends by the one ordering (priority, then votes)', () => {
    const low = { ...candidate('a', 1), rank: { ...rank('a'), priority: 3 } };
    const high = { ...candidate('b', 1), rank: { ...rank('b'), priority: 8 } };
    expect(blendHybrid([low, high], 0.5).map((h) => h.item)).toEqual(['b', 'a']);
  });
});

describe('checkVectors', () => {
  it.each([
    [
      'one vector per text',
      [
        [1, 0],
        [0, 1],
      ],
      2,
      undefined,
      { ok: true, dimensions: 2 },
    ],
    ['too few', [[1, 0]], 2, undefined, { ok: false, kind: 'malformed' }],
    ['not a list', { data: 1 }, 1, undefined, { ok: false, kind: 'malformed' }],
    ['a string inside', [[1, 'x']], 1, undefined, { ok: false, kind: 'malformed' }],
    ['NaN inside', [[1, Number.NaN]], 1, undefined, { ok: false, kind: 'malformed' }],
    ['ragged', [[1, 0], [1]], 2, undefined, { ok: false, kind: 'malformed' }],
    ['empty vectors', [[]], 1, undefined, { ok: false, kind: 'malformed' }],
    ['another dimension', [[1, 0, 0]], 1, 2, { ok: false, kind: 'dimension' }],
    ['the expected dimension', [[1, 0]], 1, 2, { ok: true, dimensions: 2 }],
  ] as const)('%s', (_, raw, count, expected, outcome) => {
    expect(checkVectors(raw, count, expected)).toMatchObject(outcome);
  });
});

describe('lessonEmbeddingText and cosineSimilarity', () => {
  it('shows the model the summary, then the prose, and nothing empty', () => {
    expect(lessonEmbeddingText({ summary: 'S', mistake: ' M ', remediation: '', body: 'B' })).toBe(
      'S\n\nM\n\nB',
    );
    expect(lessonEmbeddingText({ summary: 'x'.repeat(5000) })).toHaveLength(4000);
  });

  it.each([
    [[1, 0], [1, 0], 1],
    [[1, 0], [0, 1], 0],
    [[1, 0], [-1, 0], -1],
    [[0, 0], [1, 0], 0],
    [[1, 0], [1, 0, 0], 0],
  ])('cos(%j, %j) = %d', (a, b, want) => {
    expect(cosineSimilarity(a, b)).toBeCloseTo(want, 10);
  });
});

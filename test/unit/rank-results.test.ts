import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareRankable, rankBy, rankResults } from '../../src/core/rank/rank-results.js';
import type { Rankable } from '../../src/core/rank/rank-results.js';

const base: Rankable = {
  id: 'mmmmmmmmmm',
  relevance: 1,
  voteScore: 1,
  priority: 5,
  updatedAt: '2024-06-01T00:00:00Z',
};
const item = (patch: Partial<Rankable>): Rankable => ({ ...base, ...patch });

describe('rankResults orders by relevance, votes, priority, recency, id', () => {
  it.each([
    {
      name: 'higher relevance wins over everything else',
      first: item({
        id: 'zzzzzzzzzz',
        relevance: 2,
        voteScore: 0,
        priority: 1,
        updatedAt: '2000-01-01T00:00:00Z',
      }),
      second: item({
        id: '0000000000',
        relevance: 1,
        voteScore: 9,
        priority: 10,
        updatedAt: '2030-01-01T00:00:00Z',
      }),
    },
    {
      name: 'at equal relevance, more votes win',
      first: item({ id: 'zzzzzzzzzz', voteScore: 2, priority: 1 }),
      second: item({ id: '0000000000', voteScore: 1, priority: 10 }),
    },
    {
      name: 'at equal votes, higher priority wins',
      first: item({ id: 'zzzzzzzzzz', priority: 6, updatedAt: '2000-01-01T00:00:00Z' }),
      second: item({ id: '0000000000', priority: 5, updatedAt: '2030-01-01T00:00:00Z' }),
    },
    {
      name: 'at equal priority, the newer update wins',
      first: item({ id: 'zzzzzzzzzz', updatedAt: '2024-06-02T00:00:00Z' }),
      second: item({ id: '0000000000', updatedAt: '2024-06-01T00:00:00Z' }),
    },
    {
      name: 'update times compare as instants, not strings',
      first: item({ id: 'zzzzzzzzzz', updatedAt: '2024-06-01T01:00:00Z' }),
      second: item({ id: '0000000000', updatedAt: '2024-06-01T02:00:00+02:00' }),
    },
    {
      name: 'all else equal, the smaller id wins',
      first: item({ id: '0000000001' }),
      second: item({ id: '0000000002' }),
    },
    {
      name: 'relevance equal up to float noise falls through to votes',
      first: item({ id: 'zzzzzzzzzz', relevance: 1, voteScore: 2 }),
      second: item({ id: '0000000000', relevance: 1.0000000001, voteScore: 1 }),
    },
    {
      name: 'relevance equal up to float noise falls through to votes (noise below)',
      first: item({ id: 'zzzzzzzzzz', relevance: 7.999999999999, voteScore: 2 }),
      second: item({ id: '0000000000', relevance: 8, voteScore: 1 }),
    },
    {
      name: 'vote scores equal up to float noise fall through to priority',
      first: item({ id: 'zzzzzzzzzz', voteScore: 0.5, priority: 9 }),
      second: item({ id: '0000000000', voteScore: 0.5000000000001, priority: 1 }),
    },
    {
      name: 'a relevance difference in the sixth digit still counts',
      first: item({ id: 'zzzzzzzzzz', relevance: 1.00001, voteScore: 0 }),
      second: item({ id: '0000000000', relevance: 1, voteScore: 5 }),
    },
    {
      // Relevance is compared at six significant digits (a transitive comparator cannot use a
      // tolerance); values that agree there fall through to votes.
      name: 'relevance equal at six significant digits falls through to votes',
      first: item({ id: 'zzzzzzzzzz', relevance: 1.2345641, voteScore: 2 }),
      second: item({ id: '0000000000', relevance: 1.2345639, voteScore: 1 }),
    },
    {
      name: 'zero relevance ties with zero',
      first: item({ id: 'zzzzzzzzzz', relevance: 0, voteScore: 3 }),
      second: item({ id: '0000000000', relevance: 0, voteScore: 1 }),
    },
  ])('$name', ({ first, second }) => {
    expect(rankResults([second, first])).toEqual([first, second]);
    expect(rankResults([first, second])).toEqual([first, second]);
    expect(compareRankable(first, second)).toBeLessThan(0);
    expect(compareRankable(second, first)).toBeGreaterThan(0);
  });

  it('does not change its input', () => {
    const input = [item({ id: 'b000000000' }), item({ id: 'a000000000' })];
    const copy = structuredClone(input);
    rankResults(input);
    expect(input).toEqual(copy);
  });

  it('is a consistent total order: sorting is independent of input order (property)', () => {
    const arbItem = fc.record({
      id: fc.constantFrom('0000000001', '0000000002', '0000000003', '0000000004'),
      relevance: fc.constantFrom(0, 1, 1.0000000001, 2.5),
      voteScore: fc.constantFrom(0, 0.5, 1),
      priority: fc.integer({ min: 1, max: 10 }),
      updatedAt: fc.constantFrom('2024-01-01T00:00:00Z', '2024-02-01T00:00:00Z'),
    });
    const arbCase = fc
      .uniqueArray(arbItem, { selector: (x) => x.id })
      .chain((items) =>
        fc.tuple(
          fc.constant(items),
          fc.shuffledSubarray(items, { minLength: items.length, maxLength: items.length }),
        ),
      );
    fc.assert(
      fc.property(arbCase, ([items, shuffled]) => {
        const ranked = rankResults(items);
        expect(rankResults(shuffled)).toEqual(ranked);
        for (let i = 1; i < ranked.length; i += 1) {
          expect(compareRankable(ranked[i - 1]!, ranked[i]!)).toBeLessThan(0);
        }
      }),
    );
  });

  it('rankBy sorts exactly as compareRankable on the keys, keys worked out once per item (property)', () => {
    const arbKey = fc.record(
      {
        id: fc.string({ minLength: 1, maxLength: 3 }),
        relevance: fc.oneof(
          fc.constantFrom(0, 1, 1.0000001, 1.000001),
          fc.double({ min: -50, max: 50, noNaN: true }),
        ),
        voteScore: fc.oneof(fc.constantFrom(0, 0.25), fc.double({ min: 0, max: 5, noNaN: true })),
        priority: fc.integer({ min: 1, max: 10 }),
        confidence: fc.constantFrom(0.1, 0.5, 1),
        updatedAt: fc.constantFrom('2024-01-01T00:00:00Z', '2024-02-01T00:00:00Z', 'not a date'),
      },
      { requiredKeys: ['id', 'relevance', 'voteScore', 'priority', 'updatedAt'] },
    );
    fc.assert(
      fc.property(fc.array(fc.record({ n: fc.nat(), key: arbKey }), { maxLength: 30 }), (items) => {
        let calls = 0;
        const ranked = rankBy(items, (item) => {
          calls += 1;
          return item.key;
        });
        expect(calls).toBe(items.length);
        const expected = [...items].sort((a, b) => compareRankable(a.key, b.key));
        // equal keys may land in either order: compare the keys
        expect(ranked.map((item) => item.key)).toEqual(expected.map((item) => item.key));
      }),
    );
  });
});

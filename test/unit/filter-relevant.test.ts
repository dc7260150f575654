// The curated list: tier and stack cases, operations, the project-wins rule, severity-then-date
// ranking and the cap of 10.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SEVERITIES } from '../../src/core/lesson/constants.js';
import type { Category, LessonSeverity, Tier } from '../../src/core/lesson/constants.js';
import {
  compareSeverityThenDate,
  filterRelevant,
  RELEVANT_LIMIT,
} from '../../src/core/rank/filter-relevant.js';
import type { RelevantLesson } from '../../src/core/rank/filter-relevant.js';
import { OPERATION_CATEGORIES, OPERATIONS } from '../../src/core/rank/operation-categories.js';

let counter = 0;
function lesson(overrides: Partial<RelevantLesson> = {}): RelevantLesson {
  counter += 1;
  const id = overrides.id ?? `l${String(counter).padStart(9, '0')}`;
  return {
    id,
    slug: overrides.slug ?? `slug-${id}`,
    tier: 'user',
    status: 'active',
    category: 'technical',
    severity: 'medium',
    stack: [],
    updatedAt: '2026-10-01T00:00:00.000Z',
    ...overrides,
  };
}

describe('stack and tier', () => {
  it.each([
    // tier, lesson stack, repository stack, kept
    ['user', [], ['python'], true],
    ['user', [], [], true],
    ['user', ['python'], ['python', 'django'], true],
    ['user', ['Python'], ['python'], true],
    ['user', ['python', 'rust'], ['rust'], true],
    ['user', ['python'], ['typescript', 'node'], false],
    ['user', ['react'], ['javascript', 'node'], false],
    ['user', ['python'], [], true],
    ['user', ['pandas'], ['python'], true],
    ['user', ['pandas', 'python'], ['go'], false],
    ['project', ['python'], ['typescript'], true],
    ['project', ['rust'], [], true],
  ] as [Tier, string[], string[], boolean][])(
    '%s lesson with stack %j in a %j repository: kept %s',
    (tier, stack, repoStack, kept) => {
      const item = lesson({ tier, stack });
      expect(filterRelevant([item], { stack: repoStack })).toEqual(kept ? [item] : []);
    },
  );

  it('only active, reviewed lessons', () => {
    const kept = lesson();
    const items = [
      kept,
      lesson({ status: 'archived' }),
      lesson({ status: 'superseded' }),
      lesson({ needsReview: true }),
    ];
    expect(filterRelevant(items, { stack: [] })).toEqual([kept]);
  });

  it('the project lesson wins over a user lesson with its id or slug', () => {
    const project = lesson({ id: 'aaaaaaaaaa', slug: 'use-pnpm', tier: 'project', severity: 'low' });
    const sameId = lesson({ id: 'aaaaaaaaaa', slug: 'other', tier: 'user', severity: 'critical' });
    const sameSlug = lesson({ id: 'bbbbbbbbbb', slug: 'use-pnpm', tier: 'user', severity: 'critical' });
    const other = lesson({ id: 'cccccccccc', tier: 'user' });
    expect(filterRelevant([sameId, sameSlug, other, project], { stack: [] })).toEqual([other, project]);
    expect(filterRelevant([sameId, sameSlug, other, project], { stack: [], tier: 'user' })).toEqual([other]);
  });

  it('--tier keeps one tier', () => {
    const project = lesson({ tier: 'project' });
    const user = lesson({ tier: 'user' });
    expect(filterRelevant([project, user], { stack: [], tier: 'project' })).toEqual([project]);
  });
});

describe('operations', () => {
  it.each([
    ['plan', 'architecture', true],
    ['plan', 'performance', false],
    ['test', 'testing', true],
    ['test', 'security', false],
    ['deploy', 'process', true],
    ['deploy', 'performance', true],
    ['deploy', 'technical', true],
    ['deploy', 'testing', false],
    ['review', 'process', true],
    ['test', 'performance', true],
    ['optimize', 'performance', true],
    ['review', 'security', true],
    ['verify', 'collaboration', false],
  ] as const)('%s keeps %s lessons: %s', (operation, category, kept) => {
    const item = lesson({ category: category as Category });
    expect(filterRelevant([item], { stack: [], operation })).toHaveLength(kept ? 1 : 0);
  });
});

describe('ranking', () => {
  it('severity first (critical > high > medium > low), then newest, at most 10', () => {
    const items = [
      lesson({ id: 'low0000000', severity: 'low', updatedAt: '2026-11-20T00:00:00.000Z' }),
      lesson({ id: 'medold0000', severity: 'medium', updatedAt: '2026-01-01T00:00:00.000Z' }),
      lesson({ id: 'crit000000', severity: 'critical', updatedAt: '2025-01-01T00:00:00.000Z' }),
      lesson({ id: 'mednew0000', severity: 'medium', updatedAt: '2026-06-01T00:00:00.000Z' }),
      lesson({ id: 'high000000', severity: 'high', updatedAt: '2026-02-01T00:00:00.000Z' }),
    ];
    expect(filterRelevant(items, { stack: [] }).map((l) => l.id)).toEqual([
      'crit000000',
      'high000000',
      'mednew0000',
      'medold0000',
      'low0000000',
    ]);
    const many = Array.from({ length: 25 }, (_, i) =>
      lesson({ severity: 'low', updatedAt: new Date(Date.UTC(2026, 0, 1 + i)).toISOString() }),
    );
    const top = filterRelevant(many, { stack: [] });
    expect(top).toHaveLength(RELEVANT_LIMIT);
    expect(top[0]).toBe(many[24]);
    expect(filterRelevant(many, { stack: [], limit: 3 })).toEqual([many[24], many[23], many[22]]);
    expect(filterRelevant(many, { stack: [], limit: 50 })).toHaveLength(RELEVANT_LIMIT);
  });

  it('nothing matches: an empty list', () => {
    expect(filterRelevant([lesson({ category: 'security' })], { stack: [], operation: 'optimize' })).toEqual(
      [],
    );
  });

  it('property: never more than 10, sorted, every kept lesson passes every filter', () => {
    const arbitrary = fc.record({
      tier: fc.constantFrom<Tier>('project', 'user'),
      severity: fc.constantFrom<LessonSeverity>(...SEVERITIES),
      category: fc.constantFrom<Category>('technical', 'testing', 'process', 'performance', 'security'),
      stack: fc.subarray(['python', 'rust', 'react']),
      day: fc.integer({ min: 1, max: 28 }),
    });
    fc.assert(
      fc.property(
        fc.array(arbitrary, { maxLength: 40 }),
        fc.constantFrom(undefined, ...OPERATIONS),
        fc.subarray(['python', 'rust', 'react', 'go']),
        (specs, operation, stack) => {
          const items = specs.map((spec) =>
            lesson({ ...spec, updatedAt: new Date(Date.UTC(2026, 5, spec.day)).toISOString() }),
          );
          const kept = filterRelevant(items, { stack, operation });
          expect(kept.length).toBeLessThanOrEqual(RELEVANT_LIMIT);
          for (let i = 1; i < kept.length; i += 1)
            expect(
              compareSeverityThenDate(kept[i - 1] as RelevantLesson, kept[i] as RelevantLesson),
            ).toBeLessThan(0);
          const categories = operation === undefined ? undefined : OPERATION_CATEGORIES[operation];
          const passes = (item: RelevantLesson) =>
            (categories === undefined || categories.includes(item.category)) &&
            (item.tier === 'project' ||
              item.stack.length === 0 ||
              stack.length === 0 ||
              item.stack.some((entry) => stack.includes(entry)));
          for (const item of kept) expect(passes(item)).toBe(true);
          expect(kept).toHaveLength(Math.min(RELEVANT_LIMIT, items.filter(passes).length));
        },
      ),
    );
  });
});

// Near-duplicate scoring: real-looking lesson pairs on both sides of the default threshold, and
// the properties any similarity must have.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findDuplicatePairs, groupPairs } from '../../src/core/curate/find-duplicate-pairs.js';
import { contentWords, scoreDuplicate, stem } from '../../src/core/curate/score-duplicate.js';
import type { DuplicateInput } from '../../src/core/curate/score-duplicate.js';
import { ConfigSchema } from '../../src/core/lesson/schema.js';

const THRESHOLD = ConfigSchema.parse({}).duplicates.threshold;

const DUPLICATES: [string, string][] = [
  [
    'pytest hangs on a TTY in agent shells: run CI=1 pytest -p no:cacheprovider',
    'pytest hangs waiting for a TTY; run it with CI=1 and -p no:cacheprovider',
  ],
  [
    'Never edit files under src/generated: they are rebuilt by npm run codegen',
    'Do not edit generated files in src/generated, run npm run codegen instead',
  ],
  ['Use pnpm, not npm, in this repository', 'Use pnpm instead of npm here'],
  ['Read a file before editing it', 'Read the whole file before editing it with the Edit tool'],
  [
    'docker compose up fails without .env: copy .env.example first',
    'Copy .env.example to .env before docker compose up',
  ],
  ['Always run the tests before pushing', 'Run tests before you push any commit'],
  [
    'Use python -m pytest so the src layout is importable',
    'pytest cannot import the package: use python -m pytest (src layout)',
  ],
  [
    'The API returns dates in UTC; convert before display',
    'Dates from the API are UTC: convert them to local time before showing them',
  ],
];

const DIFFERENT: [string, string][] = [
  [
    'pytest hangs on a TTY in agent shells: run CI=1 pytest -p no:cacheprovider',
    'Run the database migrations before starting the API server',
  ],
  ['Use pnpm, not npm, in this repository', 'npm ci fails on node 18: use node 20'],
  ['git push rejected: pull --rebase first', 'Always run the tests before pushing'],
  [
    'The API returns dates in UTC; convert before display',
    'The API paginates with a cursor, not page numbers',
  ],
  [
    'pytest hangs on a TTY in agent shells: run CI=1 pytest -p no:cacheprovider',
    'pytest -x stops at the first failure: use it while fixing one test',
  ],
  ['Never commit .env files', 'Never edit files under src/generated'],
];

describe('scoreDuplicate', () => {
  it.each(DUPLICATES)('alike: %j ~ %j', (a, b) => {
    expect(scoreDuplicate({ summary: a }, { summary: b }).score).toBeGreaterThanOrEqual(THRESHOLD);
  });

  it.each(DIFFERENT)('different: %j vs %j', (a, b) => {
    expect(scoreDuplicate({ summary: a }, { summary: b }).score).toBeLessThan(THRESHOLD);
  });

  it('mistake and remediation count as text', () => {
    const a = { summary: 'pytest hangs', remediation: 'run CI=1 pytest -p no:cacheprovider in agent shells' };
    const b = {
      summary: 'pytest hangs in agent shells',
      mistake: 'no TTY',
      remediation: 'CI=1 pytest -p no:cacheprovider',
    };
    expect(scoreDuplicate(a, b).score).toBeGreaterThanOrEqual(THRESHOLD);
  });

  it('scope counts for a fifth, and only when both lessons have one', () => {
    const text = 'Never edit generated files: run the code generator instead';
    const same = scoreDuplicate(
      { summary: text, paths: ['src/gen/**'], tools: ['Edit'] },
      { summary: text, paths: ['src/gen/**'], tools: ['Edit'] },
    );
    const apart = scoreDuplicate(
      { summary: text, paths: ['src/gen/**'] },
      { summary: text, paths: ['api/gen/**'] },
    );
    const oneSided = scoreDuplicate({ summary: text, paths: ['src/gen/**'] }, { summary: text });
    expect(same).toEqual({ score: 1, text: 1, scope: 1 });
    expect(apart).toEqual({ score: 0.8, text: 1, scope: 0 });
    expect(oneSided).toEqual({ score: 1, text: 1, scope: null });
  });

  it('tags that say how a lesson was found are not scope', () => {
    const a = { summary: 'x y z', tags: ['env:claude-code', 'severity:medium'] };
    expect(scoreDuplicate(a, { summary: 'x y z', tags: ['lang:go'] }).scope).toBeNull();
  });
});

describe('words', () => {
  it.each([
    ['hangs', 'hang'],
    ['hanging', 'hang'],
    ['edited', 'edit'],
    ['libraries', 'library'],
    ['process', 'process'],
    ['status', 'status'],
    ['go', 'go'],
    ['v20s', 'v20s'],
  ])('stem(%j) is %j', (word, stemmed) => {
    expect(stem(word)).toBe(stemmed);
  });

  it('drops function words, filler and single letters', () => {
    expect(contentWords("Don't use npm -g: always install with pnpm -D")).toEqual(['npm', 'install', 'pnpm']);
  });
});

describe('properties', () => {
  const word = fc.constantFrom(
    'pytest',
    'hangs',
    'tty',
    'docker',
    'compose',
    'env',
    'migration',
    'schema',
    'react',
    'effect',
    'cache',
    'token',
    'commit',
    'review',
  );
  const text = fc.array(word, { minLength: 1, maxLength: 12 }).map((words) => words.join(' '));
  const scopeList = fc.subarray(['Bash', 'Edit', 'src/**', 'lang:python', 'tool:pytest']);
  const lesson: fc.Arbitrary<DuplicateInput> = fc.record({
    summary: text,
    remediation: fc.option(text, { nil: undefined }),
    tools: scopeList,
    tags: scopeList,
  });

  it('is symmetric and between 0 and 1', () => {
    fc.assert(
      fc.property(lesson, lesson, (a, b) => {
        const ab = scoreDuplicate(a, b);
        expect(ab).toEqual(scoreDuplicate(b, a));
        expect(ab.score).toBeGreaterThanOrEqual(0);
        expect(ab.score).toBeLessThanOrEqual(1);
      }),
    );
  });

  it('a lesson is a perfect duplicate of itself, whatever its case and punctuation', () => {
    fc.assert(
      fc.property(lesson, (a) => {
        const shouted = { ...a, summary: `${a.summary.toUpperCase().replace(/ /g, ', ')}!` };
        expect(scoreDuplicate(a, shouted).score).toBe(1);
      }),
    );
  });

  it('lessons sharing no word and no scope score 0', () => {
    fc.assert(
      fc.property(text, text, (a, b) => {
        const left = { summary: a.replace(/\w+/g, (w) => `${w}left`) };
        const right = { summary: b.replace(/\w+/g, (w) => `${w}right`) };
        expect(scoreDuplicate(left, right).score).toBe(0);
      }),
    );
  });
});

describe('findDuplicatePairs', () => {
  const items = [...DUPLICATES.flat(), ...DIFFERENT.flat()].map((summary, i) => ({
    key: `k${String(i).padStart(2, '0')}`,
    lesson: { summary },
  }));
  const unique = items.filter(
    (item, i) => items.findIndex((other) => other.lesson.summary === item.lesson.summary) === i,
  );

  it('finds every pair of the alike table and none of the different one', () => {
    const pairs = findDuplicatePairs(unique, { threshold: THRESHOLD });
    const found = new Set(
      pairs.map((pair) =>
        [pair.a, pair.b]
          .map((k) => unique.find((i) => i.key === k)?.lesson.summary)
          .sort()
          .join(' | '),
      ),
    );
    for (const [a, b] of DUPLICATES) expect(found).toContain([a, b].sort().join(' | '));
    for (const [a, b] of DIFFERENT) expect(found).not.toContain([a, b].sort().join(' | '));
  });

  it('groups connected pairs', () => {
    expect(
      groupPairs([
        { a: 'a', b: 'b' },
        { a: 'c', b: 'b' },
        { a: 'x', b: 'y' },
      ]),
    ).toEqual([
      ['a', 'b', 'c'],
      ['x', 'y'],
    ]);
    expect(groupPairs([])).toEqual([]);
  });

  it('property: with a pool as large as the store it finds exactly what comparing all pairs finds', () => {
    const word = fc.constantFrom(
      'pytest',
      'tty',
      'docker',
      'env',
      'schema',
      'react',
      'cache',
      'token',
      'commit',
      'lint',
    );
    const lessons = fc.array(
      fc.array(word, { minLength: 1, maxLength: 6 }).map((w) => w.join(' ')),
      { maxLength: 14 },
    );
    fc.assert(
      fc.property(lessons, fc.constantFrom(0.3, 0.4, 0.7), (summaries, threshold) => {
        const input = summaries.map((summary, i) => ({
          key: `k${String(i).padStart(2, '0')}`,
          lesson: { summary },
        }));
        const brute: string[] = [];
        for (let i = 0; i < input.length; i += 1)
          for (let j = i + 1; j < input.length; j += 1)
            if (scoreDuplicate(input[i]!.lesson, input[j]!.lesson).score >= threshold)
              brute.push(`${input[i]!.key}|${input[j]!.key}`);
        const found = findDuplicatePairs(input, { threshold, pool: input.length }).map(
          (pair) => `${pair.a}|${pair.b}`,
        );
        expect(found.sort()).toEqual(brute.sort());
      }),
    );
  });
});

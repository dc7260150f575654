// The pure rules of `lore prune`: staleness (paths, commits, tasks) on known facts only, and the
// age rule with its floors (never high or critical, never younger than 30 days).
import { describe, expect, it } from 'vitest';
import { findAgeReason } from '../../src/core/curate/find-aged.js';
import type { AgeInput } from '../../src/core/curate/find-aged.js';
import {
  createFileMatcher,
  findStaleReasons,
  isPathSafeTask,
  taskPathsFor,
} from '../../src/core/curate/find-stale.js';
import type { RepoFacts, StaleInput } from '../../src/core/curate/find-stale.js';

const FILES = [
  'package.json',
  'src/api/handlers.ts',
  'src/api/routes.ts',
  'src/generated/types.ts',
  'docs/tasks/T-1.md',
  'tests/unit/test_api.py',
  '.github/workflows/ci.yml',
];

const facts = (over: Partial<RepoFacts> = {}): RepoFacts => ({
  files: FILES,
  commits: new Map([
    ['abc1234', true],
    ['dead000', false],
    ['beef000', false],
  ]),
  tasks: new Map([
    ['T-1', true],
    ['T-9', false],
  ]),
  ...over,
});

const input = (paths: string[], evidence: [string, string][] = []): StaleInput => ({
  paths,
  evidence: evidence.map(([kind, ref]) => ({ kind, ref })),
});

describe('findStaleReasons', () => {
  it.each([
    ['no paths, no evidence', input([]), []],
    ['a glob that matches', input(['src/api/**']), []],
    ['a bare name matches at any depth', input(['handlers.ts']), []],
    ['a directory name matches what is under it', input(['src/generated']), []],
    ['a dotfile directory matches', input(['.github/workflows/*.yml']), []],
    ['one of several globs matches', input(['legacy/**', '**/*.py']), []],
    ['no glob matches', input(['legacy/**', 'src/old/*.js']), ['paths']],
    ['a commit still on the branch', input([], [['commit', 'abc1234']]), []],
    [
      'one of two commits still there',
      input(
        [],
        [
          ['commit', 'dead000'],
          ['commit', 'abc1234'],
        ],
      ),
      [],
    ],
    [
      'every commit gone',
      input(
        [],
        [
          ['commit', 'dead000'],
          ['commit', 'beef000'],
        ],
      ),
      ['commits'],
    ],
    [
      'a commit gone, another unknown',
      input(
        [],
        [
          ['commit', 'dead000'],
          ['commit', 'f00f00f'],
        ],
      ),
      [],
    ],
    ['a task still there', input([], [['task', 'T-1']]), []],
    ['every task gone', input([], [['task', 'T-9']]), ['tasks']],
    ['an unknown task', input([], [['task', 'PROJ-42']]), []],
    ['session evidence never counts', input([], [['session', 'abc']]), []],
    [
      'every rule at once',
      input(
        ['legacy/**'],
        [
          ['commit', 'dead000'],
          ['task', 'T-9'],
        ],
      ),
      ['paths', 'commits', 'tasks'],
    ],
  ] as [string, StaleInput, string[]][])('%s', (_name, lesson, rules) => {
    const f = facts();
    const reasons = findStaleReasons(lesson, f, createFileMatcher(FILES));
    expect(reasons.map((reason) => reason.rule)).toEqual(rules);
  });

  it('says why, naming the globs, commits and tasks', () => {
    const reasons = findStaleReasons(
      input(
        ['legacy/**'],
        [
          ['commit', 'dead000'],
          ['commit', 'beef000'],
          ['task', 'T-9'],
        ],
      ),
      facts(),
      createFileMatcher(FILES),
    );
    expect(reasons.map((reason) => reason.message)).toEqual([
      'no file matches its path glob legacy/**',
      'all 2 evidence commits dead000, beef000 are gone from the current branch',
      'its evidence task T-9 is gone',
    ]);
    expect(reasons[1]?.refs).toEqual(['dead000', 'beef000']);
  });

  it('unknown files never make a lesson stale by its paths', () => {
    expect(findStaleReasons(input(['legacy/**']), facts({ files: undefined }), undefined)).toEqual([]);
  });

  it('an empty repository matches no glob', () => {
    expect(findStaleReasons(input(['**/*.ts']), facts({ files: [] }), createFileMatcher([]))).toHaveLength(1);
  });
});

describe('task paths', () => {
  it.each([
    ['T-1', true],
    ['PROJ-42', true],
    ['issue_7.v2', true],
    ['../etc/passwd', false],
    ['a/b', false],
    ['.hidden', false],
    ['', false],
  ])('%j is usable in a path: %s', (ref, safe) => {
    expect(isPathSafeTask(ref)).toBe(safe);
  });

  it('expands every template; unsafe refs get none', () => {
    expect(taskPathsFor('T-1', ['docs/tasks/{task}.md', '.orbit/tasks/{task}/'])).toEqual([
      'docs/tasks/T-1.md',
      '.orbit/tasks/T-1/',
    ]);
    expect(taskPathsFor('../x', ['docs/tasks/{task}.md'])).toEqual([]);
  });
});

describe('findAgeReason', () => {
  const NOW = Date.parse('2026-11-23T00:00:00.000Z');
  const daysAgo = (days: number) => new Date(NOW - days * 86_400_000).toISOString();
  const aged = (over: Partial<AgeInput>): AgeInput => ({
    status: 'active',
    severity: 'low',
    createdAt: daysAgo(400),
    updatedAt: daysAgo(400),
    lastVotedAt: null,
    ...over,
  });

  it.each([
    ['old and low', aged({}), { maxAgeDays: 365, maxSeverity: 'low' }, true],
    [
      'exactly at the limit',
      aged({ createdAt: daysAgo(365), updatedAt: daysAgo(365) }),
      { maxAgeDays: 365, maxSeverity: 'low' },
      false,
    ],
    [
      'medium under a low threshold',
      aged({ severity: 'medium' }),
      { maxAgeDays: 365, maxSeverity: 'low' },
      false,
    ],
    [
      'medium under a medium threshold',
      aged({ severity: 'medium' }),
      { maxAgeDays: 365, maxSeverity: 'medium' },
      true,
    ],
    [
      'high, whatever the config',
      aged({ severity: 'high' }),
      { maxAgeDays: 30, maxSeverity: 'critical' },
      false,
    ],
    [
      'critical, whatever the config',
      aged({ severity: 'critical' }),
      { maxAgeDays: 30, maxSeverity: 'critical' },
      false,
    ],
    [
      'younger than 30 days, whatever the config',
      aged({ createdAt: daysAgo(20), updatedAt: daysAgo(20) }),
      { maxAgeDays: 1, maxSeverity: 'low' },
      false,
    ],
    [
      '31 days with a 30-day limit',
      aged({ createdAt: daysAgo(31), updatedAt: daysAgo(31) }),
      { maxAgeDays: 30, maxSeverity: 'low' },
      true,
    ],
    [
      'old but edited lately',
      aged({ updatedAt: daysAgo(10) }),
      { maxAgeDays: 365, maxSeverity: 'low' },
      false,
    ],
    [
      'old but upvoted lately',
      aged({ lastVotedAt: daysAgo(10) }),
      { maxAgeDays: 365, maxSeverity: 'low' },
      false,
    ],
    [
      'old, upvoted long ago',
      aged({ lastVotedAt: daysAgo(380) }),
      { maxAgeDays: 365, maxSeverity: 'low' },
      true,
    ],
    ['already archived', aged({ status: 'archived' }), { maxAgeDays: 365, maxSeverity: 'low' }, false],
  ] as [
    string,
    AgeInput,
    { maxAgeDays: number; maxSeverity: 'low' | 'medium' | 'high' | 'critical' },
    boolean,
  ][])('%s: archived %s', (_name, lesson, policy, expected) => {
    expect(findAgeReason(lesson, policy, NOW) !== undefined).toBe(expected);
  });

  it('says how old and how idle', () => {
    expect(
      findAgeReason(aged({ lastVotedAt: daysAgo(380) }), { maxAgeDays: 365, maxSeverity: 'low' }, NOW),
    ).toEqual({
      rule: 'age',
      ageDays: 400,
      idleDays: 380,
      message: 'low severity, created 400 days ago, untouched for 380 days (limit 365)',
    });
  });
});

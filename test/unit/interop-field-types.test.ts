// A source entry with a field of the wrong type is reported with the field and the type expected,
// and skipped whole: never imported with that field dropped or defaulted (README: "never
// half-imported"). The other entries of the file still import.
import { describe, expect, it } from 'vitest';
import { findInteropFormat } from '../../src/core/interop/interop-formats.js';

const NOW = '2026-11-23T12:00:00.000Z';
const good = { id: 'ok', summary: 'A fine lesson', mistake: 'm', remediation: 'r' };

function importLessonsLearned(entry: Record<string, unknown>) {
  const text = JSON.stringify({
    type: 'lessons-learned-store',
    lessons: [good, { id: 'bad', summary: 'S', ...entry }],
  });
  return findInteropFormat('lessons-learned').parse([{ path: 'data/lessons.json', text }], { nowIso: NOW });
}

describe('lessons-learned: wrong-typed fields', () => {
  it.each([
    [
      { triggers: { commandPatterns: '^rm -rf' } },
      'triggers.commandPatterns',
      'expected a list of strings, got "^rm -rf"',
    ],
    [{ triggers: { toolNames: ['Bash', 3] } }, 'triggers.toolNames', 'expected a list of strings'],
    [{ commandPatterns: '^rm' }, 'commandPatterns', 'expected a list of strings'],
    [{ tags: 'safety' }, 'tags', 'expected a list of strings, got "safety"'],
    [{ priority: '9' }, 'priority', 'expected a number, got "9"'],
    [{ confidence: 'high' }, 'confidence', 'expected a number'],
    [{ occurrenceCount: [] }, 'occurrenceCount', 'expected a number'],
    [{ needsReview: 'yes' }, 'needsReview', 'expected true or false'],
    [{ mistake: 42 }, 'mistake', 'expected a string, got 42'],
    [{ summary: ['x'] }, 'summary', 'expected a string'],
    [
      { status: 'deleted' },
      'status',
      'expected one of candidate, reviewed, active, disabled, archived, got "deleted"',
    ],
    [{ type: 'rule' }, 'type', 'expected one of directive, guard, hint, protocol, got "rule"'],
  ])('%j is reported (%s) and skipped; the good entry imports', (entry, field, message) => {
    const parsed = importLessonsLearned(entry);
    expect(parsed.lessons.map((lesson) => lesson.lesson.summary)).toEqual(['A fine lesson']);
    expect(parsed.problems).toEqual([
      expect.objectContaining({
        file: 'data/lessons.json',
        field: `lessons[1] (bad): ${field}`,
        message: expect.stringContaining(message),
        severity: 'error',
      }),
    ]);
    expect(parsed.problems[0]?.message).toContain('entry skipped');
  });

  it.each([
    [{ tags: null, priority: null }, 'null is absent'],
    [{ status: 'candidate', type: 'directive', priority: 7, tags: ['a'] }, 'known values'],
  ])('%j imports (%s)', (entry, _why) => {
    expect(importLessonsLearned(entry).lessons).toHaveLength(2);
  });

  it('reports every wrong field of an entry, not only the first', () => {
    const parsed = importLessonsLearned({ tags: 'x', priority: '9' });
    expect(parsed.problems.map((problem) => problem.field)).toEqual([
      'lessons[1] (bad): priority',
      'lessons[1] (bad): tags',
    ]);
  });
});

describe('Orbit and ADD: wrong-typed lists', () => {
  it('an Orbit learning whose scope.tags is not a list is reported and skipped', () => {
    const text =
      'id: L-0001\nschemaVersion: 1\nstatus: active\nsummary: s\nscope:\n  tags: safety\n  paths: [src/**]\n' +
      'created_at: 2026-01-01T00:00:00Z\nupdated_at: 2026-01-01T00:00:00Z\n';
    const parsed = findInteropFormat('orbit').parse([{ path: 'learnings/L-0001/learning.yaml', text }], {
      nowIso: NOW,
    });
    expect(parsed.lessons).toEqual([]);
    expect(parsed.problems).toEqual([
      expect.objectContaining({
        field: '(L-0001): scope.tags',
        message: expect.stringContaining('expected a list of strings'),
      }),
    ]);
  });

  it('an ADD entry whose stack is not a list is reported and skipped', () => {
    const text = JSON.stringify({
      version: '1.0.0',
      project: 'p',
      entries: [
        {
          id: 'L-001',
          title: 'T',
          body: 'b',
          scope: 'project',
          stack: 'python',
          category: 'technical',
          severity: 'high',
          date: '2026-01-01',
        },
      ],
    });
    const parsed = findInteropFormat('add').parse([{ path: '.add/learnings.json', text }], { nowIso: NOW });
    expect(parsed.lessons).toEqual([]);
    expect(parsed.problems).toEqual([
      expect.objectContaining({
        field: 'entries[0] (L-001): stack',
        message: expect.stringContaining('got "python"'),
      }),
    ]);
  });
});

// Characters a summary may not hold (a bell, an escape, a line separator) and bidirectional
// controls no lesson field may hold: refused by the schema with the character named, and left
// out of what capture and import draft, so a drafted candidate always validates.
import { describe, expect, it } from 'vitest';
import { BIDI_CONTROL, INVISIBLE_IN_LINE, withoutInvisible } from '../../src/core/lesson/constants.js';
import { LessonSchema } from '../../src/core/lesson/schema.js';
import { fitSummary } from '../../src/core/interop/imported-lesson.js';

const lesson = (fields: Record<string, unknown>) => ({
  schemaVersion: 1,
  id: '0123456789',
  slug: 'run-tests',
  summary: 'Run the tests with -p no:cacheprovider',
  type: 'hint',
  status: 'active',
  severity: 'medium',
  priority: 5,
  confidence: 0.8,
  tags: [],
  createdAt: '2026-11-28T00:00:00Z',
  updatedAt: '2026-11-28T00:00:00Z',
  ...fields,
});

const issues = (fields: Record<string, unknown>) => {
  const result = LessonSchema.safeParse(lesson(fields));
  return result.success ? [] : result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe('invisible characters in a lesson', () => {
  it.each([
    ['a bell', 'run the tests \u0007 quietly', 'summary: holds an invisible control character (U+0007)'],
    ['an escape', '\u001b[31mred\u001b[0m tests', 'summary: holds an invisible control character (U+001B)'],
    ['DEL', 'run\u007f the tests', 'summary: holds an invisible control character (U+007F)'],
    [
      'a line separator',
      'run the tests\u2028then push',
      'summary: holds an invisible control character (U+2028)',
    ],
    ['a right-to-left override', 'run \u202erm -rf', 'summary: holds a bidirectional control character'],
  ])('a summary with %s is refused, naming it', (_, summary, message) => {
    expect(issues({ summary }).some((issue) => issue.startsWith(message))).toBe(true);
  });

  it.each([
    ['a tab', 'run\tthe tests'],
    ['accents and CJK', 'Lancez les tests é 测试'],
    ['a right-to-left script with its marks', 'שלום \u200f run the tests'],
  ])('a summary with %s is fine', (_, summary) => {
    expect(issues({ summary })).toEqual([]);
  });

  it('a bidirectional control anywhere in a lesson is refused at its path', () => {
    expect(issues({ body: 'safe: \u2066x\u2069' })).toEqual([
      expect.stringMatching(/^body: holds a bidirectional/),
    ]);
    expect(issues({ tags: ['ok', 'x\u202ay'] })).toEqual([
      expect.stringMatching(/^tags\.1: holds a bidirectional/),
    ]);
  });

  it('drafts leave them out: what capture and import write always validates', () => {
    const dirty = 'Run \u001b[31m`npm test`\u0007 \u202eagain\u202c\u2028now';
    const clean = withoutInvisible(dirty);
    expect(INVISIBLE_IN_LINE.test(clean) || BIDI_CONTROL.test(clean)).toBe(false);
    const summary = fitSummary(dirty);
    expect(summary).toBe('Run [31m`npm test` again now');
    expect(issues({ summary })).toEqual([]);
  });
});

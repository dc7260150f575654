import { describe, expect, it } from 'vitest';
import { DRAFT_FIELDS, LessonDraftSchema } from '../../src/core/lesson/draft-schema.js';
import { KNOWN_LESSON_KEYS, LessonSchema } from '../../src/core/lesson/schema.js';

describe('the lesson draft (what add and update take on every surface)', () => {
  it("names its fields in DRAFT_FIELDS, in the schema's order", () => {
    expect(DRAFT_FIELDS).toEqual(Object.keys(LessonDraftSchema().shape));
  });

  it('holds lesson fields only', () => {
    expect(DRAFT_FIELDS.filter((field) => !KNOWN_LESSON_KEYS.includes(field))).toEqual([]);
  });

  it.each([
    ['priority', [1, 5, 10]],
    ['priority', [0, 11, 2.5, '3']],
    ['confidence', [0, 0.5, 1]],
    ['confidence', [-0.1, 1.5, '1']],
    ['severity', ['low', 'critical', 'huge', 3]],
    ['category', ['process', 'tooling', 'nope']],
    ['type', ['hint', 'guard', 'warn']],
    [
      'evidence',
      [[{ kind: 'task', ref: 'PROJ-1' }], [{ kind: 'task', ref: '' }], [{ kind: 'chat', ref: 'x' }]],
    ],
  ] as const)('accepts and refuses the same %s values as the lesson record: %j', (field, values) => {
    const draft = LessonDraftSchema().shape[field];
    const record = LessonSchema.shape[field];
    for (const value of values) {
      expect([value, draft.safeParse(value).success]).toEqual([value, record.safeParse(value).success]);
    }
  });

  it('sets nothing it was not given, and refuses keys that are no draft field', () => {
    expect(LessonDraftSchema().parse({ summary: 'x' })).toEqual({ summary: 'x' });
    expect(LessonDraftSchema().safeParse({ summary: 'x', id: 'abc' }).error?.issues[0]?.code).toBe(
      'unrecognized_keys',
    );
  });
});

// Orbit/ADD ids for exported lessons: the one a lesson came with, the one an earlier export to the
// same folder gave it, else a number that folder never used.
import { describe, expect, it } from 'vitest';
import { assignNumberedIds } from '../../src/core/interop/numbered-id.js';
import type { Lesson } from '../../src/core/lesson/schema.js';
import { makeLesson } from '../helpers/org.js';

const lesson = (id: string, origin?: string): Lesson => ({
  ...makeLesson(),
  id,
  tier: 'project',
  ...(origin === undefined ? {} : { origin: { format: 'orbit', id: origin } }),
});

describe('assignNumberedIds', () => {
  it.each([
    {
      name: 'numbered in order, nothing remembered',
      lessons: [lesson('a'), lesson('b')],
      remembered: {},
      taken: [],
      ids: { a: 'L-0001', b: 'L-0002' },
    },
    {
      name: 'a remembered id is kept after the lesson before it went',
      lessons: [lesson('b'), lesson('c')],
      remembered: { 'project/b': 'L-0002', 'project/c': 'L-0003' },
      taken: ['L-0001'],
      ids: { b: 'L-0002', c: 'L-0003' },
    },
    {
      name: 'a new lesson gets a number past every id the folder used, even a deleted lesson’s',
      lessons: [lesson('a'), lesson('n')],
      remembered: { 'project/a': 'L-0001' },
      taken: ['L-0001', 'L-0007'],
      ids: { a: 'L-0001', n: 'L-0008' },
    },
    {
      name: 'the id a lesson came with wins; the remembered lesson it displaces gets a fresh one',
      lessons: [lesson('a'), lesson('o', 'L-0001')],
      remembered: { 'project/a': 'L-0001' },
      taken: ['L-0001'],
      ids: { a: 'L-0002', o: 'L-0001' },
    },
    {
      name: 'another tier’s lesson of the same id is not the remembered one',
      lessons: [{ ...lesson('a'), tier: 'user' as const }],
      remembered: { 'project/a': 'L-0004' },
      taken: ['L-0004'],
      ids: { a: 'L-0005' },
    },
  ])('$name', ({ lessons, remembered, taken, ids }) => {
    const assigned = assignNumberedIds(lessons, ['orbit'], () => 'L-', 4, {
      ids: new Map(Object.entries(remembered)),
      taken: new Set(taken),
    });
    expect(Object.fromEntries(assigned)).toEqual(ids);
  });
});

import { describe, expect, it } from 'vitest';
import { CATEGORIES } from '../../src/core/lesson/constants.js';
import {
  categoriesForOperation,
  isOperation,
  OPERATION_CATEGORIES,
  OPERATIONS,
} from '../../src/core/rank/operation-categories.js';

describe('operation categories', () => {
  it.each([
    ['plan', 'architecture'],
    ['implement', 'technical'],
    ['test', 'testing'],
    ['review', 'anti-pattern'],
    ['deploy', 'process'],
    ['verify', 'testing'],
    ['optimize', 'performance'],
  ] as const)('%s includes %s', (operation, category) => {
    expect(categoriesForOperation(operation)?.has(category)).toBe(true);
  });

  // ADD's "Operation-to-Category Mapping" table (seed 004), row by row: lore may add categories
  // to an operation but never drop one ADD lists.
  it.each([
    ['plan', ['architecture', 'anti-pattern', 'collaboration']],
    ['test', ['technical', 'anti-pattern', 'performance']],
    ['implement', ['technical', 'anti-pattern', 'architecture']],
    ['deploy', ['performance', 'technical', 'process']],
    ['verify', ['technical', 'process']],
    ['optimize', ['performance', 'technical']],
    ['review', ['architecture', 'anti-pattern', 'process']],
  ] as const)('%s keeps every category ADD maps it to', (operation, addCategories) => {
    const mapped = categoriesForOperation(operation);
    expect(addCategories.filter((c) => !mapped?.has(c))).toEqual([]);
  });

  it('maps only to known categories, and every category is reachable', () => {
    const used = new Set(OPERATIONS.flatMap((op) => OPERATION_CATEGORIES[op]));
    expect([...used].every((c) => (CATEGORIES as readonly string[]).includes(c))).toBe(true);
    expect([...CATEGORIES].filter((c) => !used.has(c))).toEqual([]);
  });

  it('no operation means no category filter', () => {
    expect(categoriesForOperation(undefined)).toBeUndefined();
  });

  it.each([
    ['plan', true],
    ['deploy', true],
    ['ship', false],
    ['', false],
  ])('isOperation(%j) is %s', (value, expected) => {
    expect(isOperation(value)).toBe(expected);
  });
});

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

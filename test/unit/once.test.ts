/** src/core/once.ts: a value built on the first call, not before, and never again. */
import { describe, expect, it } from 'vitest';
import { once } from '../../src/core/once.js';

describe('once', () => {
  it('builds on the first call only and hands back the same value after', () => {
    const built: number[] = [];
    const value = once(() => {
      built.push(built.length);
      return { n: built.length };
    });
    expect(built).toEqual([]);
    const first = value();
    expect(value()).toBe(first);
    expect(built).toEqual([0]);
  });

  it('keeps an undefined value as built', () => {
    let calls = 0;
    const value = once(() => {
      calls += 1;
      return undefined;
    });
    expect([value(), value(), calls]).toEqual([undefined, undefined, 1]);
  });

  it('builds again after a build that threw', () => {
    let calls = 0;
    const value = once(() => {
      calls += 1;
      if (calls === 1) throw new Error('first build fails');
      return calls;
    });
    expect(() => value()).toThrow('first build fails');
    expect(value()).toBe(2);
  });
});

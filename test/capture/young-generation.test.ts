// holdYoungGeneration (scan-in-workers.ts): while held, this thread's young generation does not
// grow, however much survives its collections; released, it grows again.
import { getHeapSpaceStatistics } from 'node:v8';
import { afterEach, describe, expect, it } from 'vitest';
import { holdYoungGeneration } from '../../src/capture/scan-in-workers.js';

const newSpace = () =>
  getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0;

/** Allocates fast, keeping one object in 20 for a while: what makes V8 grow the young generation. */
function churn(): number {
  let kept: object[] = [];
  let sum = 0;
  for (let i = 0; i < 4_000_000; i += 1) {
    const value = { at: i, text: `line ${i}`, parts: [i, i + 1] };
    if (i % 20 === 0) kept.push(value);
    if (kept.length > 20_000) kept = [];
    sum += value.parts.length;
  }
  return sum;
}

afterEach(() => holdYoungGeneration(false));

describe('holdYoungGeneration', () => {
  it('keeps the young generation at its size while held, and lets it grow once released', () => {
    const start = newSpace();
    // room to grow (V8's largest is 32 MB of semi-spaces)
    expect(start).toBeLessThan(32 * 1048576);
    holdYoungGeneration(true);
    churn();
    expect(newSpace()).toBe(start);
    holdYoungGeneration(false);
    churn();
    expect(newSpace()).toBeGreaterThan(start);
  });
});

// holdHeapGrowth (scan-in-workers.ts): while held, this thread's young generation does not grow,
// however much survives its collections, and the old generation grows little past what survived
// its last full collection; released, both grow as V8 decides again.
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import { holdHeapGrowth } from '../../src/capture/scan-in-workers.js';

const spaceSize = (name: string) =>
  getHeapSpaceStatistics().find((space) => space.space_name === name)?.space_size ?? 0;

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

setFlagsFromString('--expose-gc');
/** A full collection: V8 sets the old generation's next limit from what survived it. */
const collect = runInNewContext('gc') as () => void;

/**
 * The old generation's largest size while objects that live across young collections (so are
 * promoted) die soon after, as a scan's parsed lines do.
 */
function promotedChurnPeak(): number {
  collect();
  let peak = 0;
  let kept: object[] = [];
  for (let i = 0; i < 3_000_000; i += 1) {
    kept.push({ at: i, text: `line ${i}` });
    if (kept.length > 100_000) kept = [];
    if (i % 20_000 === 0) peak = Math.max(peak, spaceSize('old_space'));
  }
  return peak;
}

afterEach(() => holdHeapGrowth(false));

describe('holdHeapGrowth', () => {
  it('keeps the young generation at its size while held, and lets it grow once released', () => {
    const start = spaceSize('new_space');
    // room to grow (V8's largest is 32 MB of semi-spaces)
    expect(start).toBeLessThan(32 * 1048576);
    holdHeapGrowth(true);
    churn();
    expect(spaceSize('new_space')).toBe(start);
    holdHeapGrowth(false);
    churn();
    expect(spaceSize('new_space')).toBeGreaterThan(start);
  });

  it('keeps the old generation close to what lives in it while held', () => {
    const free = promotedChurnPeak();
    holdHeapGrowth(true);
    const held = promotedChurnPeak();
    // by default V8 let it reach about twice the size here (4x what lived, on a machine with much memory)
    expect(held).toBeLessThan(free * 0.75);
    holdHeapGrowth(false);
    expect(promotedChurnPeak()).toBeGreaterThan(held * 1.3);
  });
});

import { describe, expect, it } from 'vitest';
import { createSerialQueue } from '../../src/core/create-serial-queue.js';

/** A promise with its resolve exposed: the test decides when each piece of work ends. */
function gate(): { promise: Promise<void>; open(): void } {
  let open = () => {};
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

describe('createSerialQueue (the one queue of the HTTP app and the MCP server)', () => {
  it('starts each piece of work only after the one before it settled, in queue order', async () => {
    const queue = createSerialQueue();
    const events: string[] = [];
    const first = gate();
    const a = queue(async () => {
      events.push('a starts');
      await first.promise;
      events.push('a ends');
      return 'a';
    });
    const b = queue(async () => {
      events.push('b starts');
      return 'b';
    });
    await Promise.resolve();
    expect(events).toEqual(['a starts']);
    first.open();
    expect(await Promise.all([a, b])).toEqual(['a', 'b']);
    expect(events).toEqual(['a starts', 'a ends', 'b starts']);
  });

  it('hands a failure to its caller only; the work queued after it still runs', async () => {
    const queue = createSerialQueue();
    const failed = queue(async () => {
      throw new Error('boom');
    });
    const next = queue(async () => 'still runs');
    await expect(failed).rejects.toThrow('boom');
    expect(await next).toBe('still runs');
  });
});

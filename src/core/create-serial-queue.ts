/**
 * One piece of work at a time, in the order it was queued: the HTTP app and the MCP server run
 * every store call through one of these, which keeps the SQLite index and the manifest rebuilds
 * free of contention inside the process (and answers in order).
 */

/** Runs `work` once every earlier piece has settled; its result or failure is the caller's alone. */
export type SerialQueue = <T>(work: () => Promise<T>) => Promise<T>;

export function createSerialQueue(): SerialQueue {
  // Never rejects: a failed piece must not stop the ones queued after it.
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(work: () => Promise<T>): Promise<T> => {
    const run = tail.then(work);
    tail = run.catch(() => undefined);
    return run;
  };
}

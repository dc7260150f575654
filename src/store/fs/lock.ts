/**
 * Advisory locks for read-modify-write of one lesson (update, supersede) and for the longer jobs
 * that must not run twice at once (a pull from the org server, rendering the views). A lock is a
 * file created with O_EXCL holding the owner's pid; a lock whose owner is gone, or that has not
 * been touched for STALE_MS, is taken over, so a process killed mid-write never wedges the store.
 * An async holder touches its locks every third of that while it runs, so a long pull keeps its
 * lock however long it takes; and a holder removes a lock on release only while it is still its
 * own (a lock taken over from a holder that looked dead is not pulled from under the new owner).
 */
import { closeSync, mkdirSync, openSync, readFileSync, statSync, utimesSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { LoreError } from '../../core/errors.js';
import { isProcessAlive, unlinkQuietly } from './fs-atomic.js';

const STALE_MS = 30_000;
const EMPTY_STALE_MS = 1_000;
const WAIT_MS = 10_000;
const sleeper = new Int32Array(new SharedArrayBuffer(4));

function sleep(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
}

/** Timings, for tests: a lock untouched this long is stale (its holder touches it a third as often). */
export type LockTiming = { staleMs: number };
const DEFAULT_TIMING: LockTiming = { staleMs: STALE_MS };

function isStale(path: string, staleMs: number): boolean {
  try {
    const content = readFileSync(path, 'utf8');
    const pid = Number.parseInt(content, 10);
    if (Number.isInteger(pid) && pid > 0 && !isProcessAlive(pid)) return true;
    const stat = statSync(path, { throwIfNoEntry: false });
    if (stat === undefined) return false;
    // An empty lock: its owner died between creating it and writing its pid.
    if (content === '' && Date.now() - stat.mtimeMs > EMPTY_STALE_MS) return true;
    return Date.now() - stat.mtimeMs > staleMs;
  } catch {
    return false;
  }
}

function tryAcquire(path: string): boolean {
  try {
    const fd = openSync(path, 'wx', 0o644);
    writeSync(fd, String(process.pid));
    closeSync(fd);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return false;
  }
}

/** The lock file guarding one lesson (or its votes, with a suffix) of a tier. */
export function lessonLockPath(cacheDir: string, id: string, suffix = ''): string {
  return join(cacheDir, 'locks', `${id}${suffix}.lock`);
}

/** Is the lock at `path` still this process's (not taken over since)? */
function owned(path: string): boolean {
  try {
    return readFileSync(path, 'utf8') === String(process.pid);
  } catch {
    return false;
  }
}

/** Removes the locks this process still owns, newest first. */
function releaseAll(held: readonly string[]): void {
  for (const path of [...held].reverse()) if (owned(path)) unlinkQuietly(path);
}

/** Runs `fn` holding every lock (taken in sorted order, so two callers never deadlock). */
export function withLocks<T>(lockPaths: readonly string[], fn: () => T, timing = DEFAULT_TIMING): T {
  const held: string[] = [];
  try {
    acquireAll(lockPaths, held, timing);
    return fn();
  } finally {
    releaseAll(held);
  }
}

/**
 * `withLocks` for an async `fn`: the locks are held until its promise settles, and touched every
 * third of `staleMs` meanwhile, so no other process takes them over as stale while `fn` runs.
 */
export async function withLocksAsync<T>(
  lockPaths: readonly string[],
  fn: () => Promise<T>,
  timing = DEFAULT_TIMING,
): Promise<T> {
  const held: string[] = [];
  let beat: NodeJS.Timeout | undefined;
  try {
    acquireAll(lockPaths, held, timing);
    beat = setInterval(() => touchAll(held), Math.max(1, Math.floor(timing.staleMs / 3)));
    beat.unref();
    return await fn();
  } finally {
    clearInterval(beat);
    releaseAll(held);
  }
}

/** Marks the locks this process still owns as alive (their mtime now). */
function touchAll(held: readonly string[]): void {
  const now = new Date();
  for (const path of held) {
    if (!owned(path)) continue;
    try {
      utimesSync(path, now, now);
    } catch {
      // gone: releaseAll finds it gone too
    }
  }
}

/** Takes every lock in sorted order, pushing each onto `held` as it is taken. */
function acquireAll(lockPaths: readonly string[], held: string[], timing: LockTiming): void {
  const paths = [...new Set(lockPaths)].sort();
  for (const path of paths) mkdirSync(dirname(path), { recursive: true });
  for (const path of paths) {
    const deadline = Date.now() + WAIT_MS;
    let delay = 2;
    while (!tryAcquire(path)) {
      if (isStale(path, timing.staleMs)) {
        unlinkQuietly(path);
        continue;
      }
      if (Date.now() > deadline) {
        throw new LoreError('locked', `another lore process holds ${path}`, {
          hint: 'wait for it to finish; if no lore process is running, delete the lock file',
        });
      }
      sleep(delay + Math.random() * delay);
      delay = Math.min(delay * 2, 50);
    }
    held.push(path);
  }
}

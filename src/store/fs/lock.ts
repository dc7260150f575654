/**
 * Short-lived advisory locks for read-modify-write of one lesson (update, supersede). A lock is a
 * file created with O_EXCL holding the owner's pid; a lock whose owner is gone, or that is older
 * than STALE_MS, is taken over, so a process killed mid-write never wedges the store.
 */
import { closeSync, mkdirSync, openSync, readFileSync, statSync, writeSync } from 'node:fs';
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

function isStale(path: string): boolean {
  try {
    const content = readFileSync(path, 'utf8');
    const pid = Number.parseInt(content, 10);
    if (Number.isInteger(pid) && pid > 0 && !isProcessAlive(pid)) return true;
    const stat = statSync(path, { throwIfNoEntry: false });
    if (stat === undefined) return false;
    // An empty lock: its owner died between creating it and writing its pid.
    if (content === '' && Date.now() - stat.mtimeMs > EMPTY_STALE_MS) return true;
    return Date.now() - stat.mtimeMs > STALE_MS;
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

/** Runs `fn` holding every lock (taken in sorted order, so two callers never deadlock). */
export function withLocks<T>(lockPaths: readonly string[], fn: () => T): T {
  const held: string[] = [];
  try {
    acquireAll(lockPaths, held);
    return fn();
  } finally {
    for (const path of held.reverse()) unlinkQuietly(path);
  }
}

/** `withLocks` for an async `fn`: the locks are held until its promise settles. */
export async function withLocksAsync<T>(lockPaths: readonly string[], fn: () => Promise<T>): Promise<T> {
  const held: string[] = [];
  try {
    acquireAll(lockPaths, held);
    return await fn();
  } finally {
    for (const path of held.reverse()) unlinkQuietly(path);
  }
}

/** Takes every lock in sorted order, pushing each onto `held` as it is taken. */
function acquireAll(lockPaths: readonly string[], held: string[]): void {
  const paths = [...new Set(lockPaths)].sort();
  for (const path of paths) mkdirSync(dirname(path), { recursive: true });
  for (const path of paths) {
    const deadline = Date.now() + WAIT_MS;
    let delay = 2;
    while (!tryAcquire(path)) {
      if (isStale(path)) {
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

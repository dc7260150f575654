// The advisory locks of src/store/fs/lock.ts: a long async holder (a pull from the org server)
// keeps its lock fresh while it runs, so another process never takes it over as stale; and a
// holder whose lock was taken over does not remove the new owner's lock when it finishes.
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { withLocks, withLocksAsync } from '../../src/store/fs/lock.js';

let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('locks', () => {
  it('an async holder touches its lock while it runs, so it never looks stale', async () => {
    dir = mkdtempSync(join(tmpdir(), 'lore-lock-'));
    const path = join(dir, 'locks', 'pull.lock');
    const staleMs = 300;
    let oldest = 0;
    await withLocksAsync(
      [path],
      async () => {
        // five times as long as a lock may sit untouched
        for (let i = 0; i < 30; i += 1) {
          await sleep(50);
          oldest = Math.max(oldest, Date.now() - statSync(path).mtimeMs);
        }
      },
      { staleMs },
    );
    expect(oldest).toBeLessThan(staleMs);
    expect(existsSync(path)).toBe(false);
  });

  it('a holder whose lock was taken over leaves the new owner its lock', async () => {
    dir = mkdtempSync(join(tmpdir(), 'lore-lock-'));
    const path = join(dir, 'locks', 'views.lock');
    // another process judged this one dead and took the lock over (its pid now in the file)
    const other = String(process.pid + 1);
    withLocks([path], () => writeFileSync(path, other));
    expect(readFileSync(path, 'utf8')).toBe(other);
    await withLocksAsync([join(dir, 'locks', 'other.lock')], async () => {
      writeFileSync(join(dir, 'locks', 'other.lock'), other);
    });
    expect(readFileSync(join(dir, 'locks', 'other.lock'), 'utf8')).toBe(other);
  });

  it('a lock is released when its holder is done, and a failing holder releases it too', () => {
    dir = mkdtempSync(join(tmpdir(), 'lore-lock-'));
    const path = join(dir, 'locks', 'a.lock');
    expect(withLocks([path], () => readFileSync(path, 'utf8'))).toBe(String(process.pid));
    expect(existsSync(path)).toBe(false);
    expect(() =>
      withLocks([path], () => {
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(existsSync(path)).toBe(false);
  });
});

/**
 * The embedded store's one-process claim (`server.json`): a claim whose process is gone, or whose
 * pid now belongs to another process, is taken over; a live holder's is refused with who holds it
 * and how to free a claim that outlived its process.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { claimEmbeddedStore, processStart } from '../../src/store/org/embedded-lock.js';

function storeDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'lore-embedded-lock-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const hasProc = existsSync('/proc/self/stat');

describe('the embedded store claim', () => {
  // pid 1 always runs, and a pid this high never does
  const stale: Array<[string, object, Date | undefined]> = [
    ['a process that is gone', { pid: 4_194_000 }, undefined],
    ['a claim written before this boot, its pid reused since', { pid: 1 }, new Date(0)],
  ];
  it.each(stale)('takes over the claim of %s', (_name, claim, mtime) => {
    const dir = storeDir();
    const file = join(dir, 'server.json');
    writeFileSync(file, JSON.stringify(claim));
    if (mtime) utimesSync(file, mtime, mtime);
    const taken = claimEmbeddedStore(dir, { pid: process.pid });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ pid: process.pid });
    taken.release();
  });

  it.runIf(hasProc)(
    'takes over a claim whose pid now runs another process (a container restarted as pid 1 again)',
    () => {
      const dir = storeDir();
      const file = join(dir, 'server.json');
      for (const pid of [1, process.pid]) {
        writeFileSync(file, JSON.stringify({ pid, url: 'http://127.0.0.1:4777/', started: 'another' }));
        const taken = claimEmbeddedStore(dir, { pid: process.pid });
        expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
          pid: process.pid,
          started: expect.stringMatching(/^\d+$/),
        });
        taken.release();
      }
    },
  );

  it.runIf(hasProc)('takes over the claim of a process that exited but was never reaped (a zombie)', () => {
    // the child exits after its parent has exec'd into sleep, which never waits for it (a child
    // that exits first may be reaped by the shell)
    const parent = spawn('sh', ['-c', 'sleep 0.2 & exec sleep 10'], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    onTestFinished(() => void parent.kill());
    // the shell forks and execs in its own time (slower on a loaded machine): poll
    const childrenOf = `/proc/${parent.pid}/task/${parent.pid}/children`;
    let zombie = 0;
    for (let tries = 0; tries < 100 && zombie === 0; tries += 1) {
      execFileSync('sleep', ['0.05']);
      const child = Number(readFileSync(childrenOf, 'latin1').trim().split(' ')[0] || 0);
      if (child > 0 && /\) Z /.test(readFileSync(`/proc/${child}/stat`, 'latin1'))) zombie = child;
    }
    expect(readFileSync(`/proc/${zombie}/stat`, 'latin1')).toMatch(/\) Z /);
    const dir = storeDir();
    const file = join(dir, 'server.json');
    writeFileSync(file, JSON.stringify({ pid: zombie, started: processStart(zombie) }));
    const taken = claimEmbeddedStore(dir, { pid: process.pid });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ pid: process.pid });
    taken.release();
  });

  it('refuses a live holder, naming it and the claim file to remove if it outlived its process', () => {
    const dir = storeDir();
    const held = claimEmbeddedStore(dir, { pid: process.pid });
    held.update({ pid: process.pid, url: 'http://127.0.0.1:4777/' });
    expect(() => claimEmbeddedStore(dir, { pid: process.pid })).toThrow(
      expect.objectContaining({
        code: 'locked',
        message: expect.stringContaining(
          `in use by process ${process.pid} (lore serve --org at http://127.0.0.1:4777/)`,
        ),
        hint: expect.stringContaining(`remove ${join(dir, 'server.json')}`),
      }),
    );
    held.release();
  });
});

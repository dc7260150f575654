/**
 * The embedded store (PGlite) is one process's: two processes opening the same directory would
 * corrupt it. The first claims it with an O_EXCL file naming its pid, when that process started
 * and, for `lore serve --org`, its URL; a second is refused with who holds it and what to do. A
 * claim whose process is gone is taken over; so is one whose pid now belongs to another process
 * (the server killed, then a container restarted it as pid 1 again, or a reboot handed its pid to
 * a shell): a pid alone would keep the store "in use" by a process that never opened it.
 */
import { openSync, readFileSync, closeSync, statSync, writeSync, unlinkSync } from 'node:fs';
import { uptime } from 'node:os';
import { join } from 'node:path';
import { LoreError } from '../../core/errors.js';
import { isProcessAlive, procStatFields } from '../fs/fs-atomic.js';

export type EmbeddedOwner = { pid: number; url?: string };
export type EmbeddedClaim = { release(): void; update(owner: EmbeddedOwner): void };
/** The claim as written: the owner, and when its process started where the system tells (Linux). */
type ClaimRecord = EmbeddedOwner & { started?: string };

const CLAIM_FILE = 'server.json';

/**
 * When process `pid` started, in clock ticks since boot (field 22 of `/proc/PID/stat`, after the
 * command name, which may hold spaces and parentheses); undefined where there is no /proc.
 */
export function processStart(pid: number): string | undefined {
  return procStatFields(pid)?.[19];
}

/** Whether the claim's process still runs: its pid alive, started when the claim says, since boot. */
function claimHolds(path: string, claim: ClaimRecord): boolean {
  if (!isProcessAlive(claim.pid)) return false;
  if (claim.started !== undefined) {
    const now = processStart(claim.pid);
    if (now !== undefined) return now === claim.started;
  }
  // no start time to compare (another system, an older lore's claim): a claim written before
  // this boot is a dead process's whatever runs under its pid now
  const written = statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? 0;
  return written >= Date.now() - uptime() * 1000;
}

export function readEmbeddedOwner(dir: string): EmbeddedOwner | undefined {
  const path = join(dir, CLAIM_FILE);
  try {
    const claim = JSON.parse(readFileSync(path, 'utf8')) as ClaimRecord;
    if (typeof claim.pid !== 'number' || !claimHolds(path, claim)) return undefined;
    return { pid: claim.pid, ...(typeof claim.url === 'string' ? { url: claim.url } : {}) };
  } catch {
    return undefined;
  }
}

/** The owner as the claim file keeps it: with its process's start time when the system tells. */
function claimText(owner: EmbeddedOwner): string {
  const started = processStart(owner.pid);
  return JSON.stringify({ ...owner, ...(started === undefined ? {} : { started }) });
}

export function claimEmbeddedStore(dir: string, owner: EmbeddedOwner): EmbeddedClaim {
  const path = join(dir, CLAIM_FILE);
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      writeSync(fd, claimText(owner));
      closeSync(fd);
      return {
        release: () => {
          try {
            unlinkSync(path);
          } catch {
            // already gone
          }
        },
        update: (next) => {
          const out = openSync(path, 'w', 0o600);
          writeSync(out, claimText(next));
          closeSync(out);
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = readEmbeddedOwner(dir);
      if (holder) throw heldError(dir, holder);
      // the holder died without releasing: take its claim over
      try {
        unlinkSync(path);
      } catch {
        // someone else took it over first; the next attempt tells
      }
    }
  }
  const holder = readEmbeddedOwner(dir);
  throw heldError(dir, holder ?? { pid: -1 });
}

function heldError(dir: string, holder: EmbeddedOwner): LoreError {
  const where = holder.url ? ` (lore serve --org at ${holder.url})` : '';
  const lost = `; if no lore runs as process ${holder.pid}, its claim outlived it: remove ${join(dir, CLAIM_FILE)}`;
  return new LoreError(
    'locked',
    `the embedded org store in ${dir} is in use by process ${holder.pid}${where}`,
    {
      hint: holder.url
        ? `the embedded store serves one process: go through the running server with \`--remote NAME\` (a remote you logged in to with an admin token, \`lore remote add NAME ${holder.url}\`), or stop it and run this again${lost}`
        : `the embedded store serves one process: stop that process and run this again, or use a PostgreSQL server (--db postgres://...)${lost}`,
    },
  );
}

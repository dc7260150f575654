/**
 * The embedded store (PGlite) is one process's: two processes opening the same directory would
 * corrupt it. The first claims it with an O_EXCL file naming its pid and, for `lore serve --org`,
 * its URL; a second is refused with who holds it and what to do. A claim whose process is gone is
 * taken over.
 */
import { openSync, readFileSync, closeSync, writeSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { LoreError } from '../../core/errors.js';
import { isProcessAlive } from '../fs/fs-atomic.js';

export type EmbeddedOwner = { pid: number; url?: string };
export type EmbeddedClaim = { release(): void; update(owner: EmbeddedOwner): void };

const CLAIM_FILE = 'server.json';

export function readEmbeddedOwner(dir: string): EmbeddedOwner | undefined {
  try {
    const owner = JSON.parse(readFileSync(join(dir, CLAIM_FILE), 'utf8')) as EmbeddedOwner;
    return typeof owner.pid === 'number' && isProcessAlive(owner.pid) ? owner : undefined;
  } catch {
    return undefined;
  }
}

export function claimEmbeddedStore(dir: string, owner: EmbeddedOwner): EmbeddedClaim {
  const path = join(dir, CLAIM_FILE);
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      writeSync(fd, JSON.stringify(owner));
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
          writeSync(out, JSON.stringify(next));
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
  return new LoreError(
    'locked',
    `the embedded org store in ${dir} is in use by process ${holder.pid}${where}`,
    {
      hint: holder.url
        ? `the embedded store serves one process: go through the running server with \`--remote NAME\` (a remote you logged in to with an admin token, \`lore remote add NAME ${holder.url}\`), or stop it and run this again`
        : 'the embedded store serves one process: stop that process and run this again, or use a PostgreSQL server (--db postgres://...)',
    },
  );
}

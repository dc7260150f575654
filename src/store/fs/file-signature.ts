/**
 * A file's signature: `<mtime µs>:<size>:<inode>`, what changes when a file is rewritten, edited in
 * place (the mtime, even at an equal size) or replaced by a rename (the inode). Every cache that
 * asks "did this file change?" (the lesson index, the hook manifest's stamps, the docs walk and
 * records, the config cache) signs files here, so they agree on what a change is.
 *
 * The hook bundles this file: Node built-ins only.
 */
import { statSync } from 'node:fs';

/** The signature of a path that does not exist. */
export const MISSING_SIGNATURE = '-';
/** The signature of a path that exists but cannot be stat-ed (no permission, a loop). */
export const UNREADABLE_SIGNATURE = '?';

/** Numbers per file in a stamps array: mtime (µs), size, inode. */
export const STAMP_WIDTH = 3;

/**
 * Writes a file's signature numbers at `stamps[at..at+2]` (NaN when there is no such file) and
 * says whether it exists. A path through a file (ENOTDIR) does not exist; other errors throw.
 * Numbers, not a string: a freshness check over 20,000 files hashes them without building one.
 */
export function stampFile(path: string, stamps: Float64Array, at: number): boolean {
  let stat;
  try {
    stat = statSync(path, { throwIfNoEntry: false });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOTDIR') throw error;
  }
  if (stat === undefined) {
    stamps[at] = stamps[at + 1] = stamps[at + 2] = Number.NaN;
    return false;
  }
  stamps[at] = Math.round(stat.mtimeMs * 1000);
  stamps[at + 1] = stat.size;
  stamps[at + 2] = stat.ino;
  return true;
}

/** The signature of the numbers `stampFile` wrote at `at`. */
export function stampSignature(stamps: Float64Array, at: number): string {
  return Number.isNaN(stamps[at]) ? MISSING_SIGNATURE : `${stamps[at]}:${stamps[at + 1]}:${stamps[at + 2]}`;
}

/**
 * A file's signature; `-` when it does not exist, `?` when it cannot be stat-ed. Never throws.
 * Stats on its own rather than through `stampFile`, so the hook, which needs only this, bundles
 * nothing else of this file; `stampSignature` gives the same text for the same file.
 */
export function fileSignature(path: string): string {
  try {
    const stat = statSync(path, { throwIfNoEntry: false });
    return stat === undefined
      ? MISSING_SIGNATURE
      : `${Math.round(stat.mtimeMs * 1000)}:${stat.size}:${stat.ino}`;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOTDIR' ? MISSING_SIGNATURE : UNREADABLE_SIGNATURE;
  }
}

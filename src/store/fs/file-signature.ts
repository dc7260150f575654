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

/** Numbers per file in a stamps array (`stampFile`, stat-numbers.ts): mtime (µs), size, inode. */
export const STAMP_WIDTH = 3;

/** The signature of the numbers `stampFile` (stat-numbers.ts) wrote at `at`. */
export function stampSignature(stamps: Float64Array, at: number): string {
  return Number.isNaN(stamps[at]) ? MISSING_SIGNATURE : `${stamps[at]}:${stamps[at + 1]}:${stamps[at + 2]}`;
}

/**
 * A file's signature; `-` when it does not exist, `?` when it cannot be stat-ed. Never throws.
 * `statSync` here (the index's `stampFile` uses the Stats-free stat of stat-numbers.ts), so the
 * hook, which needs only this, bundles nothing else; `stampSignature` gives the same text for the
 * same file.
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

/**
 * What lore needs of a stat(2) (mtime, size, inode), without the Stats object `statSync` builds.
 *
 * Node's own stat binding, `stat(path, bigint, req, throwIfNoEntry)`, returns the numbers as a
 * Float64Array (shared: the next call overwrites it; undefined for a missing path); `statSync`
 * then builds a Stats with four Date objects from them. At 10,000 lessons, the freshness check of
 * every read stats 10,000 files: 22-25 ms this way, 38-46 ms through `statSync` (and ~15 ms for
 * the same stat(2) calls from C), on Node 20 and 22 alike. `process.binding` is deprecated
 * (DEP0111, documentation-only) and internal, so it is used only after it agreed with `statSync`
 * on a real file and on a missing one, and never when Node would print a deprecation warning for
 * it (`--pending-deprecation`) or the permission model is on: otherwise `statSync` serves.
 *
 * The index's freshness scan stamps every lesson and votes file here (`stampFile`; `stampPaths` for
 * the lite check's many at once); signatures as strings, for everything else, come from
 * file-signature.ts, which the hook bundles.
 */
import { statSync } from 'node:fs';
import { dirname, isAbsolute, join, sep } from 'node:path';
import { STAMP_WIDTH } from './file-signature.js';

export type StatNumbers = {
  /** As `Stats.mtimeMs`: the same number, to the bit. */
  mtimeMs: number;
  size: number;
  ino: number;
};

type RawStat = (
  path: string | Uint8Array,
  bigint: false,
  req: undefined,
  throwIfNoEntry: false,
) => Float64Array | undefined;

/** Where the binding's array keeps the fields (Node's `getStatsFromBinding`). */
const INO = 7;
const SIZE = 8;
const MTIME_SEC = 12;
const MTIME_NSEC = 13;

/** Unknown until the first call; then the binding's stat, or null for `statSync`. */
let raw: RawStat | null | undefined;

/** Node's `msFromTimeSpec`: the same operations, so the same double as `Stats.mtimeMs`. */
const mtimeMsOf = (values: Float64Array): number =>
  (values[MTIME_SEC] as number) * 1e3 + (values[MTIME_NSEC] as number) / 1e6;

function deprecationsShown(): boolean {
  const flags = `${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`;
  return (
    /--pending-deprecation|--throw-deprecation|--trace-deprecation|permission/.test(flags) ||
    process.env.NODE_PENDING_DEPRECATION === '1'
  );
}

function rawStat(): RawStat | null {
  if (raw !== undefined) return raw;
  raw = null;
  if (deprecationsShown()) return raw;
  try {
    const binding = (process as unknown as { binding(name: string): { stat?: unknown } }).binding('fs');
    const stat = binding.stat as RawStat | undefined;
    if (typeof stat !== 'function') return raw;
    const probe = process.execPath;
    const expected = statSync(probe);
    const values = stat(probe, false, undefined, false);
    const agrees =
      values instanceof Float64Array &&
      values.length > MTIME_NSEC &&
      mtimeMsOf(values) === expected.mtimeMs &&
      values[SIZE] === expected.size &&
      values[INO] === expected.ino &&
      stat(join(dirname(probe), 'lore-no-such-file-\u0001'), false, undefined, false) === undefined;
    if (agrees) raw = stat;
  } catch {
    raw = null;
  }
  return raw;
}

/**
 * The binding's numbers of `path` (valid until the next call), null when the binding is not used,
 * undefined when the path does not exist (or a component is a file: ENOTDIR). Other errors throw.
 */
function rawNumbers(path: string | Uint8Array): Float64Array | null | undefined {
  const stat = rawStat();
  if (stat === null) return null;
  try {
    return stat(path, false, undefined, false);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
    throw error;
  }
}

function statSyncNumbers(path: string | Uint8Array): StatNumbers | undefined {
  try {
    const stats = statSync(typeof path === 'string' ? path : Buffer.from(path), { throwIfNoEntry: false });
    return stats === undefined ? undefined : { mtimeMs: stats.mtimeMs, size: stats.size, ino: stats.ino };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
    throw error;
  }
}

/**
 * The numbers of `path`; undefined when it does not exist (or a path component is a file:
 * ENOTDIR). Other errors (no permission, a loop) throw, as `statSync` throws them.
 */
export function statNumbers(path: string): StatNumbers | undefined {
  const values = rawNumbers(path);
  if (values === null) return statSyncNumbers(path);
  if (values === undefined) return undefined;
  return { mtimeMs: mtimeMsOf(values), size: values[SIZE] as number, ino: values[INO] as number };
}

const UNREADABLE_CODES = new Set(['ELOOP', 'EACCES', 'EPERM', 'ENAMETOOLONG']);

/**
 * Writes a file's signature numbers at `stamps[at..at+2]` (NaN when there is no such file) and
 * says whether it exists. A path through a file (ENOTDIR) does not exist; one that cannot be
 * stat-ed (a loop, no permission) exists, stamped -1 (its reader reports why); other errors throw.
 * Numbers, not a string: a freshness check over 20,000 files hashes them without building one
 * (nor any other object per file). `stampSignature` (file-signature.ts) gives them as the
 * signature `fileSignature` gives. The path may be bytes (`stampPaths` builds paths in one buffer
 * rather than as a string per file).
 */
export function stampFile(path: string | Uint8Array, stamps: Float64Array, at: number): boolean {
  let stat: Float64Array | StatNumbers | undefined;
  try {
    const values = rawNumbers(path);
    stat = values === null ? statSyncNumbers(path) : values;
  } catch (error) {
    // There, but cannot be stat-ed (a symbolic link loop, no permission): stamped as unreadable,
    // the same numbers every time, so its reader meets the error and reports it, once per change.
    if (!UNREADABLE_CODES.has((error as NodeJS.ErrnoException).code ?? '')) throw error;
    stamps.fill(-1, at, at + STAMP_WIDTH);
    return true;
  }
  if (stat === undefined) {
    stamps.fill(Number.NaN, at, at + STAMP_WIDTH);
    return false;
  }
  if (stat instanceof Float64Array) {
    stamps[at] = Math.round(mtimeMsOf(stat) * 1000);
    stamps[at + 1] = stat[SIZE] as number;
    stamps[at + 2] = stat[INO] as number;
  } else {
    stamps[at] = Math.round(stat.mtimeMs * 1000);
    stamps[at + 1] = stat.size;
    stamps[at + 2] = stat.ino;
  }
  return true;
}

/** Where `stampPaths` finds its paths: see there. */
export type PathRanges = {
  /** Holds the prefix at [0, `at`), room for the longest path after it, and the paths. */
  bytes: Buffer;
  at: number;
  /** File i's path is `bytes[base + ends[from + i], base + ends[from + i + 1])`. */
  ends: Uint32Array;
  from: number;
  base: number;
  count: number;
};

/**
 * `stampFile` for many files in one loop (the lite freshness check's 10,000 or more): file i's
 * stamps at `stamps[3i]`, NaN when it does not exist. Each path is copied after the prefix by
 * `copyWithin` (a builtin: no object per file) and stat-ed through a view made once per length;
 * the caller checked the ranges. The binding's numbers are read here, with no call per file:
 * `stampFile` per file cost the check about 5 ms more, before V8 optimised the loop. An error
 * `stampFile` knows (a loop, no permission) is left to it, for that file.
 */
export function stampPaths({ bytes, at, ends, from, base, count }: PathRanges, stamps: Float64Array): void {
  const stat = rawStat();
  const views: Buffer[] = [];
  for (let i = 0; i < count; i += 1) {
    const start = base + (ends[from + i] as number);
    const length = base + (ends[from + i + 1] as number) - start;
    bytes.copyWithin(at, start, start + length);
    let path = views[length];
    if (path === undefined) views[length] = path = bytes.subarray(0, at + length);
    let values: Float64Array | undefined;
    try {
      values = stat?.(path, false, undefined, false);
    } catch {
      values = undefined; // stampFile meets the error again, and knows what it means
    }
    if (values === undefined) {
      // missing, an error, or no binding: stampFile says which
      stampFile(path, stamps, STAMP_WIDTH * i);
      continue;
    }
    // mtimeMsOf's operations, written out
    stamps[STAMP_WIDTH * i] = Math.round(
      ((values[MTIME_SEC] as number) * 1e3 + (values[MTIME_NSEC] as number) / 1e6) * 1000,
    );
    stamps[STAMP_WIDTH * i + 1] = values[SIZE] as number;
    stamps[STAMP_WIDTH * i + 2] = values[INO] as number;
  }
}

/**
 * Runs `fn` with the prefix that names files in `dir`: an empty one, with the process's working
 * directory moved into `dir` for the call (and back after it), or `dir` and a separator when
 * that cannot be done. A path the kernel resolves from the working directory is two components
 * (`<id>/lesson.yaml`) instead of nine or ten, and a shorter string to build: the freshness check
 * of 10,000 lessons stats 15-20% faster, and leaves less garbage. Safe because `fn` is
 * synchronous (no other JavaScript runs before the directory is moved back) and lore names every
 * file it reads or writes asynchronously by an absolute path (the paths in a TierLayout are
 * absolute). Not in a worker thread (no process.chdir there), not for a relative `dir`, and not
 * when the working directory is gone (process.cwd() throws) or `dir` cannot be entered: then the
 * absolute prefix serves, as it would anyway.
 */
export function inDirectory<T>(dir: string, fn: (prefix: string) => T): T {
  const absolute = `${dir}${sep}`;
  let home: string | undefined;
  try {
    if (isAbsolute(dir) && process.chdir !== undefined) {
      home = process.cwd();
      process.chdir(dir);
    }
  } catch {
    home = undefined;
  }
  if (home === undefined) return fn(absolute);
  try {
    return fn('');
  } finally {
    process.chdir(home);
  }
}

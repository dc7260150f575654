/**
 * Runs a bundled CommonJS file from V8's code cache: the hook (plugin/bin/lore-hook.cjs runs
 * lore-hook-core.cjs) and `lore mcp` (dist/mcp/lore-mcp.cjs). Node 20 has no module compile cache,
 * so this does by hand what `module.enableCompileCache()` does on Node 22.
 *
 * The cache lives in `<tmp>/<name>-<uid>/`, used only when that directory is the user's own and
 * writable by nobody else, since whoever can write the cache runs code in the process. Its file
 * name carries a hash of the build, the source's length, the Node version and the architecture
 * (V8 itself checks only the length). Anything wrong with it (missing, rejected, unreadable,
 * unwritable) just means compiling as usual; a fresh cache is written when asked (`save`). One
 * cache is kept per Node version and architecture, for the `KEPT_VERSIONS` versions written last:
 * a user who switches between two Node versions (nvm, a project's .nvmrc) keeps both caches
 * instead of compiling again at every switch.
 * Node built-ins only: the hook bundles it.
 */
import {
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { isAscii } from 'node:buffer';
import { dirname, join } from 'node:path';
import { Script } from 'node:vm';
import { tempDirectory } from './paths.js';

const PREFIX = 'code-';
/** Caches kept, one per Node version and architecture: those of the versions that wrote last. */
export const KEPT_VERSIONS = 3;
/** A temporary file this old belongs to a writer that died (a write takes milliseconds). */
const ABANDONED_MS = 60_000;

export type CodeCacheSpec = {
  /** The CommonJS file to run (absolute). */
  file: string;
  /** A hash of the build that wrote `file`, set by the bundler, or how to read it from the text. */
  build: string | ((source: string) => string);
  /** The cache directory's name before `-<uid>`: `lore-hook`, `lore-mcp`. */
  cacheName: string;
  /** The `require` the file's body sees. */
  require(id: string): unknown;
  /** Called just before the file's body runs (after reading and compiling it). */
  onRun?(): void;
  /**
   * Whether the run that writes the cache compiles every function first (default true; see
   * `runCodeCached`). False for a long-lived process that saves once its work is warm: the cache
   * then holds only the functions that ran, and is read faster.
   */
  eager?: boolean;
  /**
   * The file is ASCII, as esbuild writes a bundle unless told otherwise: decoded as latin1 without
   * first checking every byte (a pass over the file, 1 ms for the 800 KB of `lore mcp`'s bundle).
   */
  ascii?: boolean;
};

export type CachedRun = {
  /** The file's `module.exports` after its body ran. */
  exports: unknown;
  /** Whether V8 used a cache from an earlier run. */
  fromCache: boolean;
  /**
   * Writes the cache when there was none or V8 rejected it: the bytecode of every function
   * compiled so far, so call it after the work worth caching. Once; never throws.
   */
  save(): void;
};

/** The cache directory when it is safe to use: the user's own, not group- or world-writable. */
export function codeCacheDir(cacheName: string): string | undefined {
  const uid = process.getuid?.();
  const dir = join(tempDirectory(), `${cacheName}-${uid ?? 'user'}`);
  let stat = lstatSync(dir, { throwIfNoEntry: false });
  if (stat === undefined) {
    mkdirSync(dir, { mode: 0o700 });
    stat = lstatSync(dir, { throwIfNoEntry: false });
  }
  if (stat === undefined || !stat.isDirectory() || (stat.mode & 0o022) !== 0) return undefined;
  if (uid !== undefined && stat.uid !== uid) return undefined;
  return dir;
}

/** The cache file's name: build hash, source length, Node version, architecture. */
export function codeCacheFile(build: string, sourceLength: number): string {
  return `${PREFIX}${build}-${sourceLength}-${process.version}-${process.arch}.bin`;
}

/** The Node version and architecture a cache file was written by (`v20.20.2-x64`), if it is one. */
export function codeCacheRuntime(name: string): string | undefined {
  return /^code-[^-]+-\d+-(v.+-[^-]+)\.bin$/.exec(name)?.[1];
}

/**
 * The cache files to remove once `written` is in `dir`: per Node version and architecture all but
 * the newest (another build's cache is stale once this build wrote one), and every file of the
 * versions past the `KEPT_VERSIONS` newest; temporary files of writers that died. Pure.
 */
export function staleCodeCaches(
  files: readonly { name: string; mtimeMs: number }[],
  written: string,
  nowMs: number,
): string[] {
  const stale: string[] = [];
  const newest = new Map<string, { name: string; mtimeMs: number }>();
  const runtime = codeCacheRuntime(written);
  for (const file of files) {
    if (!file.name.startsWith(PREFIX) || file.name === written) continue;
    if (file.name.endsWith('.tmp')) {
      if (nowMs - file.mtimeMs > ABANDONED_MS) stale.push(file.name);
      continue;
    }
    const key = codeCacheRuntime(file.name);
    if (key === undefined || key === runtime) {
      stale.push(file.name);
      continue;
    }
    const kept = newest.get(key);
    if (kept === undefined || file.mtimeMs > kept.mtimeMs) {
      if (kept !== undefined) stale.push(kept.name);
      newest.set(key, file);
    } else stale.push(file.name);
  }
  const others = [...newest.values()].sort((a, b) => b.mtimeMs - a.mtimeMs);
  for (const file of others.slice(KEPT_VERSIONS - 1)) stale.push(file.name);
  return stale;
}

/** Writes the cache atomically, then removes the caches `staleCodeCaches` names. */
function saveCache(dir: string, file: string, data: Buffer): void {
  const temp = join(dir, `${file}.${process.pid}.tmp`);
  writeFileSync(temp, data, { mode: 0o600 });
  renameSync(temp, join(dir, file));
  const files: { name: string; mtimeMs: number }[] = [];
  for (const name of readdirSync(dir)) {
    if (!name.startsWith(PREFIX) || name === file) continue;
    const stat = statSync(join(dir, name), { throwIfNoEntry: false });
    if (stat !== undefined) files.push({ name, mtimeMs: stat.mtimeMs });
  }
  for (const name of staleCodeCaches(files, file, Date.now())) {
    try {
      unlinkSync(join(dir, name));
    } catch {
      // another process removed it first
    }
  }
}

/**
 * Reads, compiles (from the cache when there is a good one) and runs `spec.file` as CommonJS.
 * Throws when the file cannot be read or compiled, and whatever its body throws.
 */
export function runCodeCached(spec: CodeCacheSpec): CachedRun {
  const bytes = readFileSync(spec.file);
  // ASCII (as esbuild writes by default) decodes as latin1 in a fraction of UTF-8's time, into the
  // one-byte string V8 would make of it anyway
  const source = bytes.toString(spec.ascii === true || isAscii(bytes) ? 'latin1' : 'utf8');
  let dir: string | undefined;
  let cached: Buffer | undefined;
  const build = typeof spec.build === 'string' ? spec.build : spec.build(source);
  const file = codeCacheFile(build, source.length);
  try {
    dir = codeCacheDir(spec.cacheName);
    if (dir !== undefined) cached = readFileSync(join(dir, file));
  } catch {
    cached = undefined;
  }
  // The run that writes the cache compiles every function, not only those its own event needs: a
  // cache written by (say) a SessionStart would otherwise make each later tool call, and every call
  // of another host's adapter, compile its functions lazily again, run after run.
  const eager = spec.eager !== false && dir !== undefined && cached === undefined;
  const v8 = eager ? (spec.require('node:v8') as { setFlagsFromString(flags: string): void }) : undefined;
  v8?.setFlagsFromString('--no-lazy');
  let script: Script;
  try {
    script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
      filename: spec.file,
      ...(cached === undefined ? {} : { cachedData: cached }),
    });
  } finally {
    v8?.setFlagsFromString('--lazy');
  }
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  const module = { exports: {} as unknown };
  spec.onRun?.();
  run.call(module.exports, module.exports, spec.require, module, spec.file, dirname(spec.file));
  let pending = dir !== undefined && (cached === undefined || script.cachedDataRejected === true);
  return {
    exports: module.exports,
    fromCache: cached !== undefined && script.cachedDataRejected !== true,
    save() {
      if (!pending || dir === undefined) return;
      pending = false;
      try {
        saveCache(dir, file, script.createCachedData());
      } catch {
        // a cache is an optimisation: never fail over it
      }
    },
  };
}

/**
 * Runs a bundled CommonJS file from V8's code cache: the hook (plugin/bin/lore-hook.cjs runs
 * lore-hook-core.cjs) and `lore mcp` (dist/mcp/lore-mcp.cjs). Node 20 has no module compile cache,
 * so this does by hand what `module.enableCompileCache()` does on Node 22.
 *
 * The cache lives in `<tmp>/<name>-<uid>/`, used only when that directory is the user's own and
 * writable by nobody else, since whoever can write the cache runs code in the process. Its file
 * name carries a hash of the build, the source's length, the Node version and the architecture
 * (V8 itself checks only the length). Anything wrong with it (missing, rejected, unreadable,
 * unwritable) just means compiling as usual; a fresh cache is written when asked (`save`).
 * Node built-ins only: the hook bundles it.
 */
import {
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { isAscii } from 'node:buffer';
import { dirname, join } from 'node:path';
import { Script } from 'node:vm';
import { tempDirectory } from './paths.js';

const PREFIX = 'code-';

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

/** Writes the cache atomically and removes caches of other builds. */
function saveCache(dir: string, file: string, data: Buffer): void {
  const temp = join(dir, `${file}.${process.pid}.tmp`);
  writeFileSync(temp, data, { mode: 0o600 });
  renameSync(temp, join(dir, file));
  for (const name of readdirSync(dir)) {
    if (name.startsWith(PREFIX) && name !== file) {
      try {
        unlinkSync(join(dir, name));
      } catch {
        // another process removed it first
      }
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
  const source = bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8');
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
  const eager = dir !== undefined && cached === undefined;
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

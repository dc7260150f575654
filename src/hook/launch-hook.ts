/**
 * plugin/bin/lore-hook.cjs: starts the hook (lore-hook-core.cjs, next to it) from V8's code cache.
 * Compiling the hook costs a fresh process about 2 ms, a quarter of what the hook adds to a bare
 * `node`; with the bytecode of an earlier run it costs nothing. Node 20 has no module compile
 * cache, so this does by hand what `module.enableCompileCache()` does on Node 22.
 *
 * The cache lives in `<tmp>/lore-hook-<uid>/` (where the session state is), used only when that
 * directory is the user's own and writable by nobody else, since whoever can write the cache runs
 * code in the hook. Its name carries a hash of the hook's source, the Node version and the
 * architecture (V8 checks only the source's length). Anything wrong with it (missing, rejected,
 * unreadable) just means compiling as usual, and a fresh cache is written after the run.
 * Node built-ins only.
 */
import {
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { Script } from 'node:vm';
import { tempDirectory } from '../store/paths.js';

/** A hash of lore-hook-core.cjs, set by scripts/bundle-hook.mjs. */
declare const LORE_HOOK_BUILD: string;

const CORE = join(__dirname, 'lore-hook-core.cjs');
const PREFIX = 'code-';

/** The cache directory when it is safe to use: the user's own, not group- or world-writable. */
function cacheDir(): string | undefined {
  const uid = process.getuid?.();
  const dir = join(tempDirectory(), `lore-hook-${uid ?? 'user'}`);
  let stat = lstatSync(dir, { throwIfNoEntry: false });
  if (stat === undefined) {
    mkdirSync(dir, { mode: 0o700 });
    stat = lstatSync(dir, { throwIfNoEntry: false });
  }
  if (stat === undefined || !stat.isDirectory() || (stat.mode & 0o022) !== 0) return undefined;
  if (uid !== undefined && stat.uid !== uid) return undefined;
  return dir;
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
        // another hook removed it first
      }
    }
  }
}

let started = false;

function launch(): void {
  const source = readFileSync(CORE, 'utf8');
  let dir: string | undefined;
  let cached: Buffer | undefined;
  const file = `${PREFIX}${LORE_HOOK_BUILD}-${source.length}-${process.version}-${process.arch}.bin`;
  try {
    dir = cacheDir();
    if (dir !== undefined) cached = readFileSync(join(dir, file));
  } catch {
    cached = undefined;
  }
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: CORE,
    ...(cached === undefined ? {} : { cachedData: cached }),
  });
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  const hookModule = { exports: {} };
  // the core asks for node:fs and node:path once per bundled file: answer repeats from a map
  const loaded = new Map<string, unknown>();
  const requireOnce = (id: string) => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the CommonJS require of this bundle
    if (!loaded.has(id)) loaded.set(id, require(id));
    return loaded.get(id);
  };
  started = true;
  run.call(hookModule.exports, hookModule.exports, requireOnce, hookModule, CORE, __dirname);
  if (dir !== undefined && (cached === undefined || script.cachedDataRejected === true)) {
    try {
      saveCache(dir, file, script.createCachedData());
    } catch {
      // a cache is an optimisation: never fail the hook over it
    }
  }
}

try {
  launch();
} catch {
  // The core could not be read or compiled: answer like a hook with nothing to say.
  if (!started) writeSync(1, '{}\n');
  process.exitCode = 0;
}

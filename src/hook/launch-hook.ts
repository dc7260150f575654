/**
 * plugin/bin/lore-hook.cjs: starts the hook (lore-hook-core.cjs, next to it) from V8's code cache
 * (src/store/fs/code-cache.ts, in `$TMPDIR/lore-hook-<uid>/`, where the session state is).
 * Compiling the hook costs a fresh process about 2 ms, a quarter of what the hook adds to a bare
 * `node`; with the bytecode of an earlier run it costs nothing. Anything wrong with the cache just
 * means compiling as usual, and a fresh cache is written after the run. Node built-ins only.
 */
import { writeSync } from 'node:fs';
import { join } from 'node:path';
import { runCodeCached } from '../store/fs/code-cache.js';

/**
 * Node's own last step of `process.exit` (`process.reallyExit`, which signal-exit and others call
 * too): `process.exit` first emits `exit` to listeners the hook never adds, and its first call
 * compiles Node's event-emitter paths for that. Absent on some future Node: `process.exit` then.
 */
function leave(): void {
  const proc = process as NodeJS.Process & { reallyExit?: (code: number) => never };
  if (typeof proc.reallyExit === 'function') proc.reallyExit(0);
  else proc.exit(0);
}

/** A hash of lore-hook-core.cjs, set by scripts/bundle-hook.mjs. */
declare const LORE_HOOK_BUILD: string;

let started = false;

function launch(): void {
  // the core asks for node:fs and node:path once per bundled file: answer repeats from a map
  const loaded = new Map<string, unknown>();
  const requireOnce = (id: string) => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the CommonJS require of this bundle
    if (!loaded.has(id)) loaded.set(id, require(id));
    return loaded.get(id);
  };
  const run = runCodeCached({
    file: join(__dirname, 'lore-hook-core.cjs'),
    build: LORE_HOOK_BUILD,
    cacheName: 'lore-hook',
    // scripts/bundle-hook.mjs writes ASCII (esbuild's charset): no pass over the bytes to check
    ascii: true,
    require: requireOnce,
    onRun: () => {
      started = true;
    },
  });
  run.save();
}

try {
  launch();
} catch {
  // The core could not be read or compiled: answer like a hook with nothing to say.
  if (!started) writeSync(1, '{}\n');
}
// The answer is written (synchronously) and nothing else is owed to anyone: leave without Node's
// teardown of the environment and the heap, 1.5-2 ms of every call (about a fifth of what the
// hook adds to a bare `node`). Not before the microtasks the run queued: a background rebuild,
// scan or pull is spawned from one (request-rebuild.ts `startDetached`, one hop after the run,
// once the answer is out; spawn() has started the child when it returns). The exit is queued two
// hops after the run, behind them. Not from setImmediate: the first timer of a process sets up
// Node's timer and async-resource machinery for one callback (a few tenths of a millisecond).
void Promise.resolve()
  .then(() => undefined)
  .then(() => leave());

/**
 * For a fast verb, bin.ts (dist/cli/lore.cjs) runs the fast verbs' bundle (fast-core.cjs,
 * fast-cli.ts) through this, from V8's code cache in
 * `$TMPDIR/lore-cli-<uid>/` (src/store/fs/code-cache.ts), as the hook and `lore mcp` run theirs,
 * and writes the cache when it ran without one. Parsing the bundle alone
 * takes about 10 ms; from the cache, with the functions a command runs compiled, about 5 ms.
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { runCodeCached } from '../store/fs/code-cache.js';
import type { Io } from './run-command.js';
import { markStage } from './stage-marks.js';
import type { runFastCli as RunFastCli } from './fast-cli.js';

/** A hash of fast-core.cjs, set by scripts/bundle-cli.mjs (the cache file is named after it). */
declare const LORE_FAST_CLI_BUILD: string;

export async function runFastCli(io: Io, full: (io: Io) => Promise<number>): Promise<number | undefined> {
  const file = fileURLToPath(new URL('../cli-bundle/fast-core.cjs', import.meta.url));
  const run = runCodeCached({
    file,
    build: LORE_FAST_CLI_BUILD,
    cacheName: 'lore-cli',
    require: createRequire(file),
  });
  markStage('fast bundle loaded');
  // Written now, not when the command ends: a run without a cache compiles every function
  // (code-cache.ts), so there is nothing more to keep later, and `lore mcp` ends when its client
  // kills it, before any later save.
  run.save();
  const { runFastCli: runCore } = run.exports as { runFastCli: typeof RunFastCli };
  return runCore(io, full);
}

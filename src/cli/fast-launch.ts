/**
 * For a fast verb, bin.ts (dist/cli/lore.cjs) runs the fast verbs' bundle (fast-core.cjs,
 * fast-cli.ts) through this, from V8's code cache (src/store/fs/code-cache.ts), as the hook and
 * `lore mcp` run theirs. Parsing the bundle alone takes about 10 ms. Each verb keeps its own cache,
 * in `$TMPDIR/lore-cli-<verb>-<uid>/`, of the functions it ran (written after its first run): a
 * `lore search` reads 200 KB of cache instead of the 710 KB of every function of every fast verb,
 * about 5 ms less at a load average of 1.
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
    // one cache per verb, of what that verb ran (lazy: see below)
    cacheName: `lore-cli-${io.argv[0] ?? ''}`,
    require: createRequire(file),
    eager: false,
    ascii: true, // esbuild's output: see scripts/bundle-*.mjs
  });
  markStage('fast bundle loaded');
  const { runFastCli: runCore } = run.exports as { runFastCli: typeof RunFastCli };
  const code = await runCore(io, full);
  run.save();
  return code;
}

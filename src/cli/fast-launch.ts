/**
 * How bin.ts (dist/cli/lore.cjs) runs the CLI's CommonJS bundles (dist/cli-bundle/), from V8's
 * code cache (src/store/fs/code-cache.ts), as the hook and `lore mcp` run theirs: the fast verbs'
 * (fast-core.cjs, fast-cli.ts), and every other verb's (full-core.cjs, main.ts). Parsing the fast
 * bundle alone takes about 10 ms. Each verb keeps its own cache, in
 * `$TMPDIR/lore-cli-<verb>-<uid>/` (fast) or `$TMPDIR/lore-cli-full-<verb>-<uid>/`, of the
 * functions it ran (written after its first run): a `lore search` reads 200 KB of cache instead of
 * the 710 KB of every function of every fast verb, about 5 ms less at a load average of 1.
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { runCodeCached } from '../store/fs/code-cache.js';
import type { Io } from './run-command.js';
import { markStage } from './stage-marks.js';
import type { runFastCli as RunFastCli } from './fast-cli.js';

/** A hash of fast-core.cjs, set by scripts/bundle-cli.mjs (the cache file is named after it). */
declare const LORE_FAST_CLI_BUILD: string;

export type CliBundle = {
  /** The file in dist/cli-bundle/. */
  file: string;
  /** A hash of it, set by scripts/bundle-cli.mjs. */
  build: string;
  /** The cache directories' names before `-<verb>-<uid>`. */
  cachePrefix: string;
  /** The stage mark once it ran (LORE_STAGES). */
  stage: string;
};

/**
 * Runs `bundle` from the code cache of `verb` and hands its exports to `call`; then writes that
 * cache if there was none, of the functions the verb ran (lazy: `eager: false`). The verb names a
 * directory, so only a verb's shape does: anything else shares the cache `other`.
 */
export async function runCliBundle<T>(
  bundle: CliBundle,
  verb: string | undefined,
  call: (exports: unknown) => Promise<T>,
): Promise<T> {
  const file = fileURLToPath(new URL(`../cli-bundle/${bundle.file}`, import.meta.url));
  const name = verb !== undefined && /^[a-z][a-z0-9-]{0,31}$/.test(verb) ? verb : 'other';
  const run = runCodeCached({
    file,
    build: bundle.build,
    cacheName: `${bundle.cachePrefix}-${name}`,
    require: createRequire(file),
    eager: false,
    ascii: true, // esbuild's output: see scripts/bundle-cli.mjs
  });
  markStage(bundle.stage);
  try {
    return await call(run.exports);
  } finally {
    run.save();
  }
}

export async function runFastCli(io: Io, full: (io: Io) => Promise<number>): Promise<number | undefined> {
  const bundle = {
    file: 'fast-core.cjs',
    build: LORE_FAST_CLI_BUILD,
    cachePrefix: 'lore-cli',
    stage: 'fast bundle loaded',
  };
  return runCliBundle(bundle, io.argv[0], (exports) =>
    (exports as { runFastCli: typeof RunFastCli }).runFastCli(io, full),
  );
}

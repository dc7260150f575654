/**
 * The background manifest rebuilder the hook starts when the manifest is missing or stale:
 * `node plugin/bin/lore-manifest.cjs --cwd DIR [--lock FILE] [--if-changed]`. Reads the lesson
 * files directly (no SQLite, no node_modules: yaml, zod and picomatch are bundled in), writes the
 * manifest, removes the lock. Exit 0 even on failure: nobody waits for it.
 */
import { unlinkSync } from 'node:fs';
import { rebuildManifestFromFiles } from '../store/manifest/manifest-build.js';

function option(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function main(): void {
  const lock = option('--lock');
  try {
    const result = rebuildManifestFromFiles({
      start: option('--cwd') ?? process.cwd(),
      env: process.env,
      nowMs: Date.now(),
      onlyIfChanged: process.argv.includes('--if-changed'),
    });
    if (process.env.LORE_DEBUG === '1') process.stderr.write(`${JSON.stringify(result)}\n`);
  } catch (error) {
    if (process.env.LORE_DEBUG === '1') process.stderr.write(`${(error as Error)?.stack ?? String(error)}\n`);
  } finally {
    if (lock !== undefined) {
      try {
        unlinkSync(lock);
      } catch {
        // gone already
      }
    }
  }
}

main();

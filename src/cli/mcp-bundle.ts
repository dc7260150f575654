/**
 * The bundled `lore mcp` (dist/mcp/lore-mcp.cjs, scripts/bundle-mcp.mjs), run in this process from
 * V8's code cache in `$TMPDIR/lore-mcp-<uid>/` (src/store/fs/code-cache.ts). Loading it takes a
 * fraction of the time the same code takes as ES modules. The cache holds only what the server ran
 * up to its first tool answer (not every function, as the hook's does): 1.3 MB instead of 3.7 MB,
 * read in 60% of the time (about 40 ms less of a start at a load average of 2); a tool called later
 * compiles its own functions once in the server's life.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { StartMcpOptions } from '../adapters/mcp/start-mcp.js';
import { runCodeCached } from '../store/fs/code-cache.js';

export const MCP_BUNDLE_FILE = fileURLToPath(new URL('../mcp/lore-mcp.cjs', import.meta.url));

export type McpBundle = {
  startMcp(options: StartMcpOptions): Promise<void>;
  /** Writes the code cache when the run compiled without one (once; never throws). */
  saveCodeCache(): void;
};

/** The hash on the bundle's first line (`// lore lore-mcp.cjs build <hash>: ...`). */
export function bundleBuild(source: string): string {
  const head = source.slice(0, source.indexOf('\n'));
  return /\bbuild ([0-9a-f]{16})\b/.exec(head)?.[1] ?? 'unknown';
}

/** The bundle, loaded; undefined when the build did not write one. Throws when it is broken. */
export function loadMcpBundle(file = MCP_BUNDLE_FILE): McpBundle | undefined {
  if (!existsSync(file)) return undefined;
  const run = runCodeCached({
    file,
    build: bundleBuild,
    cacheName: 'lore-mcp',
    require: createRequire(file),
    eager: false,
    ascii: true, // esbuild's output: see scripts/bundle-*.mjs
  });
  const { startMcp } = run.exports as Pick<McpBundle, 'startMcp'>;
  if (typeof startMcp !== 'function') throw new Error(`${file} does not export startMcp`);
  return { startMcp, saveCodeCache: run.save };
}

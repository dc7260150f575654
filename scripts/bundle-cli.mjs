// Bundles the CLI (src/cli/bin.ts) into dist/cli-bundle/: an ES module entry and chunks, one per
// group of lazily imported verbs, so a command loads a handful of files instead of 40-odd ES
// modules (each costs a resolve, a read and a compile: about 0.3 ms on this machine, measured as
// `lore search` 107 ms unbundled vs 101 ms bundled at 1,000 lessons). dist/cli/bin.js, the
// package's `lore`, becomes a one-line import of the bundle's entry. Not committed: `npm run build`
// writes it after tsc.
// - Packages stay external: node_modules loads as it does unbundled (lazily, one copy).
// - `import.meta.url` becomes the URL of the file's own tsc output in dist/, so files found
//   relative to it (package.json, schema/, the worker scripts, the MCP bundle) are where they were.
// Deterministic: the same sources give the same bytes.
import { build } from 'esbuild';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { moduleUrls } from './source-files.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
export const CLI_BUNDLE_DIR = 'dist/cli-bundle';

/** `import.meta.url` in src/<dir>/<file>.ts becomes the URL of dist/<dir>/<file>.js (chunks sit in dist/cli-bundle/). */
const moduleUrlsPlugin = moduleUrls(
  root,
  (rel) => `new URL(${JSON.stringify(`../${rel}`)}, import.meta.url).href`,
);

export async function bundleCli() {
  const outdir = `${root}${CLI_BUNDLE_DIR}`;
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  const result = await build({
    entryPoints: { bin: `${root}src/cli/bin.ts` },
    absWorkingDir: root,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    plugins: [moduleUrlsPlugin],
    minifyWhitespace: true,
    minifySyntax: true,
    legalComments: 'none',
    chunkNames: 'chunk-[hash]',
    outdir,
    metafile: true,
    logLevel: 'silent',
  });
  if (result.errors.length > 0) throw new Error(result.errors.map((e) => e.text).join('\n'));
  writeFileSync(
    `${root}dist/cli/bin.js`,
    "#!/usr/bin/env node\n// The `lore` executable: the bundled CLI (scripts/bundle-cli.mjs; unbundled: ./main.js).\nimport '../cli-bundle/bin.js';\n",
  );
  return Object.keys(result.metafile.outputs).length;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const files = await bundleCli();
  console.log(`${CLI_BUNDLE_DIR}: ${files} files`);
}

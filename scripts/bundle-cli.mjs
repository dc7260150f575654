// Bundles the CLI. Not committed: `npm run build` writes it after tsc.
// - dist/cli/lore.cjs, the package's `lore` (entry src/cli/bin.ts): CommonJS, so that no ES module
//   loader starts before the verb is known (about 9 ms). dist/cli/bin.js, which agents' MCP
//   configurations and the plugin name, becomes an ES module that requires it (createRequire): an
//   `import './lore.cjs'` had Node lex it for named exports and load it through the ES module
//   loader: `lore list` in a small workspace took 3.06x a bare `node` that way, 1.95x required,
//   1.85x as dist/cli/lore.cjs (medians of 30, interleaved, load average 4).
// - dist/cli-bundle/fast-core.cjs (entry src/cli/fast-cli.ts): the fast verbs
//   (src/cli/fast-verbs.ts) in one CommonJS file, which lore.cjs runs from V8's code cache, keyed by
//   a hash of it (src/cli/fast-launch.ts): no ES module loading and no ES module facades of Node's
//   built-ins, about 25 ms of a `lore search` at 10,000 lessons. Packages stay external (`require`
//   picks their CommonJS builds); a lazy `import()` of a project file becomes a lazy `require` of
//   code in the same file.
// - dist/cli-bundle/full-core.cjs (entry src/cli/main.ts): every verb, the packages they use
//   bundled in too, run by lore.cjs from V8's code cache the same way (src/cli/bin.ts). As ES
//   module chunks with the packages loaded from node_modules, a `lore add` spent some 190 ms of
//   its 450 ms resolving, reading and compiling modules; from this file and its cache, 45 ms.
// - `import.meta.url` becomes the URL of the file's own tsc output in dist/, so files found
//   relative to it (package.json, schema/, the worker scripts, the MCP bundle) are where they were.
// - dist/cli-bundle/scan-worker.cjs (entry src/capture/scan-worker.ts): a large scan's worker
//   thread in one CommonJS file, packages external. As ES modules, each worker loaded 51 of them
//   and Node's ES module loader with them: the process's peak RSS was 7 MB higher.
// Deterministic: the same sources give the same bytes.
import { build } from 'esbuild';
import { isAscii } from 'node:buffer';
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { packagesAsCommonJs, shimsPlugin, SHIMS } from './bundle-mcp.mjs';
import { moduleUrls } from './source-files.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
export const CLI_BUNDLE_DIR = 'dist/cli-bundle';
/** What the whole CLI's bundle leaves to `require` at run time (see bundleCli). */
const FULL_EXTERNAL = ['libsql', 'pg', '@electric-sql/pglite'];

/**
 * `import.meta.url` in src/<dir>/<file>.ts becomes the URL of dist/<dir>/<file>.js, from the
 * bundle's `__dirname` (dist/cli-bundle/): CommonJS has no `import.meta`.
 */
const commonJsUrlsPlugin = moduleUrls(
  root,
  (rel) =>
    `require('node:url').pathToFileURL(require('node:path').join(__dirname, '..', ${JSON.stringify(rel)})).href`,
);

/**
 * libsql-target.ts must run before libsql loads (it spares libsql's C library check a diagnostic
 * report and `child_process`): in a CommonJS bundle its code must come before the
 * `require("libsql")`. Throws when a bundle would break that.
 */
function checkLibsqlOrder(file, text) {
  const driver = text.search(/require\("libsql"\)/);
  if (driver < 0) return;
  const target = text.indexOf('getReport');
  if (target < 0 || target > driver)
    throw new Error(`${file}: libsql would load before src/store/sqlite/libsql-target.ts runs`);
}

export async function bundleCli() {
  const outdir = `${root}${CLI_BUNDLE_DIR}`;
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  const common = {
    absWorkingDir: root,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    plugins: [commonJsUrlsPlugin],
    minifyWhitespace: true,
    minifySyntax: true,
    legalComments: 'none',
    outExtension: { '.js': '.cjs' },
    charset: 'ascii',
    outdir,
    metafile: true,
    write: false,
    logLevel: 'silent',
  };
  const core = await build({ ...common, entryPoints: { 'fast-core': `${root}src/cli/fast-cli.ts` } });
  // A large scan's worker thread (src/capture/scan-in-workers.ts starts it when it is there).
  const worker = await build({
    ...common,
    entryPoints: { 'scan-worker': `${root}src/capture/scan-worker.ts` },
  });
  // The whole CLI bundles its packages too (as CommonJS, zod without its other languages: see
  // bundle-mcp.mjs), so that the code cache holds them: required from node_modules, zod and yaml
  // alone took 80 ms of a `lore add` to resolve, read and compile. Left out: libsql (a native
  // addon) and the org tier's PostgreSQL clients (large, loaded only by the org verbs), which a
  // dynamic import() would not reach from the script the launcher runs: they become lazy requires.
  const bundled = { ...common };
  delete bundled.packages;
  const wholeShims = SHIMS.filter((shim) => shim.name === 'zod locales');
  const wholeMet = new Set();
  const whole = await build({
    ...bundled,
    external: FULL_EXTERNAL,
    plugins: [shimsPlugin(wholeMet, wholeShims), commonJsUrlsPlugin, packagesAsCommonJs(FULL_EXTERNAL)],
    supported: { 'dynamic-import': false },
    entryPoints: { 'full-core': `${root}src/cli/main.ts` },
  });
  if (wholeMet.size !== wholeShims.length) throw new Error("full-core.cjs: no module imports zod's locales");
  const hashOf = (out) => createHash('sha256').update(out.outputFiles[0].contents).digest('hex').slice(0, 16);
  const launcher = await build({
    ...common,
    entryPoints: { lore: `${root}src/cli/bin.ts` },
    outdir: `${root}dist/cli`,
    define: {
      LORE_FAST_CLI_BUILD: JSON.stringify(hashOf(core)),
      LORE_FULL_CLI_BUILD: JSON.stringify(hashOf(whole)),
    },
  });
  const files = [...core.outputFiles, ...worker.outputFiles, ...whole.outputFiles, ...launcher.outputFiles];
  const meta = [...core.warnings, ...worker.warnings, ...whole.warnings, ...launcher.warnings].filter(
    (warning) => warning.text.includes('import.meta'),
  );
  if (meta.length > 0) throw new Error(`a CommonJS bundle would keep import.meta: ${meta[0].location?.file}`);
  for (const file of files) checkLibsqlOrder(file.path, file.text);
  // the launcher reads them back as latin1 without checking (code-cache.ts `ascii`)
  const notAscii = files.filter((file) => !isAscii(file.contents)).map((file) => file.path);
  if (notAscii.length > 0) throw new Error(`not ASCII: ${notAscii.join(', ')}`);
  for (const file of files) writeFileSync(file.path, file.contents);
  writeFileSync(
    `${root}dist/cli/bin.js`,
    "#!/usr/bin/env node\n// `lore` as an ES module, for what names this file: the CommonJS bundle of src/cli/bin.ts (scripts/bundle-cli.mjs),\n// required rather than imported: an import has Node's ES module loader read and lex it first.\nimport { createRequire } from 'node:module';\n\ncreateRequire(import.meta.url)('./lore.cjs');\n",
  );
  return files.length;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const files = await bundleCli();
  console.log(`${CLI_BUNDLE_DIR}: ${files} files`);
}

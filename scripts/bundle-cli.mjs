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
// - dist/cli-bundle/main.js (entry src/cli/main.ts) and chunks, one per group of lazily imported
//   verbs: every other verb, as ES modules, so a command loads a handful of files instead of 40-odd
//   ES modules (each costs a resolve, a read and a compile: about 0.3 ms on this machine, measured as
//   `lore search` 107 ms unbundled vs 101 ms bundled at 1,000 lessons).
// - Packages stay external: node_modules loads as it does unbundled (lazily, one copy).
// - `import.meta.url` becomes the URL of the file's own tsc output in dist/, so files found
//   relative to it (package.json, schema/, the worker scripts, the MCP bundle) are where they were.
// Deterministic: the same sources give the same bytes.
import { build } from 'esbuild';
import { isAscii } from 'node:buffer';
import { createHash } from 'node:crypto';
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
/** The same for the CommonJS bundle, which has `__dirname` (dist/cli-bundle/) and no `import.meta`. */
const commonJsUrlsPlugin = moduleUrls(
  root,
  (rel) =>
    `require('node:url').pathToFileURL(require('node:path').join(__dirname, '..', ${JSON.stringify(rel)})).href`,
);

/**
 * libsql-target.ts must run before libsql loads (it spares libsql's C library check a diagnostic
 * report and `child_process`): in the ES module chunks, the chunk that imports libsql must import
 * the one holding libsql-target.ts first; in the CommonJS file, its code must come before the
 * `require("libsql")`. Throws when a bundle would break that.
 */
function checkLibsqlOrder(outputs, texts) {
  const target = 'src/store/sqlite/libsql-target.ts';
  // the ES module build: the chunk of libsql-target.ts (the entry of that name only re-exports it)
  const holder = Object.entries(outputs).find(
    ([file, out]) => Object.hasOwn(out.inputs, target) && out.inputs[target].bytesInOutput > 0 && file,
  )?.[0];
  if (holder === undefined) throw new Error(`${target} is in no output`);
  for (const [file, out] of Object.entries(outputs)) {
    const text = texts.get(file) ?? '';
    const driver = text.search(/from\s*"libsql"|require\("libsql"\)/);
    if (driver < 0) continue;
    const before =
      file === holder
        ? text.indexOf('getReport') >= 0 && text.indexOf('getReport') < driver
        : out.imports.some((imp) => imp.path === holder) &&
          text.indexOf(`"./${holder.split('/').at(-1)}"`) < driver;
    if (!before) throw new Error(`${file}: libsql would load before ${target} runs`);
  }
}

export async function bundleCli() {
  const outdir = `${root}${CLI_BUNDLE_DIR}`;
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  const result = await build({
    // libsql-target.ts is an entry of its own so that it is a file of its own: the chunk holding
    // sqlite.ts then imports it before libsql, as sqlite.ts does. Inlined into that chunk, its code
    // would run after libsql (an ES module's imports all run before its body), too late to spare
    // libsql's glibc check a whole diagnostic report (5-20 ms of every command that opens the index).
    entryPoints: {
      main: `${root}src/cli/main.ts`,
      'libsql-target': `${root}src/store/sqlite/libsql-target.ts`,
    },
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
    write: false,
    logLevel: 'silent',
  });
  if (result.errors.length > 0) throw new Error(result.errors.map((e) => e.text).join('\n'));
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
    // fast-launch.ts reads fast-core.cjs back as latin1 without checking (code-cache.ts `ascii`)
    charset: 'ascii',
    outdir,
    metafile: true,
    write: false,
    logLevel: 'silent',
  };
  const core = await build({ ...common, entryPoints: { 'fast-core': `${root}src/cli/fast-cli.ts` } });
  const hash = createHash('sha256').update(core.outputFiles[0].contents).digest('hex').slice(0, 16);
  const launcher = await build({
    ...common,
    entryPoints: { lore: `${root}src/cli/bin.ts` },
    outdir: `${root}dist/cli`,
    define: { LORE_FAST_CLI_BUILD: JSON.stringify(hash) },
  });
  const fast = {
    outputFiles: [...core.outputFiles, ...launcher.outputFiles],
    warnings: [...core.warnings, ...launcher.warnings],
    metafile: { outputs: { ...core.metafile.outputs, ...launcher.metafile.outputs } },
  };
  const meta = fast.warnings.filter((warning) => warning.text.includes('import.meta'));
  if (meta.length > 0) throw new Error(`a CommonJS bundle would keep import.meta: ${meta[0].location?.file}`);
  const files = [...result.outputFiles, ...fast.outputFiles];
  const texts = new Map(files.map((file) => [file.path.slice(root.length), file.text]));
  checkLibsqlOrder(result.metafile.outputs, texts);
  checkLibsqlOrder(fast.metafile.outputs, texts);
  const notAscii = fast.outputFiles.filter((file) => !isAscii(file.contents)).map((file) => file.path);
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

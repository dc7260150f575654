// Bundles `lore mcp` into dist/mcp/lore-mcp.cjs (src/adapters/mcp/start-mcp.ts: the SDK, zod, the
// store and the tools in one CommonJS file), which `lore mcp` runs from V8's code cache instead of
// loading some 400 ES modules. Not committed: `npm run build` writes it after tsc.
// - libsql stays external: its native addon is found by `require` from node_modules at run time.
// - `import.meta.url` becomes the URL of the file's own tsc output in dist/ (the worker scripts,
//   the schema folder and package.json are found relative to it, as in the unbundled CLI).
// - The first line names a hash of the rest: the code cache is keyed by it.
// Deterministic: the same sources give the same bytes. The build fails if the bundle would keep an
// `import.meta` or a dynamic `import()` (neither works in the CommonJS script the loader runs).
import { build } from 'esbuild';
import { isAscii } from 'node:buffer';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { moduleUrls } from './source-files.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const ENTRY = 'src/adapters/mcp/start-mcp.ts';
export const MCP_BUNDLE = 'dist/mcp/lore-mcp.cjs';
const EXTERNAL = ['libsql'];

/** `import.meta.url` in src/<dir>/<file>.ts becomes the URL of dist/<dir>/<file>.js (the bundle sits in dist/mcp/). */
const moduleUrlsPlugin = moduleUrls(
  root,
  (rel) =>
    `require('node:url').pathToFileURL(require('node:path').join(__dirname, '..', ${JSON.stringify(rel)})).href`,
);

/**
 * Packages load as CommonJS (the `require` entry of their exports), as `require` would load them.
 * Their ES module builds, bundled, would run in a different order: zod and the SDK import each
 * other in cycles, and lore's lazy `import()`s wrap part of them, so the SDK's top level would call
 * zod before zod's classes exist.
 */
export const packagesAsCommonJs = (external = EXTERNAL) => ({
  name: 'packages-as-commonjs',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.pluginData?.asRequire || args.kind === 'require-call' || args.path.startsWith('node:'))
        return undefined;
      if (external.includes(args.path)) return undefined;
      const resolved = await b.resolve(args.path, {
        kind: 'require-call',
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: { asRequire: true },
      });
      return resolved.errors.length > 0 ? undefined : resolved;
    });
  },
});

/**
 * Modules the server never runs, left out of the bundle (every start reads and decodes the whole
 * file: some 10 ms per MB at a load average of 2) and loaded from node_modules should anything
 * ever ask for them. Each is found by the file that imports it; the build fails when one was not
 * met (a new zod or SDK that moved it), rather than bundling it again unnoticed.
 * - zod's locales other than English (320 KB, a fifth of the bundle): zod's index modules import
 *   all 50-odd error-message languages for `z.locales`; lore's messages are English.
 * - The SDK's JSON Schema validator, AJV (two copies of ajv, ajv-formats, fast-uri: 250 KB),
 *   which its Server builds at every start (a few ms) for one use: checking what a client answers
 *   to an elicitation. lore never elicits; the SDK's own validator is loaded on first use.
 * - zod 3 and zod-to-json-schema (100 KB, and zod 3's module set-up at every start), which the SDK
 *   uses only for schemas written with zod 3; lore's are zod 4. Each is a module that loads the
 *   real one on first use of anything but `__esModule`.
 * - zod mini (40 KB), whose four functions the SDK uses are answered from zod core and zod (below).
 */
/** A module that is `name`, required from node_modules the first time anything reads it. */
const lazyModule = (name) => () =>
  [
    '"use strict";',
    'let real;',
    `const load = () => (real ??= require(${JSON.stringify(name)}));`,
    'module.exports = new Proxy({}, {',
    '  get: (_, key) => (key === "__esModule" ? true : load()[key]),',
    '  has: (_, key) => key in load(),',
    '  ownKeys: () => Reflect.ownKeys(load()),',
    '  getOwnPropertyDescriptor: (_, key) => {',
    '    const d = Object.getOwnPropertyDescriptor(load(), key);',
    '    return d && { ...d, configurable: true };',
    '  },',
    '});',
  ].join('\n');

export const SHIMS = [
  {
    name: 'zod locales',
    importer: /[\\/]zod[\\/]v4[\\/](?:classic[\\/]external|mini[\\/]external|core[\\/]index)\.cjs$/,
    path: '../locales/index.cjs',
    contents(file) {
      const index = readFileSync(file, 'utf8');
      const names = [...index.matchAll(/defineProperty\(exports, "(\w+)", \{ enumerable: true, get/g)].map(
        (m) => m[1],
      );
      if (!names.includes('en')) throw new Error('zod/v4/locales/index.cjs no longer exports en');
      return [
        '"use strict";',
        'Object.defineProperty(exports, "__esModule", { value: true });',
        'const en = require("./en.cjs");',
        'Object.defineProperty(exports, "en", { enumerable: true, get: () => en.default });',
        `for (const name of ${JSON.stringify(names.filter((name) => name !== 'en'))})`,
        '  Object.defineProperty(exports, name, { enumerable: true, get: () => require("zod/v4/locales")[name] });',
      ].join('\n');
    },
    external: ['zod/v4/locales'],
  },
  {
    name: 'the SDK validator',
    importer: /[\\/]@modelcontextprotocol[\\/]sdk[\\/]dist[\\/]cjs[\\/]server[\\/]index\.js$/,
    path: '../validation/ajv-provider.js',
    contents: () =>
      [
        '"use strict";',
        'Object.defineProperty(exports, "__esModule", { value: true });',
        'class AjvJsonSchemaValidator {',
        '  constructor(ajv) { this.ajv = ajv; }',
        '  getValidator(schema) {',
        '    this.real ??= new (require("@modelcontextprotocol/sdk/validation/ajv").AjvJsonSchemaValidator)(this.ajv);',
        '    return this.real.getValidator(schema);',
        '  }',
        '}',
        'exports.AjvJsonSchemaValidator = AjvJsonSchemaValidator;',
      ].join('\n'),
    external: ['@modelcontextprotocol/sdk/validation/ajv'],
  },
  {
    // zod mini, loaded at every start after zod itself (1.7 ms of the bundle's body) for the
    // four names the SDK's zod-compat modules read from it: `safeParse`, `safeParseAsync` and
    // `toJSONSchema` are zod core's own functions (mini re-exports them), and `object` builds the
    // object schema the SDK makes of a prompt's argument shape, which it only parses with those
    // and reads the shape of; zod's `object` (loaded anyway, for the SDK's types.js) builds the
    // same core object schema, with more methods. Anything else loads the real zod mini.
    name: 'zod mini',
    importer:
      /[\\/]@modelcontextprotocol[\\/]sdk[\\/]dist[\\/]cjs[\\/]server[\\/]zod(?:-json-schema)?-compat\.js$/,
    path: 'zod/v4-mini',
    contents: () =>
      [
        '"use strict";',
        'const core = require("zod/v4/core");',
        'const known = {',
        '  __esModule: true,',
        '  safeParse: core.safeParse,',
        '  safeParseAsync: core.safeParseAsync,',
        '  toJSONSchema: core.toJSONSchema,',
        '  object: (...args) => require("zod/v4").object(...args),',
        '};',
        'let real;',
        'const load = () => (real ??= require("zod/v4-mini"));',
        'module.exports = new Proxy(known, {',
        '  get: (target, key) => (Object.hasOwn(target, key) ? target[key] : load()[key]),',
        '});',
      ].join('\n'),
    external: ['zod/v4-mini'],
  },
  {
    name: 'zod 3',
    importer: /[\\/]@modelcontextprotocol[\\/]sdk[\\/]dist[\\/]cjs[\\/]server[\\/]zod-compat\.js$/,
    path: 'zod/v3',
    contents: lazyModule('zod/v3'),
    external: ['zod/v3'],
  },
  {
    name: 'zod-to-json-schema',
    importer:
      /[\\/]@modelcontextprotocol[\\/]sdk[\\/]dist[\\/]cjs[\\/]server[\\/]zod-json-schema-compat\.js$/,
    path: 'zod-to-json-schema',
    contents: lazyModule('zod-to-json-schema'),
    external: ['zod-to-json-schema'],
  },
];

export function shimsPlugin(met, shims = SHIMS) {
  return {
    name: 'lore-shims',
    setup(b) {
      b.onResolve({ filter: /.*/ }, (args) => {
        const shim = shims.find((s) => s.path === args.path && s.importer.test(args.importer));
        if (shim === undefined) return undefined;
        met.add(shim.name);
        const path = shim.path.startsWith('.') ? join(args.resolveDir, shim.path) : `lazy:${shim.path}`;
        return { path, namespace: 'lore-shim', pluginData: shim };
      });
      b.onLoad({ filter: /.*/, namespace: 'lore-shim' }, (args) => ({
        contents: args.pluginData.contents(args.path),
        resolveDir: args.path.startsWith('lazy:') ? root : dirname(args.path),
        loader: 'js',
      }));
      b.onResolve({ filter: /.*/, namespace: 'lore-shim' }, (args) =>
        shims.some((s) => s.external.includes(args.path)) ? { path: args.path, external: true } : undefined,
      );
    },
  };
}

/** The SDK's module of protocol schemas (some 150 zod schemas, built when it loads). */
const SDK_TYPES = /[\\/]@modelcontextprotocol[\\/]sdk[\\/]dist[\\/]cjs[\\/]types\.js$/;
/** Fewer lazy schemas than this: the SDK changed how it writes types.js (the build fails). */
const MIN_LAZY_SCHEMAS = 100;

/**
 * The SDK's types.js, with each exported schema built the first time it is read. Loaded as it
 * is, it builds every zod schema of the protocol (some 2,000 zod objects, 12 ms of the 30 ms the
 * bundle's body took to run, and most of the garbage of a start), while a start to the first
 * lore_search reads a few dozen of them. Each top-level `exports.FooSchema = <call or alias>;`
 * becomes a getter that builds it once and then stays a plain property; everything else (the
 * module-private schemas, the functions, the classes) runs as written. A schema reads only
 * schemas defined above it, which exist by the time anything can read it, so the order of
 * building changes nothing a reader sees. Exported: the test checks the rewrite on the real file.
 */
export function lazySchemas(text) {
  const source = ts.createSourceFile('types.js', text, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const edits = [];
  for (const statement of source.statements) {
    if (!ts.isExpressionStatement(statement)) continue;
    const assign = statement.expression;
    if (!ts.isBinaryExpression(assign) || assign.operatorToken.kind !== ts.SyntaxKind.EqualsToken) continue;
    const { left, right } = assign;
    if (!ts.isPropertyAccessExpression(left) || left.expression.getText(source) !== 'exports') continue;
    const name = left.name.text;
    if (!name.endsWith('Schema') || !(ts.isCallExpression(right) || ts.isPropertyAccessExpression(right)))
      continue;
    edits.push({
      start: statement.getStart(source),
      end: statement.end,
      text: `__loreLazy(exports, ${JSON.stringify(name)}, () => (${right.getText(source)}));`,
    });
  }
  let out = text;
  for (const edit of edits.reverse()) out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  const helper = [
    'function __loreLazy(target, name, build) {',
    '  const settle = (value) =>',
    '    Object.defineProperty(target, name, { value, writable: true, enumerable: true, configurable: true });',
    '  Object.defineProperty(target, name, {',
    '    get() { const value = build(); settle(value); return value; },',
    '    set: settle,',
    '    enumerable: true,',
    '    configurable: true,',
    '  });',
    '}',
  ].join('\n');
  return { text: `${out}\n${helper}\n`, count: edits.length };
}

export function lazySchemasPlugin(met) {
  return {
    name: 'lore-lazy-schemas',
    setup(b) {
      b.onLoad({ filter: SDK_TYPES }, (args) => {
        const { text, count } = lazySchemas(readFileSync(args.path, 'utf8'));
        if (count < MIN_LAZY_SCHEMAS)
          throw new Error(`${args.path}: only ${count} exported schemas found to build lazily`);
        met.add('lazy schemas');
        return { contents: text, loader: 'js' };
      });
    },
  };
}

/**
 * lore's modules import `z` from zod, a CommonJS package: esbuild gives each importing module its
 * own copy of zod's exports object (a getter for each of its 300-odd names), six at a start, about
 * 0.15 ms each. They import it from one ES module here instead, which makes the one copy; one that
 * imports another name from 'zod' fails the build (no such export), rather than reading undefined.
 */
export function loreZodPlugin(met) {
  const src = join(root, 'src');
  return {
    name: 'lore-zod',
    setup(b) {
      b.onResolve({ filter: /^zod$/ }, (args) => {
        if (!args.importer.startsWith(src)) return undefined;
        met.add('lore zod');
        return { path: 'zod', namespace: 'lore-zod' };
      });
      b.onLoad({ filter: /.*/, namespace: 'lore-zod' }, () => ({
        contents: "export { z } from 'zod';\n",
        resolveDir: root,
        loader: 'js',
      }));
    },
  };
}

/** `minify: false` only to read a profile: what ships is minified (and checked for `import(` without comments). */
export async function bundleMcp({ minify = true } = {}) {
  const met = new Set();
  const result = await build({
    entryPoints: [`${root}${ENTRY}`],
    absWorkingDir: root,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: EXTERNAL,
    plugins: [
      shimsPlugin(met),
      lazySchemasPlugin(met),
      loreZodPlugin(met),
      moduleUrlsPlugin,
      packagesAsCommonJs(),
    ],
    minify,
    legalComments: 'none',
    charset: 'ascii', // read back as latin1: a one-byte string, decoded in no time
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const unmet = [...SHIMS.map((shim) => shim.name), 'lazy schemas', 'lore zod'].filter(
    (name) => !met.has(name),
  );
  if (unmet.length > 0)
    throw new Error(`${MCP_BUNDLE}: no module imports what these shims replace: ${unmet.join(', ')}`);
  const body = result.outputFiles[0].text;
  const [output] = Object.values(result.metafile.outputs);
  const dynamic = output.imports
    .filter((entry) => entry.kind === 'dynamic-import')
    .map((entry) => entry.path);
  const meta = result.warnings.filter((warning) => warning.text.includes('import.meta'));
  if (dynamic.length > 0)
    throw new Error(`${MCP_BUNDLE} would keep dynamic import()s of ${dynamic.join(', ')}`);
  if (meta.length > 0) throw new Error(`${MCP_BUNDLE} would keep import.meta: ${meta[0].location?.file}`);
  if (minify && /[^\w.$]import\(/.test(body))
    throw new Error(`${MCP_BUNDLE} would keep an import() of a computed name`);
  // mcp-bundle.ts reads it back as latin1 without checking (code-cache.ts `ascii`)
  if (!isAscii(Buffer.from(body))) throw new Error(`${MCP_BUNDLE} is not ASCII`);
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 16);
  const banner = `// lore lore-mcp.cjs build ${hash}: generated by \`npm run build\` from ${ENTRY}. Do not edit.\n`;
  return { text: banner + body, hash, inputs: Object.keys(result.metafile.inputs) };
}

async function main() {
  const { text } = await bundleMcp();
  mkdirSync(`${root}dist/mcp`, { recursive: true });
  writeFileSync(`${root}${MCP_BUNDLE}`, text);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();

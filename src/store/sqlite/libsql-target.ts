/**
 * Loads the SQLite driver for sqlite.ts (`loadLibsql`, on the first database opened), sparing its
 * load three costs. libsql picks
 * its native package (`@libsql/linux-x64-gnu` or `-musl`) through @neon-rs/load, which asks whether
 * the C library is glibc by building a whole diagnostic report (`process.report.getReport()`:
 * 5 to 20 ms, a tenth of a `lore search`), and through detect-libc, whose module loads
 * `child_process` (with net, dgram and streams: 2-4 ms) to run `ldd` in case reading it fails.
 * For that one load, both questions are answered from the file detect-libc reads first anyway:
 * the `ldd` script names its C library. When the file says nothing clear, or this is not Linux,
 * the real report and the real detect-libc run as before; both are put back once the driver is
 * loaded. And libsql is required by its file's path where it can be (`libsqlEntry`).
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire, Module } from 'node:module';
import { fileURLToPath } from 'node:url';

type Report = { getReport(): object };

const report = process.report as unknown as Report | undefined;
const original = report?.getReport;

function libcFromLdd(): 'glibc' | 'musl' | undefined {
  try {
    const text = readFileSync('/usr/bin/ldd', 'latin1');
    if (text.includes('musl')) return 'musl';
    if (text.includes('GNU C Library')) return 'glibc';
  } catch {
    // no ldd: ask the report
  }
  return undefined;
}

/**
 * libsql's entry file: where npm puts it beside lore's own files (`node_modules/libsql` of the
 * package), required by its path; else `libsql`, found as Node finds it (lore installed as a
 * dependency, with libsql hoisted). By its path, because libsql's package.json has "exports", and
 * resolving a bare name through "exports" makes Node load its ES module resolver, about 1.5 ms of
 * every verb that opens the index (`lore search`, `lore mcp`); a path skips that.
 */
export function libsqlEntry(): string {
  // from dist/store/sqlite/ (or src/store/sqlite/, or a bundle, which keeps this module's URL)
  const beside = fileURLToPath(new URL('../../../node_modules/libsql/index.js', import.meta.url));
  return existsSync(beside) ? beside : 'libsql';
}

/**
 * detect-libc as libsql requires it, answered from `libc` (what its `familySync` would answer
 * from the same file): an entry in the CommonJS module cache under detect-libc's own file name,
 * so libsql's `require('detect-libc')` finds it. Anything else libsql might ask of it loads the
 * real module. The file name, or undefined when it could not be placed.
 */
function answerDetectLibc(family: 'glibc' | 'musl'): string | undefined {
  try {
    // not named `require`: in the CommonJS bundles `import.meta.url` becomes an expression using it
    const requireHere = createRequire(import.meta.url);
    const file = createRequire(requireHere.resolve(libsqlEntry())).resolve('detect-libc');
    const cache = requireHere.cache;
    if (cache[file] !== undefined) return undefined;
    const known: Record<string, unknown> = { GLIBC: 'glibc', MUSL: 'musl', familySync: () => family };
    const stub = new Module(file);
    stub.filename = file;
    stub.loaded = true;
    stub.exports = new Proxy(known, {
      get: (target, key) => {
        if (typeof key === 'string' && Object.hasOwn(target, key)) return target[key];
        delete cache[file];
        return (requireHere(file) as Record<string | symbol, unknown>)[key];
      },
    });
    cache[file] = stub;
    return file;
  } catch {
    return undefined;
  }
}

/** libsql's module (its `Database` class), loaded with the C library answered from ldd meanwhile. */
export function loadLibsql(): unknown {
  const libc = process.platform === 'linux' && report !== undefined ? libcFromLdd() : undefined;
  if (report !== undefined && libc !== undefined) {
    // The one field @neon-rs/load reads: `header.glibcVersionRuntime` is present on glibc only.
    report.getReport = () => ({ header: libc === 'glibc' ? { glibcVersionRuntime: 'from ldd' } : {} });
  }
  const stubbed = libc === undefined ? undefined : answerDetectLibc(libc);
  try {
    // not named `require`: in the CommonJS bundles `import.meta.url` becomes an expression using it
    return createRequire(import.meta.url)(libsqlEntry());
  } finally {
    if (report !== undefined && original !== undefined) report.getReport = original;
    if (stubbed !== undefined) delete createRequire(import.meta.url).cache[stubbed];
  }
}

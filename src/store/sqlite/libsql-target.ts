/**
 * Imported by sqlite.ts just before the SQLite driver, to spare its load two costs. libsql picks
 * its native package (`@libsql/linux-x64-gnu` or `-musl`) through @neon-rs/load, which asks whether
 * the C library is glibc by building a whole diagnostic report (`process.report.getReport()`:
 * 5 to 20 ms, a tenth of a `lore search`), and through detect-libc, whose module loads
 * `child_process` (with net, dgram and streams: 2-4 ms) to run `ldd` in case reading it fails.
 * For that one load, both questions are answered from the file detect-libc reads first anyway:
 * the `ldd` script names its C library. When the file says nothing clear, or this is not Linux,
 * the real report and the real detect-libc run as before. `restoreReport` puts both back.
 */
import { readFileSync } from 'node:fs';
import { createRequire, Module } from 'node:module';

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

const libc = process.platform === 'linux' && report !== undefined ? libcFromLdd() : undefined;
if (report !== undefined && libc !== undefined) {
  // The one field @neon-rs/load reads: `header.glibcVersionRuntime` is present on glibc only.
  report.getReport = () => ({ header: libc === 'glibc' ? { glibcVersionRuntime: 'from ldd' } : {} });
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
    const file = createRequire(requireHere.resolve('libsql')).resolve('detect-libc');
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

const stubbed = libc === undefined ? undefined : answerDetectLibc(libc);

/** Puts the real `process.report.getReport` and detect-libc back (sqlite.ts, once the driver is loaded). */
export function restoreReport(): void {
  if (report !== undefined && original !== undefined) report.getReport = original;
  if (stubbed !== undefined) delete createRequire(import.meta.url).cache[stubbed];
}

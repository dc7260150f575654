/**
 * Imported by sqlite.ts just before the SQLite driver. libsql picks its native package
 * (`@libsql/linux-x64-gnu` or `-musl`) through @neon-rs/load, which asks whether the C library
 * is glibc by building a whole diagnostic report (`process.report.getReport()`): 10 to 20 ms, a
 * tenth of a `lore search`. For that one load, the question is answered from the file libsql's
 * other check (detect-libc) reads anyway: the `ldd` script names its C library. When the file
 * says nothing clear, or this is not Linux, the real report runs as before.
 */
import { readFileSync } from 'node:fs';

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

/** Puts the real `process.report.getReport` back (sqlite.ts calls it once the driver is loaded). */
export function restoreReport(): void {
  if (report !== undefined && original !== undefined) report.getReport = original;
}

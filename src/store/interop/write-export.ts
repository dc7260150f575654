/**
 * Writes what a format rendered for `lore export --to FORMAT [--out PATH]`: one file to stdout or
 * to PATH, several (Orbit, Cursor, ADD with both tiers) into the directory PATH, and COIA into
 * the `learnings` table of a SQLite database when PATH ends in .db, .sqlite or .sqlite3.
 */
import { mkdirSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { LoreError } from '../../core/errors.js';
import { assignCoiaIds, COIA_TABLE_SQL, toCoiaRow } from '../../core/interop/coia.js';
import type { ExportLesson, InteropFormatName, Rendered } from '../../core/interop/interop-format.js';
import { writeFileAtomic } from '../fs/fs-atomic.js';
import { openSqlite } from '../sqlite/sqlite.js';
import type { SqlValue } from '../sqlite/sqlite.js';

/** Formats whose export is a folder of files, whatever their number. */
const DIRECTORY_FORMATS: readonly InteropFormatName[] = ['orbit', 'cursor'];
const SQLITE_OUT = /\.(?:db|sqlite3?)$/;

export type WrittenExport = { stdout: string | undefined; written: string[] };

export function writeInteropExport(
  format: InteropFormatName,
  rendered: Rendered,
  lessons: readonly ExportLesson[],
  out: { path: string; shown: string } | undefined,
): WrittenExport {
  if (out !== undefined && format === 'coia' && SQLITE_OUT.test(out.path)) {
    requireParent(out);
    writeCoiaDatabase(out.path, lessons);
    return { stdout: undefined, written: [out.path] };
  }
  const directory = DIRECTORY_FORMATS.includes(format) || rendered.files.length > 1;
  if (out === undefined) {
    if (directory) {
      throw new LoreError(
        'usage',
        `an export to ${format} writes ${rendered.files.length} file(s): it needs --out DIR`,
        {
          hint:
            format === 'orbit'
              ? 'e.g. --out .orbit'
              : format === 'cursor'
                ? 'e.g. --out .cursor/rules'
                : 'e.g. --out .add',
        },
      );
    }
    return { stdout: rendered.files[0]?.text ?? '', written: [] };
  }
  const isDir = statSync(out.path, { throwIfNoEntry: false })?.isDirectory() ?? false;
  if (!directory && !isDir) {
    requireParent(out);
    writeFileAtomic(out.path, rendered.files[0]?.text ?? '');
    return { stdout: undefined, written: [out.path] };
  }
  if (!isDir) requireParent(out);
  // Orbit's files live under learnings/; --out .orbit/learnings means the same folder.
  const strip = format === 'orbit' && basename(out.path) === 'learnings' ? 'learnings/' : '';
  const written: string[] = [];
  for (const file of rendered.files) {
    const target = join(out.path, file.path.startsWith(strip) ? file.path.slice(strip.length) : file.path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileAtomic(target, file.text);
    written.push(target);
  }
  return { stdout: undefined, written };
}

function requireParent(out: { path: string; shown: string }): void {
  if (!(statSync(dirname(out.path), { throwIfNoEntry: false })?.isDirectory() ?? false)) {
    throw new LoreError('io', `cannot write ${out.shown}: directory ${dirname(out.path)} does not exist`, {
      hint: 'create it first, or pick another --out path',
    });
  }
}

/** Inserts (or replaces, by id) the lessons as rows of COIA's `learnings` table. */
function writeCoiaDatabase(path: string, lessons: readonly ExportLesson[]): void {
  const db = openSqlite(path);
  try {
    db.exec(COIA_TABLE_SQL);
    const columns = new Set(
      db.all<{ name: string }>("SELECT name FROM pragma_table_info('learnings')").map((c) => c.name),
    );
    const ids = assignCoiaIds(lessons);
    db.transaction(() => {
      for (const lesson of lessons) {
        const row = toCoiaRow(lesson, ids, true);
        const keys = Object.keys(row).filter((key) => columns.has(key));
        db.run(
          `INSERT OR REPLACE INTO learnings (${keys.map((key) => `"${key}"`).join(', ')}) VALUES (${keys.map(() => '?').join(', ')})`,
          ...keys.map((key) => toSqlValue(row[key])),
        );
      }
    });
  } finally {
    db.close();
  }
}

function toSqlValue(value: unknown): SqlValue {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint') return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  return JSON.stringify(value);
}

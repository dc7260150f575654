/**
 * Writes what a format rendered for `lore export --to FORMAT [--out PATH]`: one file to stdout or
 * to PATH, several (Orbit, Cursor, ADD with both tiers) into the directory PATH, and COIA into
 * the `learnings` table of a SQLite database when PATH ends in .db, .sqlite or .sqlite3.
 */
import { mkdirSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { LoreError } from '../../core/errors.js';
import { assignCoiaIds, COIA_TABLE_SQL, toCoiaRow } from '../../core/interop/coia.js';
import type {
  ExportLesson,
  InteropFormatName,
  RememberedIds,
  Rendered,
} from '../../core/interop/interop-format.js';
import { writeFileAtomic } from '../fs/fs-atomic.js';
import { openSqlite } from '../sqlite/sqlite.js';
import { guardOverwrites, recordLoreFiles } from './export-ledger.js';
import { orbitLearningsDir, recordFolderLedger } from './folder-ledger.js';
import type { ExportLedger, PlannedWrite } from './export-ledger.js';
import type { SqlValue } from '../sqlite/sqlite.js';

/** Formats whose export is a folder of files, whatever their number. */
const DIRECTORY_FORMATS: readonly InteropFormatName[] = ['orbit', 'cursor'];
const SQLITE_OUT = /\.(?:db|sqlite3?)$/;

export type WrittenExport = { stdout: string | undefined; written: string[] };

export type ExportWriteOptions = {
  /** What lore wrote or imported before: files it may overwrite (export-ledger.ts). */
  ledger: ExportLedger;
  /** Overwrite files lore does not hold too. */
  force: boolean;
};

export function writeInteropExport(
  format: InteropFormatName,
  rendered: Rendered,
  lessons: readonly ExportLesson[],
  out: { path: string; shown: string } | undefined,
  options: ExportWriteOptions,
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
    const writes = [{ path: out.path, text: rendered.files[0]?.text ?? '', shown: out.shown }];
    writeGuarded(writes, options);
    return { stdout: undefined, written: [out.path] };
  }
  if (!isDir) requireParent(out);
  const writes = planDirectoryWrites(format, rendered, out);
  writeGuarded(writes, options);
  if (format === 'orbit') recordFolderLedger(orbitLearningsDir(out.path), writes);
  return { stdout: undefined, written: writes.map((write) => write.path) };
}

/**
 * Where each rendered file goes under `--out`. A file whose path would leave the folder (an id
 * such as `../../x` that slipped past import) refuses the whole export before anything is written.
 */
export function planDirectoryWrites(
  format: InteropFormatName,
  rendered: Rendered,
  out: { path: string; shown: string },
): PlannedWrite[] {
  // Orbit's files live under learnings/; --out .orbit/learnings means the same folder.
  const strip = format === 'orbit' && basename(out.path) === 'learnings' ? 'learnings/' : '';
  return rendered.files.map((file) => {
    const inside = file.path.startsWith(strip) ? file.path.slice(strip.length) : file.path;
    const path = resolve(out.path, inside);
    const rel = relative(resolve(out.path), path);
    if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) {
      throw new LoreError('invalid', `refusing to write ${JSON.stringify(file.path)} outside ${out.shown}`, {
        hint: 'nothing was written; a lesson name that is not a file name reached the export: please report it',
      });
    }
    return {
      path,
      text: file.text,
      shown: join(out.shown, inside),
      ...(file.lesson === undefined ? {} : { lesson: file.lesson }),
    };
  });
}

/**
 * The Orbit ids an export to `outPath` must keep: the one each lesson's learning file had in an
 * earlier export there (the ledger), and every id the folder used, in the ledger or on disk (a
 * teammate's learning, a deleted lesson's), so a new lesson never takes one.
 */
export function rememberedOrbitIds(ledger: ExportLedger, outPath: string): RememberedIds {
  const folder = orbitLearningsDir(outPath);
  const ids = new Map<string, string>();
  const taken = new Set<string>();
  for (const [path, lesson] of Object.entries(ledger.lessons)) {
    if (dirname(dirname(path)) !== folder || !/^learning\.ya?ml$/.test(basename(path))) continue;
    const id = basename(dirname(path));
    taken.add(id);
    if (lesson !== '') ids.set(lesson, id);
  }
  try {
    for (const entry of readdirSync(folder, { withFileTypes: true }))
      if (entry.isDirectory()) taken.add(entry.name);
  } catch {
    // no folder yet: nothing on disk to avoid
  }
  return { ids, taken };
}

/** Refuses to replace what lore does not hold (unless forced), writes, and records what it wrote. */
function writeGuarded(writes: readonly PlannedWrite[], options: ExportWriteOptions): void {
  guardOverwrites(writes, options.ledger, { force: options.force });
  for (const write of writes) {
    mkdirSync(dirname(write.path), { recursive: true });
    writeFileAtomic(write.path, write.text);
  }
  recordLoreFiles(options.ledger, writes);
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

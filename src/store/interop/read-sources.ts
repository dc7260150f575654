/**
 * Reads what `lore import PATH` points at into the files the formats parse: one file, or every
 * candidate file under a directory (`.orbit/`, `.add/`, `.cursor/rules/`, a repository), with
 * paths relative to it. A SQLite database is read as the rows of its COIA `learnings` table.
 */
import { closeSync, openSync, readdirSync, readFileSync, readSync, statSync } from 'node:fs';
import type { Dirent } from 'node:fs';
import { basename, join } from 'node:path';
import { LoreError } from '../../core/errors.js';
import type { SourceFile } from '../../core/interop/interop-format.js';
import { openSqlite } from '../sqlite/sqlite.js';
import { firstNonUtf8Line, utf16Text } from '../fs/read-utf8.js';

const TEXT_FILE = /\.(?:ya?ml|json|jsonl|md|mdc)$/;
const SQLITE_FILE = /\.(?:db|sqlite3?)$/;
const SKIPPED_DIRS = new Set(['.git', 'node_modules', '.lore', 'dist', 'coverage']);
const MAX_DEPTH = 6;
const MAX_FILES = 20_000;
const MAX_FILE_BYTES = 32 * 1024 * 1024;

export type Sources = {
  files: SourceFile[];
  /** Modification date (YYYY-MM-DD) of each Markdown file, for entries that carry none. */
  fileDates: Record<string, string>;
  /** The directory the relative paths start from. */
  baseDir: string;
  /** PATH was one file (its path is its name). */
  single: boolean;
  /**
   * Each text file as it is on disk, for the export ledger: `files` hold it without a byte order
   * mark and with CRLF line ends made LF (a rule saved on Windows reads like any other).
   */
  raw: Record<string, string>;
  /**
   * Text files that are not UTF-8 (a Latin-1 rule), with the line of the first byte that is not:
   * read as UTF-8 they would import with U+FFFD in place of their letters, so they are skipped.
   */
  notUtf8: Record<string, number>;
};

export function readSources(path: string, shown: string): Sources {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) {
    throw new LoreError('usage', `${shown} does not exist`, {
      hint: 'pass a file or a directory such as .orbit/, .add/ or .cursor/rules/',
    });
  }
  const sources: Sources = {
    files: [],
    fileDates: {},
    baseDir: path,
    single: stat.isFile(),
    raw: {},
    notUtf8: {},
  };
  if (stat.isFile()) {
    sources.baseDir = join(path, '..');
    addFile(sources, path, basename(path), true);
    return sources;
  }
  walk(sources, path, '', 0);
  return sources;
}

function walk(sources: Sources, dir: string, prefix: string, depth: number): void {
  if (depth > MAX_DEPTH || sources.files.length >= MAX_FILES) return;
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const relative = `${prefix}${entry.name}`;
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRS.has(entry.name)) walk(sources, join(dir, entry.name), `${relative}/`, depth + 1);
    } else if (
      isFileOrLinkToOne(entry, dir) &&
      (TEXT_FILE.test(entry.name) || SQLITE_FILE.test(entry.name))
    ) {
      addFile(sources, join(dir, entry.name), relative, false);
    }
  }
}

/**
 * A file, or a link to one (a rule shared between repositories: `.cursor/rules/team.mdc ->
 * ../../shared/team.mdc`). A link to a folder is not followed: it could lead back up the tree.
 */
function isFileOrLinkToOne(entry: Dirent, dir: string): boolean {
  if (entry.isFile()) return true;
  return (
    entry.isSymbolicLink() && (statSync(join(dir, entry.name), { throwIfNoEntry: false })?.isFile() ?? false)
  );
}

function addFile(sources: Sources, absolute: string, relative: string, explicit: boolean): void {
  const stat = statSync(absolute);
  if (stat.size > MAX_FILE_BYTES) {
    if (explicit) throw new LoreError('usage', `${relative} is larger than 32 MB; not an export lore reads`);
    return;
  }
  if (SQLITE_FILE.test(relative) || isSqliteFile(absolute)) {
    const rows = readCoiaRows(absolute);
    if (rows !== undefined) sources.files.push({ path: relative, rows });
    else if (explicit)
      throw new LoreError('usage', `${relative} is a SQLite database without a COIA "learnings" table`, {
        hint: 'lore reads the learnings table of COIA (columns title, context, observation, implication, action)',
      });
    return;
  }
  const bytes = readFileSync(absolute);
  const wide = utf16Text(bytes);
  const text = wide ?? bytes.toString('utf8');
  const badLine = wide === undefined ? firstNonUtf8Line(bytes) : undefined;
  if (badLine !== undefined) sources.notUtf8[relative] = badLine;
  sources.raw[relative] = text;
  sources.files.push({ path: relative, text: withoutByteOrderMark(text).replaceAll('\r\n', '\n') });
  if (relative.endsWith('.md')) sources.fileDates[relative] = stat.mtime.toISOString().slice(0, 10);
}

export { firstNonUtf8Line };

/** The text without the byte order mark some Windows editors put first (JSON.parse refuses it). */
export function withoutByteOrderMark(text: string): string {
  return text.startsWith('\uFEFF') ? text.slice(1) : text;
}

function isSqliteFile(path: string): boolean {
  const header = Buffer.alloc(16);
  const fd = openSync(path, 'r');
  try {
    return readSync(fd, header, 0, 16, 0) === 16 && header.toString('latin1') === 'SQLite format 3\u0000';
  } finally {
    closeSync(fd);
  }
}

/** The rows of COIA's `learnings` table, or undefined when the database has none. */
export function readCoiaRows(path: string): Record<string, unknown>[] | undefined {
  let db;
  try {
    db = openSqlite(path);
  } catch {
    return undefined;
  }
  try {
    const columns = db
      .all<{ name: string }>("SELECT name FROM pragma_table_info('learnings')")
      .map((c) => c.name);
    if (!columns.includes('title') || !columns.includes('observation')) return undefined;
    return db.all<Record<string, unknown>>('SELECT * FROM learnings ORDER BY rowid');
  } catch {
    return undefined;
  } finally {
    db.close();
  }
}

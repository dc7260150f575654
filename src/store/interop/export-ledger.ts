/**
 * Which files `lore export --out` may overwrite: those whose content lore holds. The ledger
 * (`$LORE_HOME/cache/export-ledger.json`, per machine, keyed by absolute path) keeps a digest of
 * each file as lore last wrote it (an export) or read it whole into lessons (a clean import). A
 * file already there that matches neither, nor what the export writes now, is someone's work: a
 * teammate's Orbit learning under the id a lesson brought from another Orbit folder, a
 * hand-written Cursor rule with a lesson's slug, an ADD learnings.json with entries lore never
 * imported. Export refuses those unless forced, so nothing of theirs is lost without a word.
 *
 * It also remembers which lesson each file of a per-lesson format holds (`lessons`), so the next
 * export to that folder gives every lesson the id it had and a new one an id never used there, and
 * an import of that folder maps each file back to its lesson. Those entries are never dropped: a
 * deleted lesson's id stays used.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { LoreError } from '../../core/errors.js';
import { writeFileAtomic } from '../fs/fs-atomic.js';

export const EXPORT_LEDGER_FILE = 'export-ledger.json';

export type ExportLedger = {
  path: string;
  /** Absolute path to the sha256 of the content lore wrote or read whole. */
  files: Record<string, string>;
  /** Absolute path of an exported file to the `exportKey` (tier/id) of the lesson it holds. */
  lessons: Record<string, string>;
};

/** A file an export means to write: where, what, how to name it to the user, and its lesson. */
export type PlannedWrite = { path: string; text: string; shown: string; lesson?: string };

export type OverwriteRefusal = {
  shown: string;
  reason: 'not written by lore' | 'changed since lore wrote it';
};

export function contentDigest(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

export function exportLedgerPath(userCacheDir: string): string {
  return join(userCacheDir, EXPORT_LEDGER_FILE);
}

/** The ledger; missing or damaged reads as empty (every existing file is then refused once). */
export function readExportLedger(path: string): ExportLedger {
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as {
      version?: unknown;
      files?: unknown;
      lessons?: unknown;
    };
    if (parsed.version === 1 && typeof parsed.files === 'object' && parsed.files !== null) {
      const lessons = typeof parsed.lessons === 'object' && parsed.lessons !== null ? parsed.lessons : {};
      const strings = Object.entries(lessons).filter(([, key]) => typeof key === 'string');
      return {
        path,
        files: { ...(parsed.files as Record<string, string>) },
        lessons: Object.fromEntries(strings) as Record<string, string>,
      };
    }
  } catch {
    // missing or damaged
  }
  return { path, files: {}, lessons: {} };
}

/**
 * Remembers `files` as lore's (their content now) and forgets paths that no longer exist, so the
 * ledger does not grow with every folder ever exported to. Best effort: a ledger that cannot be
 * written costs a refusal (and `--force`) later, never a lost file.
 */
export function recordLoreFiles(
  ledger: ExportLedger,
  files: readonly { path: string; text: string; lesson?: string }[],
): void {
  const next: Record<string, string> = {};
  for (const [path, digest] of Object.entries(ledger.files))
    if (statSync(path, { throwIfNoEntry: false })?.isFile() ?? false) next[path] = digest;
  for (const file of files) next[file.path] = contentDigest(file.text);
  ledger.files = next;
  const lessons = { ...ledger.lessons };
  for (const file of files) {
    if (file.lesson === undefined) continue;
    // the lesson's file in another place of the same folder (an id it no longer has) is not its file
    for (const [path, key] of Object.entries(lessons))
      if (key === file.lesson && dirname(dirname(path)) === dirname(dirname(file.path))) lessons[path] = '';
    lessons[file.path] = file.lesson;
  }
  ledger.lessons = lessons;
  try {
    mkdirSync(dirname(ledger.path), { recursive: true });
    writeFileAtomic(ledger.path, `${JSON.stringify({ version: 1, files: next, lessons }, null, 1)}\n`);
  } catch {
    // see above
  }
}

/**
 * Whether an existing file may be replaced: it is absent, already holds `text`, or holds what
 * lore last wrote or read there (`recorded`). `ownFormat` recognises a file that is lore's by its
 * shape alone (lore's own JSON export).
 */
export function overwriteRefusal(
  current: string | undefined,
  next: PlannedWrite,
  recorded: string | undefined,
  ownFormat: (text: string) => boolean = () => false,
): OverwriteRefusal | undefined {
  if (current === undefined || current === next.text || ownFormat(current)) return undefined;
  const digest = contentDigest(current);
  if (digest === recorded) return undefined;
  return {
    shown: next.shown,
    reason: recorded === undefined ? 'not written by lore' : 'changed since lore wrote it',
  };
}

/**
 * Refuses the whole export, before anything is written, when it would replace files lore does not
 * hold; `force` overwrites them.
 */
export function guardOverwrites(
  writes: readonly PlannedWrite[],
  ledger: ExportLedger,
  options: { force: boolean; ownFormat?: (text: string) => boolean },
): void {
  if (options.force) return;
  const refused: OverwriteRefusal[] = [];
  for (const write of writes) {
    const refusal = overwriteRefusal(
      readIfFile(write.path),
      write,
      ledger.files[write.path],
      options.ownFormat,
    );
    if (refusal) refused.push(refusal);
  }
  if (refused.length === 0) return;
  throw new LoreError(
    'conflict',
    `the export would overwrite ${refused.length} file(s) it did not write, and wrote nothing:\n` +
      refused.map((item) => `  ${item.shown} (${item.reason})`).join('\n'),
    {
      hint: 'move them away (or import them first: `lore import PATH`), export to another --out, or pass --force to overwrite them',
      details: { refused },
    },
  );
}

function readIfFile(path: string): string | undefined {
  if (!(statSync(path, { throwIfNoEntry: false })?.isFile() ?? false)) return undefined;
  return readFileSync(path, 'utf8');
}

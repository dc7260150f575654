/**
 * The Orbit ids of an export, kept with the export: `learnings/.lore-ids.json` in the exported
 * folder holds, for each learning lore wrote there, the lesson it holds (`tier/id`) and the sha256
 * of each file as written. The per-machine ledger (export-ledger.ts) knew only this machine's
 * exports, so a teammate exporting the same repository's lessons to the same (committed) folder
 * gave every lesson a new id beside the old one; with the folder's own record every machine gives
 * a lesson the id it has there, overwrites only what lore wrote, and maps an import back. Entries
 * are never dropped: a deleted lesson's id stays used. Missing or damaged reads as empty.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { writeFileAtomic } from '../fs/fs-atomic.js';
import { contentDigest } from './export-ledger.js';
import type { ExportLedger } from './export-ledger.js';

export const FOLDER_LEDGER_FILE = '.lore-ids.json';

/** Orbit's learnings folder of an export to `outPath` (`.orbit` or `.orbit/learnings`). */
export function orbitLearningsDir(outPath: string): string {
  return basename(outPath) === 'learnings' ? resolve(outPath) : resolve(outPath, 'learnings');
}

type FolderLedger = {
  /** `L-0001/learning.yaml` to its sha256 as lore wrote it. */
  files: Record<string, string>;
  /** Orbit id to the `tier/id` of the lesson its learning holds ('' once it holds none). */
  lessons: Record<string, string>;
};

function readFolderLedger(dir: string): FolderLedger {
  try {
    const parsed = JSON.parse(readFileSync(join(dir, FOLDER_LEDGER_FILE), 'utf8')) as Record<string, unknown>;
    const strings = (value: unknown): Record<string, string> =>
      value !== null && typeof value === 'object' && !Array.isArray(value)
        ? Object.fromEntries(Object.entries(value).filter(([, v]) => typeof v === 'string'))
        : {};
    if (parsed.version === 1) return { files: strings(parsed.files), lessons: strings(parsed.lessons) };
  } catch {
    // missing or damaged: nothing remembered
  }
  return { files: {}, lessons: {} };
}

/**
 * The machine's ledger with what the folder `dir` records laid over it (absolute paths, as the
 * machine's ledger keys them): the folder's record is the one every exporter shares.
 */
export function withFolderLedger(ledger: ExportLedger, dir: string): ExportLedger {
  const folder = readFolderLedger(dir);
  const files = { ...ledger.files };
  for (const [path, digest] of Object.entries(folder.files)) files[join(dir, path)] = digest;
  const lessons = { ...ledger.lessons };
  for (const [id, lesson] of Object.entries(folder.lessons)) lessons[join(dir, id, 'learning.yaml')] = lesson;
  return { path: ledger.path, files, lessons };
}

/** The lesson (`tier/id`) each learning of the folder `dir` holds, by its learning file's absolute path. */
export function folderLessons(dir: string): Record<string, string> {
  return withFolderLedger({ path: '', files: {}, lessons: {} }, dir).lessons;
}

/** Records the files an export wrote under `dir` (and the lesson of each learning) in the folder. */
export function recordFolderLedger(
  dir: string,
  writes: readonly { path: string; text: string; lesson?: string }[],
): void {
  const ledger = readFolderLedger(dir);
  for (const write of writes) {
    const inside = relative(dir, write.path).split(sep).join('/');
    if (inside.startsWith('../') || !inside.includes('/')) continue;
    ledger.files[inside] = contentDigest(write.text);
    if (write.lesson === undefined) continue;
    const id = inside.split('/')[0]!;
    // the lesson's learning under another id (one it no longer has) holds it no more
    for (const [other, lesson] of Object.entries(ledger.lessons))
      if (lesson === write.lesson && other !== id) ledger.lessons[other] = '';
    ledger.lessons[id] = write.lesson;
  }
  const sorted = (record: Record<string, string>) =>
    Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  mkdirSync(dirname(join(dir, FOLDER_LEDGER_FILE)), { recursive: true });
  writeFileAtomic(
    join(dir, FOLDER_LEDGER_FILE),
    `${JSON.stringify({ version: 1, lessons: sorted(ledger.lessons), files: sorted(ledger.files) }, null, 1)}\n`,
  );
}

/**
 * The one interface every import/export format implements: files in, lesson records out (and
 * back). Pure: the store reads the files (and COIA's SQLite table) and writes what `render`
 * returns. A format never allocates lore ids: imported lessons carry a placeholder id, the store
 * gives each a real one when it writes it.
 */
import type { Problem } from '../errors.js';
import type { Lesson, Tier } from '../lesson/schema.js';
import type { Vote } from '../rank/votes.js';

export const INTEROP_FORMATS = ['orbit', 'lessons-learned', 'add', 'add-md', 'coia', 'cursor'] as const;
export type InteropFormatName = (typeof INTEROP_FORMATS)[number];

/** A file of the source, its path relative to what was imported (`learnings/L-0001/learning.yaml`). */
export type SourceFile = {
  path: string;
  /** The text; absent for a SQLite database, whose rows the store reads into `rows`. */
  text?: string;
  /** Rows of a SQLite table (COIA's `learnings`), column name to value. */
  rows?: readonly Record<string, unknown>[];
};

/** One imported lesson, valid, ready for the store to give an id and write. */
export type ImportedLesson = {
  /** `file` and the entry in it, for reports: `learnings.json entries[3] (L-004)`. */
  where: string;
  /** The source file it came from. */
  file: string;
  /** False when the source gave no creation time (the import time stands in for it). */
  dated: boolean;
  lesson: Lesson;
  votes: Vote[];
  /** Links to other lessons of the same import, by their ids in the source format. */
  links: { supersedes: string[]; supersededBy?: string };
};

export type ParseOptions = {
  /** When the import runs (ISO): the date of entries that carry none. */
  nowIso: string;
  /** Date (YYYY-MM-DD) for ADD markdown entries without one: the file's modification date. */
  fileDates?: Readonly<Record<string, string>>;
  /** The user named this one file and its format (`--from`): read it whatever its name. */
  explicit?: boolean;
};

/** A broken entry is a problem and no lesson; the other entries still import. */
export type ParsedSource = { lessons: ImportedLesson[]; problems: Problem[] };

/** A lesson as export hands it to a format: the record and its votes. */
export type ExportLesson = Lesson & { votes: Vote[] };

export type RenderOptions = {
  nowIso: string;
  /** Name of the repository, for formats that record a project (ADD). */
  projectName: string;
  /**
   * The ids earlier exports to the same folder gave lessons (`exportKey` to id) and every id that
   * folder has used, so a lesson keeps its id and a new one never takes an old one's (Orbit).
   */
  remembered?: RememberedIds;
};

export type RememberedIds = { ids: ReadonlyMap<string, string>; taken: ReadonlySet<string> };

/** A lesson as export remembers it between exports: its tier and lore id. */
export function exportKey(lesson: { tier: string; id: string }): string {
  return `${lesson.tier}/${lesson.id}`;
}

/** `lesson`: the `exportKey` of the lesson a file holds, for formats with a file per lesson. */
export type RenderedFile = { path: string; text: string; lesson?: string };

/** What an export wrote and what it had to leave out. */
export type Rendered = { files: RenderedFile[]; skipped: { id: string; reason: string }[] };

/**
 * Whether a format's parser reads `file`: any file with text or rows when the user named the file
 * and the format (`--from`), else only the files the format claims.
 */
export function readsFile(
  format: Pick<InteropFormat, 'claims'>,
  file: SourceFile,
  options: ParseOptions,
): boolean {
  return options.explicit === true ? file.text !== undefined || file.rows !== undefined : format.claims(file);
}

export type InteropFormat = {
  name: InteropFormatName;
  /** One line for help and the README. */
  title: string;
  /** The lore fields this format can carry: an import of an export keeps each of them. */
  carries: readonly (keyof Lesson)[];
  /** True when this format reads the file: decided by name and shape, never by `--from`. */
  claims(file: SourceFile): boolean;
  parse(files: readonly SourceFile[], options: ParseOptions): ParsedSource;
  render(lessons: readonly ExportLesson[], options: RenderOptions): Rendered;
};

export type { Tier };

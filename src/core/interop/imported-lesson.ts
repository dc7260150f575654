/**
 * Turns what a format read into a valid lesson record, or into problems: an entry is either
 * imported whole or not at all. Fields lore cannot hold as they are (a summary too long for one
 * line, tags with spaces) are fitted, and the original goes to `origin.fields` so an export back
 * to the same format gives it unchanged.
 */
import type { Problem } from '../errors.js';
import { slugify } from '../lesson/lesson-id.js';
import { LessonSchema, SCHEMA_VERSION, SLUG_PATTERN, SUMMARY_MAX } from '../lesson/schema.js';
import { withoutInvisible } from '../lesson/constants.js';
import type { Lesson } from '../lesson/schema.js';
import type { Vote } from '../rank/votes.js';
import type { ImportedLesson } from './interop-format.js';

/** Imported lessons carry this id until the store allocates theirs. */
export const PLACEHOLDER_ID = '0000000000';

/** Every lesson field a format may set (Omit would lose them: the record type is loose). */
type DraftKey =
  | 'slug'
  | 'body'
  | 'mistake'
  | 'remediation'
  | 'context'
  | 'observation'
  | 'implication'
  | 'action'
  | 'tools'
  | 'commands'
  | 'paths'
  | 'contents'
  | 'errors'
  | 'tags'
  | 'stack'
  | 'symbols'
  | 'category'
  | 'severity'
  | 'type'
  | 'tier'
  | 'priority'
  | 'confidence'
  | 'needsReview'
  | 'status'
  | 'evidence'
  | 'sourceSessions'
  | 'occurrences'
  | 'contentHash'
  | 'aliases'
  | 'createdAt'
  | 'createdBy'
  | 'updatedAt';

export type LessonDraftFields = Partial<Pick<Lesson, DraftKey>> & { summary: string };

export type ImportDraft = {
  file: string;
  /** The entry inside the file: `entries[3] (L-004)`. */
  entry: string;
  fields: LessonDraftFields;
  origin: { format: string; id?: string; fields: Record<string, unknown> };
  votes?: Vote[];
  links?: ImportedLesson['links'];
  nowIso: string;
};

export type ImportResult = { ok: true; imported: ImportedLesson } | { ok: false; problems: Problem[] };

const TEXT_FIELDS = [
  'body',
  'mistake',
  'remediation',
  'context',
  'observation',
  'implication',
  'action',
  'createdBy',
] as const;

export function createImportedLesson(draft: ImportDraft): ImportResult {
  const where = `${draft.file} ${draft.entry}`;
  const originFields: Record<string, unknown> = { ...draft.origin.fields };
  const record: Record<string, unknown> = { ...draft.fields };
  for (const key of TEXT_FIELDS) {
    const value = record[key];
    if (typeof value === 'string' && value.trim() === '') delete record[key];
  }

  const summary = fitSummary(draft.fields.summary);
  if (summary === '') {
    return {
      ok: false,
      problems: [problem(draft, 'summary', 'has no title or summary; skipped')],
    };
  }
  if (summary !== draft.fields.summary) originFields.summary ??= draft.fields.summary;
  record.summary = summary;

  if (draft.fields.tags) {
    const tags = fitTags(draft.fields.tags);
    if (tags.join('\n') !== draft.fields.tags.join('\n')) originFields.tags ??= draft.fields.tags;
    record.tags = tags;
  }
  if (draft.origin.id !== undefined && !isSafeSourceId(draft.origin.id)) {
    return {
      ok: false,
      problems: [
        problem(
          draft,
          'id',
          `${JSON.stringify(draft.origin.id)} cannot be a file name (a path separator, "..", a control character or over ${MAX_NAME_BYTES} bytes); entry skipped`,
        ),
      ],
    };
  }
  const slug = typeof record.slug === 'string' && SLUG_PATTERN.test(record.slug) ? record.slug : undefined;
  const createdAt = draft.fields.createdAt ?? draft.nowIso;
  const parsed = LessonSchema.safeParse({
    schemaVersion: SCHEMA_VERSION,
    id: PLACEHOLDER_ID,
    ...record,
    slug: (slug ?? slugify(summary)) || 'lesson',
    createdAt,
    updatedAt: draft.fields.updatedAt ?? createdAt,
    ...(draft.origin.id === undefined ? {} : { aliases: draft.fields.aliases ?? [draft.origin.id] }),
    origin: {
      format: draft.origin.format,
      ...(draft.origin.id === undefined ? {} : { id: draft.origin.id }),
      ...(Object.keys(originFields).length === 0 ? {} : { fields: originFields }),
    },
  });
  if (!parsed.success) {
    return {
      ok: false,
      problems: parsed.error.issues.map((issue) =>
        problem(draft, issue.path.join('.'), `${issue.message}; entry skipped`),
      ),
    };
  }
  return {
    ok: true,
    imported: {
      where,
      file: draft.file,
      dated: draft.fields.createdAt !== undefined,
      lesson: parsed.data,
      votes: draft.votes ?? [],
      links: draft.links ?? { supersedes: [] },
    },
  };
}

function problem(draft: ImportDraft, field: string, message: string): Problem {
  return {
    file: draft.file,
    field: field === '' ? draft.entry : `${draft.entry}: ${field}`,
    message,
    severity: 'error',
  };
}

/** One line of at most SUMMARY_MAX characters: whitespace collapsed, cut at a word with an ellipsis. */
export function fitSummary(text: string): string {
  const line = withoutInvisible(text).replace(/\s+/g, ' ').trim();
  if (line.length <= SUMMARY_MAX) return line;
  const cut = line.slice(0, SUMMARY_MAX - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > SUMMARY_MAX / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** lore tags have no spaces or commas and are lowercase: `Error Handling` becomes `error-handling`. */
export function fitTags(tags: readonly string[]): string[] {
  const out: string[] = [];
  for (const tag of tags) {
    const fitted = tag
      .trim()
      .toLowerCase()
      .replace(/[\s,]+/g, '-')
      .slice(0, 80);
    if (fitted !== '' && !out.includes(fitted)) out.push(fitted);
  }
  return out;
}

/** The summary as the source had it, when the import had to fit it and it was not edited since. */
export function restoreSummary(lesson: Lesson, formats: readonly string[]): string {
  const original = originFields(lesson, formats).summary;
  return typeof original === 'string' && fitSummary(original) === lesson.summary ? original : lesson.summary;
}

/** The tags as the source had them, when the import had to fit them and they were not edited since. */
export function restoreTags(lesson: Lesson, formats: readonly string[]): string[] {
  const original = originFields(lesson, formats).tags;
  return Array.isArray(original) &&
    original.every((tag) => typeof tag === 'string') &&
    fitTags(original as string[]).join('\n') === lesson.tags.join('\n')
    ? (original as string[])
    : lesson.tags;
}

/** The `origin.fields` of a lesson that came from one of `formats`, else an empty object. */
export function originFields(lesson: Lesson, formats: readonly string[]): Record<string, unknown> {
  return lesson.origin && formats.includes(lesson.origin.format) ? { ...(lesson.origin.fields ?? {}) } : {};
}

/**
 * The id a lesson had in one of `formats`, if it came from there. Only a safe file name: Orbit and
 * Cursor name files after it, and a lesson imported before import refused the others (or from a
 * hand-edited lore JSON file) must not steer an export out of its folder; it gets a fresh id.
 */
export function originId(lesson: Lesson, formats: readonly string[]): string | undefined {
  const id = lesson.origin && formats.includes(lesson.origin.format) ? lesson.origin.id : undefined;
  return id !== undefined && isSafeSourceId(id) ? id : undefined;
}

/** The most bytes a file name may have on common file systems (ext4, APFS, NTFS in UTF-16 units). */
const MAX_NAME_BYTES = 255;

/**
 * Whether a source id can name a file or folder inside an export's `--out` as it is: one path
 * segment, no separator, not `.` or `..`, no control character, not too long. An Orbit learning's
 * `id: ../../x` would otherwise be written outside the folder on export.
 */
export function isSafeSourceId(id: string): boolean {
  return (
    id !== '' &&
    id !== '.' &&
    id !== '..' &&
    !/[/\\]/.test(id) &&
    ![...id].some((char) => (char.codePointAt(0) ?? 0) < 0x20 || char === '\u007f') &&
    new TextEncoder().encode(id).length <= MAX_NAME_BYTES
  );
}

/** ISO time of a `YYYY-MM-DD` date, midnight UTC; undefined when it is not one. */
export function isoOfDate(date: unknown): string | undefined {
  if (typeof date !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(date)) return undefined;
  return Number.isNaN(Date.parse(`${date}T00:00:00Z`)) ? undefined : `${date}T00:00:00Z`;
}

/**
 * ADD (Agent-Driven Development) learnings: `.add/learnings.json` (project) and
 * `~/.claude/add/library.json` (workstation), `{$schema, version, project, entries: [...]}`
 * (MountainUnicorn/add: the "Learning Entry Schema" of its learning rule and reference).
 *
 *   ADD entry                                  lore
 *   id L-NNN / WL-NNN                          origin.id, aliases (`lore show L-001` finds it)
 *   title, body                                summary, body
 *   stack, category, severity                  stack, category, severity (unknown categories kept)
 *   date YYYY-MM-DD                            createdAt, updatedAt (midnight UTC)
 *   archived: true                             status archived
 *   scope project | workstation | universal    tier project | user (and kept)
 *   source, classified_by, checkpoint_type     kept in origin.fields
 */
import type { Problem } from '../errors.js';
import { CATEGORIES, SEVERITIES } from '../lesson/schema.js';
import type { Category, Lesson, LessonSeverity, Tier } from '../lesson/schema.js';
import { createImportedLesson, isoOfDate, originFields, restoreSummary } from './imported-lesson.js';
import type { ImportDraft } from './imported-lesson.js';
import type {
  ExportLesson,
  ImportedLesson,
  InteropFormat,
  ParsedSource,
  ParseOptions,
  Rendered,
  RenderOptions,
  SourceFile,
} from './interop-format.js';
import { readsFile } from './interop-format.js';
import { assignNumberedIds } from './numbered-id.js';
import {
  collectEntries,
  fieldIssueProblems,
  isRecord,
  readFields,
  readJson,
  readJsonList,
  stringList,
  unmappedFields,
} from './record-shape.js';
import type { FieldIssue } from './record-shape.js';

/** Lessons from ADD's JSON and from its Markdown share ids and fields. */
export const ADD_FORMATS = ['add', 'add-md'];
export const ADD_SCHEMA_URL = 'https://github.com/MountainUnicorn/add/learnings.schema.json';
const ENTRY_ID = /^W?L-\d+$/;
const MAPPED_KEYS = new Set(['id', 'title', 'body', 'stack', 'category', 'severity', 'date', 'archived']);
export const ADD_DEFAULT_KEYS = [
  'id',
  'title',
  'body',
  'scope',
  'stack',
  'category',
  'severity',
  'source',
  'date',
  'classified_by',
  'checkpoint_type',
] as const;

export const addFormat: InteropFormat = {
  name: 'add',
  title: 'ADD learnings: .add/learnings.json and ~/.claude/add/library.json',
  carries: ['summary', 'body', 'stack', 'category', 'severity', 'status', 'tier', 'aliases'],
  claims: (file) => file.path.endsWith('.json') && entryList(readJson(file.text)) !== undefined,
  parse: parseAdd,
  render: renderAdd,
};

function entryList(document: unknown): unknown[] | undefined {
  if (!isRecord(document) || !Array.isArray(document.entries)) return undefined;
  if (typeof document.$schema === 'string' && document.$schema.includes('learnings.schema'))
    return document.entries;
  const first = document.entries.find(isRecord);
  return first === undefined || (typeof first.id === 'string' && ENTRY_ID.test(first.id) && 'title' in first)
    ? document.entries
    : undefined;
}

/** library.* holds workstation learnings; anything else the project's. */
export function isLibraryFile(path: string): boolean {
  return /(?:^|\/)library(?:-active)?\.(?:json|md)$/.test(path);
}

function parseAdd(files: readonly SourceFile[], options: ParseOptions): ParsedSource {
  const lessons: ImportedLesson[] = [];
  const problems: Problem[] = [];
  for (const file of files) {
    if (!readsFile(addFormat, file, options)) continue;
    const source = readJsonList(
      file,
      entryList,
      'entries',
      'not ADD learnings ({"entries": [...]} expected)',
      problems,
    );
    if (source === undefined) continue;
    const { list, wrapper } = source;
    collectEntries(
      file.path,
      list,
      { label: (index) => `entries[${index}]`, noun: 'a learning entry' },
      (entry, label) => {
        const id = typeof entry.id === 'string' ? entry.id : undefined;
        const where = id === undefined ? label : `${label} (${id})`;
        const extra = unmappedFields(entry, MAPPED_KEYS);
        const issues: FieldIssue[] = [];
        const stack = readFields(entry, issues).stringList('stack');
        if (issues.length > 0) return { ok: false, problems: fieldIssueProblems(file.path, where, issues) };
        return createAddLesson({
          file: file.path,
          entry: where,
          id,
          title: typeof entry.title === 'string' ? entry.title : '',
          body: typeof entry.body === 'string' ? entry.body : undefined,
          stack,
          category: entry.category,
          severity: entry.severity,
          date: entry.date,
          archived: entry.archived,
          extra,
          keys: Object.keys(entry),
          wrapper,
          library: isLibraryFile(file.path),
          format: 'add',
          nowIso: options.nowIso,
        });
      },
      { lessons, problems },
    );
  }
  return { lessons, problems };
}

export type AddEntry = {
  file: string;
  entry: string;
  id: string | undefined;
  title: string;
  body: string | undefined;
  stack: string[];
  category: unknown;
  severity: unknown;
  date: unknown;
  archived: unknown;
  /** The entry's other keys (scope, source, classified_by, checkpoint_type, ...). */
  extra: Record<string, unknown>;
  keys?: string[];
  wrapper?: Record<string, unknown>;
  library: boolean;
  format: 'add' | 'add-md';
  nowIso: string;
};

/** One ADD entry, from the JSON or the Markdown, as a lesson. */
export function createAddLesson(entry: AddEntry): ReturnType<typeof createImportedLesson> {
  const fields: Record<string, unknown> = { extra: entry.extra };
  if (entry.keys) fields.keys = entry.keys;
  if (entry.wrapper) fields.wrapper = entry.wrapper;
  fields.file = entry.library ? 'library' : 'learnings';
  const category = (CATEGORIES as readonly unknown[]).includes(entry.category)
    ? (entry.category as Category)
    : undefined;
  if (entry.category !== undefined && category === undefined) fields.category = entry.category;
  const severity = (SEVERITIES as readonly unknown[]).includes(entry.severity)
    ? (entry.severity as LessonSeverity)
    : undefined;
  if (entry.severity !== undefined && severity === undefined) fields.severity = entry.severity;
  const createdAt = isoOfDate(entry.date);
  if (entry.date !== undefined && createdAt === undefined) fields.date = entry.date;
  if (entry.archived !== undefined && typeof entry.archived !== 'boolean') fields.archived = entry.archived;
  const scope = entry.extra.scope;
  const tier: Tier =
    scope === 'workstation' || scope === 'universal'
      ? 'user'
      : scope === 'project'
        ? 'project'
        : entry.library
          ? 'user'
          : 'project';
  const draft: ImportDraft = {
    file: entry.file,
    entry: entry.entry,
    nowIso: entry.nowIso,
    fields: {
      summary: entry.title,
      ...(entry.body === undefined ? {} : { body: entry.body }),
      stack: entry.stack,
      ...(category === undefined ? {} : { category }),
      ...(severity === undefined ? {} : { severity }),
      ...(createdAt === undefined ? {} : { createdAt, updatedAt: createdAt }),
      status: entry.archived === true ? 'archived' : 'active',
      tier,
    },
    origin: { format: entry.format, ...(entry.id === undefined ? {} : { id: entry.id }), fields },
  };
  return createImportedLesson(draft);
}

/** ADD ids: the one a lesson came with, else the next free L-NNN (project) or WL-NNN (user). */
export function assignAddIds(lessons: readonly Lesson[]): Map<string, string> {
  return assignNumberedIds(lessons, ADD_FORMATS, (lesson) => (lesson.tier === 'user' ? 'WL-' : 'L-'), 3);
}

/** The ADD entry of a lesson: lore's values, the rest as the source had it (or ADD's defaults). */
export function toAddEntry(lesson: Lesson, id: string, options: RenderOptions): Record<string, unknown> {
  const fields = originFields(lesson, ADD_FORMATS);
  const extra = isRecord(fields.extra) ? fields.extra : {};
  const values: Record<string, unknown> = {
    id,
    title: restoreSummary(lesson, ADD_FORMATS),
    body: lesson.body ?? '',
    scope: lesson.tier === 'user' ? 'workstation' : 'project',
    stack: lesson.stack,
    category: fields.category ?? lesson.category,
    severity: fields.severity ?? lesson.severity,
    source: lesson.tier === 'user' ? '_workstation' : options.projectName,
    date: fields.date ?? lesson.createdAt.slice(0, 10),
    classified_by: 'agent',
    checkpoint_type: 'retro',
    ...extra,
  };
  const keys = stringList(fields.keys);
  if (lesson.status !== 'active') values.archived = fields.archived ?? true;
  else if (keys.includes('archived')) values.archived = fields.archived ?? false;
  // An entry that came from ADD keeps its keys and their order; others get ADD's full set.
  const order =
    keys.length > 0 ? [...keys, 'archived'] : [...ADD_DEFAULT_KEYS, ...Object.keys(extra), 'archived'];
  const record: Record<string, unknown> = {};
  for (const key of order) if (key in values && !(key in record)) record[key] = values[key];
  return record;
}

function renderAdd(lessons: readonly ExportLesson[], options: RenderOptions): Rendered {
  const ids = assignAddIds(lessons);
  const files: Rendered['files'] = [];
  for (const [name, tier] of [
    ['learnings.json', 'project'],
    ['library.json', 'user'],
  ] as const) {
    const group = lessons.filter((lesson) => lesson.tier === tier);
    if (group.length === 0) continue;
    const wrapper = group.map((lesson) => originFields(lesson, ['add']).wrapper).find(isRecord) ?? {
      $schema: ADD_SCHEMA_URL,
      version: '1.0.0',
      project: tier === 'user' ? '_workstation' : options.projectName,
    };
    // ADD numbers its entries as it appends them: that number is the file's order.
    const number = (lesson: Lesson) => Number(/\d+$/.exec(ids.get(lesson.id) ?? '')?.[0] ?? 0);
    const entries = [...group]
      .sort((a, b) => number(a) - number(b))
      .map((lesson) => toAddEntry(lesson, ids.get(lesson.id) ?? lesson.id, options));
    files.push({ path: name, text: `${JSON.stringify({ ...wrapper, entries }, null, 2)}\n` });
  }
  return { files, skipped: [] };
}

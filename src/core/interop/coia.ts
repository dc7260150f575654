/**
 * COIA learnings (Context, Observation, Implication, Action): the `learnings` table of the
 * Persistent Learnings Layer (RhysEJF/virtual_rf, docs/learnings/DESIGN.md) as a JSON export (an
 * array of rows, or `{learnings: [...]}`) or read straight from its SQLite database. The earlier
 * shape with one `content` Markdown field (`**Context**: ...`) is read too.
 *
 *   COIA                                   lore
 *   title                                  summary
 *   context, observation, implication, action   the same
 *   tags (array or JSON text)              tags
 *   confidence                             confidence
 *   created_at, updated_at (epoch ms)      createdAt, updatedAt
 *   status active|archived|superseded      status (superseded_by linked within the import)
 *   source_task_id                         evidence {kind: task}
 *   id                                     origin.id, aliases
 * The rest (source_outcome_id, domain, pattern_type, times_*, ...) is kept in origin.fields.
 */
import type { Problem } from '../errors.js';
import type { Lesson } from '../lesson/schema.js';
import {
  createImportedLesson,
  originFields,
  originId,
  restoreSummary,
  restoreTags,
} from './imported-lesson.js';
import type {
  ExportLesson,
  ImportedLesson,
  InteropFormat,
  ParsedSource,
  ParseOptions,
  Rendered,
  SourceFile,
} from './interop-format.js';
import { readsFile } from './interop-format.js';
import { collectEntries, isRecord, readJson, stringList, unmappedFields } from './record-shape.js';

const FORMATS = ['coia'];
const COIA_KEYS = ['context', 'observation', 'implication', 'action'] as const;
const MAPPED_KEYS = new Set<string>([
  'id',
  'title',
  ...COIA_KEYS,
  'tags',
  'confidence',
  'created_at',
  'updated_at',
  'status',
  'superseded_by',
  'source_task_id',
]);

/** The columns of COIA's `learnings` table, in its order. */
export const COIA_COLUMNS = [
  'id',
  'title',
  'context',
  'observation',
  'implication',
  'action',
  'source_outcome_id',
  'source_task_id',
  'source_discovery_id',
  'tags',
  'domain',
  'pattern_type',
  'confidence',
  'times_injected',
  'times_helpful',
  'times_not_helpful',
  'created_at',
  'updated_at',
  'last_injected_at',
  'last_helpful_at',
  'status',
  'superseded_by',
] as const;

/** The table as COIA creates it (without its foreign key to an `outcomes` table lore has not). */
export const COIA_TABLE_SQL = `CREATE TABLE IF NOT EXISTS learnings (
  id TEXT PRIMARY KEY,
  title TEXT NOT NULL,
  context TEXT NOT NULL,
  observation TEXT NOT NULL,
  implication TEXT NOT NULL,
  action TEXT NOT NULL,
  source_outcome_id TEXT NOT NULL,
  source_task_id TEXT NOT NULL,
  source_discovery_id TEXT,
  tags TEXT DEFAULT '[]',
  domain TEXT,
  pattern_type TEXT,
  confidence REAL DEFAULT 0.5,
  times_injected INTEGER DEFAULT 0,
  times_helpful INTEGER DEFAULT 0,
  times_not_helpful INTEGER DEFAULT 0,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  last_injected_at INTEGER,
  last_helpful_at INTEGER,
  status TEXT DEFAULT 'active',
  superseded_by TEXT
)`;

export const coiaFormat: InteropFormat = {
  name: 'coia',
  title: 'COIA learnings: a JSON export or the learnings table of their SQLite database',
  carries: [
    'summary',
    'context',
    'observation',
    'implication',
    'action',
    'tags',
    'confidence',
    'status',
    'createdAt',
    'updatedAt',
  ],
  claims: (file) =>
    file.rows !== undefined
      ? true
      : file.path.endsWith('.json') && rowList(readJson(file.text)) !== undefined,
  parse: parseCoia,
  render: renderCoia,
};

function rowList(document: unknown): unknown[] | undefined {
  const list = Array.isArray(document) ? document : isRecord(document) ? document.learnings : undefined;
  if (!Array.isArray(list)) return undefined;
  const first = list.find(isRecord);
  if (first === undefined) return undefined;
  const coia = COIA_KEYS.filter((key) => typeof first[key] === 'string').length;
  return coia >= 2 || first.format === 'COIA' ? list : undefined;
}

function parseCoia(files: readonly SourceFile[], options: ParseOptions): ParsedSource {
  const lessons: ImportedLesson[] = [];
  const problems: Problem[] = [];
  for (const file of files) {
    if (!readsFile(coiaFormat, file, options)) continue;
    const rows = file.rows ?? rowList(readJson(file.text));
    if (rows === undefined) {
      problems.push({
        file: file.path,
        message: 'not COIA learnings (a list of learning objects expected); skipped',
        severity: 'error',
      });
      continue;
    }
    const table = file.rows !== undefined;
    collectEntries(
      file.path,
      rows,
      {
        label: (index) => (table ? `learnings row ${index + 1}` : `[${index}]`),
        noun: 'a learning object',
      },
      (row, label) => toImported(file.path, label, row, table, options.nowIso),
      { lessons, problems },
    );
  }
  return { lessons, problems };
}

function toImported(
  path: string,
  label: string,
  row: Record<string, unknown>,
  table: boolean,
  nowIso: string,
) {
  const id = typeof row.id === 'string' && row.id !== '' ? row.id : undefined;
  const extra = unmappedFields(row, MAPPED_KEYS);
  const fields: Record<string, unknown> = { keys: Object.keys(row) };
  if (Object.keys(extra).length > 0) fields.extra = extra;
  const fromContent = typeof row.content === 'string' ? readCoiaMarkdown(row.content) : {};
  const text = (key: string): string | undefined =>
    typeof row[key] === 'string'
      ? (row[key] as string)
      : (fromContent as Record<string, string | undefined>)[key];
  let tags: string[] = stringList(row.tags);
  if (typeof row.tags === 'string') {
    const parsed = readJson(row.tags);
    tags = stringList(parsed);
    if (!Array.isArray(parsed)) fields.tags = row.tags;
  }
  const created = timeOf(row.created_at);
  const updated = timeOf(row.updated_at);
  if (row.created_at !== undefined && created === undefined) fields.created_at = row.created_at;
  if (row.updated_at !== undefined && updated === undefined) fields.updated_at = row.updated_at;
  if (typeof row.created_at === 'string' && created !== undefined) fields.timeText = true;
  const status = row.status === 'archived' || row.status === 'superseded' ? row.status : 'active';
  if (row.status !== undefined && row.status !== null && status !== row.status) fields.status = row.status;
  const task =
    typeof row.source_task_id === 'string' && row.source_task_id !== '' ? row.source_task_id : undefined;
  if (row.source_task_id !== undefined && task === undefined) fields.source_task_id = row.source_task_id;
  if (table) fields.table = true;
  if (row.superseded_by !== undefined) fields.superseded_by = row.superseded_by;
  return createImportedLesson({
    file: path,
    entry: id === undefined ? label : `${label} (${id})`,
    nowIso,
    fields: {
      summary: text('title') ?? '',
      ...Object.fromEntries(COIA_KEYS.flatMap((key) => (text(key) === undefined ? [] : [[key, text(key)]]))),
      tags,
      ...(typeof row.confidence === 'number' ? { confidence: row.confidence } : {}),
      ...(created === undefined ? {} : { createdAt: created }),
      ...(updated === undefined ? {} : { updatedAt: updated }),
      status,
      evidence: task === undefined ? [] : [{ kind: 'task', ref: task }],
    },
    origin: { format: 'coia', ...(id === undefined ? {} : { id }), fields },
    links: {
      supersedes: [],
      ...(typeof row.superseded_by === 'string' && row.superseded_by !== ''
        ? { supersededBy: row.superseded_by }
        : {}),
    },
  });
}

/** `### date - title` and `**Context**: ...` lines of COIA's Markdown form. */
function readCoiaMarkdown(content: string): Partial<Record<'title' | (typeof COIA_KEYS)[number], string>> {
  const out: Partial<Record<'title' | (typeof COIA_KEYS)[number], string>> = {};
  const title = /^###\s+(?:\[?[\d-]+\]?\s*-\s*)?(.+?)(?:\s+\[confidence:.*\])?\s*$/m.exec(content)?.[1];
  if (title !== undefined) out.title = title;
  for (const key of COIA_KEYS) {
    const label = key.charAt(0).toUpperCase() + key.slice(1);
    const value = new RegExp(`^\\*\\*${label}\\*\\*:\\s*(.+)$`, 'm').exec(content)?.[1];
    if (value !== undefined) out[key] = value.trim();
  }
  return out;
}

function timeOf(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return new Date(value).toISOString();
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(value) && !Number.isNaN(Date.parse(value)))
    return value;
  return undefined;
}

/**
 * The COIA row of a lesson; `tags` stays a list (the SQLite writer stores it as JSON text). A row
 * keeps the keys its source had, unless `allColumns` (a table row needs every column).
 */
export function toCoiaRow(
  lesson: Lesson,
  ids: ReadonlyMap<string, string>,
  allColumns = false,
): Record<string, unknown> {
  const fields = originFields(lesson, FORMATS);
  const extra = isRecord(fields.extra) ? fields.extra : {};
  const task = lesson.evidence.find((evidence) => evidence.kind === 'task')?.ref;
  const foreign = lesson.origin?.format !== 'coia';
  const time = (iso: string, key: string) =>
    fields[key] !== undefined ? fields[key] : fields.timeText === true ? iso : Date.parse(iso);
  const values: Record<string, unknown> = {
    id: ids.get(lesson.id) ?? lesson.id,
    title: restoreSummary(lesson, FORMATS),
    context: lesson.context ?? '',
    observation: lesson.observation ?? (foreign ? (lesson.mistake ?? lesson.body ?? '') : ''),
    implication: lesson.implication ?? '',
    action: lesson.action ?? (foreign ? (lesson.remediation ?? '') : ''),
    source_outcome_id: '',
    source_task_id: task ?? fields.source_task_id ?? '',
    source_discovery_id: null,
    tags: fields.tags ?? restoreTags(lesson, FORMATS),
    domain: lesson.category,
    pattern_type: lesson.category === 'anti-pattern' ? 'gotcha' : 'best-practice',
    confidence: lesson.confidence,
    times_injected: 0,
    times_helpful: 0,
    times_not_helpful: 0,
    created_at: time(lesson.createdAt, 'created_at'),
    updated_at: time(lesson.updatedAt, 'updated_at'),
    last_injected_at: null,
    last_helpful_at: null,
    status: fields.status ?? lesson.status,
    superseded_by:
      (lesson.supersededBy === undefined ? undefined : ids.get(lesson.supersededBy)) ??
      fields.superseded_by ??
      null,
    ...extra,
  };
  const keys = stringList(fields.keys);
  const order = keys.length > 0 && !allColumns ? keys : [...COIA_COLUMNS, ...keys];
  const row: Record<string, unknown> = {};
  for (const key of order) if (key in values) row[key] = values[key];
  return row;
}

/** COIA ids: the one a lesson came with, else `learn_<lore id>`. */
export function assignCoiaIds(lessons: readonly Lesson[]): Map<string, string> {
  return new Map(lessons.map((lesson) => [lesson.id, originId(lesson, FORMATS) ?? `learn_${lesson.id}`]));
}

function renderCoia(lessons: readonly ExportLesson[]): Rendered {
  const ids = assignCoiaIds(lessons);
  const rows = [...lessons]
    .sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt) || (a.id < b.id ? -1 : 1))
    .map((lesson) => toCoiaRow(lesson, ids));
  return { files: [{ path: 'learnings.json', text: `${JSON.stringify(rows, null, 2)}\n` }], skipped: [] };
}

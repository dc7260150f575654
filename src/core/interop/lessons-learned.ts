/**
 * lessons-learned's lesson store: `data/lessons.json`, `{type: "lessons-learned-store", version: 1,
 * lessons: [...]}` (joeblackwaslike/lessons-learned: the design's "Lesson Store" schema, and the
 * later flat row shape of docs/reference/schemas.md, both read).
 *
 *   lessons-learned                              lore
 *   summary, mistake|problem, remediation|solution   summary, mistake, remediation
 *   triggers.toolNames/commandPatterns/pathPatterns  tools, commands, paths (also read flat)
 *   triggers.contentPatterns                     contents (regexes over what an Edit/Write writes)
 *   priority, confidence, needsReview, tags      the same
 *   sourceSessionIds, occurrenceCount, contentHash   sourceSessions, occurrences, contentHash
 *   status candidate|reviewed|active|disabled|archived   active (+needsReview) | archived
 *   type hint|guard|directive|protocol           hint | guard (directive, protocol: hint)
 *   type hint + loreType checkpoint              checkpoint (lessons-learned has no such type: a
 *                                                checkpoint goes out as its closest, a hint, and
 *                                                `loreType` brings it back on import)
 *   loreErrors                                   errors (lessons-learned cannot wait for an
 *                                                error: the list goes out beside the triggers
 *                                                and comes back on import)
 *   id (ULID), slug                              origin.id + aliases, slug
 * Every other key (injection, scope, requires, ...) is kept in origin.fields, with
 * the key order, so an export back gives the same record.
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
import {
  collectEntries,
  fieldIssueProblems,
  isRecord,
  readJson,
  readJsonList,
  readFields,
  stringList,
  unmappedFields,
} from './record-shape.js';
import type { FieldIssue } from './record-shape.js';

const FORMATS = ['lessons-learned'];
export const LESSONS_LEARNED_TYPE = 'lessons-learned-store';
const TRIGGER_KEYS = ['toolNames', 'commandPatterns', 'pathPatterns', 'contentPatterns'] as const;
const MAPPED_KEYS = new Set<string>([
  'id',
  'slug',
  'summary',
  'mistake',
  'problem',
  'remediation',
  'solution',
  'triggers',
  ...TRIGGER_KEYS,
  'priority',
  'confidence',
  'needsReview',
  'tags',
  'sourceSessionIds',
  'occurrenceCount',
  'contentHash',
  'createdAt',
  'updatedAt',
  'status',
  'type',
  'loreType',
  'loreErrors',
]);
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

export const lessonsLearnedFormat: InteropFormat = {
  name: 'lessons-learned',
  title: 'lessons-learned lesson store: data/lessons.json',
  carries: [
    'summary',
    'mistake',
    'remediation',
    'tools',
    'commands',
    'paths',
    'contents',
    'errors',
    'tags',
    'priority',
    'confidence',
    'needsReview',
    'sourceSessions',
    'occurrences',
    'contentHash',
    'type',
    'createdAt',
    'updatedAt',
  ],
  claims: (file) => file.path.endsWith('.json') && lessonList(readJson(file.text)) !== undefined,
  parse: parseLessonsLearned,
  render: renderLessonsLearned,
};

function lessonList(document: unknown): unknown[] | undefined {
  if (!isRecord(document) || !Array.isArray(document.lessons)) return undefined;
  if (document.type === LESSONS_LEARNED_TYPE) return document.lessons;
  const first = document.lessons.find(isRecord);
  return first &&
    ('mistake' in first || 'problem' in first) &&
    ('remediation' in first || 'solution' in first)
    ? document.lessons
    : undefined;
}

function parseLessonsLearned(files: readonly SourceFile[], options: ParseOptions): ParsedSource {
  const lessons: ImportedLesson[] = [];
  const problems: Problem[] = [];
  for (const file of files) {
    if (!readsFile(lessonsLearnedFormat, file, options)) continue;
    const source = readJsonList(
      file,
      lessonList,
      'lessons',
      'not a lessons-learned store ({"lessons": [...]} expected)',
      problems,
    );
    if (source === undefined) continue;
    const { list, wrapper } = source;
    collectEntries(
      file.path,
      list,
      { label: (index) => `lessons[${index}]`, noun: 'a lesson object' },
      (entry, label) => toImported(file.path, label, entry, wrapper, options.nowIso),
      { lessons, problems },
    );
  }
  return { lessons, problems };
}

/** lessons-learned's statuses and types (its design document, 10.1); anything else is unreadable. */
const STATUSES = ['candidate', 'reviewed', 'active', 'disabled', 'archived'] as const;
const TYPES = ['directive', 'guard', 'hint', 'protocol'] as const;

function toImported(
  path: string,
  label: string,
  entry: Record<string, unknown>,
  wrapper: Record<string, unknown>,
  nowIso: string,
) {
  const triggers = isRecord(entry.triggers) ? entry.triggers : entry;
  const extra = unmappedFields(entry, MAPPED_KEYS);
  const fields: Record<string, unknown> = { keys: Object.keys(entry), wrapper };
  if (isRecord(entry.triggers)) {
    fields.triggerKeys = Object.keys(entry.triggers);
    const triggerExtra = Object.fromEntries(
      Object.entries(entry.triggers).filter(([key]) => !(TRIGGER_KEYS as readonly string[]).includes(key)),
    );
    if (Object.keys(triggerExtra).length > 0) fields.triggerExtra = triggerExtra;
  }
  if (Object.keys(extra).length > 0) fields.extra = extra;
  const id = typeof entry.id === 'string' && entry.id !== '' ? entry.id : undefined;
  const where = id === undefined ? label : `${label} (${id})`;
  const issues: FieldIssue[] = [];
  const read = readFields(entry, issues);
  const trigger = readFields(triggers, issues, isRecord(entry.triggers) ? 'triggers.' : '');
  const status = read.oneOf('status', STATUSES);
  if (status !== undefined && status !== 'active' && status !== 'archived') fields.status = status;
  const type = read.oneOf('type', TYPES);
  if (type !== undefined && type !== 'hint' && type !== 'guard') fields.type = type;
  const mistake = read.text('mistake') ?? read.text('problem');
  const remediation = read.text('remediation') ?? read.text('solution');
  const priority = read.number('priority');
  const confidence = read.number('confidence');
  const occurrences = read.number('occurrenceCount');
  const needsReview = read.boolean('needsReview');
  const slug = read.text('slug');
  const contentHash = read.text('contentHash');
  const createdAt = read.text('createdAt');
  const updatedAt = read.text('updatedAt');
  const lists = {
    tools: trigger.stringList('toolNames'),
    commands: trigger.stringList('commandPatterns'),
    paths: trigger.stringList('pathPatterns'),
    contents: trigger.stringList('contentPatterns'),
    errors: read.stringList('loreErrors'),
    tags: read.stringList('tags'),
    sourceSessions: read.stringList('sourceSessionIds'),
  };
  const summary = read.text('summary') ?? '';
  if (issues.length > 0) return { ok: false as const, problems: fieldIssueProblems(path, where, issues) };
  return createImportedLesson({
    file: path,
    entry: where,
    nowIso,
    fields: {
      summary,
      ...(slug === undefined ? {} : { slug }),
      ...(mistake === undefined ? {} : { mistake }),
      ...(remediation === undefined ? {} : { remediation }),
      ...lists,
      ...(priority === undefined ? {} : { priority }),
      ...(confidence === undefined ? {} : { confidence }),
      ...(occurrences === undefined ? {} : { occurrences }),
      ...(needsReview === undefined ? {} : { needsReview }),
      ...(status === 'candidate' || status === 'reviewed' ? { needsReview: true } : {}),
      status: status === 'archived' || status === 'disabled' ? 'archived' : 'active',
      type:
        type === 'guard'
          ? 'guard'
          : type === 'hint' && entry.loreType === 'checkpoint'
            ? 'checkpoint'
            : 'hint',
      ...(contentHash === undefined ? {} : { contentHash }),
      ...(createdAt === undefined ? {} : { createdAt }),
      ...(updatedAt === undefined ? {} : { updatedAt }),
    },
    origin: { format: 'lessons-learned', ...(id === undefined ? {} : { id }), fields },
  });
}

function renderLessonsLearned(lessons: readonly ExportLesson[]): Rendered {
  const wrapper = lessons.map((lesson) => originFields(lesson, FORMATS).wrapper).find(isRecord) ?? {
    $schema: './schemas/lessons.schema.json',
    type: LESSONS_LEARNED_TYPE,
    version: 1,
  };
  // ULIDs sort by creation time: the store's order.
  const records = lessons.map(toRecord).sort((a, b) => String(a.id).localeCompare(String(b.id)));
  return {
    files: [{ path: 'lessons.json', text: `${JSON.stringify({ ...wrapper, lessons: records }, null, 2)}\n` }],
    skipped: [],
  };
}

function toRecord(lesson: ExportLesson): Record<string, unknown> {
  const fields = originFields(lesson, FORMATS);
  const keys = stringList(fields.keys);
  const flat = keys.length > 0 && !keys.includes('triggers');
  const triggerValues: Record<string, unknown> = {
    toolNames: lesson.tools,
    commandPatterns: lesson.commands,
    pathPatterns: lesson.paths,
    contentPatterns: lesson.contents,
  };
  const values: Record<string, unknown> = {
    id: originId(lesson, FORMATS) ?? ulidOf(lesson),
    slug: lesson.origin?.format === 'lessons-learned' ? lesson.slug : `${lesson.slug}-${lesson.id.slice(-4)}`,
    summary: restoreSummary(lesson, FORMATS),
    ...(lesson.mistake === undefined
      ? {}
      : { [keys.includes('problem') ? 'problem' : 'mistake']: lesson.mistake }),
    ...(lesson.remediation === undefined
      ? {}
      : { [keys.includes('solution') ? 'solution' : 'remediation']: lesson.remediation }),
    priority: lesson.priority,
    confidence: lesson.confidence,
    needsReview: lesson.needsReview,
    tags: restoreTags(lesson, FORMATS),
    sourceSessionIds: lesson.sourceSessions,
    occurrenceCount: lesson.occurrences,
    ...(lesson.contentHash === undefined ? {} : { contentHash: lesson.contentHash }),
    createdAt: lesson.createdAt,
    updatedAt: lesson.updatedAt,
    status: fields.status ?? (lesson.status === 'active' ? 'active' : 'archived'),
    ...(lesson.type === 'checkpoint'
      ? { type: 'hint', loreType: 'checkpoint' }
      : { type: fields.type ?? lesson.type }),
    ...((lesson.errors ?? []).length > 0 ? { loreErrors: lesson.errors } : {}),
  };
  if (flat) Object.assign(values, triggerValues);
  else {
    const triggerKeys = stringList(fields.triggerKeys);
    const triggerExtra = isRecord(fields.triggerExtra) ? fields.triggerExtra : {};
    const order = triggerKeys.length > 0 ? triggerKeys : [...TRIGGER_KEYS];
    // content patterns added in lore go out even when the source had no such key
    if (lesson.contents.length > 0 && !order.includes('contentPatterns')) order.push('contentPatterns');
    const merged: Record<string, unknown> = { ...triggerValues, ...triggerExtra };
    values.triggers = Object.fromEntries(
      order.filter((key) => key in merged).map((key) => [key, merged[key]]),
    );
  }
  const extra = isRecord(fields.extra) ? fields.extra : {};
  if (keys.length === 0) return { ...values, ...extra };
  // The keys the source had, in its order; lore's values for the mapped ones.
  const all: Record<string, unknown> = { ...values, ...extra };
  const record: Record<string, unknown> = {};
  for (const key of keys) if (key in all) record[key] = all[key];
  if (flat && lesson.contents.length > 0) record.contentPatterns = lesson.contents;
  // a checkpoint made in lore goes out as a hint with its lore type, even where the source had none
  if (lesson.type === 'checkpoint') Object.assign(record, { type: 'hint', loreType: 'checkpoint' });
  // so do the errors a lesson waits for
  if ((lesson.errors ?? []).length > 0) record.loreErrors = lesson.errors;
  return record;
}

/** A ULID-shaped id (26 Crockford characters) from the creation time and the lore id. */
function ulidOf(lesson: Lesson): string {
  let time = Date.parse(lesson.createdAt);
  let prefix = '';
  for (let i = 0; i < 10; i += 1) {
    prefix = CROCKFORD[time % 32] + prefix;
    time = Math.floor(time / 32);
  }
  return `${prefix}${lesson.id.toUpperCase()}000000`;
}

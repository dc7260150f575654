/**
 * Orbit's project learnings: `.orbit/learnings/<id>/learning.yaml` with a `votes.jsonl` beside it
 * (danieljhkim/orbit, docs/design/project-learnings/2_design.md).
 *
 *   Orbit                      lore
 *   id (L-0001)                origin.id, aliases
 *   summary, body              summary, body (mistake/remediation/COIA as labelled paragraphs)
 *   scope.paths/tags/symbols   paths, tags, symbols
 *   evidence [{kind, ref}]     evidence
 *   status active|superseded   status (superseded links resolved within the import)
 *   supersedes, superseded_by  links between the imported lessons
 *   created_at/updated_at/by   createdAt, updatedAt, createdBy
 *   votes.jsonl {learning_id, voter_model, task_id, voted_at}   votes {model, task, at}
 * Anything else is kept in origin.fields and written back on export.
 *
 * A lesson that did not come from Orbit gets an `L-NNNN` on its first export to a folder and keeps
 * it in later exports there (the export ledger remembers which lesson each learning file holds);
 * a new lesson gets a number that folder never used, and `lore import` of the folder maps each
 * learning back to the lesson it was exported from.
 */
import { Document, parseDocument } from 'yaml';
import type { Problem } from '../errors.js';
import { EVIDENCE_KINDS } from '../lesson/schema.js';
import type { Evidence, Lesson } from '../lesson/schema.js';
import type { Vote } from '../rank/votes.js';
import { createImportedLesson, originFields, restoreSummary, restoreTags } from './imported-lesson.js';
import type {
  ExportLesson,
  ImportedLesson,
  InteropFormat,
  ParsedSource,
  ParseOptions,
  Rendered,
  RenderedFile,
  RenderOptions,
  SourceFile,
} from './interop-format.js';
import { exportKey, readsFile } from './interop-format.js';
import { foldSections, unfoldSections } from './lesson-sections.js';
import { assignNumberedIds } from './numbered-id.js';
import { fieldIssueProblems, isRecord, readFields } from './record-shape.js';
import type { FieldIssue } from './record-shape.js';
import { yamlValue } from '../lesson/lesson-yaml.js';

const FORMATS = ['orbit'];
const LEARNING_FILE = /(?:^|\/)learnings\/[^/]+\/learning\.ya?ml$|(?:^|\/)learning\.ya?ml$/;
const KNOWN_KEYS = new Set([
  'id',
  'schemaVersion',
  'status',
  'created_at',
  'updated_at',
  'created_by',
  'scope',
  'summary',
  'body',
  'evidence',
  'supersedes',
  'superseded_by',
]);

export const orbitFormat: InteropFormat = {
  name: 'orbit',
  title: 'Orbit project learnings: .orbit/learnings/<id>/learning.yaml and votes.jsonl',
  carries: [
    'summary',
    'body',
    'mistake',
    'remediation',
    'context',
    'observation',
    'implication',
    'action',
    'paths',
    'tags',
    'symbols',
    'evidence',
    'status',
    'createdAt',
    'updatedAt',
    'createdBy',
  ],
  claims: (file) => file.text !== undefined && LEARNING_FILE.test(file.path),
  parse: parseOrbit,
  render: renderOrbit,
};

function parseOrbit(files: readonly SourceFile[], options: ParseOptions): ParsedSource {
  const lessons: ImportedLesson[] = [];
  const problems: Problem[] = [];
  const byPath = new Map(files.map((file) => [file.path, file]));
  for (const file of files) {
    if (!readsFile(orbitFormat, file, options)) continue;
    const doc = parseDocument(file.text ?? '', { uniqueKeys: true });
    if (doc.errors.length > 0) {
      const error = doc.errors[0];
      problems.push({
        file: file.path,
        line: error?.linePos?.[0]?.line,
        message: `not valid YAML: ${error?.message.split('\n')[0] ?? 'parse error'}; skipped`,
        severity: 'error',
      });
      continue;
    }
    const built = yamlValue(doc);
    if ('error' in built) {
      problems.push({
        file: file.path,
        message: `not valid YAML: ${built.error}; skipped`,
        severity: 'error',
      });
      continue;
    }
    const raw = built.value;
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
      problems.push({
        file: file.path,
        message: 'not a learning record (expected a YAML map); skipped',
        severity: 'error',
      });
      continue;
    }
    const record = raw as Record<string, unknown>;
    const id = typeof record.id === 'string' && record.id.trim() !== '' ? record.id.trim() : undefined;
    if (id === undefined) {
      problems.push({
        file: file.path,
        field: 'id',
        message: 'a learning needs an id; skipped',
        severity: 'error',
      });
      continue;
    }
    const dir = file.path.includes('/') ? file.path.slice(0, file.path.lastIndexOf('/') + 1) : '';
    const votesFile = byPath.get(`${dir}votes.jsonl`);
    const votes = votesFile ? parseOrbitVotes(votesFile, problems) : [];
    const result = toImported(file.path, id, record, votes, options.nowIso);
    if (result.ok) lessons.push(result.imported);
    else problems.push(...result.problems);
  }
  return { lessons, problems };
}

function toImported(
  path: string,
  id: string,
  record: Record<string, unknown>,
  votes: Vote[],
  nowIso: string,
) {
  const scope = isRecord(record.scope) ? record.scope : {};
  const { paths: _paths, tags: _tags, symbols: _symbols, ...scopeExtra } = scope;
  const issues: FieldIssue[] = [];
  const scoped = readFields(scope, issues, 'scope.');
  const lists = {
    paths: scoped.stringList('paths'),
    tags: scoped.stringList('tags'),
    symbols: scoped.stringList('symbols'),
  };
  if (issues.length > 0) return { ok: false as const, problems: fieldIssueProblems(path, `(${id})`, issues) };
  const extra: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) if (!KNOWN_KEYS.has(key)) extra[key] = value;
  const evidence = Array.isArray(record.evidence) ? record.evidence : [];
  const validEvidence = evidence
    .filter(isLoreEvidence)
    .map((e) => ({ kind: e.kind, ref: e.ref }) as Evidence);
  const fields: Record<string, unknown> = {};
  if (record.schemaVersion !== undefined) fields.schemaVersion = record.schemaVersion;
  if ('supersedes' in record) fields.supersedes = record.supersedes;
  if ('superseded_by' in record) fields.superseded_by = record.superseded_by;
  if (Object.keys(scopeExtra).length > 0) fields.scope = scopeExtra;
  if (Object.keys(extra).length > 0) fields.extra = extra;
  if (validEvidence.length !== evidence.length) fields.evidence = evidence;
  const text = typeof record.body === 'string' ? record.body : '';
  const trailing = /\s*$/.exec(text)?.[0] ?? '';
  if (trailing !== '' && text.trim() !== '') fields.bodyTrailing = trailing;
  const { body, sections } = unfoldSections(text);
  const status = record.status === 'superseded' ? 'superseded' : 'active';
  if (record.status !== undefined && record.status !== 'active' && record.status !== 'superseded')
    fields.status = record.status;
  const supersedes = [record.supersedes].flat().filter((value): value is string => typeof value === 'string');
  return createImportedLesson({
    file: path,
    entry: `(${id})`,
    nowIso,
    fields: {
      summary: typeof record.summary === 'string' ? record.summary : '',
      ...(body === undefined ? {} : { body }),
      ...sections,
      ...lists,
      evidence: validEvidence,
      status,
      ...(typeof record.created_at === 'string' ? { createdAt: record.created_at } : {}),
      ...(typeof record.updated_at === 'string' ? { updatedAt: record.updated_at } : {}),
      ...(typeof record.created_by === 'string' ? { createdBy: record.created_by } : {}),
    },
    origin: { format: 'orbit', id, fields },
    votes,
    links: {
      supersedes,
      ...(typeof record.superseded_by === 'string' ? { supersededBy: record.superseded_by } : {}),
    },
  });
}

function parseOrbitVotes(file: SourceFile, problems: Problem[]): Vote[] {
  const votes: Vote[] = [];
  (file.text ?? '').split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      value = undefined;
    }
    const row = isRecord(value) ? value : {};
    const { voter_model: model, task_id: task, voted_at: at } = row;
    if (
      typeof model === 'string' &&
      typeof task === 'string' &&
      typeof at === 'string' &&
      model &&
      task &&
      !Number.isNaN(Date.parse(at))
    ) {
      votes.push({ model, task, at });
      return;
    }
    problems.push({
      file: file.path,
      line: index + 1,
      message: 'vote line skipped (expected {"learning_id","voter_model","voted_at","task_id"})',
      severity: 'warning',
    });
  });
  return votes;
}

function renderOrbit(lessons: readonly ExportLesson[], options: RenderOptions): Rendered {
  const files: RenderedFile[] = [];
  const skipped: Rendered['skipped'] = [];
  const kept = lessons.filter((lesson) => {
    if (lesson.status !== 'archived') return true;
    skipped.push({ id: lesson.id, reason: 'Orbit has no archived state' });
    return false;
  });
  const ids = assignIds(kept, options);
  for (const lesson of kept) {
    const id = ids.get(lesson.id) ?? lesson.id;
    const fields = originFields(lesson, FORMATS);
    const scopeExtra = isRecord(fields.scope) ? fields.scope : {};
    const scope: Record<string, unknown> = {
      paths: lesson.paths,
      tags: restoreTags(lesson, FORMATS),
      ...scopeExtra,
    };
    if (lesson.symbols.length > 0) scope.symbols = lesson.symbols;
    const record: Record<string, unknown> = {
      id,
      schemaVersion: fields.schemaVersion ?? 1,
      status: fields.status ?? (lesson.status === 'superseded' ? 'superseded' : 'active'),
      created_at: lesson.createdAt,
      updated_at: lesson.updatedAt,
      ...(lesson.createdBy === undefined ? {} : { created_by: lesson.createdBy }),
      scope,
      summary: restoreSummary(lesson, FORMATS),
    };
    const body = foldSections(lesson.body, lesson);
    if (body !== '')
      record.body = `${body}${typeof fields.bodyTrailing === 'string' ? fields.bodyTrailing : ''}`;
    record.evidence = restoreEvidence(lesson, fields);
    const supersedes = lesson.supersedes
      .map((old) => ids.get(old))
      .filter((v): v is string => v !== undefined);
    record.supersedes = supersedes.length > 1 ? supersedes : (supersedes[0] ?? fields.supersedes ?? null);
    const by = lesson.supersededBy === undefined ? undefined : ids.get(lesson.supersededBy);
    if (by !== undefined) record.superseded_by = by;
    else if (fields.superseded_by !== undefined && lesson.status === 'superseded')
      record.superseded_by = fields.superseded_by;
    if (isRecord(fields.extra)) Object.assign(record, fields.extra);
    const doc = new Document(record);
    files.push({
      path: `learnings/${id}/learning.yaml`,
      text: doc.toString({ lineWidth: 0 }),
      lesson: exportKey(lesson),
    });
    if (lesson.votes.length > 0) {
      files.push({
        path: `learnings/${id}/votes.jsonl`,
        text: lesson.votes
          .map((vote) =>
            JSON.stringify({
              learning_id: id,
              voter_model: vote.model,
              voted_at: vote.at,
              task_id: vote.task,
            }),
          )
          .join('\n')
          .concat('\n'),
      });
    }
  }
  return { files, skipped };
}

/**
 * Orbit ids: the one a lesson came with, else the one earlier exports to this folder gave it,
 * else an `L-NNNN` the folder never used.
 */
function assignIds(lessons: readonly Lesson[], options: RenderOptions): Map<string, string> {
  return assignNumberedIds(lessons, FORMATS, () => 'L-', 4, options.remembered);
}

function restoreEvidence(lesson: Lesson, fields: Record<string, unknown>): unknown[] {
  const original = fields.evidence;
  const current = lesson.evidence.map(({ kind, ref }) => ({ kind, ref }));
  if (Array.isArray(original)) {
    const valid = original.filter(isLoreEvidence).map(({ kind, ref }) => ({ kind, ref }));
    if (JSON.stringify(valid) === JSON.stringify(current)) return original;
  }
  return lesson.evidence.map((e) => (e.note === undefined ? { kind: e.kind, ref: e.ref } : { ...e }));
}

function isLoreEvidence(value: unknown): value is { kind: Evidence['kind']; ref: string } {
  return (
    isRecord(value) &&
    (EVIDENCE_KINDS as readonly unknown[]).includes(value.kind) &&
    typeof value.ref === 'string' &&
    value.ref !== '' &&
    Object.keys(value).every((key) => key === 'kind' || key === 'ref')
  );
}

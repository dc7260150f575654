/**
 * The index's row writer: one changed file (a lesson, its votes, a directory without lesson.yaml)
 * to its rows, through the one lesson loader (load-lesson.ts), whose problems become rows too.
 * Loaded only when files changed: YAML, zod and picomatch stay off the fresh read path.
 */
import type { Problem } from '../../core/errors.js';
import { lessonEmbeddingText } from '../../core/search/embedding-text.js';
import { parseLessonYaml } from '../../core/lesson/lesson-yaml.js';
import type { Lesson } from '../../core/lesson/schema.js';
import { compileGlob } from '../../core/match/glob.js';
import { requiredGlobLiteral } from '../../core/match/glob-literal.js';
import { embeddingHash } from '../embed/embedding-hash.js';
import { loadLesson } from '../lessons/load-lesson.js';
import type { TierStore } from '../lessons/tier-store.js';
import type { SqlDatabase } from '../sqlite/sqlite.js';
import { FTS_COLUMNS } from './index-schema.js';
import type { ParsedFile } from './parse-worker.js';
import type { Signature } from './scan-tiers.js';

export type RowWriter = {
  db: SqlDatabase;
  tiers: readonly TierStore[];
  displayPath: (path: string) => string;
  /** Lesson files read and loaded ahead on worker threads for this refresh, by path. */
  preLoaded: ReadonlyMap<string, ParsedFile>;
  /** Glob regexes by glob: stores repeat theirs (`tests/**`, `**\/*.py`), so each is compiled once. */
  globs: Map<string, string>;
};

/** Writes a changed file's rows. `empty`: a rebuild, so no row of this file exists yet to delete. */
export function writeFileRows(writer: RowWriter, signature: Signature, empty: boolean): void {
  const { db } = writer;
  if (!empty) db.run('DELETE FROM problems WHERE source = ?', signature.path);
  if (signature.kind === 'dir') {
    if (signature.sig !== 'empty') {
      insertProblem(db, signature.path, {
        file: writer.displayPath(signature.dir.yamlPath),
        message: 'lesson.yaml is missing from this lesson directory',
        severity: 'error',
      });
    }
    return;
  }
  if (signature.kind === 'votes') {
    writeVotes(writer, signature);
    return;
  }
  if (!empty) deleteLessonRow(db, signature.path);
  const { dir } = signature;
  const early = writer.preLoaded.get(signature.path);
  let text: string | undefined;
  try {
    text = early ? early.text : tierOf(writer, dir.tier).readLessonText(dir.id);
  } catch (error) {
    // a directory or a link loop where lesson.yaml should be, no permission: this lesson is
    // reported, every other one loads
    const line = (error as { line?: unknown }).line;
    insertProblem(db, signature.path, {
      file: writer.displayPath(signature.path),
      ...(typeof line === 'number' ? { line } : {}),
      message: `lesson.yaml cannot be read (${(error as Error).message})`,
      severity: 'error',
    });
    return;
  }
  if (text === undefined) return;
  const loaded =
    early?.result ??
    loadLesson(
      { text, file: writer.displayPath(signature.path), tier: dir.tier, id: dir.id },
      parseLessonYaml,
    );
  if (!loaded.ok) {
    for (const problem of loaded.problems) insertProblem(db, signature.path, problem);
    return;
  }
  for (const warning of loaded.warnings) insertProblem(db, signature.path, warning);
  if (!empty) {
    const existing = db.get<{ file: string }>(
      'SELECT file FROM lessons WHERE tier = ? AND id = ?',
      dir.tier,
      dir.id,
    );
    if (existing) deleteLessonRow(db, existing.file);
  }
  insertLesson(writer, loaded.lesson, signature.path);
}

/** Forgets a file that is gone: its problems, its lesson's rows, its votes. */
export function forgetFileRows(db: SqlDatabase, path: string): void {
  db.run('DELETE FROM problems WHERE source = ?', path);
  deleteLessonRow(db, path);
  db.run('DELETE FROM votes WHERE file = ?', path);
}

function writeVotes(writer: RowWriter, signature: Signature): void {
  const { dir } = signature;
  const { votes, problems } = tierOf(writer, dir.tier).readVotes(dir.id);
  const shown = writer.displayPath(signature.path);
  for (const problem of problems) insertProblem(writer.db, signature.path, { ...problem, file: shown });
  const times = votes.map((vote) => vote.at);
  const last = times.reduce<string | null>(
    (a, b) => (a === null || Date.parse(b) > Date.parse(a) ? b : a),
    null,
  );
  writer.db.run(
    'INSERT OR REPLACE INTO votes(tier, id, file, times, last) VALUES (?, ?, ?, ?, ?)',
    dir.tier,
    dir.id,
    signature.path,
    JSON.stringify(times),
    last,
  );
}

function insertLesson(writer: RowWriter, lesson: Lesson, file: string): void {
  const { db } = writer;
  const rowid = db.insert(
    'INSERT INTO lessons(tier, id, slug, summary, status, priority, confidence, needs_review, updated_at, file, record, embed_hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    lesson.tier,
    lesson.id,
    lesson.slug,
    lesson.summary,
    lesson.status,
    lesson.priority,
    lesson.confidence,
    lesson.needsReview ? 1 : 0,
    lesson.updatedAt,
    file,
    JSON.stringify(lesson),
    embeddingHash(lessonEmbeddingText(lesson)),
  );
  db.run(
    `INSERT INTO lessons_fts(rowid, ${FTS_COLUMNS.join(', ')}) VALUES (?, ${FTS_COLUMNS.map(() => '?').join(', ')})`,
    rowid,
    ...ftsRow(lesson),
  );
  for (const tag of new Set(lesson.tags.map((t) => t.toLowerCase()))) {
    db.run('INSERT INTO lesson_tags(lesson, tag) VALUES (?, ?)', rowid, tag);
  }
  for (const glob of lesson.paths) {
    db.run(
      'INSERT INTO lesson_paths(lesson, glob, regex, literal) VALUES (?, ?, ?, ?)',
      rowid,
      glob,
      compiledGlob(writer.globs, glob),
      requiredGlobLiteral(glob),
    );
  }
}

function compiledGlob(globs: Map<string, string>, glob: string): string {
  let regex = globs.get(glob);
  if (regex === undefined) {
    regex = compileGlob(glob);
    globs.set(glob, regex);
  }
  return regex;
}

function deleteLessonRow(db: SqlDatabase, file: string): void {
  const row = db.get<{ rowid: number }>('SELECT rowid FROM lessons WHERE file = ?', file);
  if (!row) return;
  db.run('DELETE FROM lessons WHERE rowid = ?', row.rowid);
  db.run('DELETE FROM lessons_fts WHERE rowid = ?', row.rowid);
  db.run('DELETE FROM lesson_tags WHERE lesson = ?', row.rowid);
  db.run('DELETE FROM lesson_paths WHERE lesson = ?', row.rowid);
}

function insertProblem(db: SqlDatabase, source: string, problem: Problem): void {
  db.run(
    'INSERT INTO problems(file, source, line, field, message, severity) VALUES (?, ?, ?, ?, ?, ?)',
    problem.file,
    source,
    problem.line ?? null,
    problem.field ?? null,
    problem.message,
    problem.severity,
  );
}

function tierOf(writer: RowWriter, tier: string): TierStore {
  const store = writer.tiers.find((t) => t.tier === tier);
  if (!store) throw new Error(`no store for tier ${tier}`);
  return store;
}

function structuredText(lesson: Lesson): string {
  return [
    lesson.mistake,
    lesson.remediation,
    lesson.context,
    lesson.observation,
    lesson.implication,
    lesson.action,
    ...lesson.evidence.map((e) => `${e.kind} ${e.ref} ${e.note ?? ''}`),
  ]
    .filter((part) => part !== undefined && part !== '')
    .join('\n');
}

function ftsRow(lesson: Lesson): string[] {
  return [
    `${lesson.summary}\n${lesson.slug.replace(/-/g, ' ')}`,
    lesson.tags.join(' '),
    lesson.tools.join(' '),
    lesson.commands.join(' '),
    lesson.paths.join(' '),
    lesson.stack.join(' '),
    `${lesson.category} ${lesson.severity} ${lesson.type}`,
    structuredText(lesson),
    lesson.body ?? '',
  ];
}

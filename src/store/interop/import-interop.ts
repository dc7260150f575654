/**
 * `lore import PATH --from FORMAT`: reads the source, lets the format turn it into lessons, and
 * writes them through the store in one batch (one manifest rebuild per tier, at the end).
 *
 * lore allocates the ids. A lesson imported before (the same format and source id, kept in
 * `origin`) is left alone when unchanged and is a conflict otherwise (`--replace` overwrites it),
 * so importing the same source twice adds nothing. Supersede links between imported lessons are
 * resolved to lore ids; a lesson superseded by one that is not there is imported as archived.
 * ADD's Markdown is replaced by the view rendered from what was read only when the user asks
 * (`rewriteSource`), every entry of the file was imported (a conflict or a skipped entry would be
 * renumbered into an id another lesson holds), and reading that view back gives the same lessons;
 * the original is kept as `.bak`.
 */
import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, lstatSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { LoreError } from '../../core/errors.js';
import type { Problem } from '../../core/errors.js';
import { confirmAddMarkdown } from '../../core/interop/add-md.js';
import type {
  ImportedLesson,
  InteropFormat,
  InteropFormatName,
  ParsedSource,
  ParseOptions,
} from '../../core/interop/interop-format.js';
import { detectInteropFormat, findInteropFormat } from '../../core/interop/interop-formats.js';
import { createLessonId, ID_RANDOM_BYTES } from '../../core/lesson/lesson-id.js';
import { parseLessonYaml, serializeLesson } from '../../core/lesson/lesson-yaml.js';
import { LessonSchema } from '../../core/lesson/schema.js';
import type { Lesson, Tier } from '../../core/lesson/schema.js';
import { voteKey } from '../../core/rank/votes.js';
import { writeFileAtomic } from '../fs/fs-atomic.js';
import type { Workspace } from '../workspace/workspace.js';
import { readSources } from './read-sources.js';
import type { Sources } from './read-sources.js';
import { exportLedgerPath, readExportLedger, recordLoreFiles } from './export-ledger.js';
import { folderLessons } from './folder-ledger.js';
import { exportKey, readsFile } from '../../core/interop/interop-format.js';
import { afterWrite } from '../workspace/after-write.js';
import { comparableLesson } from '../../core/lesson/comparable-lesson.js';
import { openBreadthChecker } from '../breadth/check-draft.js';
import type { BroadImport } from '../breadth/check-draft.js';

export type InteropImportOptions = {
  from: InteropFormatName | undefined;
  tier: Tier | undefined;
  replace: boolean;
  dryRun: boolean;
  nowMs: number;
  /** ADD Markdown: replace the source file with ADD's generated view (only on request). */
  rewriteSource?: boolean;
  /** Import too-broad triggers as they are (else they are marked needsReview). */
  force?: boolean;
};

export type ImportedRef = { id: string; tier: Tier; from: string };

export type InteropImportReport = {
  format: InteropFormatName;
  added: ImportedRef[];
  replaced: ImportedRef[];
  unchanged: ImportedRef[];
  conflicts: ImportedRef[];
  /** Entries that were reported and skipped. */
  invalid: number;
  /**
   * Lessons whose trigger the breadth check finds too broad (and tool-only ones), with their
   * figures; `held`: marked needsReview (not with --force).
   */
  broad: BroadImport[];
  /** The breadth check's line when there is no call cache to check against. */
  breadthNote?: string;
  votesAdded: number;
  problems: Problem[];
  /** ADD Markdown files: the backup written and whether the rendered view read back the same. */
  markdown: {
    file: string;
    backup: string | undefined;
    rewritten: boolean;
    mismatches: string[];
    /** Why the file was left as it is, when it was. */
    kept?: string;
  }[];
};

/** add and add-md share ids (L-001): a lesson from either matches the other on re-import. */
function familyOf(format: string): string {
  return format === 'add-md' ? 'add' : format;
}

function originKey(lesson: Lesson): string | undefined {
  return lesson.origin?.id === undefined
    ? undefined
    : `${familyOf(lesson.origin.format)}\u0000${lesson.origin.id}`;
}

/**
 * The project an ADD entry belongs to (its `source`, else its file's `project`): ADD numbers
 * L-001, L-002, ... per project, so the same id from two projects names two lessons. Undefined
 * when the source does not say (ADD's Markdown without a project line), or for other formats.
 */
export function originProject(lesson: Lesson): string | undefined {
  if (lesson.origin === undefined || familyOf(lesson.origin.format) !== 'add') return undefined;
  const fields = lesson.origin.fields ?? {};
  const named = (value: unknown) =>
    typeof value === 'string' && value !== '' && value !== 'project' ? value : undefined;
  const extra = fields.extra as { source?: unknown } | undefined;
  const wrapper = fields.wrapper as { project?: unknown } | undefined;
  return named(extra?.source) ?? named(wrapper?.project);
}

type Existing = { tier: Tier; lesson: Lesson };

/** The stored lesson an imported one is a re-import of: same id, and the same project when both say. */
function findImported(candidates: readonly Existing[] | undefined, lesson: Lesson): Existing | undefined {
  if (candidates === undefined) return undefined;
  const project = originProject(lesson);
  return (
    candidates.find((item) => originProject(item.lesson) === project) ??
    candidates.find((item) => project === undefined || originProject(item.lesson) === undefined)
  );
}

/**
 * An ADD id another project's lesson already answers to gets a second alias, `project/L-001`, so
 * each can be named; the bare id then lists both.
 */
function withProjectAlias(lesson: Lesson, taken: ReadonlySet<string>): Lesson {
  const project = originProject(lesson);
  const id = lesson.origin?.id;
  if (project === undefined || id === undefined || !taken.has(id.toLowerCase())) return lesson;
  const alias = `${project}/${id}`;
  const aliases = lesson.aliases ?? [];
  return aliases.includes(alias) ? lesson : { ...lesson, aliases: [...aliases, alias] };
}

export async function importInterop(
  ws: Workspace,
  path: string,
  shown: string,
  options: InteropImportOptions,
): Promise<InteropImportReport> {
  const sources = readSources(path, shown);
  const format = chooseFormat(sources.files, shown, options.from);
  const nowIso = new Date(options.nowMs).toISOString();
  const explicit = options.from !== undefined && sources.single;
  const display = (file: string) => (sources.single ? shown : `${shown.replace(/\/+$/, '')}/${file}`);
  const parsed = parseSources(format, sources, { nowIso, fileDates: sources.fileDates, explicit });
  const report: InteropImportReport = {
    format: format.name,
    added: [],
    replaced: [],
    unchanged: [],
    conflicts: [],
    invalid: parsed.problems.filter((problem) => problem.severity === 'error').length,
    broad: [],
    votesAdded: 0,
    problems: parsed.problems.map((problem) => ({ ...problem, file: display(problem.file) })),
    markdown: [],
  };
  if (parsed.lessons.length === 0 && report.invalid === 0) {
    throw new LoreError('invalid', `${shown} holds no ${format.name} lessons`, {
      hint: `is it the right file? ${format.title}`,
    });
  }

  const existing = new Map<string, Existing[]>();
  const aliasOwners = new Map<string, Set<string>>();
  const items = await ws.index.list({ status: 'any' }, options.nowMs, ws.halfLifeDays);
  for (const item of items) {
    const key = originKey(item.lesson);
    if (key !== undefined)
      existing.set(key, [...(existing.get(key) ?? []), { tier: item.lesson.tier, lesson: item.lesson }]);
    for (const alias of item.lesson.aliases ?? [])
      aliasOwners.set(
        alias.toLowerCase(),
        (aliasOwners.get(alias.toLowerCase()) ?? new Set()).add(item.lesson.id),
      );
  }

  const matchOf = matchStored(ws, sources.baseDir, items, existing);
  // Every imported lesson gets its lore id first, so links can point at them: the lesson imported
  // from the same source id before, else the one an export wrote this file from.
  const planned = parsed.lessons.map((entry) => {
    const match = matchOf(entry);
    const tier = options.tier ?? match?.tier ?? entry.lesson.tier;
    const id = match?.lesson.id ?? freshId(ws, tier);
    return { entry, tier, id, match };
  });
  const bySourceId = new Map<string, string>();
  for (const plan of planned)
    if (plan.entry.lesson.origin?.id) bySourceId.set(plan.entry.lesson.origin.id, plan.id);
  for (const [key, values] of existing) {
    const sourceId = key.split('\u0000')[1];
    const first = values[0];
    if (sourceId !== undefined && first !== undefined && !bySourceId.has(sourceId))
      bySourceId.set(sourceId, first.lesson.id);
  }
  // An id another lesson (stored, or earlier in this import) answers to: add `project/id`.
  for (const plan of planned) {
    const alias = plan.entry.lesson.origin?.id?.toLowerCase();
    if (alias === undefined) continue;
    const owners = aliasOwners.get(alias) ?? new Set<string>();
    const others = new Set([...owners].filter((id) => id !== plan.id));
    plan.entry = {
      ...plan.entry,
      lesson: withProjectAlias(plan.entry.lesson, others.size > 0 ? new Set([alias]) : new Set()),
    };
    aliasOwners.set(alias, owners.add(plan.id));
  }
  const records = linkLessons(planned, bySourceId);
  // A source without dates (Cursor rules): a lesson imported before keeps the dates it got then.
  for (const [index, plan] of planned.entries()) {
    const record = records[index];
    if (record && plan.match && !plan.entry.dated) {
      record.createdAt = plan.match.lesson.createdAt;
      record.updatedAt = plan.match.lesson.updatedAt;
    }
  }

  // The breadth check over the call cache: a too-broad trigger is held for review unless forced.
  const breadthOf = openBreadthChecker(ws);
  const touched = new Set<Tier>();
  const conflictFiles = new Set<string>();
  for (const [index, plan] of planned.entries()) {
    let lesson = records[index] as Lesson;
    const breadth = breadthOf(lesson);
    if (breadth.noCache) report.breadthNote = breadth.message;
    if (breadth.broad || breadth.toolOnly) {
      const held = breadth.broad && options.force !== true;
      report.broad.push({
        id: plan.id,
        tier: plan.tier,
        from: plan.entry.lesson.origin?.id ?? plan.entry.where,
        breadth,
        held,
      });
      if (held) lesson = { ...lesson, needsReview: true };
    }
    const store = ws.store(plan.tier);
    const ref: ImportedRef = {
      id: plan.id,
      tier: plan.tier,
      from: plan.entry.lesson.origin?.id ?? plan.entry.where,
    };
    const currentText = store.readLessonText(plan.id);
    if (currentText === undefined) {
      if (!options.dryRun && !store.createLessonWithId(plan.id, serializeLesson(lesson))) {
        throw new LoreError('conflict', `lesson ${plan.id} appeared while importing; run the import again`);
      }
      report.added.push(ref);
    } else {
      const current = parseLessonYaml(currentText, plan.id);
      if (
        current.ok &&
        comparableLesson(current.lesson) === comparableLesson({ ...lesson, createdAt: lesson.createdAt })
      ) {
        report.unchanged.push(ref);
      } else if (options.replace) {
        if (!options.dryRun) store.writeLessonText(plan.id, serializeLesson(lesson));
        report.replaced.push(ref);
      } else {
        report.conflicts.push(ref);
        conflictFiles.add(plan.entry.file);
        continue;
      }
    }
    touched.add(plan.tier);
    const have = new Set(currentText === undefined ? [] : store.readVotes(plan.id).votes.map(voteKey));
    for (const vote of plan.entry.votes) {
      if (have.has(voteKey(vote))) continue;
      have.add(voteKey(vote));
      if (!options.dryRun) store.appendVote(plan.id, vote);
      report.votesAdded += 1;
    }
  }

  if (format.name === 'add-md')
    rewriteMarkdown(sources.baseDir, display, parsed.lessons, report, options, nowIso, (file) =>
      keptReason(report, parsed.lessons, file, display(file), options),
    );
  if (options.dryRun) ws.index.invalidate();
  else {
    for (const tier of touched) await afterWrite(ws, tier);
    recordLoreFiles(
      readExportLedger(exportLedgerPath(ws.store('user').layout.cacheDir)),
      heldFiles(sources, parsed.lessons, {
        withheld: (file) => conflictFiles.has(file) || hasErrors(report, display(file)),
        // ADD Markdown replaced by its generated view (--rewrite-source): lore wrote what is there now
        rewritten: (file) => report.markdown.some((md) => md.rewritten && md.file === display(file)),
      }),
    );
  }
  return report;
}

/**
 * The stored lesson an imported one is: the one imported from the same source id before, else the
 * one an export wrote its file from (the ledger remembers it), whatever id the format gave it
 * there: `lore import --replace` of an Orbit export updates those lessons instead of adding copies
 * under the learnings' ids.
 */
function matchStored(
  ws: Workspace,
  baseDir: string,
  items: readonly { lesson: Lesson }[],
  existing: ReadonlyMap<string, Existing[]>,
): (entry: ImportedLesson) => Existing | undefined {
  const byExportKey = new Map(items.map(({ lesson }) => [exportKey(lesson), { tier: lesson.tier, lesson }]));
  const lessons = readExportLedger(exportLedgerPath(ws.store('user').layout.cacheDir)).lessons;
  // an Orbit folder's own record (folder-ledger.ts) maps what any machine exported there
  const folders = new Map<string, Record<string, string>>();
  const inFolder = (file: string): string | undefined => {
    const dir = dirname(dirname(file));
    if (!folders.has(dir)) folders.set(dir, folderLessons(dir));
    return folders.get(dir)?.[file];
  };
  return (entry) => {
    const key = originKey(entry.lesson);
    const imported = key === undefined ? undefined : findImported(existing.get(key), entry.lesson);
    const file = resolve(baseDir, entry.file);
    return imported ?? byExportKey.get(inFolder(file) || lessons[file] || '');
  };
}

/** The format's lessons; a file of the format that is not UTF-8 is named and skipped, the others read. */
function parseSources(format: InteropFormat, sources: Sources, options: ParseOptions): ParsedSource {
  const notUtf8 = sources.files.filter(
    (file) => sources.notUtf8[file.path] !== undefined && readsFile(format, file, options),
  );
  const parsed = format.parse(
    sources.files.filter((file) => !notUtf8.includes(file)),
    options,
  );
  const problems: Problem[] = notUtf8.map((file) => ({
    file: file.path,
    line: sources.notUtf8[file.path],
    message:
      'not UTF-8 text (this line holds the first byte that is not); file skipped: save it as UTF-8 and import again',
    severity: 'error',
  }));
  return { lessons: parsed.lessons, problems: [...parsed.problems, ...problems] };
}

function hasErrors(report: InteropImportReport, shown: string): boolean {
  return report.problems.some((problem) => problem.file === shown && problem.severity === 'error');
}

/**
 * The source files lore now holds whole, so an export may write over them later (export-ledger.ts):
 * each file lessons came from, with no entry skipped or in conflict, and the votes.jsonl an Orbit
 * learning keeps beside it. A file with an entry lore did not take is still the user's alone.
 */
function heldFiles(
  sources: Sources,
  lessons: readonly ImportedLesson[],
  is: { withheld: (file: string) => boolean; rewritten: (file: string) => boolean },
): { path: string; text: string }[] {
  const read = new Set(sources.files.map((file) => file.path));
  const names = new Set<string>();
  for (const entry of lessons) {
    if (is.withheld(entry.file)) continue;
    names.add(entry.file);
    const votes = `${entry.file.slice(0, entry.file.lastIndexOf('/') + 1)}votes.jsonl`;
    if (read.has(votes) && !is.withheld(votes)) names.add(votes);
  }
  const held: { path: string; text: string }[] = [];
  for (const name of names) {
    const path = resolve(sources.baseDir, name);
    // an export would replace a link (a rule shared with other repositories) by a copy: not without --force
    if (lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink() ?? false) continue;
    const text = is.rewritten(name) ? readFileSync(path, 'utf8') : sources.raw[name];
    if (text !== undefined) held.push({ path, text });
  }
  return held;
}

function chooseFormat(
  files: Parameters<typeof detectInteropFormat>[0],
  shown: string,
  from: InteropFormatName | undefined,
): InteropFormat {
  if (from !== undefined) {
    const format = findInteropFormat(from);
    if (files.length !== 1 && !files.some((file) => format.claims(file))) {
      throw new LoreError('invalid', `${shown} has no ${from} files`, { hint: format.title });
    }
    return format;
  }
  const detection = detectInteropFormat(files);
  if (detection.ok) return detection.format;
  if (detection.reason === 'ambiguous') {
    throw new LoreError('usage', `${shown} holds lessons in ${detection.candidates.join(' and ')} formats`, {
      hint: `say which with --from (${detection.candidates.join(' | ')}), or point at one file or folder`,
    });
  }
  throw new LoreError('invalid', `no lessons lore can import found in ${shown}`, {
    hint: 'lore reads Orbit, lessons-learned, ADD (JSON or Markdown), COIA and Cursor rules; see `lore import --help`',
  });
}

/** A new lore id no lesson of the tier has. */
function freshId(ws: Workspace, tier: Tier): string {
  for (;;) {
    const id = createLessonId(randomBytes(ID_RANDOM_BYTES));
    if (!existsSync(ws.store(tier).lessonDir(id).dir)) return id;
  }
}

/** The final records: lore ids, the tier, and supersede links resolved to lore ids. */
function linkLessons(
  planned: readonly { entry: ImportedLesson; tier: Tier; id: string }[],
  bySourceId: ReadonlyMap<string, string>,
): Lesson[] {
  const records = planned.map((plan) => ({ ...plan.entry.lesson, id: plan.id, tier: plan.tier }) as Lesson);
  const byId = new Map(records.map((record) => [record.id, record]));
  for (const [index, plan] of planned.entries()) {
    const record = records[index] as Lesson;
    const target =
      plan.entry.links.supersededBy === undefined ? undefined : bySourceId.get(plan.entry.links.supersededBy);
    if (target !== undefined && target !== record.id) {
      record.status = 'superseded';
      record.supersededBy = target;
      const replacement = byId.get(target);
      if (replacement && !replacement.supersedes.includes(record.id))
        replacement.supersedes = [...replacement.supersedes, record.id];
    } else if (record.status === 'superseded') {
      record.status = 'archived';
      record.origin = {
        ...record.origin,
        format: record.origin?.format ?? 'unknown',
        fields: { ...record.origin?.fields, status: 'superseded' },
      };
    }
    for (const old of plan.entry.links.supersedes) {
      const oldId = bySourceId.get(old);
      if (oldId !== undefined && oldId !== record.id && !record.supersedes.includes(oldId))
        record.supersedes = [...record.supersedes, oldId];
    }
  }
  return records.map((record) => LessonSchema.parse(record));
}

/** ADD Markdown: back it up, render what was read, read that back; replace the file when it matches. */
function rewriteMarkdown(
  baseDir: string,
  display: (file: string) => string,
  lessons: readonly ImportedLesson[],
  report: InteropImportReport,
  options: InteropImportOptions,
  nowIso: string,
  kept: (file: string) => string | undefined,
): void {
  for (const file of new Set(lessons.map((entry) => entry.file))) {
    const group = lessons.filter((entry) => entry.file === file);
    const source = group[0]?.lesson.origin?.fields?.extra as { source?: unknown } | undefined;
    const projectName = typeof source?.source === 'string' ? source.source : 'project';
    const check = confirmAddMarkdown(group, file, { nowIso, projectName });
    const absolute = join(baseDir, file);
    const reason = kept(file);
    const entry: InteropImportReport['markdown'][number] = {
      file: display(file),
      backup: undefined,
      rewritten: false,
      mismatches: check.mismatches,
      ...(reason === undefined ? {} : { kept: reason }),
    };
    if (!options.dryRun && check.mismatches.length === 0 && reason === undefined) {
      const original = readFileSync(absolute, 'utf8');
      if (original !== check.text) {
        let backup = `${absolute}.bak`;
        if (existsSync(backup) && readFileSync(backup, 'utf8') !== original)
          backup = `${absolute}.${nowIso.replace(/[:.]/g, '-')}.bak`;
        copyFileSync(absolute, backup);
        writeFileAtomic(absolute, check.text);
        entry.backup = `${display(file)}${backup.slice(absolute.length)}`;
        entry.rewritten = true;
      }
    }
    report.markdown.push(entry);
  }
}

/** Why an ADD Markdown file must be left as it is, or undefined when it may be rewritten. */
function keptReason(
  report: InteropImportReport,
  lessons: readonly ImportedLesson[],
  file: string,
  shown: string,
  options: InteropImportOptions,
): string | undefined {
  const fromFile = new Set(lessons.filter((entry) => entry.file === file).map((entry) => entry.where));
  const conflicts = report.conflicts.filter((ref) =>
    lessons.some((entry) => entry.file === file && (entry.lesson.origin?.id ?? entry.where) === ref.from),
  );
  if (conflicts.length > 0)
    return `${conflicts.length} of its entries conflict with lessons in the store; rewriting would give them ids those lessons hold`;
  if (report.problems.some((problem) => problem.file === shown && problem.severity === 'error'))
    return 'some of its entries could not be read; rewriting would drop them';
  if (fromFile.size === 0) return 'nothing was read from it';
  if (!options.rewriteSource) return "pass --rewrite-source to replace it with ADD's generated view";
  return undefined;
}

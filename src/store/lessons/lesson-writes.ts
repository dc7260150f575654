/**
 * Every change to the store: add, update, supersede, archive, upvote. Each validates the whole
 * record before anything is written, writes atomically, and holds a per-lesson lock for
 * read-modify-write so two processes never lose each other's change.
 */
import { join } from 'node:path';
import { LoreError } from '../../core/errors.js';
import type { Problem } from '../../core/errors.js';
import { parseLessonYaml, patchLessonYaml, serializeLesson } from '../../core/lesson/lesson-yaml.js';
import { slugify } from '../../core/lesson/lesson-id.js';
import { resolveRef } from '../../core/lesson/resolve-ref.js';
import type { RefEntry } from '../../core/lesson/resolve-ref.js';
import { DRAFT_FIELDS } from '../../core/lesson/draft-schema.js';
import type { LessonDraft } from '../../core/lesson/draft-schema.js';
import { LessonSchema, SCHEMA_VERSION } from '../../core/lesson/schema.js';
import { BODY_MAX } from '../../core/lesson/constants.js';
import type { Classifier, Evidence, Lesson, Tier } from '../../core/lesson/schema.js';
import type { Vote } from '../../core/rank/votes.js';
import { commitWrites } from '../fs/journal.js';
import { lessonLockPath, withLocks } from '../fs/lock.js';
import type { Workspace } from '../workspace/workspace.js';
import { afterWrite } from '../workspace/after-write.js';
import { recordLocalSupersede } from '../org-client/org-local.js';
import { NotUtf8Error } from '../fs/read-utf8.js';

/** The fields a person (or a tool) sets; everything else lore fills in (src/core/lesson/draft-schema.ts). */
export { DRAFT_FIELDS } from '../../core/lesson/draft-schema.js';
export type { LessonDraft } from '../../core/lesson/draft-schema.js';

/** How a surface names a lesson field (`paths.0`): the store's errors say `paths[0]`, the CLI `--path #1`. */
export type FieldNamer = (field: string) => string;

/** `commands.1` -> `commands[1]`: the field as a JSON body or tool call spells it. */
export function fieldName(field: string): string {
  return field.replace(/\.(\d+)(?=\.|$)/g, '[$1]');
}

/**
 * A refusal that names lesson fields. Its message and hint are worded with `fieldName`; a surface
 * with its own names for the fields (the CLI's flags) rewords it with `inTermsOf`.
 */
export class FieldError extends LoreError {
  readonly #words: (name: FieldNamer) => { message: string; hint?: string };

  constructor(
    code: LoreError['code'],
    words: (name: FieldNamer) => { message: string; hint?: string },
    details?: unknown,
  ) {
    const { message, hint } = words(fieldName);
    super(code, message, { hint, details });
    this.#words = words;
  }

  inTermsOf(name: FieldNamer): LoreError {
    const { message, hint } = this.#words(name);
    return new LoreError(this.code, message, { hint, details: this.details });
  }
}

export type ResolvedLesson = { tier: Tier; id: string; lesson: Lesson; file: string };

const PLACEHOLDER_ID = '0000000000';

function lockOf(ws: Workspace, target: { tier: Tier; id: string }, suffix = ''): string {
  return lessonLockPath(ws.store(target.tier).layout.cacheDir, target.id, suffix);
}

/** The lock guarding a lesson's lesson.yaml: hold it around `rewriteConfidence`. */
export function lessonLock(ws: Workspace, target: { tier: Tier; id: string }): string {
  return lockOf(ws, target);
}

function normalizeDraft(draft: LessonDraft): LessonDraft {
  const out: LessonDraft = { ...draft };
  if (out.tags)
    out.tags = [...new Set(out.tags.map((tag) => tag.trim().toLowerCase()).filter((tag) => tag !== ''))];
  for (const key of ['tools', 'commands', 'paths', 'stack'] as const) {
    const list = out[key];
    if (list) out[key] = [...new Set(list.map((item) => item.trim()).filter((item) => item !== ''))];
  }
  if (out.agents) out.agents = [...new Set(out.agents)];
  // content patterns keep their spaces: `^  print\(` means the indentation
  if (out.contents) out.contents = [...new Set(out.contents.filter((item) => item !== ''))];
  if (out.errors) out.errors = [...new Set(out.errors.filter((item) => item !== ''))];
  if (out.summary !== undefined) out.summary = out.summary.trim();
  if (out.body !== undefined && out.body.length > BODY_MAX) throw bodyTooLong(out.body.length);
  return out;
}

/** Every surface's refusal of an oversized body (the CLI checks a --body-file's size first). */
export function bodyTooLong(length: number, unit = 'characters'): FieldError {
  return new FieldError('invalid', (name) => ({
    message: `${name('body')} is ${length.toLocaleString('en-US')} ${unit}; a lesson body holds at most ${BODY_MAX.toLocaleString('en-US')} characters`,
    hint: `lesson.yaml is committed to git: keep the body to what an agent needs and link the rest as evidence (--evidence file=logs/run.txt, --evidence url=https://...)`,
  }));
}

function validate(record: Record<string, unknown>, file: string): Lesson {
  const result = LessonSchema.safeParse(record);
  if (result.success) return result.data;
  const problems: Problem[] = result.error.issues.map((issue) => ({
    file,
    field: issue.path.join('.'),
    message: issue.message,
    severity: 'error',
  }));
  throw new FieldError(
    'invalid',
    (name) => ({
      message: `invalid lesson: ${problems.map((p) => `${name(p.field ?? '')}: ${p.message}`).join('; ')}`,
      hint:
        problems[0]?.field === 'summary'
          ? `keep the summary to one line; put details in ${name('body')}`
          : undefined,
    }),
    problems,
  );
}

export function author(env: NodeJS.ProcessEnv): string | undefined {
  const name = env.LORE_AUTHOR?.trim();
  return name === undefined || name === '' ? undefined : name;
}

export async function addLesson(
  ws: Workspace,
  draft: LessonDraft,
  options: {
    tier: Tier;
    nowMs: number;
    createdBy?: string;
    /** Where a captured lesson came from (`lore candidates approve`). */
    provenance?: {
      sourceSessions: string[];
      occurrences: number;
      contentHash: string;
      evidence?: Evidence[];
    };
    /** User tier: shared beyond this machine; and who chose the tier (capture's classifier). */
    placement?: { universal?: boolean; classifiedBy?: Classifier };
    /**
     * Called as soon as the lesson file is written, before the index and the manifest are brought
     * up to date (which can take a while): what must not be left undone by a kill goes here.
     */
    onCreated?: (id: string) => void;
  },
): Promise<ResolvedLesson> {
  const store = ws.store(options.tier);
  const clean = normalizeDraft(draft);
  if (clean.summary === undefined || clean.summary === '') {
    throw new FieldError('usage', (name) => ({
      message: 'a lesson needs a summary',
      hint: `pass ${name('summary')} "one line the agent should read"`,
    }));
  }
  const now = new Date(options.nowMs).toISOString();
  const defaults = ws.config.defaults;
  const base: Record<string, unknown> = {
    schemaVersion: SCHEMA_VERSION,
    id: PLACEHOLDER_ID,
    slug: clean.slug ?? slugify(clean.summary),
    ...definedOnly(clean),
    category: clean.category ?? defaults.category,
    severity: clean.severity ?? defaults.severity,
    type: clean.type ?? 'hint',
    tier: options.tier,
    ...(options.placement?.universal === true && options.tier === 'user' ? { universal: true } : {}),
    ...(options.placement?.classifiedBy ? { classifiedBy: options.placement.classifiedBy } : {}),
    priority: clean.priority ?? defaults.priority,
    confidence: clean.confidence ?? defaults.confidence,
    needsReview: clean.needsReview ?? false,
    status: 'active',
    createdAt: now,
    createdBy: options.createdBy,
    updatedAt: now,
  };
  if (options.provenance) {
    const { evidence, ...rest } = options.provenance;
    Object.assign(base, rest);
    if (evidence && evidence.length > 0)
      base.evidence = [...((base.evidence as Evidence[]) ?? []), ...evidence];
  }
  const checked = validate(base, 'lesson');
  const id = store.createLesson((newId) => serializeLesson({ ...checked, id: newId }));
  options.onCreated?.(id);
  await afterWrite(ws, options.tier, [{ tier: options.tier, id }]);
  const lesson = { ...checked, id };
  return { tier: options.tier, id, lesson, file: store.lessonDir(id).yamlPath };
}

function definedOnly(draft: LessonDraft): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of DRAFT_FIELDS) {
    const value = draft[key];
    if (value !== undefined) out[key] = value;
  }
  return out;
}

/** An id, a unique id prefix or a slug -> the lesson. Errors list the candidates. */
export async function resolveLesson(ws: Workspace, ref: string): Promise<ResolvedLesson> {
  if (ref.trim() === '')
    throw new LoreError('usage', 'no lesson given', { hint: 'pass an id, a unique id prefix or a slug' });
  await ws.ready();
  const entries = await ws.index.findRefs(ref);
  const resolution = resolveRef(ref, preferProject(entries));
  if (resolution.ok) {
    const tier = resolution.entry.tier as Tier;
    const indexed = await ws.index.get(tier, resolution.entry.id);
    if (!indexed)
      throw new LoreError('not-found', `lesson ${resolution.entry.id} vanished while reading it; try again`);
    return { tier, id: indexed.lesson.id, lesson: indexed.lesson, file: indexed.file };
  }
  if (resolution.reason === 'ambiguous') {
    throw new LoreError('ambiguous', `"${ref}" matches ${resolution.candidates.length} lessons`, {
      hint: `use more characters of the id${resolution.candidates.some((c) => (c.aliases?.length ?? 0) > 1) ? ', or a longer alias' : ''}:\n${formatCandidates(resolution.candidates, ref)}`,
      details: resolution.candidates,
    });
  }
  const wanted = ref.trim().toLowerCase();
  const broken = (await ws.index.problems()).filter((problem) => {
    const dir = /lessons\/([^/]+)\/lesson\.yaml$/.exec(problem.file)?.[1];
    return (
      problem.severity === 'error' &&
      dir !== undefined &&
      /^[0-9a-z]+$/.test(wanted) &&
      dir.startsWith(wanted)
    );
  });
  if (broken.length > 0) {
    throw new LoreError(
      'invalid',
      `lesson "${ref}" cannot be loaded: ${broken[0]?.file}:${broken[0]?.line ?? 1}: ${broken[0]?.message}`,
      {
        hint: 'fix the file (`lore check` lists every problem), then try again',
        details: broken,
      },
    );
  }
  throw new LoreError('not-found', `no lesson matches "${ref}"`, {
    hint:
      resolution.candidates.length > 0
        ? `did you mean one of these?\n${formatCandidates(resolution.candidates)}`
        : 'list lessons with `lore list --status any`, or search with `lore search WORDS`',
    details: resolution.candidates,
  });
}

/** The same id in several tiers (a copy): project wins over user, user over org (a pulled copy). */
function preferProject(entries: RefEntry[]): RefEntry[] {
  const rank = (tier: string): number => (tier === 'project' ? 0 : tier === 'user' ? 1 : 2);
  const best = new Map<string, number>();
  for (const entry of entries) best.set(entry.id, Math.min(best.get(entry.id) ?? 9, rank(entry.tier)));
  return entries.filter((entry) => rank(entry.tier) === best.get(entry.id));
}

function formatCandidates(candidates: readonly RefEntry[], ref = ''): string {
  const others = (c: RefEntry) =>
    (c.aliases ?? []).filter((alias) => alias.toLowerCase() !== ref.trim().toLowerCase());
  return candidates
    .map(
      (c) =>
        `  ${c.id}  ${c.slug}  (${c.tier})  ${c.summary}${others(c).length > 0 ? `  [${others(c).join(', ')}]` : ''}`,
    )
    .join('\n');
}

export function readForUpdate(ws: Workspace, target: ResolvedLesson): { text: string; lesson: Lesson } {
  const store = ws.store(target.tier);
  const shown = ws.displayPath(store.lessonDir(target.id).yamlPath);
  let text: string | undefined;
  try {
    text = store.readLessonText(target.id);
  } catch (error) {
    if (!(error instanceof NotUtf8Error)) throw error;
    // written back, its text would keep U+FFFD where the bytes were: nothing is changed
    throw new LoreError('invalid', `${shown}:${error.line}: ${error.message}`, {
      hint: 'save it as UTF-8 first (e.g. iconv -f latin1 -t utf-8), then run the command again',
    });
  }
  if (text === undefined) throw new LoreError('not-found', `${shown} is gone`);
  const parsed = parseLessonYaml(text, shown);
  if (!parsed.ok) {
    const first = parsed.problems[0];
    throw new LoreError('invalid', `${shown}:${first?.line ?? 1}: ${first?.message ?? 'invalid'}`, {
      hint: 'fix the file by hand first (`lore check` lists every problem)',
      details: parsed.problems,
    });
  }
  return { text, lesson: parsed.lesson };
}

/** Applies `patch` to the lesson; keys set to undefined are removed. */
export function applyPatch(
  ws: Workspace,
  target: ResolvedLesson,
  current: { text: string; lesson: Lesson },
  patch: Record<string, unknown>,
  nowMs: number,
): { text: string; lesson: Lesson; path: string } {
  const store = ws.store(target.tier);
  const path = store.lessonDir(target.id).yamlPath;
  const stamped = { ...patch, updatedAt: new Date(nowMs).toISOString() };
  const merged: Record<string, unknown> = { ...current.lesson, ...stamped };
  for (const [key, value] of Object.entries(stamped)) if (value === undefined) delete merged[key];
  const lesson = validate(merged, ws.displayPath(path));
  return { text: patchLessonYaml(current.text, stamped), lesson, path };
}

/**
 * Sets a lesson's confidence to `next(current)` in lesson.yaml, leaving `updatedAt` alone (feedback
 * and decay are not edits of the lesson). The caller holds `lessonLock(ws, target)` and calls
 * `afterWrite` once done.
 */
export function rewriteConfidence(
  ws: Workspace,
  target: ResolvedLesson,
  next: (current: number) => number,
): { before: number; after: number } {
  const current = readForUpdate(ws, target);
  const before = current.lesson.confidence;
  const after = next(before);
  if (after === before) return { before, after };
  const store = ws.store(target.tier);
  const path = store.lessonDir(target.id).yamlPath;
  validate({ ...current.lesson, confidence: after }, ws.displayPath(path));
  store.writeLessonText(target.id, patchLessonYaml(current.text, { confidence: after }));
  return { before, after };
}

export async function updateLesson(
  ws: Workspace,
  ref: string,
  draft: LessonDraft,
  options: {
    nowMs: number;
    unset?: readonly string[];
    /** Runs under the lesson lock on the lesson as it is on disk, before the write; throw to refuse it. */
    verify?: (current: Lesson) => void;
  },
): Promise<ResolvedLesson & { movedFrom?: Tier }> {
  const target = await resolveLesson(ws, ref);
  const patch: Record<string, unknown> = definedOnly(normalizeDraft(draft));
  for (const field of options.unset ?? []) {
    if (!(DRAFT_FIELDS as readonly string[]).includes(field) || field === 'summary') {
      throw new FieldError('usage', (name) => ({
        message: `${name('unset')} ${field}: not a field that can be removed`,
        hint: `removable fields: ${DRAFT_FIELDS.filter((f) => f !== 'summary').join(', ')}`,
      }));
    }
    // set and removed in one call: which one was meant cannot be told
    if (patch[field] !== undefined)
      throw new FieldError('usage', (name) => ({
        message: `${name(field)} is both set and removed (${name('unset')} ${field})`,
        hint: `either set ${name(field)} or remove it`,
      }));
    patch[field] = undefined;
  }
  if (Object.keys(patch).length === 0) {
    throw new FieldError('usage', (name) => ({
      message: 'nothing to update',
      hint: `pass at least one field, e.g. ${name('summary')} or ${name('tags')}`,
    }));
  }
  const { where, value: result } = lockedWhereItIs(ws, target, (here) => {
    const current = readForUpdate(ws, here);
    options.verify?.(current.lesson);
    const next = applyPatch(ws, here, current, patch, options.nowMs);
    ws.store(here.tier).writeLessonText(here.id, next.text);
    return next;
  });
  await afterWrite(ws, where.tier, [where]);
  return {
    ...where,
    lesson: result.lesson,
    ...(where.tier !== target.tier ? { movedFrom: target.tier } : {}),
  };
}

/**
 * Runs `fn` holding the lesson's lock in the tier that holds the lesson now. A `lore promote` or
 * `demote` that moved it between resolving `target` and taking the lock is followed to the tier
 * it moved to, instead of the lesson being reported gone while it exists.
 */
function lockedWhereItIs<T>(
  ws: Workspace,
  target: ResolvedLesson,
  fn: (where: ResolvedLesson) => T,
): { where: ResolvedLesson; value: T } {
  let where = target;
  // a lesson moved back and forth while we wait is followed a few times, then reported
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const here = where;
    const done = withLocks([lockOf(ws, here)], () =>
      ws.store(here.tier).readLessonText(here.id) === undefined ? undefined : { value: fn(here) },
    );
    if (done !== undefined) return { where: here, value: done.value };
    const moved = ws.tiers.find(
      (tier) => tier.tier !== here.tier && tier.tier !== 'org' && tier.readLessonText(here.id) !== undefined,
    );
    if (moved === undefined) break;
    where = { ...here, tier: moved.tier, file: moved.lessonDir(here.id).yamlPath };
  }
  const last = where;
  return { where: last, value: withLocks([lockOf(ws, last)], () => fn(last)) };
}

export async function setStatus(
  ws: Workspace,
  ref: string,
  status: 'archived' | 'active',
  nowMs: number,
  /** Runs under the lesson lock on the lesson as it is on disk, before the write; throw to refuse it. */
  verify?: (current: Lesson) => void,
): Promise<ResolvedLesson & { changed: boolean }> {
  const target = await resolveLesson(ws, ref);
  if (target.lesson.status === status) return { ...target, changed: false };
  if (status === 'active' && target.lesson.status === 'superseded') {
    throw new LoreError(
      'conflict',
      `${target.id} is superseded by ${target.lesson.supersededBy ?? 'another lesson'}, not archived`,
    );
  }
  const store = ws.store(target.tier);
  const result = withLocks([lockOf(ws, target)], () => {
    const current = readForUpdate(ws, target);
    verify?.(current.lesson);
    // An archived lesson that a newer one still replaces goes back to superseded, as it was before
    // `archive`: made active, it would be injected beside its replacement.
    const restored = status === 'active' && current.lesson.supersededBy !== undefined ? 'superseded' : status;
    const next = applyPatch(ws, target, current, { status: restored }, nowMs);
    store.writeLessonText(target.id, next.text);
    return next;
  });
  await afterWrite(ws, target.tier, [target]);
  return { ...target, lesson: result.lesson, changed: true };
}

/** OLD becomes superseded by NEW and NEW records that it supersedes OLD: both land or neither. */
export async function supersedeLesson(
  ws: Workspace,
  oldRef: string,
  newRef: string,
  nowMs: number,
): Promise<{ old: ResolvedLesson; replacement: ResolvedLesson }> {
  const old = await resolveLesson(ws, oldRef);
  const replacement = await resolveLesson(ws, newRef);
  if (old.tier === replacement.tier && old.id === replacement.id) {
    throw new LoreError('usage', 'a lesson cannot supersede itself');
  }
  if (old.tier === 'org' && replacement.tier === 'org') throw bothOrg(old.id);
  if (old.tier === 'user' && replacement.tier === 'project') throw userByProject(old.id, replacement.id);
  if (old.lesson.supersededBy !== undefined && old.lesson.supersededBy !== replacement.id) {
    throw new LoreError('conflict', `${old.id} is already superseded by ${old.lesson.supersededBy}`, {
      hint: `supersede ${old.lesson.supersededBy} by ${replacement.id} instead`,
      details: { supersededBy: old.lesson.supersededBy, replacement: replacement.id },
    });
  }
  if (replacement.lesson.status !== 'active') {
    throw new LoreError(
      'conflict',
      `${replacement.id} is ${replacement.lesson.status}; only an active lesson can replace another`,
    );
  }
  if (old.tier === 'org' || replacement.tier === 'org')
    return supersedeAcrossOrg(ws, old, replacement, nowMs);
  const locks = [lockOf(ws, old), lockOf(ws, replacement)];
  const result = withLocks(locks, () => {
    const oldNext = applyPatch(
      ws,
      old,
      readForUpdate(ws, old),
      { status: 'superseded', supersededBy: replacement.id },
      nowMs,
    );
    const current = readForUpdate(ws, replacement);
    const supersedes = [...new Set([...current.lesson.supersedes, old.id])];
    const newNext = applyPatch(ws, replacement, current, { supersedes }, nowMs);
    commitWrites(join(ws.cacheDir, 'journal'), [
      { path: oldNext.path, content: oldNext.text },
      { path: newNext.path, content: newNext.text },
    ]);
    return { oldLesson: oldNext.lesson, newLesson: newNext.lesson };
  });
  await afterWrite(ws, old.tier, [old, replacement]);
  if (replacement.tier !== old.tier) await afterWrite(ws, replacement.tier, []);
  return {
    old: { ...old, lesson: result.oldLesson },
    replacement: { ...replacement, lesson: result.newLesson },
  };
}

/**
 * A user lesson is shown in every repository, a project lesson only in its own: superseded by one,
 * the user lesson would be retired everywhere and replaced only here.
 */
function userByProject(oldId: string, replacementId: string): LoreError {
  return new LoreError(
    'usage',
    `${oldId} is a user lesson (every repository) and ${replacementId} a project lesson (this one only): superseding would retire ${oldId} in every other repository with nothing in its place`,
    {
      hint: `move ${replacementId} to the user tier first (lore promote ${replacementId}), then supersede; or, if no other repository needs ${oldId}, lore archive ${oldId}`,
    },
  );
}

function bothOrg(id: string): LoreError {
  return new LoreError('usage', `both are organisation lessons: the org tier is read-only here`, {
    hint: `a curator supersedes ${id} on the server (POST /api/org/lessons/${id}/supersede, or the dashboard of \`lore serve --org\`), then \`lore pull\``,
  });
}

/**
 * Supersede where the org tier is involved; lore never writes to the server here. A local lesson
 * replacing an org lesson: the replacement is marked as usual and the org copy is shown superseded
 * on this machine only (org/local-supersede.json, shown again over every pull). A local lesson
 * replaced by an org lesson: only the local one changes (the org copy's `supersedes` stays the
 * server's). Two org lessons: refused, a curator supersedes on the server.
 */
async function supersedeAcrossOrg(
  ws: Workspace,
  old: ResolvedLesson,
  replacement: ResolvedLesson,
  nowMs: number,
): Promise<{ old: ResolvedLesson; replacement: ResolvedLesson }> {
  const result = withLocks([lockOf(ws, old), lockOf(ws, replacement)], () => {
    const oldNext = applyPatch(
      ws,
      old,
      readForUpdate(ws, old),
      { status: 'superseded', supersededBy: replacement.id },
      nowMs,
    );
    let newLesson = replacement.lesson;
    const writes = [{ path: oldNext.path, content: oldNext.text }];
    if (replacement.tier !== 'org') {
      const current = readForUpdate(ws, replacement);
      const supersedes = [...new Set([...current.lesson.supersedes, old.id])];
      const newNext = applyPatch(ws, replacement, current, { supersedes }, nowMs);
      newLesson = newNext.lesson;
      writes.push({ path: newNext.path, content: newNext.text });
      // the record first: a pull shows it again over the org copy it rewrites
      recordLocalSupersede(ws.store('org').layout.dir, old.id, {
        by: replacement.id,
        at: new Date(nowMs).toISOString(),
      });
    }
    commitWrites(join(ws.cacheDir, 'journal'), writes);
    return { oldLesson: oldNext.lesson, newLesson };
  });
  await afterWrite(ws, old.tier, [old, replacement]);
  if (replacement.tier !== old.tier) await afterWrite(ws, replacement.tier, []);
  return {
    old: { ...old, lesson: result.oldLesson },
    replacement: { ...replacement, lesson: result.newLesson },
  };
}

/**
 * The longest a vote's or a feedback report's words may be: they are lines of votes.jsonl and
 * feedback.jsonl, which go into git beside the lesson (a task, model or session names a thing; a
 * note says why in a few sentences).
 */
export const REPORT_LIMITS = { task: 256, model: 128, session: 256, note: 2_000 } as const;

/** Refuses a report field over its limit, naming the field and the limit. */
export function requireReportLength(field: keyof typeof REPORT_LIMITS, value: string | undefined): void {
  const max = REPORT_LIMITS[field];
  if (value !== undefined && value.length > max)
    throw new LoreError(
      'usage',
      `${field} is ${value.length.toLocaleString('en-US')} characters; at most ${max.toLocaleString('en-US')}`,
      {
        hint:
          field === 'note' ? 'say why in a few sentences; link to anything longer' : `shorten the ${field}`,
      },
    );
}

export async function upvoteLesson(
  ws: Workspace,
  ref: string,
  vote: Vote,
): Promise<{ target: ResolvedLesson; recorded: boolean }> {
  requireReportLength('task', vote.task);
  requireReportLength('model', vote.model);
  if (vote.task.trim() === '') {
    throw new LoreError('usage', 'a vote needs a task', {
      hint: 'pass task: the task the lesson helped with',
    });
  }
  if (vote.model.trim() === '')
    throw new LoreError('usage', 'a vote needs a model', {
      hint: 'pass model: the model or agent that was helped',
    });
  const target = await resolveLesson(ws, ref);
  const store = ws.store(target.tier);
  const recorded = withLocks([lockOf(ws, target, '-votes')], () => {
    // A promote or demote that held the lock first may have moved the lesson to the other tier.
    if (store.readLessonText(target.id) === undefined) {
      throw new LoreError(
        'conflict',
        `lesson ${target.id} moved or vanished while voting; nothing was recorded`,
        {
          hint: 'run the command again',
        },
      );
    }
    return store.appendVote(target.id, vote);
  });
  if (recorded) await afterWrite(ws, target.tier, [target]);
  else ws.index.invalidate();
  return { target, recorded };
}

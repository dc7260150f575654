/**
 * Changes to the organisation's lessons. Every change raises the lesson's version by one with a
 * compare-and-set (`WHERE version = $base`), so of two writers holding the same version exactly
 * one wins and the other is told to pull and retry; each change and its audit row commit
 * together. A writer's new lessons wait in the curate queue; a curator's are accepted at once.
 */
import { createHash } from 'node:crypto';
import { LoreError } from '../../core/errors.js';
import { comparableLesson } from '../../core/lesson/comparable-lesson.js';
import {
  LessonSchema,
  LONE_SURROGATE_MESSAGE,
  loneSurrogatePath,
  NUL_MESSAGE,
  nulPath,
} from '../../core/lesson/schema.js';
import { REPORT_LIMITS } from '../lessons/lesson-writes.js';
import type { Lesson } from '../../core/lesson/schema.js';
import { recordAudit } from './org-audit.js';
import type { OrgDb, OrgSql } from './org-db.js';
import { getOrgLesson } from './org-lessons.js';
import type { LessonState, OrgLesson } from './org-lessons.js';
import { roleAllows } from './org-tokens.js';
import type { Principal } from './org-tokens.js';

/** `votes`: the pusher's own votes on the lesson (from its local sidecar), merged idempotently. */
export type PushItem = {
  lesson: unknown;
  baseVersion?: number;
  votes?: ReadonlyArray<{ model: string; task: string }>;
};

export type PushOutcome = 'created' | 'updated' | 'unchanged' | 'conflict' | 'invalid' | 'forbidden';

export type PushResult = {
  id: string | null;
  outcome: PushOutcome;
  version: number | null;
  state: LessonState | null;
  message?: string;
};

const STRUCTURED = ['mistake', 'remediation', 'context', 'observation', 'implication', 'action'] as const;

/** The searchable columns of a lesson, as the migration's generated tsvector weighs them. */
export function searchColumns(lesson: Lesson): { tags: string; structured: string; body: string } {
  const scope = [...lesson.tags, ...lesson.tools, ...lesson.stack, ...lesson.paths, ...lesson.commands];
  return {
    tags: scope.join(' '),
    structured: STRUCTURED.map((field) => lesson[field] ?? '')
      .filter((text) => text !== '')
      .join('\n'),
    body: lesson.body ?? '',
  };
}

export function lessonHash(lesson: Lesson): string {
  return createHash('sha256').update(comparableLesson(lesson)).digest('hex');
}

async function projectId(sql: OrgSql, orgId: number, project: string | undefined): Promise<number | null> {
  if (project === undefined) return null;
  const rows = await sql.query<{ id: number }>(
    `INSERT INTO projects (org_id, name) VALUES ($1, $2)
     ON CONFLICT (org_id, name) DO UPDATE SET name = EXCLUDED.name RETURNING id`,
    [orgId, project],
  );
  return Number(rows[0]?.id);
}

function lessonParams(lesson: Lesson): unknown[] {
  const columns = searchColumns(lesson);
  return [
    lesson.status,
    JSON.stringify(lesson),
    lessonHash(lesson),
    lesson.summary,
    columns.tags,
    columns.structured,
    columns.body,
    lesson.priority,
    lesson.confidence,
  ];
}

/**
 * How to get past a stale version. `lore pull` learns the current version of every accepted lesson
 * and of the caller's own proposals (without bringing those into the org tier), so the hint holds
 * for both; the push after it replaces the server's copy with the pusher's.
 */
export function pullHint(id: string, version: number, state: LessonState): string {
  return state === 'accepted'
    ? `the organisation has version ${version} of ${id}: run \`lore pull\` to get it, then push again`
    : `a curator changed your proposal ${id} (now version ${version}; see it with GET /api/org/lessons/${id}): ` +
        'run `lore pull` to learn its version, then push again to replace it with yours';
}

/** Pushes lessons in one transaction; each item gets its own outcome (a conflict fails only itself). */
export async function pushOrgLessons(
  db: OrgDb,
  who: Principal,
  items: readonly PushItem[],
  options: { project?: string } = {},
): Promise<PushResult[]> {
  if (!roleAllows(who.role, 'write')) throw forbidden(who, 'push lessons', 'write');
  return db.transaction(async (sql) => {
    const project = await projectId(sql, who.orgId, options.project);
    const results: PushResult[] = [];
    for (const item of items) {
      const result = await pushOne(sql, who, item, project);
      if (result.id !== null && ['created', 'updated', 'unchanged'].includes(result.outcome))
        await mergeVotes(sql, who, result.id, item.votes ?? []);
      results.push(result);
    }
    return results;
  });
}

/**
 * The lesson a client sent, or what is wrong with it (every problem, by field). The lesson rules
 * refuse a NUL character (PostgreSQL stores none in text or jsonb): such a lesson is invalid by
 * itself, before it reaches the database, where it would fail the whole transaction.
 */
export function checkLesson(raw: unknown): Lesson | string {
  const parsed = LessonSchema.safeParse(raw);
  if (!parsed.success)
    return parsed.error.issues
      .map((issue) => `${issue.path.join('.') || 'lesson'}: ${issue.message}`)
      .join('; ');
  // valid for lore, yet PostgreSQL's jsonb refuses it and would fail the whole transaction
  const surrogate = loneSurrogatePath(parsed.data);
  if (surrogate !== undefined) return `${surrogate.join('.') || 'lesson'}: ${LONE_SURROGATE_MESSAGE}`;
  return parsed.data;
}

/**
 * What keeps a vote's words out of the database, or undefined: a NUL or a lone surrogate
 * (PostgreSQL stores neither) or a model or task longer than a local vote may be (a longer one
 * would also outgrow the votes table's key). `at` names the vote in the message (`votes.2`).
 */
export function voteProblem(vote: { model: string; task: string }, at = ''): string | undefined {
  const field = (name: string) => (at === '' ? name : `${at}.${name}`);
  for (const name of ['model', 'task'] as const) {
    const text = vote[name];
    if (nulPath(text) !== undefined) return `${field(name)}: ${NUL_MESSAGE}`;
    if (loneSurrogatePath(text) !== undefined) return `${field(name)}: ${LONE_SURROGATE_MESSAGE}`;
    if (text.length > REPORT_LIMITS[name])
      return `${field(name)} is ${text.length.toLocaleString('en-US')} characters; at most ${REPORT_LIMITS[name]}`;
  }
  return undefined;
}

async function pushOne(
  sql: OrgSql,
  who: Principal,
  item: PushItem,
  project: number | null,
): Promise<PushResult> {
  // a vote the database cannot take makes its lesson invalid, not the whole batch fail
  const badVote = (item.votes ?? []).map((vote, i) => voteProblem(vote, `votes.${i}`)).find((p) => p);
  const lesson = badVote ?? checkLesson(item.lesson);
  if (typeof lesson === 'string') {
    const raw = item.lesson as { id?: unknown } | null;
    return {
      id: typeof raw?.id === 'string' ? raw.id : null,
      outcome: 'invalid',
      version: null,
      state: null,
      message: lesson,
    };
  }
  const state: LessonState = roleAllows(who.role, 'curate') ? 'accepted' : 'proposed';
  const inserted = await sql.query<{ version: number }>(
    `INSERT INTO lessons (org_id, id, project_id, version, state, status, record, content_hash, summary,
       tags_text, structured_text, body, priority, confidence, proposed_by, updated_by)
     VALUES ($1, $2, $3, 1, $4, $5, $6::jsonb, $7, $8, $9, $10, $11, $12, $13, $14, $14)
     ON CONFLICT (org_id, id) DO NOTHING RETURNING version`,
    [who.orgId, lesson.id, project, state, ...lessonParams(lesson), who.user],
  );
  if (inserted.length > 0) {
    await recordAudit(sql, {
      orgId: who.orgId,
      actor: who.user,
      action: 'lesson.create',
      lessonId: lesson.id,
      version: 1,
      detail: { state },
    });
    return { id: lesson.id, outcome: 'created', version: 1, state };
  }
  return updateExisting(sql, who, lesson, item.baseVersion);
}

async function updateExisting(
  sql: OrgSql,
  who: Principal,
  lesson: Lesson,
  baseVersion: number | undefined,
): Promise<PushResult> {
  const rows = await sql.query<{
    version: number;
    content_hash: string;
    state: LessonState;
    proposed_by: string;
  }>(
    'SELECT version, content_hash, state, proposed_by FROM lessons WHERE org_id = $1 AND id = $2 FOR UPDATE',
    [who.orgId, lesson.id],
  );
  const current = rows[0];
  if (!current)
    return { id: lesson.id, outcome: 'conflict', version: null, state: null, message: 'deleted meanwhile' };
  const version = Number(current.version);
  if (current.content_hash === lessonHash(lesson))
    return { id: lesson.id, outcome: 'unchanged', version, state: current.state };
  // who may change it first: a pull cannot make a refused push go, so it is not suggested
  const own = current.state === 'proposed' && current.proposed_by === who.user;
  if (!own && !roleAllows(who.role, 'curate')) {
    const rejected = current.state === 'rejected' && current.proposed_by === who.user;
    return {
      id: lesson.id,
      outcome: 'forbidden',
      version,
      state: current.state,
      message: rejected
        ? `a curator rejected ${lesson.id}: only a curator changes it now (your role: ${who.role})`
        : `only a curator changes a lesson that is not your own proposal (your role: ${who.role})`,
    };
  }
  if (baseVersion !== version)
    return {
      id: lesson.id,
      outcome: 'conflict',
      version,
      state: current.state,
      message: pullHint(lesson.id, version, current.state),
    };
  const next = await casUpdate(sql, who, lesson, version);
  return next === undefined
    ? {
        id: lesson.id,
        outcome: 'conflict',
        version,
        state: current.state,
        message: pullHint(lesson.id, version, current.state),
      }
    : { id: lesson.id, outcome: 'updated', version: next, state: current.state };
}

/** The compare-and-set: the new version, or undefined when another writer got there first. */
async function casUpdate(
  sql: OrgSql,
  who: Principal,
  lesson: Lesson,
  base: number,
): Promise<number | undefined> {
  const rows = await sql.query<{ version: number }>(
    `UPDATE lessons SET version = version + 1, status = $4, record = $5::jsonb, content_hash = $6, summary = $7,
       tags_text = $8, structured_text = $9, body = $10, priority = $11, confidence = $12, updated_by = $13,
       updated_at = now()
     WHERE org_id = $1 AND id = $2 AND version = $3 RETURNING version`,
    [who.orgId, lesson.id, base, ...lessonParams(lesson), who.user],
  );
  const version = rows[0] === undefined ? undefined : Number(rows[0].version);
  if (version !== undefined)
    await recordAudit(sql, {
      orgId: who.orgId,
      actor: who.user,
      action: 'lesson.update',
      lessonId: lesson.id,
      version,
    });
  return version;
}

/**
 * One lesson's update at a known version (PUT). It changes a lesson that exists, never creates one:
 * a missing id is a 404 whatever version was claimed (new lessons come with a push); a stale
 * version is a 409 that says how to retry; a lesson the caller may not change a 403 with the role
 * it needs, as every role refusal.
 */
export async function updateOrgLesson(
  db: OrgDb,
  who: Principal,
  raw: unknown,
  version: number,
): Promise<PushResult> {
  if (!roleAllows(who.role, 'write')) throw forbidden(who, 'change lessons', 'write');
  const lesson = checkLesson(raw);
  if (typeof lesson === 'string') throw new LoreError('invalid', `invalid lesson: ${lesson}`);
  const result = await db.transaction((sql) => updateExisting(sql, who, lesson, version));
  if (result.outcome === 'conflict' && result.version === null)
    throw new LoreError('not-found', `no organisation lesson ${lesson.id}`, {
      hint: 'PUT changes an existing lesson; a new one is pushed: POST /api/org/lessons (or `lore push`)',
    });
  if (result.outcome === 'forbidden')
    throw new LoreError('locked', result.message ?? `${who.user} may not change ${lesson.id}`, {
      hint: `this needs a curate token; ask an admin: \`lore org token create ${who.user} --role curate\``,
      details: { code: 'forbidden' },
    });
  if (result.outcome === 'conflict') {
    throw new LoreError('conflict', `version ${version} of ${result.id} is stale`, {
      hint: result.message,
      details: { code: 'stale-version', current: result.version },
    });
  }
  return result;
}

/** A lesson's votes from a push, one row per lesson, user, model and task: sent again, nothing changes. */
async function mergeVotes(
  sql: OrgSql,
  who: Principal,
  id: string,
  votes: ReadonlyArray<{ model: string; task: string }>,
): Promise<void> {
  let added = 0;
  for (const vote of votes) {
    const rows = await sql.query(
      `INSERT INTO votes (org_id, lesson_id, user_name, model, task) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT DO NOTHING RETURNING 1`,
      [who.orgId, id, who.user, vote.model, vote.task],
    );
    added += rows.length;
  }
  if (added > 0)
    await recordAudit(sql, {
      orgId: who.orgId,
      actor: who.user,
      action: 'lesson.vote',
      lessonId: id,
      detail: { added },
    });
}

export function forbidden(who: Principal, what: string, needed: string): LoreError {
  return new LoreError('locked', `${who.user} (role ${who.role}) may not ${what}`, {
    hint: `this needs a ${needed} token; ask an admin: \`lore org token create ${who.user} --role ${needed}\``,
    details: { code: 'forbidden' },
  });
}

export type ReviewDecision = 'accept' | 'reject';

/** A curator accepts or rejects a proposal (or takes an accepted lesson back). */
export async function reviewOrgLesson(
  db: OrgDb,
  who: Principal,
  id: string,
  decision: ReviewDecision,
): Promise<OrgLesson> {
  if (!roleAllows(who.role, 'curate')) throw forbidden(who, `${decision} lessons`, 'curate');
  return db.transaction(async (sql) => {
    const state: LessonState = decision === 'accept' ? 'accepted' : 'rejected';
    const rows = await sql.query<{ version: number }>(
      `UPDATE lessons SET state = $3, version = version + 1, updated_by = $4, updated_at = now()
       WHERE org_id = $1 AND id = $2 RETURNING version`,
      [who.orgId, id, state, who.user],
    );
    const row = rows[0];
    if (!row) throw notFound(id);
    await recordAudit(sql, {
      orgId: who.orgId,
      actor: who.user,
      action: `lesson.${decision}`,
      lessonId: id,
      version: Number(row.version),
    });
    const lesson = await getOrgLesson(sql, who.orgId, id);
    if (!lesson) throw notFound(id);
    return lesson;
  });
}

export function notFound(id: string): LoreError {
  return new LoreError('not-found', `no organisation lesson ${id}`, {
    hint: 'list them with GET /api/org/lessons, or run `lore pull` to refresh your copy',
  });
}

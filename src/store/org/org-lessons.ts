/**
 * The organisation's lessons in PostgreSQL: reads (one lesson, the pull index, a batch, the
 * curate queue). Every lesson carries a version that each change raises by one; writes are in
 * org-lesson-writes.ts. A lesson belongs to the organisation, or to one of its projects.
 */
import type { Lesson } from '../../core/lesson/schema.js';
import type { OrgDb, OrgSql } from './org-db.js';
import { parseJson, toIso } from './org-audit.js';

export const LESSON_STATES = ['proposed', 'accepted', 'rejected'] as const;
export type LessonState = (typeof LESSON_STATES)[number];

export type OrgVote = { user: string; model: string; task: string; at: string };

export type OrgLesson = {
  id: string;
  version: number;
  /** proposed: waiting for a curator; accepted: what `lore pull` brings down; rejected. */
  state: LessonState;
  /** The project it belongs to, or null for the whole organisation. */
  project: string | null;
  proposedBy: string;
  updatedBy: string;
  createdAt: string;
  updatedAt: string;
  votes: OrgVote[];
  lesson: Lesson;
};

/** What `lore pull` compares with its copy: a lesson changed when its version or votes did. */
export type OrgIndexEntry = { id: string; version: number; votes: number };

export const LESSON_COLUMNS = `l.id, l.version, l.state, p.name AS project, l.proposed_by, l.updated_by,
  l.created_at, l.updated_at, l.record`;

export type LessonRow = {
  id: string;
  version: number;
  state: LessonState;
  project: string | null;
  proposed_by: string;
  updated_by: string;
  created_at: Date | string;
  updated_at: Date | string;
  record: unknown;
};

export function toOrgLesson(row: LessonRow, votes: OrgVote[]): OrgLesson {
  return {
    id: row.id,
    version: Number(row.version),
    state: row.state,
    project: row.project,
    proposedBy: row.proposed_by,
    updatedBy: row.updated_by,
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
    votes,
    lesson: parseJson(row.record) as unknown as Lesson,
  };
}

/** The votes of these lessons, by lesson id. */
export async function votesOf(
  sql: OrgSql,
  orgId: number,
  ids: readonly string[],
): Promise<Map<string, OrgVote[]>> {
  const byLesson = new Map<string, OrgVote[]>();
  if (ids.length === 0) return byLesson;
  const rows = await sql.query<{
    lesson_id: string;
    user_name: string;
    model: string;
    task: string;
    at: Date;
  }>(
    `SELECT lesson_id, user_name, model, task, at FROM votes
     WHERE org_id = $1 AND lesson_id = ANY($2::text[]) ORDER BY at, user_name, model, task`,
    [orgId, ids],
  );
  for (const row of rows) {
    const list = byLesson.get(row.lesson_id) ?? [];
    list.push({ user: row.user_name, model: row.model, task: row.task, at: toIso(row.at) });
    byLesson.set(row.lesson_id, list);
  }
  return byLesson;
}

async function withVotes(sql: OrgSql, orgId: number, rows: readonly LessonRow[]): Promise<OrgLesson[]> {
  const votes = await votesOf(
    sql,
    orgId,
    rows.map((row) => row.id),
  );
  return rows.map((row) => toOrgLesson(row, votes.get(row.id) ?? []));
}

export async function getOrgLesson(sql: OrgSql, orgId: number, id: string): Promise<OrgLesson | undefined> {
  const rows = await sql.query<LessonRow>(
    `SELECT ${LESSON_COLUMNS} FROM lessons l LEFT JOIN projects p ON p.id = l.project_id
     WHERE l.org_id = $1 AND l.id = $2`,
    [orgId, id],
  );
  return (await withVotes(sql, orgId, rows))[0];
}

/** Accepted lessons of the organisation (and of `project`, when given) with versions and vote counts. */
export async function orgLessonIndex(db: OrgDb, orgId: number, project?: string): Promise<OrgIndexEntry[]> {
  const rows = await db.query<{ id: string; version: number; votes: string | number }>(
    `SELECT l.id, l.version, (SELECT count(*) FROM votes v WHERE v.org_id = l.org_id AND v.lesson_id = l.id) AS votes
     FROM lessons l LEFT JOIN projects p ON p.id = l.project_id
     WHERE l.org_id = $1 AND l.state = 'accepted' AND (l.project_id IS NULL OR p.name = $2)
     ORDER BY l.id`,
    [orgId, project ?? null],
  );
  return rows.map((row) => ({ id: row.id, version: Number(row.version), votes: Number(row.votes) }));
}

/** One of a user's own lessons the organisation has not accepted: its version and state, never its text. */
export type OwnProposal = { id: string; version: number; state: LessonState };

/**
 * The caller's own lessons that are not accepted (proposed, rejected), every project's: `lore pull`
 * learns their versions, so a push after a curator changed one is based on the current version.
 * They stay out of the pulled org tier, which holds only what the organisation accepted.
 */
export async function ownProposals(db: OrgDb, orgId: number, user: string): Promise<OwnProposal[]> {
  const rows = await db.query<{ id: string; version: number; state: LessonState }>(
    `SELECT id, version, state FROM lessons
     WHERE org_id = $1 AND proposed_by = $2 AND state <> 'accepted' ORDER BY id`,
    [orgId, user],
  );
  return rows.map((row) => ({ id: row.id, version: Number(row.version), state: row.state }));
}

/** Full lessons by id (unknown ids are left out), for `lore pull`. */
export async function fetchOrgLessons(
  db: OrgDb,
  orgId: number,
  ids: readonly string[],
): Promise<OrgLesson[]> {
  if (ids.length === 0) return [];
  const rows = await db.query<LessonRow>(
    `SELECT ${LESSON_COLUMNS} FROM lessons l LEFT JOIN projects p ON p.id = l.project_id
     WHERE l.org_id = $1 AND l.id = ANY($2::text[]) ORDER BY l.id`,
    [orgId, ids],
  );
  return withVotes(db, orgId, rows);
}

export type ListOrgOptions = { state?: LessonState; project?: string; proposedBy?: string; limit: number };

/** The organisation's lessons for the dashboard and the curate queue, newest change first. */
export async function listOrgLessons(
  db: OrgDb,
  orgId: number,
  options: ListOrgOptions,
): Promise<OrgLesson[]> {
  const rows = await db.query<LessonRow>(
    `SELECT ${LESSON_COLUMNS} FROM lessons l LEFT JOIN projects p ON p.id = l.project_id
     WHERE l.org_id = $1 AND ($2::text IS NULL OR l.state = $2) AND ($3::text IS NULL OR p.name = $3)
       AND ($4::text IS NULL OR l.proposed_by = $4)
     ORDER BY l.updated_at DESC, l.id LIMIT $5`,
    [orgId, options.state ?? null, options.project ?? null, options.proposedBy ?? null, options.limit],
  );
  return withVotes(db, orgId, rows);
}

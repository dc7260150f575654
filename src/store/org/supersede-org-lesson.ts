/**
 * A curator supersedes an organisation lesson by another (one pushed from any tier): both change
 * in one transaction, each to its next version, so a pull never sees one side without the other.
 * The replacement must be accepted and active, as the local supersede requires an active one.
 */
import { LoreError } from '../../core/errors.js';
import type { Lesson } from '../../core/lesson/schema.js';
import { recordAudit } from './org-audit.js';
import type { OrgDb, OrgSql } from './org-db.js';
import { forbidden, lessonHash, notFound } from './org-lesson-writes.js';
import type { LessonState } from './org-lessons.js';
import { parseJson } from './org-audit.js';
import { roleAllows } from './org-tokens.js';
import type { Principal } from './org-tokens.js';

export type SupersedeResult = { old: { id: string; version: number }; by: { id: string; version: number } };

type Locked = { lesson: Lesson; state: LessonState };

async function lockRecord(sql: OrgSql, orgId: number, id: string): Promise<Locked> {
  const rows = await sql.query<{ record: unknown; state: LessonState }>(
    'SELECT record, state FROM lessons WHERE org_id = $1 AND id = $2 FOR UPDATE',
    [orgId, id],
  );
  if (!rows[0]) throw notFound(id);
  return { lesson: parseJson(rows[0].record) as unknown as Lesson, state: rows[0].state };
}

/**
 * The local supersede's rules, on the server: only an accepted, active lesson replaces another
 * (a proposal or a superseded lesson would retire the old one for every client and put nothing in
 * its place, and superseding back and forth would make a cycle that leaves neither injected), and
 * a lesson already superseded by a third one stays so. Why refused, or undefined.
 */
export function supersedeRefusal(old: Locked, by: Locked): LoreError | undefined {
  const { id: oldId, supersededBy } = old.lesson;
  const byId = by.lesson.id;
  if (supersededBy !== undefined && supersededBy !== byId)
    return new LoreError('conflict', `${oldId} is already superseded by ${supersededBy}`, {
      hint: `supersede ${supersededBy} by ${byId} instead`,
    });
  if (by.state !== 'accepted')
    return new LoreError('conflict', `${byId} is ${by.state}; only an accepted lesson can replace another`, {
      hint: `accept it first: POST /api/org/lessons/${byId}/accept`,
    });
  if (by.lesson.status !== 'active')
    return new LoreError(
      'conflict',
      `${byId} is ${by.lesson.status}${by.lesson.supersededBy ? ` by ${by.lesson.supersededBy}` : ''}; only an active lesson can replace another`,
    );
  return undefined;
}

async function writeRecord(sql: OrgSql, who: Principal, lesson: Lesson): Promise<number> {
  const rows = await sql.query<{ version: number }>(
    `UPDATE lessons SET record = $3::jsonb, status = $4, content_hash = $5, version = version + 1,
       updated_by = $6, updated_at = now()
     WHERE org_id = $1 AND id = $2 RETURNING version`,
    [who.orgId, lesson.id, JSON.stringify(lesson), lesson.status, lessonHash(lesson), who.user],
  );
  return Number(rows[0]?.version);
}

export async function supersedeOrgLesson(
  db: OrgDb,
  who: Principal,
  oldId: string,
  byId: string,
  nowIso: string,
): Promise<SupersedeResult> {
  if (!roleAllows(who.role, 'curate')) throw forbidden(who, 'supersede lessons', 'curate');
  return db.transaction(async (sql) => {
    // Locked in id order, so two curators superseding crosswise cannot deadlock.
    const [first, second] = [oldId, byId].sort();
    const locked = new Map<string, Locked>();
    for (const id of [first, second])
      if (id !== undefined) locked.set(id, await lockRecord(sql, who.orgId, id));
    const refusal = supersedeRefusal(locked.get(oldId) as Locked, locked.get(byId) as Locked);
    if (refusal) throw refusal;
    const old = (locked.get(oldId) as Locked).lesson;
    const by = (locked.get(byId) as Locked).lesson;
    const oldVersion = await writeRecord(sql, who, {
      ...old,
      status: 'superseded',
      supersededBy: byId,
      updatedAt: nowIso,
    });
    const byVersion = await writeRecord(sql, who, {
      ...by,
      supersedes: [...new Set([...by.supersedes, oldId])],
      updatedAt: nowIso,
    });
    await recordAudit(sql, {
      orgId: who.orgId,
      actor: who.user,
      action: 'lesson.supersede',
      lessonId: oldId,
      version: oldVersion,
      detail: { by: byId },
    });
    return { old: { id: oldId, version: oldVersion }, by: { id: byId, version: byVersion } };
  });
}

/**
 * A curator supersedes an organisation lesson by another (one pushed from any tier): both change
 * in one transaction, each to its next version, so a pull never sees one side without the other.
 */
import type { Lesson } from '../../core/lesson/schema.js';
import { recordAudit } from './org-audit.js';
import type { OrgDb, OrgSql } from './org-db.js';
import { forbidden, lessonHash, notFound } from './org-lesson-writes.js';
import { parseJson } from './org-audit.js';
import { roleAllows } from './org-tokens.js';
import type { Principal } from './org-tokens.js';

export type SupersedeResult = { old: { id: string; version: number }; by: { id: string; version: number } };

async function lockRecord(sql: OrgSql, orgId: number, id: string): Promise<Lesson> {
  const rows = await sql.query<{ record: unknown }>(
    'SELECT record FROM lessons WHERE org_id = $1 AND id = $2 FOR UPDATE',
    [orgId, id],
  );
  if (!rows[0]) throw notFound(id);
  return parseJson(rows[0].record) as unknown as Lesson;
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
    const locked = new Map<string, Lesson>();
    for (const id of [first, second])
      if (id !== undefined) locked.set(id, await lockRecord(sql, who.orgId, id));
    const old = locked.get(oldId) as Lesson;
    const by = locked.get(byId) as Lesson;
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

/**
 * Votes on organisation lessons: one row per lesson, user, model and task (the primary key), so
 * the same vote sent twice, or by many users at once, merges without loss and without counting
 * twice. A vote never changes the lesson's version: voting cannot make an editor's copy stale.
 */
import { LoreError } from '../../core/errors.js';
import { recordAudit } from './org-audit.js';
import type { OrgDb } from './org-db.js';
import { notFound, voteProblem } from './org-lesson-writes.js';
import { roleAllows } from './org-tokens.js';
import type { Principal } from './org-tokens.js';
import { forbidden } from './org-lesson-writes.js';

export type VoteResult = { id: string; added: boolean; votes: number };

export async function voteOrgLesson(
  db: OrgDb,
  who: Principal,
  id: string,
  vote: { model: string; task: string },
): Promise<VoteResult> {
  if (!roleAllows(who.role, 'write')) throw forbidden(who, 'vote', 'write');
  const problem = voteProblem(vote);
  if (problem !== undefined) throw new LoreError('usage', problem);
  return db.transaction(async (sql) => {
    const exists = await sql.query('SELECT 1 FROM lessons WHERE org_id = $1 AND id = $2', [who.orgId, id]);
    if (exists.length === 0) throw notFound(id);
    const inserted = await sql.query(
      `INSERT INTO votes (org_id, lesson_id, user_name, model, task) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT DO NOTHING RETURNING 1`,
      [who.orgId, id, who.user, vote.model, vote.task],
    );
    if (inserted.length > 0)
      await recordAudit(sql, {
        orgId: who.orgId,
        actor: who.user,
        action: 'lesson.vote',
        lessonId: id,
        detail: vote,
      });
    const count = await sql.query<{ n: string | number }>(
      'SELECT count(*) AS n FROM votes WHERE org_id = $1 AND lesson_id = $2',
      [who.orgId, id],
    );
    return { id, added: inserted.length > 0, votes: Number(count[0]?.n ?? 0) };
  });
}

/**
 * The audit table: who changed what, in the same transaction as the change (a change without its
 * audit row cannot commit). Token values never enter it; token events name the user and role.
 */
import type { OrgDb, OrgSql } from './org-db.js';

export type AuditEntry = {
  orgId: number;
  actor: string;
  action: string;
  lessonId?: string;
  version?: number;
  detail?: Record<string, unknown>;
};

export async function recordAudit(sql: OrgSql, entry: AuditEntry): Promise<void> {
  await sql.query(
    'INSERT INTO audit (org_id, actor, action, lesson_id, version, detail) VALUES ($1, $2, $3, $4, $5, $6::jsonb)',
    [
      entry.orgId,
      entry.actor,
      entry.action,
      entry.lessonId ?? null,
      entry.version ?? null,
      JSON.stringify(entry.detail ?? {}),
    ],
  );
}

export type AuditRow = {
  id: number;
  actor: string;
  action: string;
  lessonId: string | null;
  version: number | null;
  detail: Record<string, unknown>;
  at: string;
};

/** The organisation's newest audit rows first; `before` pages back by id. */
export async function readAudit(
  db: OrgDb,
  orgId: number,
  options: { limit: number; before?: number; lessonId?: string },
): Promise<AuditRow[]> {
  const rows = await db.query<{
    id: string | number;
    actor: string;
    action: string;
    lesson_id: string | null;
    version: number | null;
    detail: unknown;
    at: Date | string;
  }>(
    `SELECT id::text AS id, actor, action, lesson_id, version, detail, at FROM audit
     WHERE org_id = $1 AND ($2::bigint IS NULL OR id < $2::bigint) AND ($3::text IS NULL OR lesson_id = $3)
     ORDER BY id DESC LIMIT $4`,
    [orgId, options.before ?? null, options.lessonId ?? null, options.limit],
  );
  return rows.map((row) => ({
    id: Number(row.id),
    actor: row.actor,
    action: row.action,
    lessonId: row.lesson_id,
    version: row.version,
    detail: parseJson(row.detail),
    at: toIso(row.at),
  }));
}

export function toIso(value: Date | string): string {
  return value instanceof Date ? value.toISOString() : new Date(value).toISOString();
}

export function parseJson(value: unknown): Record<string, unknown> {
  if (typeof value === 'string') return JSON.parse(value) as Record<string, unknown>;
  return (value ?? {}) as Record<string, unknown>;
}

/**
 * Organisations, users and their API tokens. A token is 32 random bytes, shown once when made;
 * the database keeps only its SHA-256 (a token is random, so a plain hash is as strong as a slow
 * one and lets every request be checked with one indexed lookup). Nothing is cached: a revoked
 * token is refused on the very next request.
 */
import { createHash, randomBytes } from 'node:crypto';
import { LoreError } from '../../core/errors.js';
import type { OrgDb, OrgSql } from './org-db.js';
import { recordAudit } from './org-audit.js';

export const ROLES = ['read', 'write', 'curate', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/** Each role can do what the roles before it can. */
export function roleAllows(role: Role, needed: Role): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(needed);
}

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

export type Principal = { orgId: number; org: string; user: string; role: Role };

export const TOKEN_PREFIX = 'lore_';
export const DEFAULT_ORG = 'default';
const NAME = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,99}$/;

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export function checkName(kind: string, name: string): string {
  if (!NAME.test(name)) {
    throw new LoreError('usage', `${kind} "${name}" is not a valid name`, {
      hint: 'use letters, digits, and . _ @ - (at most 100 characters, starting with a letter or digit)',
    });
  }
  return name;
}

export async function ensureOrg(sql: OrgSql, name: string): Promise<number> {
  const rows = await sql.query<{ id: number }>(
    `INSERT INTO orgs (name) VALUES ($1)
     ON CONFLICT (name) DO UPDATE SET name = EXCLUDED.name
     RETURNING id`,
    [checkName('organisation', name)],
  );
  return Number(rows[0]?.id);
}

async function ensureUser(sql: OrgSql, orgId: number, name: string): Promise<number> {
  const rows = await sql.query<{ id: number }>(
    `INSERT INTO users (org_id, name) VALUES ($1, $2)
     ON CONFLICT (org_id, name) DO UPDATE SET name = EXCLUDED.name
     RETURNING id`,
    [orgId, checkName('user', name)],
  );
  return Number(rows[0]?.id);
}

export type TokenRequest = { org: string; user: string; role: Role; actor: string };
export type CreatedToken = { token: string; org: string; user: string; role: Role };

export async function createToken(db: OrgDb, request: TokenRequest): Promise<CreatedToken> {
  const token = `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  await db.transaction(async (sql) => {
    const orgId = await ensureOrg(sql, request.org);
    const userId = await ensureUser(sql, orgId, request.user);
    await sql.query('INSERT INTO tokens (user_id, role, hash) VALUES ($1, $2, $3)', [
      userId,
      request.role,
      hashToken(token),
    ]);
    await recordAudit(sql, {
      orgId,
      actor: request.actor,
      action: 'token.create',
      detail: { user: request.user, role: request.role },
    });
  });
  return { token, org: request.org, user: request.user, role: request.role };
}

export type RevokeRequest = { org: string; user: string; actor: string };

/** Revokes every live token of the user; the count revoked (0: the user had none). */
export async function revokeTokens(db: OrgDb, request: RevokeRequest): Promise<number> {
  return db.transaction(async (sql) => {
    const orgs = await sql.query<{ id: number }>('SELECT id FROM orgs WHERE name = $1', [request.org]);
    const orgId = orgs[0]?.id;
    if (orgId === undefined) return 0;
    const rows = await sql.query<{ id: number }>(
      `UPDATE tokens SET revoked_at = now()
       WHERE revoked_at IS NULL
         AND user_id IN (SELECT id FROM users WHERE org_id = $1 AND name = $2)
       RETURNING id`,
      [orgId, request.user],
    );
    if (rows.length > 0) {
      await recordAudit(sql, {
        orgId: Number(orgId),
        actor: request.actor,
        action: 'token.revoke',
        detail: { user: request.user, count: rows.length },
      });
    }
    return rows.length;
  });
}

/** The live token's owner, or undefined for an unknown or revoked token. */
export async function authenticate(db: OrgDb, token: string): Promise<Principal | undefined> {
  if (!token.startsWith(TOKEN_PREFIX)) return undefined;
  const rows = await db.query<{ org_id: number; org: string; user: string; role: Role }>(
    `SELECT u.org_id, o.name AS org, u.name AS user, t.role
     FROM tokens t JOIN users u ON u.id = t.user_id JOIN orgs o ON o.id = u.org_id
     WHERE t.hash = $1 AND t.revoked_at IS NULL`,
    [hashToken(token)],
  );
  const row = rows[0];
  return row ? { orgId: Number(row.org_id), org: row.org, user: row.user, role: row.role } : undefined;
}

/** Whether any live token exists (a fresh server makes its first admin token when none does). */
export async function hasLiveToken(db: OrgDb): Promise<boolean> {
  const rows = await db.query('SELECT 1 FROM tokens WHERE revoked_at IS NULL LIMIT 1');
  return rows.length > 0;
}

/**
 * The organisation tier's test fixtures: the two databases the contract suite runs on (PGlite,
 * always; a real PostgreSQL server when one can be found or installed, else a printed skip), an
 * in-process org app over either, and valid lesson records made up for the tests.
 */
import { randomBytes } from 'node:crypto';
import { createLessonId } from '../../src/core/lesson/lesson-id.js';
import { LessonSchema } from '../../src/core/lesson/schema.js';
import type { Lesson, LessonFields } from '../../src/core/lesson/schema.js';
import { createApp } from '../../src/adapters/http/create-app.js';
import type { App } from '../../src/adapters/http/create-app.js';
import { createOrgApp } from '../../src/adapters/http/create-org-app.js';
import { openOrgDb } from '../../src/store/org/org-db.js';
import type { OrgDb } from '../../src/store/org/org-db.js';
import { migrate } from '../../src/store/org/org-migrations.js';
import { createToken } from '../../src/store/org/org-tokens.js';
import type { Role } from '../../src/store/org/org-tokens.js';
import { startPostgres } from './postgres.js';
import type { Postgres } from './postgres.js';

export type Backend = { name: string; db: OrgDb; close(): Promise<void>; postgres?: Postgres };

export async function openPgliteBackend(): Promise<Backend> {
  const db = await openOrgDb({ target: 'memory://' });
  await migrate(db);
  return { name: 'pglite', db, close: () => db.close() };
}

/** A real server with a fresh database; `skip` says why there is none (the caller prints it). */
export async function openPostgresBackend(): Promise<Backend | { skip: string }> {
  const started = await startPostgres();
  if ('skip' in started) return started;
  const { postgres } = started;
  const db = await openOrgDb({ target: postgres.url, maxConnections: 16 });
  await migrate(db);
  return {
    name: `postgresql (${postgres.version})`,
    db,
    postgres,
    async close() {
      await db.close();
      await postgres.stop();
    },
  };
}

let counter = 0;

/** A unique organisation name per test: tests share a database and isolate by tenant. */
export function orgName(prefix = 'org'): string {
  counter += 1;
  return `${prefix}-${process.pid}-${counter}-${randomBytes(3).toString('hex')}`;
}

export async function tokenFor(db: OrgDb, org: string, user: string, role: Role): Promise<string> {
  return (await createToken(db, { org, user, role, actor: 'test' })).token;
}

export function orgApp(db: OrgDb): App {
  const base = createApp({ cwd: '/nonexistent', env: {}, policy: { token: undefined } });
  return createOrgApp({ db, base });
}

export function makeLesson(fields: Partial<LessonFields> = {}): Lesson {
  const id = createLessonId(randomBytes(7));
  return LessonSchema.parse({
    schemaVersion: 1,
    id,
    slug: `lesson-${id}`,
    summary: `A made-up lesson ${id}`,
    createdAt: '2026-11-20T10:00:00.000Z',
    updatedAt: '2026-11-20T10:00:00.000Z',
    ...fields,
  });
}

export const bearer = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });

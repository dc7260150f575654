/**
 * The organisation server's schema as numbered, forward-only migrations, applied on start in one
 * transaction each under an advisory lock (two servers starting together apply each once). A
 * database whose schema is newer than this lore knows is refused: an old server must not write
 * rows a newer one reads differently. Only PostgreSQL 15 SQL, so Debian's server and PGlite run
 * the same statements.
 */
import { LoreError } from '../../core/errors.js';
import type { OrgDb } from './org-db.js';

export type Migration = { version: number; name: string; sql: string };

/**
 * The lesson's search text is split into four columns weighted A-D (summary; tags and scope;
 * the structured fields; body), the way the local index weighs its BM25 columns 8/4+3/2/1.
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'tenants, tokens, lessons, votes, audit',
    sql: `
CREATE TABLE orgs (
  id serial PRIMARY KEY,
  name text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE projects (
  id serial PRIMARY KEY,
  org_id integer NOT NULL REFERENCES orgs (id),
  name text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (org_id, name)
);
CREATE TABLE users (
  id serial PRIMARY KEY,
  org_id integer NOT NULL REFERENCES orgs (id),
  name text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (org_id, name)
);
CREATE TABLE tokens (
  id serial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id),
  role text NOT NULL CHECK (role IN ('read', 'write', 'curate', 'admin')),
  hash text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz
);
CREATE TABLE lessons (
  org_id integer NOT NULL REFERENCES orgs (id),
  id text NOT NULL,
  project_id integer REFERENCES projects (id),
  version integer NOT NULL,
  state text NOT NULL CHECK (state IN ('proposed', 'accepted', 'rejected')),
  status text NOT NULL,
  record jsonb NOT NULL,
  content_hash text NOT NULL,
  summary text NOT NULL,
  tags_text text NOT NULL,
  structured_text text NOT NULL,
  body text NOT NULL,
  priority integer NOT NULL,
  confidence real NOT NULL,
  proposed_by text NOT NULL,
  updated_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  search tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('english', summary), 'A') ||
    setweight(to_tsvector('english', tags_text), 'B') ||
    setweight(to_tsvector('english', structured_text), 'C') ||
    setweight(to_tsvector('english', body), 'D')
  ) STORED,
  PRIMARY KEY (org_id, id)
);
CREATE INDEX lessons_search ON lessons USING gin (search);
CREATE INDEX lessons_state ON lessons (org_id, state);
CREATE TABLE votes (
  org_id integer NOT NULL,
  lesson_id text NOT NULL,
  user_name text NOT NULL,
  model text NOT NULL,
  task text NOT NULL,
  at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, lesson_id, user_name, model, task),
  FOREIGN KEY (org_id, lesson_id) REFERENCES lessons (org_id, id)
);
CREATE TABLE audit (
  id bigserial PRIMARY KEY,
  org_id integer NOT NULL REFERENCES orgs (id),
  actor text NOT NULL,
  action text NOT NULL,
  lesson_id text,
  version integer,
  detail jsonb NOT NULL DEFAULT '{}'::jsonb,
  at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX audit_org ON audit (org_id, id);
`,
  },
];

export const SCHEMA_VERSION = MIGRATIONS.reduce((max, m) => Math.max(max, m.version), 0);

/** An arbitrary constant: the advisory lock every lore server takes while migrating. */
const MIGRATION_LOCK = 7_104_322;

export type MigrationReport = { from: number; to: number; applied: number[] };

export async function migrate(
  db: OrgDb,
  migrations: readonly Migration[] = MIGRATIONS,
): Promise<MigrationReport> {
  const known = migrations.reduce((max, m) => Math.max(max, m.version), 0);
  await db.query(
    `CREATE TABLE IF NOT EXISTS lore_schema (
       version integer PRIMARY KEY,
       name text NOT NULL,
       applied_at timestamptz NOT NULL DEFAULT now()
     )`,
  );
  return db.transaction(async (sql) => {
    await sql.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    const rows = await sql.query<{ v: number | null }>('SELECT max(version) AS v FROM lore_schema');
    const from = Number(rows[0]?.v ?? 0);
    if (from > known) {
      throw new LoreError(
        'conflict',
        `the database at ${db.where} has lore schema version ${from}, newer than this lore knows (${known})`,
        { hint: 'upgrade lore on this machine; an older server must not write to a newer schema' },
      );
    }
    const applied: number[] = [];
    for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
      if (migration.version <= from) continue;
      // One statement per call: PGlite's extended protocol takes one at a time, like pg with parameters.
      for (const statement of splitStatements(migration.sql)) await sql.query(statement);
      await sql.query('INSERT INTO lore_schema (version, name) VALUES ($1, $2)', [
        migration.version,
        migration.name,
      ]);
      applied.push(migration.version);
    }
    return { from, to: Math.max(from, ...applied), applied };
  });
}

/** Statements of a migration: each ends with `;` at the end of a line (none holds such a line inside). */
export function splitStatements(sql: string): string[] {
  return sql
    .split(/;\s*$/m)
    .map((statement) => statement.trim())
    .filter((statement) => statement.length > 0);
}

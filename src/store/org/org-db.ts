/**
 * The organisation server's database, behind one thin interface: plain SQL with `$n` parameters,
 * rows back, and a transaction. Two drivers implement it with the same SQL: `pg` against a
 * PostgreSQL server (`postgres://...`), and PGlite (PostgreSQL compiled to WASM, from the npm
 * registry) in a directory, for one machine with nothing to install. Both drivers load lazily, so
 * no other command pays for them.
 */
import { mkdirSync } from 'node:fs';
import { LoreError } from '../../core/errors.js';
import { claimEmbeddedStore } from './embedded-lock.js';
import type { EmbeddedClaim } from './embedded-lock.js';

export type Row = Record<string, unknown>;

export type OrgSql = {
  query<T extends Row = Row>(sql: string, params?: readonly unknown[]): Promise<T[]>;
};

export type OrgDb = OrgSql & {
  /** `postgres` (a server) or `pglite` (embedded). */
  kind: 'postgres' | 'pglite';
  /** Where it is, without a password: for messages and logs. */
  where: string;
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (sql: OrgSql) => Promise<T>): Promise<T>;
  /** The server's version string (`SELECT version()`), for benchmarks and `lore serve --org`. */
  serverVersion(): Promise<string>;
  close(): Promise<void>;
  /** Embedded store: records the server's URL in its claim, so other processes are told where it is. */
  announce(url: string): void;
};

/** A `postgres://` or `postgresql://` URL: a server; anything else is a PGlite directory. */
export function isServerUrl(target: string): boolean {
  return /^postgres(?:ql)?:\/\//i.test(target);
}

/** The URL with its password replaced, so it can be shown and logged. */
export function redactUrl(url: string): string {
  return url.replace(/^(postgres(?:ql)?:\/\/[^:@/]*):[^@/]*@/i, '$1:***@');
}

export type OpenOrgDbOptions = {
  /** A PostgreSQL URL, or the directory of the embedded store. */
  target: string;
  /** Pool size for a server (default 8). */
  maxConnections?: number;
  /**
   * Embedded store: claim it for this process (`lore serve --org` does; the default), so a
   * second process is told who holds it instead of corrupting it.
   */
  owner?: { pid: number; url?: string };
};

export async function openOrgDb(options: OpenOrgDbOptions): Promise<OrgDb> {
  return isServerUrl(options.target) ? openPostgres(options) : openPglite(options);
}

async function openPostgres(options: OpenOrgDbOptions): Promise<OrgDb> {
  const { default: pg } = await import('pg');
  const where = redactUrl(options.target);
  const pool = new pg.Pool({ connectionString: options.target, max: options.maxConnections ?? 8 });
  // An idle client's connection dropping (the server restarting) must not crash the process.
  pool.on('error', () => undefined);
  const run = async <T extends Row>(
    client: { query: typeof pool.query },
    sql: string,
    params?: readonly unknown[],
  ): Promise<T[]> => {
    const result = await client.query(sql, params as unknown[]);
    return result.rows as T[];
  };
  try {
    await pool.query('SELECT 1');
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw new LoreError('io', `cannot reach PostgreSQL at ${where}: ${(error as Error).message}`, {
      hint: 'check the URL, that the server runs and accepts this user (pg_hba.conf), and the password',
    });
  }
  return {
    kind: 'postgres',
    where,
    query: (sql, params) => run(pool, sql, params),
    async transaction(fn) {
      const client = await pool.connect();
      // A connection dying under a checked-out client (the server restarting) is reported through
      // the query that fails; without a listener it would also crash the process.
      const ignore = (): void => undefined;
      client.on('error', ignore);
      let failed = false;
      try {
        await client.query('BEGIN');
        const result = await fn({ query: (sql, params) => run(client, sql, params) });
        await client.query('COMMIT');
        return result;
      } catch (error) {
        failed = true;
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.off('error', ignore);
        // a failed transaction's connection may be broken: the pool opens a fresh one instead
        client.release(failed);
      }
    },
    async serverVersion() {
      const rows = await run<{ v: string }>(pool, 'SELECT version() AS v');
      return rows[0]?.v ?? 'unknown';
    },
    close: () => pool.end(),
    announce: () => undefined,
  };
}

async function openPglite(options: OpenOrgDbOptions): Promise<OrgDb> {
  const dir = options.target;
  let claim: EmbeddedClaim | undefined;
  if (dir !== 'memory://') {
    mkdirSync(dir, { recursive: true });
    claim = claimEmbeddedStore(dir, options.owner ?? { pid: process.pid });
  }
  try {
    const { PGlite } = await import('@electric-sql/pglite');
    const db = dir === 'memory://' ? await PGlite.create() : await PGlite.create(`${dir}/pgdata`);
    const run = async <T extends Row>(
      client: { query: typeof db.query },
      sql: string,
      params?: readonly unknown[],
    ): Promise<T[]> => {
      const result = await client.query<T>(sql, params as unknown[]);
      return result.rows;
    };
    return {
      kind: 'pglite',
      where: dir === 'memory://' ? 'embedded PGlite (in memory)' : `embedded PGlite in ${dir}`,
      query: (sql, params) => run(db, sql, params),
      transaction: (fn) => db.transaction((tx) => fn({ query: (sql, params) => run(tx, sql, params) })),
      async serverVersion() {
        const rows = await run<{ v: string }>(db, 'SELECT version() AS v');
        return rows[0]?.v ?? 'unknown';
      },
      async close() {
        await db.close();
        claim?.release();
      },
      announce(url) {
        claim?.update({ pid: process.pid, url });
      },
    };
  } catch (error) {
    claim?.release();
    throw error;
  }
}

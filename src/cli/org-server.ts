/**
 * `lore serve --org`: opens the organisation database (a PostgreSQL URL, or the embedded PGlite
 * store in `$LORE_HOME/org-server/`), migrates it, makes the first admin token when there is none
 * (printed once), and serves the organisation routes in front of the local API and dashboard.
 */
import { join } from 'node:path';
import { resolveLoreHome } from '../store/fs/paths.js';
import type { CommandContext } from './command.js';
import { startDashboard } from './start-dashboard.js';
import type { Dashboard, DashboardOptions } from './start-dashboard.js';

/** `--db`, else LORE_ORG_DB, else the embedded store in the user tier. */
export function orgDbTarget(env: NodeJS.ProcessEnv, flag: string | undefined): string {
  const chosen = flag ?? env.LORE_ORG_DB;
  if (chosen !== undefined && chosen.trim() !== '') return chosen;
  return join(resolveLoreHome(env), 'org-server');
}

export type OrgServer = Dashboard & { database: string; version: string };

export async function startOrgServer(
  ctx: CommandContext,
  options: DashboardOptions & { db: string | undefined },
): Promise<OrgServer> {
  const { openOrgDb } = await import('../store/org/org-db.js');
  const { migrate } = await import('../store/org/org-migrations.js');
  const { createToken, DEFAULT_ORG, hasLiveToken } = await import('../store/org/org-tokens.js');
  const { createOrgApp } = await import('../adapters/http/create-org-app.js');
  const target = orgDbTarget(options.env, options.db);
  const db = await openOrgDb({ target, owner: { pid: process.pid } });
  try {
    const report = await migrate(db);
    const version = await db.serverVersion();
    ctx.note(`lore: organisation store: ${db.where} (${version.split(' on ')[0]}; lore schema ${report.to})`);
    if (!(await hasLiveToken(db))) {
      const first = await createToken(db, {
        org: DEFAULT_ORG,
        user: 'admin',
        role: 'admin',
        actor: 'lore serve --org',
      });
      process.stdout.write(
        `lore: no tokens yet; the first admin token (user admin, shown once): ${first.token}\n`,
      );
    }
    const server = await startDashboard(ctx, {
      ...options,
      wrap: (base) => createOrgApp({ db, base, now: () => ctx.now(), log: (line) => ctx.note(line) }),
      onClose: () => db.close(),
    });
    db.announce(server.url);
    return { ...server, database: db.where, version };
  } catch (error) {
    await db.close();
    throw error;
  }
}

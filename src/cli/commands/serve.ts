import { LoreError } from '../../core/errors.js';
import { flagOption, numberOption, stringOption } from '../command.js';
import type { Command } from '../command.js';
import { startDashboard } from '../start-dashboard.js';

export const DEFAULT_PORT = 4777;

export const command: Command = {
  spec: {
    usage: 'lore serve [--port 4777] [--host 127.0.0.1] [--open] [--org [--db postgres://...]]',
    description:
      'Serves the HTTP API (/api/..., described at /api/openapi.json) and the dashboard from one process,\n' +
      'until Ctrl-C. Loopback by default; any other --host requires a bearer token on every API request\n' +
      '(LORE_TOKEN, or one generated and printed; the printed URL carries it for the dashboard).\n' +
      'With --org it also serves the organisation tier (/api/org/...) from PostgreSQL: --db URL (or\n' +
      'LORE_ORG_DB), else an embedded PostgreSQL (PGlite) in $LORE_HOME/org-server/. Migrations run on\n' +
      'start; the first start prints an admin token once. Organisation routes need a token from\n' +
      '`lore org token create`.',
    options: {
      port: { type: 'string', value: 'N', description: `port (default ${DEFAULT_PORT}; 0: any free port)` },
      host: { type: 'string', value: 'ADDR', description: 'address to listen on (default 127.0.0.1)' },
      open: { type: 'boolean', description: 'open the dashboard in the default browser' },
      org: { type: 'boolean', description: 'serve the organisation tier too (/api/org/...)' },
      db: {
        type: 'string',
        value: 'URL',
        description:
          'with --org: postgres://... or the embedded store directory (default $LORE_HOME/org-server)',
      },
    },
    positionals: { min: 0, max: 0, names: '' },
    json: false,
    examples: [
      'lore serve',
      'lore serve --port 8080 --open',
      'LORE_TOKEN=secret lore serve --host 0.0.0.0',
      'lore serve --org',
      'lore serve --org --db postgres://lore@db.internal/lore --host 0.0.0.0',
    ],
  },
  async run(ctx, args) {
    const port = numberOption(args, 'port', { integer: true, min: 0, max: 65535 }) ?? DEFAULT_PORT;
    const host = stringOption(args, 'host') ?? '127.0.0.1';
    if (host.trim() === '') throw new LoreError('usage', '--host must not be empty');
    const db = stringOption(args, 'db');
    const org = flagOption(args, 'org');
    if (db !== undefined && !org)
      throw new LoreError('usage', '--db applies to --org only', { hint: 'lore serve --org --db URL' });
    const options = {
      port,
      host,
      open: flagOption(args, 'open'),
      fallback: false,
      cwd: ctx.cwd,
      ...(ctx.root !== undefined ? { root: ctx.root } : {}),
      env: ctx.env,
    };
    const dashboard = org
      ? await (await import('../org-server.js')).startOrgServer(ctx, { ...options, db })
      : await startDashboard(ctx, options);
    await dashboard.closed;
    return { data: { url: dashboard.url }, text: 'lore: stopped' };
  },
};

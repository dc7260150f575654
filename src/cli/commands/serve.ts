import { LoreError } from '../../core/errors.js';
import { flagOption, numberOption, stringOption } from '../command.js';
import type { Command } from '../command.js';
import { startDashboard } from '../start-dashboard.js';

export const DEFAULT_PORT = 4777;

export const command: Command = {
  spec: {
    usage: 'lore serve [--port 4777] [--host 127.0.0.1] [--open]',
    description:
      'Serves the HTTP API (/api/..., described at /api/openapi.json) and the dashboard from one process,\n' +
      'until Ctrl-C. Loopback by default; any other --host requires a bearer token on every API request\n' +
      '(LORE_TOKEN, or one generated and printed; the printed URL carries it for the dashboard).',
    options: {
      port: { type: 'string', value: 'N', description: `port (default ${DEFAULT_PORT}; 0: any free port)` },
      host: { type: 'string', value: 'ADDR', description: 'address to listen on (default 127.0.0.1)' },
      open: { type: 'boolean', description: 'open the dashboard in the default browser' },
    },
    positionals: { min: 0, max: 0, names: '' },
    json: false,
    examples: ['lore serve', 'lore serve --port 8080 --open', 'LORE_TOKEN=secret lore serve --host 0.0.0.0'],
  },
  async run(ctx, args) {
    const port = numberOption(args, 'port', { integer: true, min: 0, max: 65535 }) ?? DEFAULT_PORT;
    const host = stringOption(args, 'host') ?? '127.0.0.1';
    if (host.trim() === '') throw new LoreError('usage', '--host must not be empty');
    const dashboard = await startDashboard(ctx, {
      port,
      host,
      open: flagOption(args, 'open'),
      fallback: false,
      cwd: ctx.cwd,
      ...(ctx.root !== undefined ? { root: ctx.root } : {}),
      env: ctx.env,
    });
    await dashboard.closed;
    return { data: { url: dashboard.url }, text: 'lore: stopped' };
  },
};

/**
 * Starts the HTTP API and dashboard for `lore serve` and `lore up`, prints where, and resolves
 * when a signal (Ctrl-C, SIGTERM) closes it. Off loopback a token is required: LORE_TOKEN, or one
 * generated here and printed.
 */
import { spawn } from 'node:child_process';
import { LoreError } from '../core/errors.js';
import type { App } from '../adapters/http/create-app.js';
import type { CommandContext } from './command.js';

export type DashboardOptions = {
  port: number;
  host: string;
  open: boolean;
  /** Try the next ports when `port` is taken (lore up), instead of failing (lore serve). */
  fallback: boolean;
  cwd: string;
  root?: string;
  env: NodeJS.ProcessEnv;
  notice?: string;
  /** `lore serve --org`: wraps the local app (the organisation routes in front of it). */
  wrap?: (app: App) => App;
  /** Runs after the server closed (the organisation database's close). */
  onClose?: () => Promise<void>;
};

export type Dashboard = { url: string; port: number; token: string | undefined; closed: Promise<void> };

export async function startDashboard(ctx: CommandContext, options: DashboardOptions): Promise<Dashboard> {
  const { createApp } = await import('../adapters/http/create-app.js');
  const { createHttpServer, listen } = await import('../adapters/http/serve-http.js');
  const { generateToken, isLoopbackAddress } = await import('../adapters/http/security.js');
  const { defaultAssetsDir } = await import('../adapters/http/static-assets.js');
  const loopback = isLoopbackAddress(options.host);
  const envToken = options.env.LORE_TOKEN?.trim();
  const token = envToken ? envToken : loopback ? undefined : generateToken();
  const app = createApp({
    cwd: options.cwd,
    ...(options.root !== undefined ? { root: options.root } : {}),
    env: options.env,
    policy: { token },
    assetsDir: defaultAssetsDir(),
    now: () => ctx.now(),
    ...(options.notice ? { notice: options.notice } : {}),
    log: (line) => ctx.note(line),
  });
  const server = createHttpServer(options.wrap ? options.wrap(app) : app);
  let port = options.port;
  for (let attempt = 0; ; attempt += 1) {
    try {
      port = await listen(server, port, options.host);
      break;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EADDRINUSE' && options.fallback && attempt < 20 && port !== 0) {
        port += 1;
        continue;
      }
      throw new LoreError('io', `cannot listen on ${options.host}:${port}: ${(error as Error).message}`, {
        hint:
          code === 'EADDRINUSE'
            ? 'another program uses this port; pass --port N (0: any free port)'
            : undefined,
      });
    }
  }
  const shownHost = options.host.includes(':') ? `[${options.host}]` : options.host;
  const base = `http://${shownHost}:${port}/`;
  const url = token && !envToken ? `${base}#token=${token}` : base;
  process.stdout.write(`lore: dashboard at ${url}\n`);
  if (token && envToken)
    process.stdout.write('lore: the API needs the token in LORE_TOKEN (Authorization: Bearer ...)\n');
  if (token && !envToken)
    process.stdout.write(`lore: API token (generated; set LORE_TOKEN to choose one): ${token}\n`);
  if (!loopback)
    ctx.note(`lore: listening on ${options.host}, not only this machine: every API request needs the token`);
  ctx.note('lore: press Ctrl-C to stop');
  if (options.open) openBrowser(url);
  const closed = new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      server.close(() => {
        if (!options.onClose) return resolve();
        options.onClose().then(resolve, resolve);
      });
      server.closeAllConnections();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  return { url, port, token, closed };
}

/** Best effort: the platform's opener, detached; a missing opener is not an error. */
function openBrowser(url: string): void {
  const opener =
    process.platform === 'darwin'
      ? ['open', url]
      : process.platform === 'win32'
        ? ['cmd', '/c', 'start', '', url]
        : ['xdg-open', url];
  try {
    const child = spawn(opener[0] ?? 'xdg-open', opener.slice(1), { detached: true, stdio: 'ignore' });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // no opener: the URL is printed
  }
}

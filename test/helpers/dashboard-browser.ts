/**
 * What the dashboard's browser suites share: Debian's chromium launched once per file (see
 * chromium.ts), and a sandbox's repository served with the built dashboard (dist/web) by the real
 * node:http server, closed when the test finishes.
 */
import { mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, onTestFinished } from 'vitest';
import { createApp } from '../../src/adapters/http/create-app.js';
import { createHttpServer, listen } from '../../src/adapters/http/serve-http.js';
import { findOrInstallChromium } from './chromium.js';
import { NOW } from './http.js';
import type { AppSandbox } from './http.js';

export const WEB = fileURLToPath(new URL('../../dist/web/', import.meta.url));
export const SHOTS = fileURLToPath(new URL('../../test-artifacts/browser/', import.meta.url));

/** Headless chromium with what a machine without a display or network needs. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: findOrInstallChromium(),
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
}

/**
 * The file's chromium: launched before its tests (installing it through apt on a fresh machine
 * takes a minute or two), closed after them. Call at the top of a suite file; the returned
 * function gives the browser inside tests.
 */
export function useChromium(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    browser = await launchChromium();
  }, 600_000);
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (browser === undefined)
      throw new Error('chromium is not running: useChromium() belongs at the top of the file');
    return browser;
  };
}

/** Serves the sandbox's repository with the built dashboard; returns its URL. */
export async function serveDashboard(sandbox: AppSandbox): Promise<string> {
  const app = createApp({
    cwd: sandbox.repo,
    env: sandbox.env,
    policy: { token: undefined },
    assetsDir: WEB,
    now: () => NOW,
  });
  const server: Server = createHttpServer(app);
  const port = await listen(server, 0, '127.0.0.1');
  onTestFinished(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
  return `http://127.0.0.1:${port}/`;
}

/**
 * A page that records console errors and page errors, closed after the test. `expected` are
 * console messages a test provokes on purpose (a 404 empty state, a 409 refusal): not errors.
 */
export async function openDashboardPage(
  browser: Browser,
  options: { colorScheme?: 'light' | 'dark'; expected?: readonly string[] } = {},
): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext({
    viewport: { width: 1366, height: 860 },
    colorScheme: options.colorScheme ?? 'light',
  });
  onTestFinished(() => context.close());
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    if ((options.expected ?? []).some((text) => message.text().includes(text))) return;
    errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return { page, errors };
}

/// <reference lib="dom" />
/**
 * The dashboard's Organisation page in chromium, against `lore serve --org`'s app on the embedded
 * store: a curator signs in with an organisation token, sees the curate queue with who proposed
 * each lesson, accepts one, and finds it among the accepted lessons.
 */
import { mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/adapters/http/create-app.js';
import { createOrgApp } from '../../src/adapters/http/create-org-app.js';
import { createHttpServer, listen } from '../../src/adapters/http/serve-http.js';
import { pushOrgLessons } from '../../src/store/org/org-lesson-writes.js';
import { authenticate } from '../../src/store/org/org-tokens.js';
import { findOrInstallChromium } from '../helpers/chromium.js';
import { makeLesson, openPgliteBackend, orgName, tokenFor } from '../helpers/org.js';
import type { Backend } from '../helpers/org.js';

const WEB = fileURLToPath(new URL('../../dist/web/', import.meta.url));
const SHOTS = fileURLToPath(new URL('../../test-artifacts/browser/', import.meta.url));

let browser: Browser;
let backend: Backend;
let server: Server;
let url: string;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  browser = await chromium.launch({
    executablePath: findOrInstallChromium(),
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-dev-shm-usage',
    ],
  });
  backend = await openPgliteBackend();
  const base = createApp({ cwd: '/nonexistent', env: {}, policy: { token: undefined }, assetsDir: WEB });
  server = createHttpServer(createOrgApp({ db: backend.db, base }));
  url = `http://127.0.0.1:${await listen(server, 0, '127.0.0.1')}/`;
}, 600_000);

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  await backend?.close();
  await browser?.close();
});

describe('the Organisation page', () => {
  it('shows the curate queue with who proposed each lesson, and accepts a proposal', async () => {
    const org = orgName();
    const curator = await tokenFor(backend.db, org, 'cora', 'curate');
    const writer = (await authenticate(backend.db, await tokenFor(backend.db, org, 'wes', 'write')))!;
    const proposal = makeLesson({ summary: 'Pin the kubectl context before applying manifests' });
    await pushOrgLessons(backend.db, writer, [{ lesson: proposal }]);

    const context = await browser.newContext({ viewport: { width: 1366, height: 860 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${url}#/org`);
    await page.locator('input[name=org-token]').fill(curator);
    await page.locator('button[type=submit]').click();
    const row = page.locator('table.org-lessons tbody tr', { hasText: 'Pin the kubectl context' });
    await row.waitFor();
    expect(await row.locator('.proposed-by').textContent()).toBe('wes');
    expect(await page.locator('.whoami').textContent()).toContain('cora, role curate');
    await page.screenshot({ path: `${SHOTS}org-curate-queue.png`, fullPage: true });
    await row.locator('button[data-action=accept]').click();
    await page.locator('.toast', { hasText: `accepted ${proposal.id}` }).waitFor();
    await page.locator('p', { hasText: 'The curate queue is empty.' }).waitFor();
    await page.locator('select[name=state]').selectOption('accepted');
    await page.locator('table.org-lessons tbody tr', { hasText: 'Pin the kubectl context' }).waitFor();
    await page.screenshot({ path: `${SHOTS}org-accepted.png`, fullPage: true });
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);
});

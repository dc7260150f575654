/// <reference lib="dom" />
/**
 * The dashboard in a real browser: Debian's chromium driven by playwright-core, against the built
 * dashboard (dist/web, from `npm run build`) served by the real node:http server on loopback.
 * Screenshots go to test-artifacts/browser/ (gitignored), kept for people to look at.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { appendAudit } from '../../src/store/hook-state/audit-log.js';
import { createAnthropicProvider } from '../../src/store/distill/api-providers.js';
import { distillCandidates } from '../../src/store/distill/distill-candidates.js';
import { embedWorkspace } from '../../src/store/embed/embed-workspace.js';
import { openEmbeddingProvider } from '../../src/store/embed/embedding-settings.js';
import type { EmbeddingSettings } from '../../src/store/embed/embedding-settings.js';
import { startEmbeddingServer } from '../../scripts/embedding-server.mjs';
import { openDashboardPage, serveDashboard, SHOTS, useChromium } from '../helpers/dashboard-browser.js';
import { writeCandidate } from '../helpers/distill-candidate.js';
import { lessonAnswer, startModelEndpoint } from '../helpers/model-endpoint.js';
import { createAppSandbox, NOW } from '../helpers/http.js';

const browser = useChromium();

/** A page that records console errors and CSP violations, closed after the test. */
function openPage(colorScheme: 'light' | 'dark' = 'light') {
  return openDashboardPage(browser(), { colorScheme });
}

describe('dashboard in chromium', () => {
  it('approves a candidate end to end, and it becomes a lesson', async () => {
    const sandbox = createAppSandbox();
    await sandbox.scanFixture();
    const url = await serveDashboard(sandbox);
    const { page, errors } = await openPage();
    await page.goto(`${url}#/review`);
    const first = page.locator('.queue li').first();
    await first.waitFor();
    const queued = await page.locator('.queue li').count();
    expect(queued).toBeGreaterThanOrEqual(2);
    const summary = page.locator('.candidate input[name=summary]');
    await summary.fill('Read a file before editing it (approved in the browser)');
    await summary.press('Escape');
    await page.keyboard.press('a');
    await page.locator('.toast', { hasText: 'approved as lesson' }).waitFor();
    await page.waitForFunction((n) => document.querySelectorAll('.queue li').length === n - 1, queued);
    await page.screenshot({ path: `${SHOTS}review-after-approve.png`, fullPage: true });

    await page.keyboard.press('r');
    await page.locator('.toast', { hasText: 'rejected' }).waitFor();
    await page.waitForFunction((n) => document.querySelectorAll('.queue li').length === n - 2, queued);

    await page.goto(`${url}#/lessons`);
    const row = page.locator('table.lessons tbody tr', { hasText: 'approved in the browser' });
    await row.waitFor();
    await row.locator('a').click();
    await page.locator('#lesson-summary', { hasText: 'approved in the browser' }).waitFor();
    await page.locator('.pill', { hasText: 'source: capture' }).waitFor();
    await page.screenshot({ path: `${SHOTS}lesson-from-candidate.png`, fullPage: true });
    expect(errors).toEqual([]);
  });

  it('a page still loading when the user moves on never overwrites the page after it', async () => {
    const sandbox = createAppSandbox();
    const id = await sandbox.add({ summary: 'pytest hangs: run it with CI=1', commands: ['\\bpytest\\b'] });
    const url = await serveDashboard(sandbox);
    const { page, errors } = await openPage();
    await page.goto(`${url}#/lessons`);
    await page.locator('main[data-ready=lessons]').waitFor();
    // the lesson's own answer comes late: the user is on the lessons list by then
    let held: (() => void) | undefined;
    const answered = new Promise<void>((resolve) => (held = resolve));
    await page.route(`**/api/lessons/${id}`, async (route) => {
      await answered;
      await route.continue();
    });
    await page.evaluate((to) => (location.hash = to), `#/lessons/${id}`);
    await page.locator('main[data-page=lessons]').waitFor();
    await page.evaluate(() => (location.hash = '#/analytics'));
    await page.locator('main[data-ready=analytics]').waitFor();
    held?.();
    await page.waitForTimeout(500);
    expect(await page.locator('main').getAttribute('data-ready')).toBe('analytics');
    expect(await page.locator('#lesson-summary').count()).toBe(0);
    expect(await page.locator('main > .view').count()).toBe(1);
    expect(errors).toEqual([]);
  });

  it('supersedes a lesson from its page', async () => {
    const sandbox = createAppSandbox();
    const oldId = await sandbox.add({
      summary: 'pytest hangs: run it with CI=1',
      commands: ['\\bpytest\\b'],
    });
    const newId = await sandbox.add({
      summary: 'pytest hangs on a TTY: run CI=1 pytest -p no:cacheprovider',
      commands: ['\\bpytest\\b'],
    });
    const url = await serveDashboard(sandbox);
    const { page, errors } = await openPage();
    await page.goto(`${url}#/lessons/${oldId}`);
    await page.locator('input[name=by]').fill(newId.slice(0, 6));
    await page.locator('button[name=supersede]').click();
    await page.locator('.notice.inline', { hasText: 'Superseded by' }).waitFor();
    await page.locator('.pill.status-superseded').waitFor();
    await page.screenshot({ path: `${SHOTS}lesson-superseded.png`, fullPage: true });
    await page.locator('.notice.inline a').click();
    await page.locator('#lesson-summary', { hasText: 'no:cacheprovider' }).waitFor();
    await page.locator('a', { hasText: 'pytest hangs: run it with CI=1' }).waitFor();

    await page.goto(`${url}#/lessons`);
    await page.locator('table.lessons tbody tr').first().waitFor();
    expect(await page.locator('table.lessons tbody tr').count()).toBe(1);
    expect(errors).toEqual([]);
  });

  it('searches lessons by meaning with the "by meaning" box, and says why when it cannot', async () => {
    const endpoint = await startEmbeddingServer({ dimensions: 256 });
    onTestFinished(() => endpoint.close());
    const sandbox = createAppSandbox();
    await sandbox.add({ summary: 'pytest waits on a TTY: run it with CI=1' });
    await sandbox.add({ summary: 'docker compose: free port 5432 before starting postgres' });
    const home = sandbox.env.LORE_HOME as string;
    mkdirSync(home, { recursive: true });
    writeFileSync(
      join(home, 'config.yaml'),
      JSON.stringify({
        embeddings: { provider: 'ollama', url: endpoint.url, model: 'bow-256', timeoutSeconds: 1 },
      }),
    );
    const ws = await sandbox.open();
    try {
      const report = await embedWorkspace(ws, openEmbeddingProvider(ws, sandbox.env) as EmbeddingSettings);
      expect(report.lessons.withVectors).toBe(2);
    } finally {
      ws.close();
    }
    const url = await serveDashboard(sandbox);
    const { page, errors } = await openPage();
    await page.goto(`${url}#/lessons`);
    await page.locator('table.lessons tbody tr').first().waitFor();
    await page.locator('input[name=q]').fill('why does my test runner hang in the pipeline');
    await page.locator('table.lessons tbody tr').first().waitFor({ state: 'detached' });
    await page.locator('input[name=hybrid]').check();
    await page.locator('table.lessons tbody tr', { hasText: 'pytest waits on a TTY' }).waitFor();
    expect(await page.locator('table.lessons tbody tr').count()).toBe(1);
    await page.screenshot({ path: `${SHOTS}lessons-by-meaning.png`, fullPage: true });
    endpoint.setMode('status500');
    await page.locator('input[name=q]').fill('pytest');
    await page.locator('.search-notice', { hasText: 'HTTP 500' }).waitFor();
    await page.locator('input[name=hybrid]').uncheck();
    expect(errors).toEqual([]);
  });

  it('draws the analytics charts from the audit log (light and dark)', async () => {
    const sandbox = createAppSandbox();
    const id = await sandbox.add({ summary: 'git stash drops untracked files: use git stash -u' });
    const ws = await sandbox.open();
    for (let day = 0; day < 10; day += 1) {
      for (let n = 0; n <= day % 4; n += 1) {
        appendAudit(ws.cacheDir, {
          time: new Date(NOW - day * 86_400_000 - n * 60_000).toISOString(),
          host: 'claude-code',
          session: `s${day}`,
          agent: '',
          event: 'PreToolUse',
          tool: 'Bash',
          source: null,
          lessons: [{ id, matched_by: ['command:git stash'], form: 'full' }],
          denied: [],
          bytes: 100,
          dropped: [],
          dropped_count: 0,
        });
      }
    }
    ws.close();
    const url = await serveDashboard(sandbox);
    for (const scheme of ['light', 'dark'] as const) {
      const { page, errors } = await openPage(scheme);
      await page.goto(`${url}#/analytics`);
      const bars = page.locator('#injections-chart svg rect.bar');
      await bars.last().waitFor();
      expect(await bars.count()).toBe(30);
      const tallest = await bars.evaluateAll((rects) =>
        Math.max(...rects.map((r) => (r as SVGRectElement).getBBox().height)),
      );
      expect(tallest).toBeGreaterThan(50);
      await page.locator('.ranks li', { hasText: 'git stash drops untracked' }).waitFor();
      const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      expect(background).toBe(scheme === 'dark' ? 'rgb(21, 23, 27)' : 'rgb(247, 247, 245)');
      await page.screenshot({ path: `${SHOTS}analytics-${scheme}.png`, fullPage: true });
      expect(errors).toEqual([]);
    }
  });

  it('shows a distilled candidate beside its heuristic text, with the evidence', async () => {
    const sandbox = createAppSandbox();
    writeCandidate(sandbox.repo, '0000000001');
    const endpoint = await startModelEndpoint(() => ({ text: lessonAnswer() }));
    const ws = await sandbox.open();
    const provider = createAnthropicProvider({
      baseUrl: endpoint.url,
      model: 'claude-test',
      apiKey: undefined,
    });
    const limits = { dailyCalls: 5, dailyTokens: 40_000 };
    const run = await distillCandidates(
      ws,
      { provider, timeoutMs: 5000, maxOutputTokens: 500, limits },
      { nowMs: NOW, names: [] },
    );
    ws.close();
    expect(run.results.map((r) => r.outcome)).toEqual(['applied']);
    const url = await serveDashboard(sandbox);
    const { page, errors } = await openPage();
    await page.goto(`${url}#/review`);
    const heuristic = page.locator('.compare .heuristic');
    const distilled = page.locator('.compare .distilled');
    await heuristic.waitFor();
    expect(await heuristic.innerText()).toContain('`git push` failed (rejected)');
    expect(await distilled.innerText()).toContain('Run `git push` only after `git pull --rebase`');
    expect(await distilled.innerText()).toContain(
      'Implication: The push fails and the agent retries blindly.',
    );
    const boxes = await Promise.all([heuristic.boundingBox(), distilled.boundingBox()]);
    // Side by side: one row, the heuristic on the left.
    expect(boxes[0]!.y).toBe(boxes[1]!.y);
    expect(boxes[0]!.x).toBeLessThan(boxes[1]!.x);
    await page.locator('.candidate .scope-row', { hasText: 'git push origin main' }).waitFor();
    await page.screenshot({ path: `${SHOTS}review-distilled.png`, fullPage: true });
    expect(errors).toEqual([]);
  });
});

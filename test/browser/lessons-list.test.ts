/// <reference lib="dom" />
/**
 * The Lessons page over a store bigger than one page (500 lessons) in a real browser (chromium
 * through playwright-core, the built dashboard served by the real node:http server): it says how
 * many of how many it shows, and "Show more" loads the rest; a lesson file that could not be loaded
 * is named above the list; Votes sorts by the count it shows; the headers sort from the keyboard.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDashboardPage, serveDashboard, useChromium } from '../helpers/dashboard-browser.js';
import { upvoteLesson } from '../../src/store/lessons/lesson-writes.js';
import { createAppSandbox, NOW } from '../helpers/http.js';

const browser = useChromium();

/** `count` lesson files written straight into the project tier (the index reads them on start). */
function writeLessons(repo: string, count: number): void {
  for (let n = 0; n < count; n += 1) {
    const id = `bk${String(n).padStart(8, '0')}`;
    const dir = join(repo, '.lore', 'lessons', id);
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'lesson.yaml'),
      [
        'schemaVersion: 1',
        `id: ${id}`,
        `slug: bulk-lesson-${n}`,
        `summary: Bulk lesson ${n}`,
        'commands:',
        `  - bulk${n}\\b`,
        'category: technical',
        'severity: medium',
        'type: hint',
        'tier: project',
        'priority: 5',
        'confidence: 0.9',
        'status: active',
        'createdAt: 2026-11-20T00:00:00.000Z',
        'updatedAt: 2026-11-20T00:00:00.000Z',
        '',
      ].join('\n'),
    );
  }
}

describe('lessons page', () => {
  it('says how many lessons it shows of how many, and shows the rest on "Show more"', async () => {
    const sandbox = createAppSandbox();
    writeLessons(sandbox.repo, 520);
    const url = await serveDashboard(sandbox);
    const { page, errors } = await openDashboardPage(browser());
    await page.goto(`${url}#/lessons`);
    await page.locator('main[data-ready=lessons] table.lessons').waitFor();
    expect(await page.locator('table.lessons tbody tr').count()).toBe(500);
    expect(await page.locator('.list-more').textContent()).toContain('500 of 520');

    await page.locator('.list-more button', { hasText: 'Show more' }).click();
    await page.waitForFunction(() => document.querySelectorAll('table.lessons tbody tr').length === 520);
    expect(await page.locator('.list-more button').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('names a lesson file that could not be loaded above the list', async () => {
    const sandbox = createAppSandbox();
    await sandbox.add({ summary: 'git stash drops untracked files: use git stash -u' });
    const broken = await sandbox.add({ summary: 'pytest hangs on a TTY: run CI=1 pytest' });
    writeFileSync(join(sandbox.repo, '.lore', 'lessons', broken, 'lesson.yaml'), 'summary: [unclosed\n');
    const url = await serveDashboard(sandbox);
    const { page, errors } = await openDashboardPage(browser());
    await page.goto(`${url}#/lessons`);
    await page.locator('main[data-ready=lessons] table.lessons').waitFor();
    const warning = page.locator('.list-problems');
    expect(await warning.textContent()).toContain(`.lore/lessons/${broken}/lesson.yaml:`);
    expect(await warning.textContent()).toContain('lore check');
    expect(errors).toEqual([]);
  });

  it('sorts by the vote count the Votes column shows', async () => {
    const sandbox = createAppSandbox();
    const old = await sandbox.add({ summary: 'git stash drops untracked files: use git stash -u' });
    const recent = await sandbox.add({ summary: 'pytest hangs on a TTY: run CI=1 pytest' });
    const ws = await sandbox.open();
    const longAgo = new Date(NOW - 400 * 86_400_000).toISOString();
    for (const task of ['t1', 't2']) await upvoteLesson(ws, old, { model: 'human', task, at: longAgo });
    await upvoteLesson(ws, recent, { model: 'human', task: 't3', at: new Date(NOW).toISOString() });
    ws.close();
    const url = await serveDashboard(sandbox);
    const { page, errors } = await openDashboardPage(browser());
    await page.goto(`${url}#/lessons`);
    await page.locator('main[data-ready=lessons] table.lessons').waitFor();
    await page.locator('th[data-sort=votes]').click();
    await page.locator('th[data-sort=votes].desc').waitFor();
    const rows = await page
      .locator('table.lessons tbody tr')
      .evaluateAll((trs) =>
        trs.map((tr) => [tr.getAttribute('data-id'), tr.querySelectorAll('td')[5]?.textContent]),
      );
    expect(rows).toEqual([
      [old, '2'],
      [recent, '1'],
    ]);
    expect(errors).toEqual([]);
  });

  it('sorts from the keyboard: a header is a button, Enter sorts, the focus stays on it', async () => {
    const sandbox = createAppSandbox();
    await sandbox.add({ summary: 'b lesson', priority: 2 });
    await sandbox.add({ summary: 'a lesson', priority: 9 });
    const url = await serveDashboard(sandbox);
    const { page, errors } = await openDashboardPage(browser());
    await page.goto(`${url}#/lessons`);
    await page.locator('main[data-ready=lessons] table.lessons').waitFor();
    await page.locator('th[data-sort=priority] button').focus();
    await page.keyboard.press('Enter');
    await page.locator('th[data-sort=priority][aria-sort=descending]').waitFor();
    const summaries = await page.locator('table.lessons tbody tr td:first-child a').allTextContents();
    expect(summaries).toEqual(['a lesson', 'b lesson']);
    await page.keyboard.press('Enter');
    await page.locator('th[data-sort=priority][aria-sort=ascending]').waitFor();
    expect(await page.locator('table.lessons tbody tr td:first-child a').allTextContents()).toEqual([
      'b lesson',
      'a lesson',
    ]);
    expect(errors).toEqual([]);
  });
});

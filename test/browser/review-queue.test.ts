/// <reference lib="dom" />
/**
 * The review queue in two tabs (chromium through playwright-core, the built dashboard served by
 * the real node:http server): a candidate the other tab already decided leaves this tab's queue
 * on the next action, with a word saying so, instead of failing the same way on every try; tags
 * emptied in the form are approved empty; a double click approves once.
 */
import { describe, expect, it } from 'vitest';
import { openDashboardPage, serveDashboard, useChromium } from '../helpers/dashboard-browser.js';
import { createAppSandbox } from '../helpers/http.js';

const browser = useChromium();

// approving a candidate the other tab took answers 404, which the browser logs as a failed load
const openPage = () => openDashboardPage(browser(), { expected: ['404'] });

describe('review queue', () => {
  it('drops a candidate the other tab already approved, and says so', async () => {
    const sandbox = createAppSandbox();
    await sandbox.scanFixture();
    const url = await serveDashboard(sandbox);
    const first = await openPage();
    const second = await openPage();
    for (const { page } of [first, second]) {
      await page.goto(`${url}#/review`);
      await page.locator('main[data-ready=review] .queue li').first().waitFor();
    }
    const queued = await first.page.locator('.queue li').count();
    const taken = await first.page.locator('.queue li.selected').getAttribute('data-id');

    await second.page.locator('.candidate button[name=approve]').click();
    await second.page.locator('.toast', { hasText: 'approved as lesson' }).waitFor();
    await first.page.locator('.candidate button[name=approve]').click();
    await first.page.locator('.toast', { hasText: 'already decided' }).waitFor();
    await first.page.waitForFunction((n) => document.querySelectorAll('.queue li').length === n - 1, queued);
    expect(await first.page.locator(`.queue li[data-id="${taken}"]`).count()).toBe(0);
    expect([...first.errors, ...second.errors]).toEqual([]);
  });

  it('approves a candidate without the tags the user emptied', async () => {
    const sandbox = createAppSandbox();
    await sandbox.scanFixture();
    const url = await serveDashboard(sandbox);
    const { page, errors } = await openPage();
    await page.goto(`${url}#/review`);
    await page.locator('main[data-ready=review] .queue li').first().waitFor();
    expect(await page.locator('.candidate input[name=tags]').inputValue()).not.toBe('');
    await page.locator('.candidate input[name=tags]').fill('');
    await page.locator('.candidate button[name=approve]').click();
    const toast = await page.locator('.toast', { hasText: 'approved as lesson' }).textContent();
    const id = /approved as lesson (\w+)/.exec(toast ?? '')?.[1] ?? '';

    const ws = await sandbox.open();
    const [listed] = (await ws.index.list({ status: 'any' }, Date.now(), ws.halfLifeDays)).filter(
      (item) => item.lesson.id === id,
    );
    ws.close();
    expect(listed?.lesson.tags).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('approves a double-clicked candidate once, and keeps its answer on screen', async () => {
    const sandbox = createAppSandbox();
    await sandbox.scanFixture();
    const url = await serveDashboard(sandbox);
    const { page, errors } = await openPage();
    await page.goto(`${url}#/review`);
    await page.locator('main[data-ready=review] .queue li').first().waitFor();
    const queued = await page.locator('.queue li').count();
    await page.locator('.candidate button[name=approve]').dblclick();
    await page.waitForFunction((n) => document.querySelectorAll('.queue li').length === n - 1, queued);
    await page.locator('main[data-ready=review] .queue li').first().waitFor();
    expect(await page.locator('.toast').textContent()).toContain('approved as lesson');

    const ws = await sandbox.open();
    const lessons = await ws.index.list({ status: 'any' }, Date.now(), ws.halfLifeDays);
    ws.close();
    expect(lessons).toHaveLength(1);
    expect(errors).toEqual([]);
  });
});

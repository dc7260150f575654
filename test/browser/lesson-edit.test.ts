/// <reference lib="dom" />
/**
 * A lesson's Edit form in a real browser (chromium through playwright-core, the built dashboard
 * served by the real node:http server): a save sends only what the user changed, so two tabs
 * editing different fields of one lesson both keep their change, a text emptied is removed, and
 * path globs are one a line (a brace glob holds commas); a save over the other tab's change to the
 * same field is refused and said.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openDashboardPage, serveDashboard, useChromium } from '../helpers/dashboard-browser.js';
import { createAppSandbox } from '../helpers/http.js';

const browser = useChromium();

/** Opens the lesson's page in `page` with its Edit form showing. */
async function openEditForm(page: Page, url: string, id: string): Promise<void> {
  await page.goto(`${url}#/lessons/${id}`);
  await page.locator('main[data-ready=lessons] #lesson-summary').waitFor();
  await page.locator('.page-head button', { hasText: 'Edit' }).click();
  await page.locator('form.lesson-form').waitFor();
}

async function save(page: Page): Promise<void> {
  await page.locator('form.lesson-form button[type=submit]').click();
  await page.locator('.toast', { hasText: 'saved' }).waitFor();
}

describe('editing a lesson in the dashboard', () => {
  it('keeps both changes when two tabs edit different fields of one lesson', async () => {
    const sandbox = createAppSandbox();
    const id = await sandbox.add({
      summary: 'Run pytest with CI=1',
      commands: ['\\bpytest\\b'],
      priority: 5,
    });
    const url = await serveDashboard(sandbox);
    const first = await openDashboardPage(browser());
    const second = await openDashboardPage(browser());
    await openEditForm(first.page, url, id);
    await openEditForm(second.page, url, id);

    await first.page.locator('form.lesson-form [name=summary]').fill('Run pytest with CI=1 (first tab)');
    await save(first.page);
    // the second tab's form still shows the old summary; it changes only the priority
    await second.page.locator('form.lesson-form [name=priority]').fill('9');
    await save(second.page);

    const ws = await sandbox.open();
    const lesson = (await ws.index.get('project', id))?.lesson;
    ws.close();
    expect(lesson?.summary).toBe('Run pytest with CI=1 (first tab)');
    expect(lesson?.priority).toBe(9);
    expect([...first.errors, ...second.errors]).toEqual([]);
  });

  it('removes a body the user emptied, and keeps the texts left alone', async () => {
    const sandbox = createAppSandbox();
    const id = await sandbox.add({
      summary: 'Run pytest with CI=1',
      body: 'an outdated explanation',
      mistake: 'pytest hung waiting for input',
      commands: ['\\bpytest\\b'],
    });
    const url = await serveDashboard(sandbox);
    const { page, errors } = await openDashboardPage(browser());
    await openEditForm(page, url, id);
    await page.locator('form.lesson-form [name=body]').fill('');
    await save(page);
    await page.locator('pre.body').waitFor({ state: 'detached' });

    const ws = await sandbox.open();
    const lesson = (await ws.index.get('project', id))?.lesson;
    ws.close();
    expect(lesson?.body).toBeUndefined();
    expect(lesson?.mistake).toBe('pytest hung waiting for input');
    expect(errors).toEqual([]);
  });

  it('takes a path glob with braces, one a line, in the New lesson form', async () => {
    const sandbox = createAppSandbox();
    const url = await serveDashboard(sandbox);
    const { page, errors } = await openDashboardPage(browser());
    await page.goto(`${url}#/new`);
    await page.locator('form.lesson-form [name=summary]').fill('Regenerate the API client after editing it');
    await page.locator('form.lesson-form [name=paths]').fill('src/{api,web}/**/*.ts\ndocs/*.md');
    await page.locator('form.lesson-form button[type=submit]').click();
    await page.locator('#lesson-summary', { hasText: 'Regenerate the API client' }).waitFor();

    const ws = await sandbox.open();
    const [listed] = await ws.index.list({ status: 'active' }, Date.now(), ws.halfLifeDays);
    ws.close();
    expect(listed?.lesson.paths).toEqual(['src/{api,web}/**/*.ts', 'docs/*.md']);
    expect(errors).toEqual([]);
  });

  it('refuses to save over a change the other tab made to the same field, and says so', async () => {
    const sandbox = createAppSandbox();
    const id = await sandbox.add({ summary: 'Run pytest with CI=1', commands: ['\\bpytest\\b'] });
    const url = await serveDashboard(sandbox);
    const first = await openDashboardPage(browser());
    // the refused save answers 409, which the browser logs as a failed load
    const second = await openDashboardPage(browser(), { expected: ['409'] });
    await openEditForm(first.page, url, id);
    await openEditForm(second.page, url, id);

    await first.page.locator('form.lesson-form [name=summary]').fill('Run pytest with CI=1 (first tab)');
    await save(first.page);
    await second.page.locator('form.lesson-form [name=summary]').fill('Run pytest with CI=1 (second tab)');
    await second.page.locator('form.lesson-form button[type=submit]').click();
    await second.page.locator('.toast', { hasText: 'summary changed since this edit began' }).waitFor();

    const ws = await sandbox.open();
    const lesson = (await ws.index.get('project', id))?.lesson;
    ws.close();
    expect(lesson?.summary).toBe('Run pytest with CI=1 (first tab)');
    expect([...first.errors, ...second.errors]).toEqual([]);
  });
});

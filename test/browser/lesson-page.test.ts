/// <reference lib="dom" />
/**
 * A lesson's page reached by a URL typed or pasted by hand (chromium through playwright-core, the
 * built dashboard served by the real node:http server): an id that is not valid percent-encoding
 * gets the page's "no lesson" answer, never a blank page and an uncaught error; a vote the store
 * did not count again says so.
 */
import { describe, expect, it } from 'vitest';
import { openDashboardPage, serveDashboard, useChromium } from '../helpers/dashboard-browser.js';
import { createAppSandbox } from '../helpers/http.js';

const browser = useChromium();

describe('lesson page', () => {
  it('answers an id with a stray % with "no lesson matches", not a blank page', async () => {
    const sandbox = createAppSandbox();
    await sandbox.add({ summary: 'Run pytest with CI=1', commands: ['\\bpytest\\b'] });
    const url = await serveDashboard(sandbox);
    // the unknown id's lookup answers 404, which the browser logs as a failed load
    const { page, errors } = await openDashboardPage(browser(), { expected: ['404'] });
    await page.goto(`${url}#/lessons/100%`);
    await page.locator('main[data-ready=lessons] .empty', { hasText: 'no lesson matches "100%"' }).waitFor();
    expect(errors).toEqual([]);
  });

  it('says a second upvote for the same task was not counted again', async () => {
    const sandbox = createAppSandbox();
    const id = await sandbox.add({ summary: 'Run pytest with CI=1', commands: ['\\bpytest\\b'] });
    const url = await serveDashboard(sandbox);
    const { page, errors } = await openDashboardPage(browser());
    await page.goto(`${url}#/lessons/${id}`);
    await page.locator('main[data-ready=lessons] #lesson-summary').waitFor();
    await page.locator('button', { hasText: 'Upvote' }).click();
    await page.locator('.toast', { hasText: 'upvoted' }).waitFor();
    await page.locator('.card', { hasText: '1 vote(s)' }).waitFor();
    await page.locator('button', { hasText: 'Upvote' }).click();
    await page.locator('.toast', { hasText: 'already counted' }).waitFor();
    expect(await page.locator('.card', { hasText: '1 vote(s)' }).count()).toBe(1);
    expect(errors).toEqual([]);
  });
});

/// <reference lib="dom" />
/**
 * The review page in a real browser (chromium through playwright-core, the built dashboard served
 * by the real node:http server): approving a candidate whose trigger the breadth check finds too
 * broad shows the figures and saves only on a second click; lessons held for review are listed
 * with the transcript lines where their mistake repeated, and kept or archived from there.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CachedCall } from '../../src/core/breadth/cached-call.js';
import type { OutcomeRecord } from '../../src/core/feedback/outcome-record.js';
import { callCachePath, writeCallCache } from '../../src/store/breadth/call-cache.js';
import { openDashboardPage, serveDashboard, SHOTS, useChromium } from '../helpers/dashboard-browser.js';
import { writeCandidate } from '../helpers/distill-candidate.js';
import { createAppSandbox, NOW } from '../helpers/http.js';

const browser = useChromium();

// a too-broad approval answers 409, which the browser logs as a failed load
const openPage = () => openDashboardPage(browser(), { expected: ['409'] });

/** 100 recent calls: 20 `git push origin main` that all worked, 80 `ls`. */
function recentCalls(): CachedCall[] {
  return Array.from({ length: 100 }, (_, i) => ({
    id: `t${i}`,
    time: new Date(NOW - (100 - i) * 60_000).toISOString(),
    agent: 'claude-code' as const,
    session: 's1',
    project: '/work/app',
    tool: 'Bash',
    command: i % 5 === 0 ? 'git push origin main' : 'ls -la',
    keys: [i % 5 === 0 ? 'git push' : 'ls'],
    outcome: 'ok' as const,
  }));
}

describe('review page', () => {
  it('asks a second click to approve a broad trigger, showing its figures', async () => {
    const sandbox = createAppSandbox();
    writeCandidate(sandbox.repo, '0000000001', 'git push origin main');
    writeCallCache(callCachePath(join(sandbox.repo, '.lore', 'cache')), recentCalls());
    const url = await serveDashboard(sandbox);
    const { page, errors } = await openPage();
    await page.goto(`${url}#/review`);
    await page.locator('.queue li[data-id="0000000001"]').waitFor();
    await page.locator('.candidate button[name=approve]').click();
    const warning = page.locator('.breadth-warning');
    await warning.waitFor();
    expect(await warning.textContent()).toContain(
      'would have fired on 20 of your last 100 calls, 0 of them at this mistake',
    );
    // Not saved: the candidate is still queued, and the button now says what a second click does.
    expect(await page.locator('.queue li').count()).toBe(1);
    await page.screenshot({ path: `${SHOTS}review-broad-trigger.png`, fullPage: true });
    await page.locator('.candidate button[name=approve-anyway]').click();
    await page.locator('.toast', { hasText: 'would have fired on 20 of your last 100 calls' }).waitFor();
    await page.waitForFunction(() => document.querySelectorAll('.queue li').length === 0);
    expect(errors).toEqual([]);
  });

  it('the lesson form says a broad trigger, saves it on a second click, and a waiting lesson at once', async () => {
    const sandbox = createAppSandbox();
    writeCallCache(callCachePath(join(sandbox.repo, '.lore', 'cache')), recentCalls());
    const url = await serveDashboard(sandbox);
    const { page, errors } = await openPage();
    await page.goto(`${url}#/new`);
    const form = page.locator('form.lesson-form');
    await form.locator('input[name=summary]').fill('ls lists the folder: mind hidden files');
    await form.locator('textarea[name=commands]').fill('^ls\\b');
    await form.locator('button[type=submit]').click();
    const warning = form.locator('.breadth-warning');
    await warning.waitFor();
    expect(await warning.textContent()).toContain('would have fired on 80 of your last 100 calls');
    expect(await form.locator('button[type=submit]').textContent()).toBe('Save anyway');
    // a change asks the check again: the error it waits for makes it narrow, saved on the first click
    await form.locator('textarea[name=errors]').fill('No such file or directory');
    expect(await warning.isHidden()).toBe(true);
    expect(await form.locator('button[type=submit]').textContent()).toBe('Add lesson');
    await form.locator('button[type=submit]').click();
    await page.waitForURL(/#\/lessons\/[0-9a-z]{10}$/);
    const waiting = page.url().split('/').at(-1) ?? '';
    await page.locator('.muted', { hasText: 'waits for its error' }).waitFor();
    // the broad one, saved anyway
    await page.goto(`${url}#/new`);
    await form.locator('input[name=summary]').fill('ls lists the folder: mind hidden files');
    await form.locator('textarea[name=commands]').fill('^ls\\b');
    await form.locator('button[type=submit]').click();
    await warning.waitFor();
    await form.locator('button[type=submit]').click();
    await page.waitForURL((u) => /#\/lessons\/[0-9a-z]{10}$/.test(u.hash) && !u.hash.endsWith(waiting));
    // the lessons table marks the one that waits
    await page.goto(`${url}#/lessons`);
    await page.locator(`tr[data-id="${waiting}"] .pill`, { hasText: 'waits for its error' }).waitFor();
    expect(await page.locator('.pill', { hasText: 'waits for its error' }).count()).toBe(1);
    expect(errors).toEqual([]);
  });

  it('lists lessons held for review with their repeats, and keeps or archives them', async () => {
    const sandbox = createAppSandbox();
    const held = await sandbox.add({ summary: 'Install deps before pytest', needsReview: true });
    const broad = await sandbox.add({ summary: 'Every shell call', tools: ['Bash'], needsReview: true });
    const repeated = (line: number): OutcomeRecord => ({
      injection: `s1/2026-11-0${line}T00:00:00Z/${held}`,
      lesson: held,
      session: 's1',
      injectedAt: `2026-11-0${line}T00:00:00Z`,
      judgedAt: '2026-11-10T00:00:00Z',
      form: 'after-call',
      verdict: 'repeated',
      linkedBy: 'call-id',
      evidence: { file: 'sessions/s1.jsonl', line: line * 10 },
    });
    writeFileSync(
      join(sandbox.repo, '.lore', 'cache', 'outcomes.jsonl'),
      [repeated(1), repeated(2), repeated(3)].map((r) => `${JSON.stringify(r)}\n`).join(''),
    );
    const url = await serveDashboard(sandbox);
    const { page, errors } = await openPage();
    await page.goto(`${url}#/review`);
    const card = page.locator(`#held .held-lesson[data-id="${held}"]`);
    await card.waitFor();
    expect(await card.locator('.evidence li').allTextContents()).toEqual([
      'sessions/s1.jsonl:30 (after-call, 2026-11-03)',
      'sessions/s1.jsonl:20 (after-call, 2026-11-02)',
      'sessions/s1.jsonl:10 (after-call, 2026-11-01)',
    ]);
    await card.locator('.pill', { hasText: 'repeated 3' }).waitFor();
    const other = page.locator(`#held .held-lesson[data-id="${broad}"]`);
    expect(await other.locator('.breadth').textContent()).toContain('no call cache yet');
    await page.screenshot({ path: `${SHOTS}review-held-lessons.png`, fullPage: true });

    await card.locator('button[name=keep]').click();
    await page.locator('.toast', { hasText: `kept ${held}` }).waitFor();
    await page.waitForFunction(() => document.querySelectorAll('#held .held-lesson').length === 1);
    await other.locator('button[name=archive]').click();
    await page.locator('.toast', { hasText: `archived ${broad}` }).waitFor();
    await page.locator('#held .empty').waitFor();
    expect(errors).toEqual([]);
  });
});

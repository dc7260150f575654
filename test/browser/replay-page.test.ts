/// <reference lib="dom" />
/**
 * What lore measured, in a real browser (Debian's chromium through playwright-core, the built
 * dashboard in dist/web served by the real node:http server): the Replay page from a hand-written
 * last replay, the lesson page's Measured card, and the analytics page's weekly outcome charts.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDashboardPage, serveDashboard, SHOTS, useChromium } from '../helpers/dashboard-browser.js';
import { createAppSandbox, NOW } from '../helpers/http.js';
import type { AppSandbox } from '../helpers/http.js';
import {
  appendOutcomes,
  lessonReplay,
  outcome,
  replayReport,
  writeLastReplay,
} from '../helpers/replay-files.js';

const browser = useChromium();

// the Replay page's empty state is a 404 from /api/replay, which the browser logs as a failed load
const openPage = () =>
  openDashboardPage(browser(), { expected: ['the server responded with a status of 404'] });

/** Three lessons in the last replay; the first also has judged injections. */
async function measuredSandbox(): Promise<{ sandbox: AppSandbox; ids: string[] }> {
  const sandbox = createAppSandbox();
  const ids = [
    await sandbox.add({ summary: 'pytest hangs on a TTY: run CI=1 pytest', commands: ['\\bpytest\\b'] }),
    await sandbox.add({ summary: 'read a file before editing it', tools: ['Edit'] }),
    await sandbox.add({ summary: 'git stash drops untracked files: use -u', commands: ['git stash'] }),
  ];
  const [pytest = '', edit = '', stash = ''] = ids;
  const cache = join(sandbox.repo, '.lore', 'cache');
  writeLastReplay(
    cache,
    replayReport(
      [
        lessonReplay(pytest, {
          summary: 'pytest hangs on a TTY: run CI=1 pytest',
          fires: 12,
          hits: 9,
          noise: 3,
          precision: 0.75,
        }),
        lessonReplay(edit, {
          summary: 'read a file before editing it',
          toolOnly: true,
          fires: 40,
          hits: 2,
          noise: 38,
          precision: 0.05,
        }),
        lessonReplay(stash, {
          summary: 'git stash drops untracked files: use -u',
          fires: 0,
          hits: 0,
          misses: 0,
          noise: 0,
          prevented: 0,
          precision: null,
          byForm: {},
        }),
      ],
      {
        suggestions: [
          {
            lesson: edit,
            kind: 'narrow',
            text: 'fired on 40 calls, 2 at its mistake',
            trigger: { paths: ['src/**/*.ts'] },
          },
          { lesson: stash, kind: 'retire', text: 'never fired in 660 calls' },
        ],
      },
    ),
  );
  const week = 7 * 86_400_000;
  appendOutcomes(cache, [
    outcome(pytest, new Date(NOW - 3_600_000).toISOString(), 'prevented'),
    outcome(pytest, new Date(NOW - 7_200_000).toISOString(), 'prevented'),
    outcome(pytest, new Date(NOW - 10_800_000).toISOString(), 'prevented'),
    outcome(pytest, new Date(NOW - week).toISOString(), 'noise'),
    outcome(edit, new Date(NOW - 2 * week).toISOString(), 'noise'),
  ]);
  return { sandbox, ids };
}

describe('what lore measured, in chromium', () => {
  it('says to run `lore replay` when there is no replay yet', async () => {
    const sandbox = createAppSandbox();
    const id = await sandbox.add({
      summary: 'pytest hangs on a TTY: run CI=1 pytest',
      commands: ['\\bpytest\\b'],
    });
    const url = await serveDashboard(sandbox);
    const { page, errors } = await openPage();
    await page.goto(`${url}#/replay`);
    await page.locator('main[data-ready=replay]').waitFor();
    await page.locator('.replay-empty', { hasText: 'No replay yet.' }).waitFor();
    expect(await page.locator('.replay-empty').innerText()).toContain('Run lore replay');
    expect(await page.locator('nav a.active').innerText()).toBe('Replay');
    await page.goto(`${url}#/lessons/${id}`);
    await page.locator('#lesson-summary', { hasText: 'pytest hangs' }).waitFor();
    expect(await page.locator('#lesson-measures .replay-empty').innerText()).toMatch(
      /^No replay yet\. Run lore replay to see/,
    );
    expect(await page.locator('#lesson-measures .outcomes-empty').innerText()).toMatch(
      /^No injection judged yet/,
    );
    expect(errors).toEqual([]);
  });

  it('shows the last replay: totals, the per-lesson table sorted by noise or precision, suggestions', async () => {
    const { sandbox, ids } = await measuredSandbox();
    const url = await serveDashboard(sandbox);
    const { page, errors } = await openPage();
    await page.goto(`${url}#/replay`);
    await page.locator('main[data-ready=replay]').waitFor();
    expect(await page.locator('#replay-totals .stat').first().innerText()).toContain('660');
    const rows = page.locator('table.replay-lessons tbody tr');
    expect(await rows.count()).toBe(3);
    // noisiest first
    expect(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-id')))).toEqual([
      ids[1],
      ids[0],
      ids[2],
    ]);
    expect(await rows.first().innerText()).toContain('tool only');
    await page.locator('th[data-sort=precision]').click();
    // highest precision first; the lesson that never fired (no precision) last
    expect(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-id')))).toEqual([
      ids[0],
      ids[1],
      ids[2],
    ]);
    expect(await rows.first().locator('td.precision').innerText()).toBe('75%');
    await page.locator('th[data-sort=precision]').click();
    expect(await rows.first().getAttribute('data-id')).toBe(ids[2]);
    const suggestions = page.locator('.suggestions li');
    expect(await suggestions.count()).toBe(2);
    expect(await page.locator('.suggestions li[data-kind=narrow]').innerText()).toContain(
      'paths: src/**/*.ts',
    );
    await page.screenshot({ path: `${SHOTS}replay-page.png`, fullPage: true });
    await page.locator('.suggestions li[data-kind=retire] a').click();
    await page.locator('#lesson-summary', { hasText: 'git stash drops untracked' }).waitFor();
    expect(errors).toEqual([]);
  });

  it('shows a lesson’s replay figures and the outcomes of its injections on its page', async () => {
    const { sandbox, ids } = await measuredSandbox();
    const url = await serveDashboard(sandbox);
    const { page, errors } = await openPage();
    await page.goto(`${url}#/lessons/${ids[0]}`);
    await page.locator('main[data-ready=lessons]').waitFor();
    const measured = page.locator('#lesson-measures');
    const tiles = await measured.locator('.replay-figures .stat').allInnerTexts();
    expect(tiles.map((t) => t.replace(/\s+/g, ' '))).toEqual([
      '12 fires',
      '9 hits',
      '1 misses',
      '3 noise',
      '2 prevented',
      '75% precision',
    ]);
    expect(await measured.locator('table.by-form tbody tr').count()).toBe(2);
    expect(await measured.locator('.as-checkpoint').innerText()).toBe(
      'As a checkpoint it would have denied 5 call(s) and prevented 3.',
    );
    const outcomes = await measured.locator('.outcome-figures .stat').allInnerTexts();
    expect(outcomes.map((t) => t.replace(/\s+/g, ' '))).toEqual([
      '3 prevented',
      '0 repeated',
      '1 noise',
      '0 unlinked',
    ]);
    await page.screenshot({ path: `${SHOTS}lesson-measured.png`, fullPage: true });

    await page.goto(`${url}#/lessons/${ids[2]}`);
    await page.locator('#lesson-summary', { hasText: 'git stash' }).waitFor();
    await page.locator('#lesson-measures .outcomes-empty').waitFor();
    expect(errors).toEqual([]);
  });

  it('charts mistakes prevented and injections that were noise per week on the analytics page', async () => {
    const { sandbox } = await measuredSandbox();
    const url = await serveDashboard(sandbox);
    const { page, errors } = await openPage();
    await page.goto(`${url}#/analytics`);
    await page.locator('main[data-ready=analytics]').waitFor();
    const heights = (chart: string) =>
      page
        .locator(`${chart} svg rect.bar`)
        .evaluateAll((rects) => rects.map((r) => Math.round((r as SVGRectElement).getBBox().height)));
    const prevented = await heights('#prevented-chart');
    const noise = await heights('#noise-chart');
    expect(prevented).toHaveLength(12);
    expect(noise).toHaveLength(12);
    // three prevented in this week, nothing before it
    expect(prevented.slice(0, 11).every((h) => h === 0)).toBe(true);
    expect(prevented[11]).toBeGreaterThan(50);
    // one noise in each of the two weeks before this one
    expect(noise.slice(9)).toEqual([noise[9], noise[9], 0]);
    expect(noise[9]).toBeGreaterThan(50);
    expect(await page.locator('#prevented-chart g.bar-group title').last().textContent()).toBe(
      '2026-W47 (from 2026-11-16): 3 prevented, 0 repeated, 0 unlinked',
    );
    await page.screenshot({ path: `${SHOTS}analytics-outcomes.png`, fullPage: true });
    expect(errors).toEqual([]);
  });
});

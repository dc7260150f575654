/**
 * Analytics (GET /api/analytics): the last 30 days of the hook's audit log, as numbers and charts,
 * and what outcome feedback (`lore scan`) concluded per ISO week: mistakes prevented, injections
 * that were noise.
 */
import { api } from '../api.js';
import type { Analytics, Usage } from '../api-types.js';
import { barChart, rankChart, ratioRing } from '../charts.js';
import { h, mount } from '../dom.js';
import type { PageContext } from '../page-context.js';
import { card } from '../ui/card.js';
import { statTiles } from '../ui/stat-tiles.js';
import { fail } from '../ui/toast.js';

function injectionsCard(usage: Usage): HTMLElement {
  return h(
    'section',
    { class: 'card', id: 'injections-chart' },
    h('h2', {}, 'Injections per day'),
    barChart(
      usage.injectionsPerDay.map((d) => ({
        label: d.day.slice(5),
        value: d.injections,
        extra: d.denials,
        title: `${d.day}: ${d.injections} injected, ${d.denials} denied`,
      })),
      { label: 'lessons injected (and calls denied, darker) per day' },
    ),
  );
}

function outcomesColumns(analytics: Analytics): HTMLElement {
  const weekly = (key: 'prevented' | 'noise', id: string, title: string, label: string) =>
    h(
      'section',
      { class: 'card', id },
      h('h2', {}, title),
      barChart(
        analytics.outcomesPerWeek.map((w) => ({
          label: w.week.slice(5),
          value: w[key],
          title: `${w.week} (from ${w.start}): ${w[key]} ${key}, ${w.repeated} repeated, ${w.unlinked} unlinked`,
        })),
        { label, height: 150 },
      ),
    );
  const judged = analytics.outcomesPerWeek.reduce(
    (sum, w) => sum + w.prevented + w.noise + w.repeated + w.unlinked,
    0,
  );
  return h(
    'div',
    {},
    h(
      'div',
      { class: 'columns even' },
      weekly(
        'prevented',
        'prevented-chart',
        'Mistakes prevented per week',
        'injections after which the mistake did not repeat',
      ),
      weekly(
        'noise',
        'noise-chart',
        'Injections that were noise per week',
        'injections where nothing of the kind went wrong',
      ),
    ),
    judged === 0
      ? h(
          'p',
          { class: 'muted outcomes-note' },
          `No injection judged in the last ${analytics.weeks} weeks: `,
          h('code', {}, 'lore scan'),
          ' judges each injection by the calls after it.',
        )
      : null,
    analytics.outcomeProblems.map((p) => h('p', { class: 'notice inline' }, `${p.file}: ${p.message}`)),
  );
}

function lessonsColumns(usage: Usage): HTMLElement {
  return h(
    'div',
    { class: 'columns' },
    card(
      'Top lessons',
      rankChart(
        usage.topLessons.map((l) => ({
          label: l.summary,
          value: l.fires,
          title: `${l.summary} — ${l.helpful} helpful, ${l.notHelpful} not`,
        })),
        {
          label: 'times injected or denied',
          onClick: (i) => {
            const l = usage.topLessons[i];
            if (l) location.hash = `#/lessons/${l.id}`;
          },
        },
      ),
    ),
    card(
      'Helpful ratio',
      ratioRing(usage.helpful.ratio, {
        label: 'feedback that said the lesson helped',
        detail: `${usage.helpful.helpful} helpful, ${usage.helpful.notHelpful} not helpful`,
      }),
    ),
  );
}

function sourcesColumns(usage: Usage): HTMLElement {
  return h(
    'div',
    { class: 'columns' },
    card(
      'Lessons by source and tier',
      rankChart(
        usage.lessonsBySource.flatMap((s) => [
          ...(s.project > 0 ? [{ label: `${s.source} · project`, value: s.project }] : []),
          ...(s.user > 0 ? [{ label: `${s.source} · user`, value: s.user }] : []),
        ]),
        { label: 'lessons (every status)' },
      ),
      h(
        'table',
        { class: 'compact' },
        h(
          'tbody',
          {},
          usage.lessonsByTier.map((tier) =>
            h(
              'tr',
              {},
              h('td', {}, tier.tier),
              h('td', {}, `${tier.active} active`),
              h('td', {}, `${tier.superseded} superseded`),
              h('td', {}, `${tier.archived} archived`),
            ),
          ),
        ),
      ),
    ),
    card(
      'Candidates by source',
      rankChart(
        usage.candidatesBySource.map((c) => ({ label: c.source, value: c.count })),
        { label: 'waiting for review, by agent' },
      ),
    ),
  );
}

export async function analyticsPage(ctx: PageContext): Promise<void> {
  let usage: Analytics;
  try {
    usage = await api<Analytics>('/api/analytics?days=30&weeks=12');
  } catch (error) {
    fail(error);
    return;
  }
  const t = usage.totals;
  mount(
    ctx.main,
    h(
      'div',
      { class: 'page-head' },
      h('h1', {}, 'Analytics'),
      h('p', { class: 'muted' }, `last ${usage.days} days, from the hook's audit log`),
    ),
    h(
      'div',
      { class: 'stats' },
      statTiles([
        ['hook outputs', t.calls],
        ['lessons injected', t.injections],
        ['calls denied', t.denials],
        ['sessions', t.sessions],
        ['lessons that fired', t.lessonsFired],
      ]),
    ),
    injectionsCard(usage),
    outcomesColumns(usage),
    lessonsColumns(usage),
    sourcesColumns(usage),
  );
}

/**
 * The Replay page (GET /api/replay): the last `lore replay` — its overall figures, a table of every
 * lesson (fires, hits, misses, noise, prevented, precision; sorted in the page when a column header
 * is clicked, noisiest first) and its suggestions. Before the first replay it says what to run.
 */
import { api, ApiError } from '../api.js';
import type { LastReplayJson, LessonReplay } from '../api-types.js';
import { h, mount } from '../dom.js';
import type { PageContext } from '../page-context.js';
import { card } from '../ui/card.js';
import { formatDate } from '../ui/format-date.js';
import { pill } from '../ui/pill.js';
import { sortHeader } from '../ui/sort-header.js';
import { statTiles } from '../ui/stat-tiles.js';
import { percent } from './lesson-measures.js';

type SortKey = 'summary' | 'fires' | 'hits' | 'misses' | 'noise' | 'prevented' | 'precision' | 'recurrences';
type Sort = { key: SortKey; desc: boolean };

function sortValue(l: LessonReplay, key: SortKey): string | number {
  if (key === 'summary') return l.summary || l.id;
  // a lesson that never fired has no precision: it sorts below every one that did
  if (key === 'precision') return l.precision ?? -1;
  return l[key];
}

function sorted(lessons: readonly LessonReplay[], sort: Sort): LessonReplay[] {
  return [...lessons].sort((a, b) => {
    const x = sortValue(a, sort.key);
    const y = sortValue(b, sort.key);
    const cmp = x < y ? -1 : x > y ? 1 : a.id < b.id ? -1 : 1;
    return sort.desc ? -cmp : cmp;
  });
}

function lessonRow(l: LessonReplay): HTMLElement {
  return h(
    'tr',
    { 'data-id': l.id },
    h(
      'td',
      {},
      h('a', { href: `#/lessons/${l.id}` }, l.summary || l.id),
      h(
        'div',
        { class: 'tags' },
        pill(l.type, l.type === 'guard' ? 'danger' : ''),
        l.toolOnly ? pill('tool only', 'warn') : null,
        l.waits === true ? pill('waits for its error') : null,
      ),
    ),
    [l.fires, l.hits, l.misses, l.noise, l.prevented].map((n) => h('td', { class: 'num' }, String(n))),
    h('td', { class: 'num precision' }, percent(l.precision)),
    h('td', { class: 'num' }, String(l.recurrences)),
    h(
      'td',
      { class: 'num' },
      l.asCheckpoint ? `${l.asCheckpoint.prevented} / ${l.asCheckpoint.denials}` : '',
    ),
  );
}

function renderTable(host: HTMLElement, lessons: readonly LessonReplay[], sort: Sort): void {
  const th = (key: SortKey, label: string, title?: string) =>
    sortHeader(key, label, sort, () => renderTable(host, lessons, sort), host, {
      ...(title ? { title } : {}),
      ascendingFirst: key === 'summary',
    });
  mount(
    host,
    lessons.length === 0
      ? h('p', { class: 'empty' }, 'The replay measured no lessons.')
      : h(
          'table',
          { class: 'replay-lessons' },
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              th('summary', 'Lesson'),
              th('fires', 'Fires'),
              th('hits', 'Hits', 'fired on a call that failed with its mistake'),
              th('misses', 'Misses', 'its mistake happened and it did not fire on or before it'),
              th('noise', 'Noise', 'fired and nothing of the kind went wrong'),
              th('prevented', 'Prevented', 'repeats of its mistake it could have stopped'),
              th('precision', 'Precision', 'hits / fires'),
              th('recurrences', 'Recurred', 'its mistake after the lesson existed (--as-of)'),
              h('th', { title: 'as a checkpoint: prevented / denials' }, 'As checkpoint'),
            ),
          ),
          h('tbody', {}, sorted(lessons, sort).map(lessonRow)),
        ),
  );
}

function overview(r: LastReplayJson): HTMLElement {
  const c = r.counts;
  const bad = [
    [c.brokenLines, 'broken lines'],
    [c.missingResults, 'calls without a result'],
    [c.orphanResults, 'results without a call'],
    [c.clockBackwards, 'clocks going backwards'],
    [c.unknownTools, 'calls of tools the hook never sees'],
  ] as const;
  const told = bad.filter(([n]) => n > 0).map(([n, what]) => `${n} ${what}`);
  return h(
    'div',
    {},
    h(
      'div',
      { class: 'stats', id: 'replay-totals' },
      statTiles([
        ['calls', r.calls],
        ['calls with an injection', r.callsWithInjection],
        ['injections per 100 calls', r.injectionsPer100Calls],
        ['bytes per 100 calls', r.bytesPer100Calls],
        ['guard denials', r.guardDenials],
        ['checkpoint denials', r.checkpointDenials],
        ['lessons', r.lessons.length],
      ]),
    ),
    h(
      'p',
      { class: 'muted' },
      `${c.files} transcript file(s), ${c.sessions} session(s)`,
      r.options.sources.length > 0 ? ` from ${r.options.sources.join(', ')}` : '',
      r.options.since ? `, since ${r.options.since}` : '',
      r.options.asOf ? '; lessons fired only after they existed (--as-of)' : '',
      told.length > 0 ? `. Counted and skipped: ${told.join(', ')}.` : '.',
    ),
  );
}

function suggestionsCard(r: LastReplayJson): HTMLElement {
  const summaryOf = new Map(r.lessons.map((l) => [l.id, l.summary]));
  return card(
    'Suggestions',
    r.suggestions.length === 0
      ? h('p', { class: 'muted' }, 'None: no lesson is noisy enough to narrow, and every lesson fired.')
      : h(
          'ul',
          { class: 'suggestions' },
          r.suggestions.map((s) =>
            h(
              'li',
              { 'data-kind': s.kind },
              pill(s.kind, s.kind === 'retire' ? 'warn' : ''),
              ' ',
              h('a', { href: `#/lessons/${s.lesson}` }, summaryOf.get(s.lesson) || s.lesson),
              h('div', {}, s.text),
              s.trigger
                ? h(
                    'code',
                    { class: 'muted' },
                    Object.entries(s.trigger)
                      .filter(([, list]) => list.length > 0)
                      .map(([key, list]) => `${key}: ${list.join(', ')}`)
                      .join('; '),
                  )
                : null,
            ),
          ),
        ),
  );
}

export async function replayPage(ctx: PageContext): Promise<void> {
  let report: LastReplayJson;
  try {
    report = await api<LastReplayJson>('/api/replay');
  } catch (error) {
    const known = error instanceof ApiError && (error.status === 404 || error.status === 422);
    mount(
      ctx.main,
      h('div', { class: 'page-head' }, h('h1', {}, 'Replay')),
      h(
        'div',
        { class: 'empty replay-empty' },
        h(
          'p',
          {},
          known && error.status === 404
            ? 'No replay yet.'
            : error instanceof Error
              ? error.message
              : String(error),
        ),
        h(
          'p',
          {},
          'Run ',
          h('code', {}, 'lore replay'),
          ' to replay your agents’ transcripts through the hook: per lesson, how often it would have fired, hit its mistake, missed it, or been noise.',
        ),
      ),
    );
    return;
  }
  const host = h('div', { id: 'replay-table' });
  renderTable(host, report.lessons, { key: 'noise', desc: true });
  mount(
    ctx.main,
    h(
      'div',
      { class: 'page-head' },
      h('h1', {}, 'Replay'),
      h('p', { class: 'muted' }, `last replay ${formatDate(report.at)}, read from ${report.file}`),
    ),
    overview(report),
    report.problems.map((p) => h('p', { class: 'notice inline' }, `${p.file}: ${p.message}`)),
    card('Lessons', host),
    suggestionsCard(report),
  );
}

/** The lesson table: a row per lesson, sorted in the page when a column header is clicked. */
import type { LessonJson } from '../api-types.js';
import { h, mount } from '../dom.js';
import { formatDate } from '../ui/format-date.js';
import { pill } from '../ui/pill.js';
import { sortHeader } from '../ui/sort-header.js';

export type LessonSortKey = 'summary' | 'priority' | 'severity' | 'status' | 'tier' | 'votes' | 'updatedAt';
/** `key: ''` keeps the server's rank order. */
export type LessonSort = { key: LessonSortKey | ''; desc: boolean };

const SEVERITY_RANK: Record<string, number> = { low: 0, medium: 1, high: 2, critical: 3 };

function sortValue(l: LessonJson, k: LessonSortKey): string | number {
  // the count the column shows (ties keep the server's rank order), not the decayed score
  if (k === 'votes') return l.votes.count;
  if (k === 'severity') return SEVERITY_RANK[l.severity] ?? 0;
  return l[k];
}

function sortLessons(items: LessonJson[], sort: LessonSort): LessonJson[] {
  const key = sort.key;
  if (key === '') return items;
  return [...items].sort((a, b) => {
    const x = sortValue(a, key);
    const y = sortValue(b, key);
    const cmp = x < y ? -1 : x > y ? 1 : 0;
    return sort.desc ? -cmp : cmp;
  });
}

function lessonRow(l: LessonJson): HTMLElement {
  return h(
    'tr',
    { 'data-id': l.id },
    h(
      'td',
      {},
      h('a', { href: `#/lessons/${l.id}` }, l.summary),
      h(
        'div',
        { class: 'tags' },
        l.tags.map((t) => pill(t)),
        l.needsReview ? pill('needs review', 'warn') : null,
        l.type === 'guard' ? pill('guard', 'danger') : null,
        l.type === 'checkpoint' ? pill('checkpoint', 'warn') : null,
        (l.errors ?? []).length > 0 ? pill('waits for its error') : null,
      ),
    ),
    h('td', { class: 'num' }, String(l.priority)),
    h('td', {}, pill(l.severity, `sev-${l.severity}`)),
    h('td', {}, l.status),
    h('td', {}, l.tier),
    h('td', { class: 'num' }, String(l.votes.count)),
    h('td', { class: 'nowrap' }, formatDate(l.updatedAt)),
  );
}

/** Renders `items` into `host`; clicking a header changes `sort` (kept by the caller) and re-renders. */
export function renderLessonsTable(host: HTMLElement, items: LessonJson[], sort: LessonSort): void {
  const th = (k: LessonSortKey, label: string) =>
    sortHeader(k, label, sort, () => renderLessonsTable(host, items, sort), host, {
      ascendingFirst: k === 'summary',
    });
  mount(
    host,
    items.length === 0
      ? h('p', { class: 'empty' }, 'No lessons match. Approve candidates in Review, or add one.')
      : h(
          'table',
          { class: 'lessons' },
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              th('summary', 'Summary'),
              th('priority', 'Prio'),
              th('severity', 'Severity'),
              th('status', 'Status'),
              th('tier', 'Tier'),
              th('votes', 'Votes'),
              th('updatedAt', 'Updated'),
            ),
          ),
          h('tbody', {}, sortLessons(items, sort).map(lessonRow)),
        ),
  );
}

/**
 * The lesson list: full-text search and filters over GET /api/lessons, the counts, a sortable table,
 * 500 lessons at a time ("Show more" for the next ones).
 */
import { api, query } from '../api.js';
import type { LessonJson, LessonList, LessonStats } from '../api-types.js';
import { h, mount } from '../dom.js';
import type { PageContext } from '../page-context.js';
import { formatDate } from '../ui/format-date.js';
import { statTiles } from '../ui/stat-tiles.js';
import { fail } from '../ui/toast.js';
import { renderLessonsTable } from './render-lessons-table.js';
import type { LessonSort } from './render-lessons-table.js';

// Module state on purpose: coming back to the list finds the same filters and order.
const filters = { q: '', status: 'active', tier: '', tag: '', tool: '', hybrid: '' };
const sort: LessonSort = { key: '', desc: true };

function searchInput(name: 'q' | 'tag' | 'tool', placeholder: string, load: () => void): HTMLElement {
  return h('input', {
    type: 'search',
    name,
    placeholder,
    value: filters[name],
    oninput: (e: Event) => {
      filters[name] = (e.target as HTMLInputElement).value;
      load();
    },
  });
}

function filterSelect(name: 'status' | 'tier', options: string[], load: () => void): HTMLElement {
  return h(
    'select',
    {
      name,
      onchange: (e: Event) => {
        filters[name] = (e.target as HTMLSelectElement).value;
        load();
      },
    },
    options.map((o) =>
      h('option', { value: o, ...(filters[name] === o ? { selected: true } : {}) }, o || `any ${name}`),
    ),
  );
}

/** "by meaning": hybrid search (the API falls back to full text and says why in `notice`). */
function meaningToggle(load: () => void): HTMLElement {
  return h(
    'label',
    { class: 'toggle' },
    h('input', {
      type: 'checkbox',
      name: 'hybrid',
      ...(filters.hybrid === '1' ? { checked: true } : {}),
      onchange: (e: Event) => {
        filters.hybrid = (e.target as HTMLInputElement).checked ? '1' : '';
        load();
      },
    }),
    ' by meaning',
  );
}

function renderStats(host: HTMLElement, st: LessonStats): void {
  mount(
    host,
    statTiles([
      ['lessons', st.total],
      ['active', st.active],
      ['superseded', st.superseded],
      ['archived', st.archived],
      ['needs review', st.needsReview],
    ]),
    h('div', { class: 'stat muted' }, h('span', {}, `indexed ${formatDate(st.lastIndexed)}`)),
  );
}

/** Lessons asked for at a time; "Show more" asks for the next ones. */
const PAGE = 500;

/** The lesson files the list had to leave out, each with its line and why, and where to see all. */
function renderProblems(host: HTMLElement, problems: LessonList['problems']): void {
  const errors = problems.filter((p) => p.severity === 'error');
  const files = new Set(errors.map((p) => p.file));
  mount(
    host,
    errors.length === 0
      ? null
      : h(
          'div',
          { class: 'notice inline', role: 'alert' },
          `${files.size} lesson file(s) could not be loaded and are not listed (run \`lore check\` to see every problem):`,
          h(
            'ul',
            {},
            errors
              .slice(0, 10)
              .map((p) =>
                h('li', {}, h('code', {}, `${p.file}${p.line ? `:${p.line}` : ''}`), ` ${p.message}`),
              ),
          ),
        ),
  );
}

export async function lessonsPage(ctx: PageContext): Promise<void> {
  const tableHost = h('div', { class: 'table-host' });
  const statsHost = h('div', { class: 'stats' });
  const noticeHost = h('div', { class: 'muted search-notice' });
  const moreHost = h('div', { class: 'list-more muted' });
  const problemsHost = h('div', { class: 'list-problems' });
  let shown: LessonJson[] = [];
  // Typing fires a request per key: only the answer to the latest one is drawn.
  let seq = 0;
  const fetchPage = (offset: number) =>
    api<LessonList>(`/api/lessons${query({ ...filters, limit: PAGE, offset: offset || undefined })}`);
  const draw = (total: number) => {
    renderLessonsTable(tableHost, shown, sort);
    mount(
      moreHost,
      total > shown.length
        ? [
            `Showing ${shown.length} of ${total} lessons. `,
            h('button', { type: 'button', onclick: () => void more() }, 'Show more'),
          ]
        : null,
    );
  };
  const load = async () => {
    const mine = ++seq;
    try {
      const data = await fetchPage(0);
      if (mine !== seq) return;
      renderStats(statsHost, data.stats);
      noticeHost.textContent = data.notice ?? '';
      renderProblems(problemsHost, data.problems);
      shown = data.items;
      draw(data.total);
    } catch (error) {
      fail(error);
    }
  };
  const more = async () => {
    const mine = seq;
    try {
      const data = await fetchPage(shown.length);
      if (mine !== seq) return;
      shown = [...shown, ...data.items];
      draw(data.total);
    } catch (error) {
      fail(error);
    }
  };
  const reload = () => void load();
  mount(
    ctx.main,
    h(
      'div',
      { class: 'page-head' },
      h('h1', {}, 'Lessons'),
      h('a', { class: 'button', href: '#/new' }, 'New lesson'),
    ),
    statsHost,
    problemsHost,
    h(
      'div',
      { class: 'filters' },
      searchInput('q', 'Search lessons (full text)', reload),
      meaningToggle(reload),
      filterSelect('status', ['active', 'superseded', 'archived', 'any'], reload),
      filterSelect('tier', ['', 'project', 'user', 'org'], reload),
      searchInput('tag', 'tag', reload),
      searchInput('tool', 'tool', reload),
    ),
    noticeHost,
    tableHost,
    moreHost,
  );
  await load();
}

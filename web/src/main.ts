/** The dashboard: hash routes over the API, rendered with plain DOM calls. */
import { api, ApiError, captureToken, query } from './api.js';
import { barChart, rankChart, ratioRing } from './charts.js';
import { h, mount } from './dom.js';
import type { Child } from './dom.js';
import type {
  ApprovedCandidate,
  CandidateJson as Candidate,
  CandidateList,
  CreatedLesson,
  Explanation,
  LessonDetail,
  LessonJson as Lesson,
  LessonList,
  ServerStatus,
  Usage,
} from './api-types.js';

const main = document.getElementById('main') as HTMLElement;
const toastEl = document.getElementById('toast') as HTMLElement;
let cleanup: (() => void) | undefined;

function toast(text: string, kind: 'ok' | 'error' = 'ok'): void {
  toastEl.textContent = text;
  toastEl.className = `toast ${kind}`;
  toastEl.hidden = false;
  window.setTimeout(() => (toastEl.hidden = true), 3500);
}

function fail(error: unknown): void {
  const text =
    error instanceof ApiError ? `${error.message}${error.hint ? ` — ${error.hint}` : ''}` : String(error);
  toast(text, 'error');
}

const list = (value: string): string[] =>
  value
    .split(/[\n,]/)
    .map((item) => item.trim())
    .filter((item) => item !== '');
const date = (iso: string | null | undefined) => (iso ? iso.slice(0, 16).replace('T', ' ') : '');
const pill = (text: string, cls = '') => h('span', { class: `pill ${cls}` }, text);

async function refreshReviewCount(): Promise<void> {
  const badge = document.getElementById('review-count');
  if (!badge) return;
  try {
    const { candidates } = await api<CandidateList>('/api/candidates');
    badge.textContent = candidates.length > 0 ? String(candidates.length) : '';
  } catch {
    badge.textContent = '';
  }
}

// ---------------------------------------------------------------- lessons

type SortKey = 'summary' | 'priority' | 'severity' | 'status' | 'tier' | 'votes' | 'updatedAt';
const SEVERITY_RANK: Record<string, number> = { low: 0, medium: 1, high: 2, critical: 3 };
const lessonState = {
  q: '',
  status: 'active',
  tier: '',
  tag: '',
  tool: '',
  sort: '' as SortKey | '',
  desc: true,
};

async function lessonsPage(): Promise<void> {
  const tableHost = h('div', { class: 'table-host' });
  const statsHost = h('div', { class: 'stats' });
  const input = (name: keyof typeof lessonState, placeholder: string) =>
    h('input', {
      type: 'search',
      name,
      placeholder,
      value: String(lessonState[name]),
      oninput: (e: Event) => {
        (lessonState as Record<string, unknown>)[name] = (e.target as HTMLInputElement).value;
        void load();
      },
    });
  const select = (name: 'status' | 'tier', options: string[]) =>
    h(
      'select',
      {
        name,
        onchange: (e: Event) => {
          lessonState[name] = (e.target as HTMLSelectElement).value;
          void load();
        },
      },
      options.map((o) =>
        h('option', { value: o, ...(lessonState[name] === o ? { selected: true } : {}) }, o || `any ${name}`),
      ),
    );
  mount(
    main,
    h(
      'div',
      { class: 'page-head' },
      h('h1', {}, 'Lessons'),
      h('a', { class: 'button', href: '#/new' }, 'New lesson'),
    ),
    statsHost,
    h(
      'div',
      { class: 'filters' },
      input('q', 'Search lessons (full text)'),
      select('status', ['active', 'superseded', 'archived', 'any']),
      select('tier', ['', 'project', 'user']),
      input('tag', 'tag'),
      input('tool', 'tool'),
    ),
    tableHost,
  );
  let seq = 0;
  const load = async () => {
    const mine = ++seq;
    try {
      const data = await api<LessonList>(
        `/api/lessons${query({ q: lessonState.q, status: lessonState.status, tier: lessonState.tier, tag: lessonState.tag, tool: lessonState.tool, limit: 500 })}`,
      );
      if (mine !== seq) return;
      const st = data.stats;
      mount(
        statsHost,
        [
          ['lessons', st.total],
          ['active', st.active],
          ['superseded', st.superseded],
          ['archived', st.archived],
          ['needs review', st.needsReview],
        ].map(([label, n]) =>
          h('div', { class: 'stat' }, h('b', {}, String(n)), h('span', {}, String(label))),
        ),
        h('div', { class: 'stat muted' }, h('span', {}, `indexed ${date(st.lastIndexed)}`)),
      );
      renderTable(tableHost, data.items, load);
    } catch (error) {
      fail(error);
    }
  };
  await load();
}

function renderTable(host: HTMLElement, items: Lesson[], reload: () => Promise<void>): void {
  const key = lessonState.sort;
  const value = (l: Lesson, k: SortKey): string | number =>
    k === 'votes'
      ? (l.votes?.score ?? 0)
      : k === 'severity'
        ? (SEVERITY_RANK[l.severity] ?? 0)
        : k === 'tier'
          ? (l.tier ?? '')
          : (l[k] as string | number);
  const rows =
    key === ''
      ? items
      : [...items].sort((a, b) => {
          const x = value(a, key);
          const y = value(b, key);
          const cmp = x < y ? -1 : x > y ? 1 : 0;
          return lessonState.desc ? -cmp : cmp;
        });
  const th = (k: SortKey, label: string) =>
    h(
      'th',
      {
        class: `sortable${key === k ? (lessonState.desc ? ' desc' : ' asc') : ''}`,
        'data-sort': k,
        onclick: () => {
          lessonState.desc = lessonState.sort === k ? !lessonState.desc : k !== 'summary';
          lessonState.sort = k;
          renderTable(host, items, reload);
        },
      },
      label,
    );
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
          h(
            'tbody',
            {},
            rows.map((l) =>
              h(
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
                  ),
                ),
                h('td', { class: 'num' }, String(l.priority)),
                h('td', {}, pill(l.severity, `sev-${l.severity}`)),
                h('td', {}, l.status),
                h('td', {}, l.tier ?? ''),
                h('td', { class: 'num' }, String(l.votes?.count ?? 0)),
                h('td', { class: 'nowrap' }, date(l.updatedAt)),
              ),
            ),
          ),
        ),
  );
}

// ---------------------------------------------------------------- lesson form

function lessonForm(
  initial: Partial<Lesson>,
  submitLabel: string,
  onSubmit: (draft: Record<string, unknown>) => Promise<void>,
): HTMLElement {
  const field = (name: string, label: string, control: HTMLElement) =>
    h('label', { class: 'field' }, h('span', {}, label), control);
  const text = (name: string, value = '', attrs: Record<string, string> = {}) =>
    h('input', { name, value, ...attrs });
  const area = (name: string, value = '', rows = 3) => {
    const el = h('textarea', { name, rows }) as HTMLTextAreaElement;
    el.value = value;
    return el;
  };
  const choice = (name: string, options: string[], value: string) =>
    h(
      'select',
      { name },
      options.map((o) => h('option', { value: o, ...(o === value ? { selected: true } : {}) }, o)),
    );
  const form = h(
    'form',
    { class: 'lesson-form' },
    field(
      'summary',
      'Summary (one line, what the agent is shown)',
      text('summary', initial.summary ?? '', { required: 'true', maxlength: '280' }),
    ),
    field('body', 'Body (markdown)', area('body', initial.body ?? '', 4)),
    h(
      'div',
      { class: 'grid2' },
      field('mistake', 'Mistake', area('mistake', initial.mistake ?? '', 2)),
      field('remediation', 'Remediation', area('remediation', initial.remediation ?? '', 2)),
    ),
    h(
      'div',
      { class: 'grid3' },
      field('tools', 'Tools (comma separated)', text('tools', (initial.tools ?? []).join(', '))),
      field('tags', 'Tags', text('tags', (initial.tags ?? []).join(', '))),
      field('stack', 'Stack', text('stack', (initial.stack ?? []).join(', '))),
    ),
    h(
      'div',
      { class: 'grid2' },
      field(
        'commands',
        'Command regexes (one a line)',
        area('commands', (initial.commands ?? []).join('\n'), 2),
      ),
      field('paths', 'Path globs (one a line)', area('paths', (initial.paths ?? []).join('\n'), 2)),
    ),
    h(
      'div',
      { class: 'grid3' },
      field(
        'severity',
        'Severity',
        choice('severity', ['low', 'medium', 'high', 'critical'], initial.severity ?? 'medium'),
      ),
      field('type', 'Type', choice('type', ['hint', 'guard'], initial.type ?? 'hint')),
      field(
        'priority',
        'Priority (1-10)',
        text('priority', String(initial.priority ?? 5), { type: 'number', min: '1', max: '10' }),
      ),
    ),
    h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'primary' }, submitLabel)),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const data = new FormData(form as HTMLFormElement);
    const get = (k: string) => String(data.get(k) ?? '');
    const draft: Record<string, unknown> = {
      summary: get('summary').trim(),
      tools: list(get('tools')),
      tags: list(get('tags')),
      stack: list(get('stack')),
      commands: get('commands')
        .split('\n')
        .map((x) => x.trim())
        .filter(Boolean),
      paths: list(get('paths')),
      severity: get('severity'),
      type: get('type'),
      priority: Number(get('priority')),
    };
    for (const k of ['body', 'mistake', 'remediation']) if (get(k).trim() !== '') draft[k] = get(k);
    void onSubmit(draft).catch(fail);
  });
  return form;
}

async function newLessonPage(): Promise<void> {
  mount(
    main,
    h('div', { class: 'page-head' }, h('h1', {}, 'New lesson')),
    lessonForm({}, 'Add lesson', async (draft) => {
      const added = await api<CreatedLesson>('/api/lessons', { method: 'POST', body: draft });
      toast(`added ${added.id}`);
      location.hash = `#/lessons/${added.id}`;
    }),
  );
}

// ---------------------------------------------------------------- lesson page

async function lessonPage(id: string): Promise<void> {
  let detail: LessonDetail;
  try {
    detail = await api<LessonDetail>(`/api/lessons/${encodeURIComponent(id)}`);
  } catch (error) {
    mount(main, h('p', { class: 'empty' }, error instanceof Error ? error.message : String(error)));
    return;
  }
  const l = detail.lesson;
  const reload = () => lessonPage(l.id);
  const section = (title: string, ...children: Child[]) =>
    h('section', { class: 'card' }, h('h2', {}, title), ...children);
  const scopeRow = (label: string, items: string[]) =>
    items.length === 0
      ? null
      : h(
          'div',
          { class: 'scope-row' },
          h('span', { class: 'muted' }, label),
          items.map((i) => h('code', {}, i)),
        );

  const tryOut = h('div', { class: 'try' });
  const tryInput = h('input', {
    name: 'example',
    placeholder:
      l.commands.length > 0 ? 'a command, e.g. pytest -v tests/' : 'a path, e.g. tests/test_api.py',
  }) as HTMLInputElement;
  const runTry = async () => {
    const value = tryInput.value.trim();
    if (value === '') return;
    const asCommand = l.commands.length > 0 || (l.paths.length === 0 && /\s/.test(value));
    const params = asCommand
      ? { tool: l.tools[0] ?? 'Bash', command: value }
      : { tool: l.tools.find((t) => t !== 'Bash') ?? 'Edit', path: value };
    try {
      const ex = await api<Explanation>(`/api/explain${query(params)}`);
      const inc = ex.included.find((i) => i.id === l.id);
      const den = ex.denied.find((i) => i.id === l.id);
      const drop = ex.dropped.find((i) => i.id === l.id);
      mount(
        tryOut,
        inc
          ? h('p', { class: 'ok' }, `would be injected (${inc.form}) ← ${inc.matched_by.join(', ')}`)
          : den
            ? h('p', { class: 'danger' }, `would deny the call ← ${den.matched_by.join(', ')}`)
            : drop
              ? h('p', { class: 'warn' }, `matches, but dropped: ${drop.reason}`)
              : h('p', { class: 'muted' }, 'does not match this call'),
      );
    } catch (error) {
      fail(error);
    }
  };
  const supersedeInput = h('input', {
    name: 'by',
    placeholder: 'id or slug of the replacement lesson',
  }) as HTMLInputElement;
  const taskInput = h('input', {
    name: 'task',
    value: `dashboard-${new Date().toISOString().slice(0, 10)}`,
  }) as HTMLInputElement;
  const act = async (path: string, body: unknown, message: string, method = 'POST') => {
    try {
      await api(path, { method, body });
      toast(message);
      await reload();
    } catch (error) {
      fail(error);
    }
  };
  let editing = false;
  const editHost = h('div');
  mount(
    main,
    h(
      'div',
      { class: 'page-head' },
      h(
        'div',
        {},
        h('a', { href: '#/lessons', class: 'muted' }, '← Lessons'),
        h('h1', { id: 'lesson-summary' }, l.summary),
      ),
      h(
        'div',
        { class: 'actions' },
        h(
          'button',
          {
            type: 'button',
            onclick: () => {
              editing = !editing;
              mount(
                editHost,
                editing
                  ? section(
                      'Edit',
                      lessonForm(l, 'Save changes', async (draft) => {
                        await api(`/api/lessons/${l.id}`, { method: 'PATCH', body: draft });
                        toast('saved');
                        await reload();
                      }),
                    )
                  : null,
              );
            },
          },
          'Edit',
        ),
        l.status === 'archived'
          ? h(
              'button',
              {
                type: 'button',
                onclick: () => act(`/api/lessons/${l.id}`, { status: 'active' }, 'restored', 'PATCH'),
              },
              'Restore',
            )
          : h(
              'button',
              {
                type: 'button',
                class: 'danger',
                onclick: () => act(`/api/lessons/${l.id}`, undefined, 'archived', 'DELETE'),
              },
              'Archive',
            ),
      ),
    ),
    h(
      'div',
      { class: 'meta' },
      pill(l.status, `status-${l.status}`),
      pill(detail.tier),
      pill(l.severity, `sev-${l.severity}`),
      pill(l.type),
      pill(`priority ${l.priority}`),
      pill(`confidence ${l.confidence}`),
      pill(`source: ${detail.source}`),
      l.needsReview ? pill('needs review', 'warn') : null,
      h('code', { class: 'muted' }, `${l.id} · ${detail.file}`),
    ),
    detail.supersededBy
      ? h(
          'p',
          { class: 'notice inline' },
          'Superseded by ',
          h('a', { href: `#/lessons/${detail.supersededBy.id}` }, detail.supersededBy.summary),
        )
      : null,
    editHost,
    h(
      'div',
      { class: 'columns' },
      h(
        'div',
        {},
        section(
          'Content',
          l.body ? h('pre', { class: 'body' }, l.body) : h('p', { class: 'muted' }, 'no body'),
          l.mistake ? h('p', {}, h('b', {}, 'Mistake: '), l.mistake) : null,
          l.remediation ? h('p', {}, h('b', {}, 'Remediation: '), l.remediation) : null,
        ),
        section(
          'Scope',
          scopeRow('tools', l.tools),
          scopeRow('commands', l.commands),
          scopeRow('paths', l.paths),
          scopeRow('tags', l.tags),
          scopeRow('stack', l.stack),
          l.tools.length + l.commands.length + l.paths.length + l.tags.length === 0
            ? h('p', { class: 'muted' }, 'no scope: shown only at session start')
            : null,
        ),
        section(
          'Examples',
          h('p', { class: 'muted' }, `Fired ${detail.fires.count} time(s) in the audit log.`),
          detail.fires.recent.length > 0
            ? h(
                'table',
                { class: 'compact' },
                h(
                  'tbody',
                  {},
                  detail.fires.recent
                    .slice(0, 8)
                    .map((f) =>
                      h(
                        'tr',
                        {},
                        h('td', { class: 'nowrap' }, date(f.time)),
                        h('td', {}, f.host),
                        h('td', {}, f.tool ?? f.event),
                        h('td', {}, f.denied ? 'denied' : 'injected'),
                        h('td', {}, f.matched_by.join(', ')),
                      ),
                    ),
                ),
              )
            : null,
          h(
            'form',
            {
              class: 'inline-form',
              onsubmit: (e: Event) => {
                e.preventDefault();
                void runTry();
              },
            },
            tryInput,
            h('button', { type: 'submit' }, 'Try'),
          ),
          tryOut,
        ),
      ),
      h(
        'div',
        {},
        section(
          'Votes and feedback',
          h(
            'p',
            {},
            `${detail.votes.count} vote(s), score ${detail.votes.score.toFixed(2)} · ${detail.feedback.helpful} helpful, ${detail.feedback.notHelpful} not helpful`,
          ),
          h('label', { class: 'field' }, h('span', {}, 'Task'), taskInput),
          h(
            'div',
            { class: 'actions' },
            h(
              'button',
              {
                type: 'button',
                onclick: () => act(`/api/lessons/${l.id}/upvote`, { task: taskInput.value }, 'upvoted'),
              },
              '▲ Upvote',
            ),
            h(
              'button',
              {
                type: 'button',
                onclick: () =>
                  act(`/api/lessons/${l.id}/feedback`, { helpful: true, taskId: taskInput.value }, 'thanks'),
              },
              'Helpful',
            ),
            h(
              'button',
              {
                type: 'button',
                onclick: () =>
                  act(`/api/lessons/${l.id}/feedback`, { helpful: false, taskId: taskInput.value }, 'noted'),
              },
              'Not helpful',
            ),
          ),
        ),
        section(
          'Supersede',
          detail.supersedes.length > 0
            ? h(
                'p',
                {},
                'Replaces: ',
                detail.supersedes.map((s) =>
                  h('a', { href: `#/lessons/${s.id}`, class: 'block' }, s.summary),
                ),
              )
            : null,
          l.status === 'active'
            ? h(
                'form',
                {
                  class: 'inline-form',
                  onsubmit: (e: Event) => {
                    e.preventDefault();
                    void act(
                      `/api/lessons/${l.id}/supersede`,
                      { by: supersedeInput.value.trim() },
                      'superseded',
                    );
                  },
                },
                supersedeInput,
                h('button', { type: 'submit', name: 'supersede' }, 'Supersede'),
              )
            : h('p', { class: 'muted' }, `this lesson is ${l.status}`),
        ),
        section(
          'History',
          h(
            'ol',
            { class: 'history' },
            detail.history.map((e) =>
              h('li', {}, h('span', { class: 'nowrap muted' }, date(e.at)), ' ', pill(e.kind), ' ', e.detail),
            ),
          ),
        ),
      ),
    ),
  );
}

// ---------------------------------------------------------------- review queue

async function reviewPage(): Promise<void> {
  let candidates: Candidate[] = [];
  let index = 0;
  const listHost = h('ol', { class: 'queue' });
  const detailHost = h('div', { class: 'card candidate' });
  mount(
    main,
    h(
      'div',
      { class: 'page-head' },
      h('h1', {}, 'Review queue'),
      h('p', { class: 'muted keys' }, 'keys: j/k move · a approve · e edit · r reject'),
    ),
    h('div', { class: 'review' }, listHost, detailHost),
  );
  const load = async () => {
    candidates = (await api<CandidateList>('/api/candidates')).candidates;
    index = Math.min(index, Math.max(0, candidates.length - 1));
    render();
    void refreshReviewCount();
  };
  const decide = async (approve: boolean) => {
    const c = candidates[index];
    if (!c) return;
    try {
      if (approve) {
        const summary = (detailHost.querySelector('[name=summary]') as HTMLInputElement | null)?.value.trim();
        const tags = list((detailHost.querySelector('[name=tags]') as HTMLInputElement | null)?.value ?? '');
        const added = await api<ApprovedCandidate>(`/api/candidates/${c.id}/approve`, {
          method: 'POST',
          body: {
            ...(summary && summary !== c.summary ? { summary } : {}),
            ...(tags.length > 0 ? { tags } : {}),
          },
        });
        toast(`approved as lesson ${added.id}`);
      } else {
        await api(`/api/candidates/${c.id}/reject`, { method: 'POST' });
        toast('rejected: this pattern will not be proposed again');
      }
      await load();
    } catch (error) {
      fail(error);
    }
  };
  const render = () => {
    mount(
      listHost,
      candidates.map((c, i) =>
        h(
          'li',
          {
            class: i === index ? 'selected' : '',
            'data-id': c.id,
            onclick: () => {
              index = i;
              render();
            },
          },
          h('div', { class: 'queue-summary' }, c.summary),
          h(
            'div',
            { class: 'tags' },
            c.occurrences > 1 ? pill(`×${c.occurrences}`, 'warn') : null,
            c.userCorrected ? pill('user-corrected', 'warn') : null,
            pill(c.kind),
            pill(c.agents.join(', ') || c.store),
          ),
        ),
      ),
    );
    const c = candidates[index];
    if (!c) {
      mount(
        detailHost,
        h(
          'p',
          { class: 'empty' },
          'Nothing to review. Candidates appear here after `lore scan` (or `lore up`).',
        ),
      );
      return;
    }
    mount(
      detailHost,
      h('h2', {}, `Candidate ${index + 1} of ${candidates.length}`),
      h(
        'div',
        { class: 'meta' },
        pill(`confidence ${c.confidence.toFixed(2)}`),
        pill(`priority ${c.priority}`),
        pill(`tier ${c.tier}`),
        pill(`${c.sessions} session(s)`),
        c.needsReview ? pill('low confidence', 'warn') : null,
      ),
      h(
        'label',
        { class: 'field' },
        h('span', {}, 'Summary'),
        h('input', { name: 'summary', value: c.summary, maxlength: '280' }),
      ),
      h(
        'label',
        { class: 'field' },
        h('span', {}, 'Tags'),
        h('input', { name: 'tags', value: c.tags.join(', ') }),
      ),
      c.mistake ? h('p', {}, h('b', {}, 'Mistake: '), c.mistake) : null,
      c.remediation ? h('p', {}, h('b', {}, 'Fix: '), c.remediation) : null,
      c.commands.length > 0
        ? h(
            'div',
            { class: 'scope-row' },
            h('span', { class: 'muted' }, 'commands'),
            c.commands.map((x) => h('code', {}, x)),
          )
        : null,
      c.paths.length > 0
        ? h(
            'div',
            { class: 'scope-row' },
            h('span', { class: 'muted' }, 'paths'),
            c.paths.map((x) => h('code', {}, x)),
          )
        : null,
      h(
        'details',
        {},
        h('summary', {}, `evidence (${c.evidence.length})`),
        h(
          'ul',
          { class: 'evidence' },
          c.evidence.slice(0, 10).map((e) => h('li', {}, h('code', {}, `${e.file}:${e.line}`))),
        ),
      ),
      h(
        'div',
        { class: 'actions' },
        h(
          'button',
          { type: 'button', class: 'primary', name: 'approve', onclick: () => void decide(true) },
          'Approve (a)',
        ),
        h(
          'button',
          {
            type: 'button',
            onclick: () => (detailHost.querySelector('[name=summary]') as HTMLInputElement).focus(),
          },
          'Edit (e)',
        ),
        h(
          'button',
          { type: 'button', class: 'danger', name: 'reject', onclick: () => void decide(false) },
          'Reject (r)',
        ),
      ),
    );
  };
  const onKey = (event: KeyboardEvent) => {
    const target = event.target as HTMLElement;
    const typing = target.tagName === 'INPUT' || target.tagName === 'TEXTAREA';
    if (typing) {
      if (event.key === 'Enter' && target.getAttribute('name') === 'summary') void decide(true);
      if (event.key === 'Escape') target.blur();
      return;
    }
    if (event.metaKey || event.ctrlKey || event.altKey) return;
    if (event.key === 'j' || event.key === 'ArrowDown') {
      index = Math.min(candidates.length - 1, index + 1);
      render();
    } else if (event.key === 'k' || event.key === 'ArrowUp') {
      index = Math.max(0, index - 1);
      render();
    } else if (event.key === 'a') void decide(true);
    else if (event.key === 'r') void decide(false);
    else if (event.key === 'e') {
      event.preventDefault();
      (detailHost.querySelector('[name=summary]') as HTMLInputElement | null)?.focus();
    } else return;
    event.preventDefault();
  };
  document.addEventListener('keydown', onKey);
  cleanup = () => document.removeEventListener('keydown', onKey);
  await load().catch(fail);
}

// ---------------------------------------------------------------- explain

async function explainPage(): Promise<void> {
  const out = h('div', { class: 'explain-out' });
  const tool = h(
    'select',
    { name: 'tool' },
    ['Bash', 'Edit', 'Write', 'Read', 'Grep', 'Glob'].map((t) => h('option', { value: t }, t)),
  ) as HTMLSelectElement;
  const input = h('input', {
    name: 'input',
    placeholder: 'a command (pytest -v tests/) or a path (src/api/handlers.py)',
  }) as HTMLInputElement;
  const run = async () => {
    const value = input.value.trim();
    if (value === '') return;
    const params =
      tool.value === 'Bash' ? { tool: 'Bash', command: value } : { tool: tool.value, path: value };
    try {
      const ex = await api<Explanation>(`/api/explain${query(params)}`);
      const row = (id: string, label: string, why: string[], cls = '') =>
        h(
          'tr',
          { class: cls },
          h('td', {}, h('a', { href: `#/lessons/${id}` }, id)),
          h('td', {}, pill(label, cls)),
          h('td', {}, ex.summaries[id] ?? ''),
          h('td', { class: 'muted' }, why.join(', ')),
        );
      const shown = ex.permissionDecisionReason ?? ex.additionalContext;
      mount(
        out,
        h(
          'p',
          { class: 'muted' },
          `${ex.lessons} lesson(s) in the manifest, ${ex.matched} matched this call.`,
        ),
        ex.disabled
          ? h('p', { class: 'warn' }, 'lore is disabled in this project: the hook would print {}')
          : null,
        ex.included.length + ex.denied.length + ex.dropped.length === 0
          ? h('p', { class: 'empty' }, 'No lesson matches this call.')
          : h(
              'table',
              { class: 'compact' },
              h(
                'thead',
                {},
                h(
                  'tr',
                  {},
                  h('th', {}, 'lesson'),
                  h('th', {}, 'outcome'),
                  h('th', {}, 'summary'),
                  h('th', {}, 'why'),
                ),
              ),
              h(
                'tbody',
                {},
                ex.denied.map((d) => row(d.id, 'deny', d.matched_by, 'danger')),
                ex.included.map((i) => row(i.id, `inject (${i.form})`, i.matched_by, 'ok')),
                ex.dropped.map((d) => row(d.id, d.reason, d.matched_by, 'muted')),
              ),
            ),
        shown
          ? h(
              'section',
              { class: 'card' },
              h(
                'h2',
                {},
                ex.permissionDecisionReason ? 'The agent would be denied with' : 'The agent would receive',
              ),
              h('pre', { class: 'body' }, shown),
            )
          : null,
      );
    } catch (error) {
      fail(error);
    }
  };
  mount(
    main,
    h(
      'div',
      { class: 'page-head' },
      h('h1', {}, 'Explain'),
      h(
        'p',
        { class: 'muted' },
        'What the hook would inject for a call, and why — a dry run of the real pipeline.',
      ),
    ),
    h(
      'form',
      {
        class: 'inline-form wide',
        onsubmit: (e: Event) => {
          e.preventDefault();
          void run();
        },
      },
      tool,
      input,
      h('button', { type: 'submit', class: 'primary' }, 'Explain'),
    ),
    out,
  );
  input.focus();
}

// ---------------------------------------------------------------- analytics

async function analyticsPage(): Promise<void> {
  let usage: Usage;
  try {
    usage = await api<Usage>('/api/analytics?days=30');
  } catch (error) {
    fail(error);
    return;
  }
  const t = usage.totals;
  mount(
    main,
    h(
      'div',
      { class: 'page-head' },
      h('h1', {}, 'Analytics'),
      h('p', { class: 'muted' }, `last ${usage.days} days, from the hook's audit log`),
    ),
    h(
      'div',
      { class: 'stats' },
      [
        ['hook outputs', t.calls],
        ['lessons injected', t.injections],
        ['calls denied', t.denials],
        ['sessions', t.sessions],
        ['lessons that fired', t.lessonsFired],
      ].map(([label, n]) => h('div', { class: 'stat' }, h('b', {}, String(n)), h('span', {}, String(label)))),
    ),
    h(
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
    ),
    h(
      'div',
      { class: 'columns' },
      h(
        'section',
        { class: 'card' },
        h('h2', {}, 'Top lessons'),
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
      h(
        'section',
        { class: 'card' },
        h('h2', {}, 'Helpful ratio'),
        ratioRing(usage.helpful.ratio, {
          label: 'feedback that said the lesson helped',
          detail: `${usage.helpful.helpful} helpful, ${usage.helpful.notHelpful} not helpful`,
        }),
      ),
    ),
    h(
      'div',
      { class: 'columns' },
      h(
        'section',
        { class: 'card' },
        h('h2', {}, 'Lessons by source and tier'),
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
      h(
        'section',
        { class: 'card' },
        h('h2', {}, 'Candidates by source'),
        rankChart(
          usage.candidatesBySource.map((c) => ({ label: c.source, value: c.count })),
          { label: 'waiting for review, by agent' },
        ),
      ),
    ),
  );
}

// ---------------------------------------------------------------- shell

async function route(): Promise<void> {
  cleanup?.();
  cleanup = undefined;
  const hash = location.hash.replace(/^#\/?/, '') || 'lessons';
  const [page = 'lessons', arg] = hash.split('/');
  for (const link of document.querySelectorAll<HTMLAnchorElement>('[data-nav]'))
    link.classList.toggle('active', link.dataset.nav === (page === 'new' ? 'lessons' : page));
  main.setAttribute('data-page', page);
  if (page === 'lessons' && arg) await lessonPage(decodeURIComponent(arg));
  else if (page === 'new') await newLessonPage();
  else if (page === 'review') await reviewPage();
  else if (page === 'explain') await explainPage();
  else if (page === 'analytics') await analyticsPage();
  else await lessonsPage();
  main.setAttribute('data-ready', page);
}

function setupTheme(): void {
  const saved = localStorage.getItem('lore-theme');
  if (saved) document.documentElement.dataset.theme = saved;
  document.getElementById('theme')?.addEventListener('click', () => {
    const dark = document.documentElement.dataset.theme
      ? document.documentElement.dataset.theme === 'dark'
      : matchMedia('(prefers-color-scheme: dark)').matches;
    const next = dark ? 'light' : 'dark';
    document.documentElement.dataset.theme = next;
    localStorage.setItem('lore-theme', next);
  });
}

async function start(): Promise<void> {
  captureToken();
  setupTheme();
  try {
    const status = await api<ServerStatus>('/api/status');
    const notice = document.getElementById('notice') as HTMLElement;
    if (status.notice) {
      notice.textContent = status.notice;
      notice.hidden = false;
    }
    document.title = `lore · ${status.projectRoot?.split('/').pop() ?? 'user lessons'}`;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      mount(
        main,
        h(
          'p',
          { class: 'empty' },
          'This server needs a token: open the URL `lore serve` printed (it ends in #token=...).',
        ),
      );
      return;
    }
    fail(error);
  }
  window.addEventListener('hashchange', () => void route());
  void refreshReviewCount();
  await route();
}

void start();

/**
 * The organisation tier (`lore serve --org`): its lessons with who proposed them, filtered by
 * state and project, and the curate queue (proposals a curator accepts or rejects). The page asks
 * for an organisation token once per tab (kept in sessionStorage apart from the dashboard's own).
 */
import { api, ApiError, query } from '../api.js';
import type { OrgLesson, OrgWhoami } from '../api-types.js';
import { h, mount } from '../dom.js';
import type { PageContext } from '../page-context.js';
import { formatDate } from '../ui/format-date.js';
import { pill } from '../ui/pill.js';
import { fail, toast } from '../ui/toast.js';

const ORG_TOKEN_KEY = 'lore-org-token';
const filters = { state: 'proposed', project: '' };

function tokenForm(ctx: PageContext, reason: string): void {
  const input = h('input', {
    type: 'password',
    name: 'org-token',
    placeholder: 'lore_…',
    autocomplete: 'off',
  });
  const submit = async (e: Event) => {
    e.preventDefault();
    sessionStorage.setItem(ORG_TOKEN_KEY, (input as HTMLInputElement).value.trim());
    await orgPage(ctx);
  };
  mount(
    ctx.main,
    h('div', { class: 'page-head' }, h('h1', {}, 'Organisation')),
    h('p', { class: 'muted' }, reason),
    h(
      'form',
      { class: 'filters', onsubmit: (e: Event) => void submit(e) },
      input,
      h('button', { type: 'submit' }, 'Use token'),
    ),
  );
}

function lessonRow(
  lesson: OrgLesson,
  canCurate: boolean,
  decide: (id: string, d: 'accept' | 'reject') => void,
): HTMLElement {
  const actions =
    canCurate && lesson.state === 'proposed'
      ? [
          h('button', { 'data-action': 'accept', onclick: () => decide(lesson.id, 'accept') }, 'Accept'),
          h(
            'button',
            { class: 'secondary', 'data-action': 'reject', onclick: () => decide(lesson.id, 'reject') },
            'Reject',
          ),
        ]
      : [];
  return h(
    'tr',
    { 'data-id': lesson.id },
    h('td', {}, lesson.lesson.summary),
    h('td', {}, pill(lesson.state, lesson.state)),
    h('td', {}, lesson.project ?? 'whole organisation'),
    h('td', { class: 'proposed-by' }, lesson.proposedBy),
    h('td', {}, `v${lesson.version}`),
    h('td', {}, String(lesson.votes.length)),
    h('td', {}, formatDate(lesson.updatedAt)),
    h('td', {}, actions),
  );
}

export async function orgPage(ctx: PageContext): Promise<void> {
  const token = sessionStorage.getItem(ORG_TOKEN_KEY) ?? '';
  if (token === '')
    return tokenForm(ctx, 'The organisation routes need an organisation token (lore org token create).');
  let who: OrgWhoami;
  try {
    who = await api<OrgWhoami>('/api/org/whoami', { token });
  } catch (error) {
    sessionStorage.removeItem(ORG_TOKEN_KEY);
    const status = error instanceof ApiError ? error.status : 0;
    return tokenForm(
      ctx,
      status === 404
        ? 'This server has no organisation tier: start it with lore serve --org.'
        : 'That token was refused; enter another.',
    );
  }
  const canCurate = who.role === 'curate' || who.role === 'admin';
  const tableHost = h('div', { class: 'table-host' });
  const load = async (): Promise<void> => {
    try {
      const state = filters.state === 'any' ? '' : filters.state;
      const data = await api<{ lessons: OrgLesson[] }>(
        `/api/org/lessons${query({ state, project: filters.project, limit: 500 })}`,
        { token },
      );
      const decide = (id: string, decision: 'accept' | 'reject') =>
        void api(`/api/org/lessons/${id}/${decision}`, { method: 'POST', token }).then(() => {
          toast(`${decision === 'accept' ? 'accepted' : 'rejected'} ${id}`);
          return load();
        }, fail);
      mount(
        tableHost,
        data.lessons.length === 0
          ? h(
              'p',
              { class: 'muted' },
              filters.state === 'proposed' ? 'The curate queue is empty.' : 'No lessons.',
            )
          : h(
              'table',
              { class: 'org-lessons' },
              h(
                'thead',
                {},
                h(
                  'tr',
                  {},
                  ['summary', 'state', 'project', 'proposed by', 'version', 'votes', 'changed', ''].map((c) =>
                    h('th', {}, c),
                  ),
                ),
              ),
              h(
                'tbody',
                {},
                data.lessons.map((lesson) => lessonRow(lesson, canCurate, decide)),
              ),
            ),
      );
    } catch (error) {
      fail(error);
    }
  };
  const select = h(
    'select',
    {
      name: 'state',
      onchange: (e: Event) => ((filters.state = (e.target as HTMLSelectElement).value), void load()),
    },
    ['proposed', 'accepted', 'rejected', 'any'].map((o) =>
      h(
        'option',
        { value: o, ...(filters.state === o ? { selected: true } : {}) },
        o === 'proposed' ? 'curate queue (proposed)' : o,
      ),
    ),
  );
  const project = h('input', {
    type: 'search',
    name: 'project',
    placeholder: 'project',
    value: filters.project,
    oninput: (e: Event) => ((filters.project = (e.target as HTMLInputElement).value), void load()),
  });
  const signOut = h(
    'button',
    { class: 'secondary', onclick: () => (sessionStorage.removeItem(ORG_TOKEN_KEY), void orgPage(ctx)) },
    'Use another token',
  );
  mount(
    ctx.main,
    h('div', { class: 'page-head' }, h('h1', {}, `Organisation ${who.org}`), signOut),
    h('p', { class: 'muted whoami' }, `${who.user}, role ${who.role}, on ${who.server}`),
    h('div', { class: 'filters' }, select, project),
    tableHost,
  );
  await load();
}

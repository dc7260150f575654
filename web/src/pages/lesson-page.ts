/**
 * A lesson's page (GET /api/lessons/:id): its content and scope, what replay and outcome feedback
 * measured, where it fired, votes and feedback, supersede, history; edit, archive and restore.
 * Every action re-renders the page from the API.
 */
import { api } from '../api.js';
import type { Lesson, LessonDetail } from '../api-types.js';
import { h, mount } from '../dom.js';
import type { PageContext } from '../page-context.js';
import { card } from '../ui/card.js';
import { formatDate } from '../ui/format-date.js';
import { pill } from '../ui/pill.js';
import { scopeRow } from '../ui/scope-row.js';
import { fail, toast } from '../ui/toast.js';
import { lessonExamples } from './lesson-examples.js';
import { lessonForm } from './lesson-form.js';
import { lessonMeasures } from './lesson-measures.js';

/** POST /api/lessons/:id/upvote: `recorded` is false when this model already voted for the task. */
type UpvoteAnswer = { recorded: boolean };

type LessonActions = {
  /**
   * Calls the API; on success toasts `message` (or what it makes of the answer) and re-renders
   * the page, else toasts the error.
   */
  act(
    path: string,
    body: unknown,
    message: string | ((answer: unknown) => string),
    method?: string,
  ): Promise<void>;
  reload(): Promise<void>;
};

function lessonHead(l: Lesson, editHost: HTMLElement, actions: LessonActions): HTMLElement {
  let editing = false;
  const toggleEdit = () => {
    editing = !editing;
    mount(
      editHost,
      editing
        ? card(
            'Edit',
            lessonForm(l, 'Save changes', async (draft) => {
              await api(`/api/lessons/${l.id}`, { method: 'PATCH', body: draft });
              toast('saved');
              await actions.reload();
            }),
          )
        : null,
    );
  };
  return h(
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
      h('button', { type: 'button', onclick: toggleEdit }, 'Edit'),
      l.status === 'archived'
        ? h(
            'button',
            {
              type: 'button',
              onclick: () => actions.act(`/api/lessons/${l.id}`, { status: 'active' }, 'restored', 'PATCH'),
            },
            'Restore',
          )
        : h(
            'button',
            {
              type: 'button',
              class: 'danger',
              onclick: () => actions.act(`/api/lessons/${l.id}`, undefined, 'archived', 'DELETE'),
            },
            'Archive',
          ),
    ),
  );
}

function lessonMeta(detail: LessonDetail): HTMLElement {
  const l = detail.lesson;
  return h(
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
  );
}

function contentCard(l: Lesson): HTMLElement {
  return card(
    'Content',
    l.body ? h('pre', { class: 'body' }, l.body) : h('p', { class: 'muted' }, 'no body'),
    l.mistake ? h('p', {}, h('b', {}, 'Mistake: '), l.mistake) : null,
    l.remediation ? h('p', {}, h('b', {}, 'Remediation: '), l.remediation) : null,
  );
}

function scopeCard(l: Lesson): HTMLElement {
  return card(
    'Scope',
    scopeRow('tools', l.tools),
    scopeRow('commands', l.commands),
    scopeRow('paths', l.paths),
    scopeRow('errors', l.errors ?? []),
    scopeRow('tags', l.tags),
    scopeRow('stack', l.stack),
    l.tools.length + l.commands.length + l.paths.length + l.tags.length === 0
      ? h('p', { class: 'muted' }, 'no scope: shown only at session start')
      : null,
    (l.errors ?? []).length > 0
      ? h('p', { class: 'muted' }, 'waits for its error: shown after a matching call printed one')
      : null,
  );
}

function votesCard(detail: LessonDetail, actions: LessonActions): HTMLElement {
  const path = `/api/lessons/${detail.lesson.id}`;
  // A vote counts once per (model, task): by default the dashboard's votes count once a day.
  const taskInput = h('input', {
    name: 'task',
    value: `dashboard-${new Date().toISOString().slice(0, 10)}`,
  }) as HTMLInputElement;
  const button = (label: string, onclick: () => Promise<void>) =>
    h('button', { type: 'button', onclick }, label);
  return card(
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
      button('▲ Upvote', () =>
        actions.act(`${path}/upvote`, { task: taskInput.value }, (answer) =>
          (answer as UpvoteAnswer).recorded
            ? 'upvoted'
            : `already counted: a vote counts once per task ("${taskInput.value}"); name another task to vote again`,
        ),
      ),
      button('Helpful', () =>
        actions.act(`${path}/feedback`, { helpful: true, taskId: taskInput.value }, 'thanks'),
      ),
      button('Not helpful', () =>
        actions.act(`${path}/feedback`, { helpful: false, taskId: taskInput.value }, 'noted'),
      ),
    ),
  );
}

function supersedeCard(detail: LessonDetail, actions: LessonActions): HTMLElement {
  const l = detail.lesson;
  const supersedeInput = h('input', {
    name: 'by',
    placeholder: 'id or slug of the replacement lesson',
  }) as HTMLInputElement;
  return card(
    'Supersede',
    detail.supersedes.length > 0
      ? h(
          'p',
          {},
          'Replaces: ',
          detail.supersedes.map((s) => h('a', { href: `#/lessons/${s.id}`, class: 'block' }, s.summary)),
        )
      : null,
    l.status === 'active'
      ? h(
          'form',
          {
            class: 'inline-form',
            onsubmit: (e: Event) => {
              e.preventDefault();
              void actions.act(
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
  );
}

function historyCard(detail: LessonDetail): HTMLElement {
  return card(
    'History',
    h(
      'ol',
      { class: 'history' },
      detail.history.map((e) =>
        h('li', {}, h('span', { class: 'nowrap muted' }, formatDate(e.at)), ' ', pill(e.kind), ' ', e.detail),
      ),
    ),
  );
}

export async function lessonPage(ctx: PageContext, id: string): Promise<void> {
  let detail: LessonDetail;
  try {
    detail = await api<LessonDetail>(`/api/lessons/${encodeURIComponent(id)}`);
  } catch (error) {
    mount(ctx.main, h('p', { class: 'empty' }, error instanceof Error ? error.message : String(error)));
    return;
  }
  const l = detail.lesson;
  const actions: LessonActions = {
    reload: () => lessonPage(ctx, l.id),
    act: async (path, body, message, method = 'POST') => {
      try {
        const answer = await api(path, { method, body });
        toast(typeof message === 'string' ? message : message(answer));
        await actions.reload();
      } catch (error) {
        fail(error);
      }
    },
  };
  const editHost = h('div');
  mount(
    ctx.main,
    lessonHead(l, editHost, actions),
    lessonMeta(detail),
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
      h('div', {}, contentCard(l), scopeCard(l), lessonMeasures(detail), lessonExamples(detail)),
      h('div', {}, votesCard(detail, actions), supersedeCard(detail, actions), historyCard(detail)),
    ),
  );
}

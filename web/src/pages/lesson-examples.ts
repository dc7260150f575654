/**
 * A lesson's Examples card: how often it fired, its last fires from the audit log, and a Try form
 * that asks GET /api/explain whether a sample command or path would bring this lesson up.
 */
import { api, query } from '../api.js';
import type { Explanation, Lesson, LessonDetail } from '../api-types.js';
import { h, mount } from '../dom.js';
import { card } from '../ui/card.js';
import { formatDate } from '../ui/format-date.js';
import { fail } from '../ui/toast.js';

/** A command when the lesson is scoped by commands (or the text has a space and no path scope), else a path. */
function tryParams(l: Lesson, value: string): Record<string, string> {
  const asCommand = l.commands.length > 0 || (l.paths.length === 0 && /\s/.test(value));
  return asCommand
    ? { tool: l.tools[0] ?? 'Bash', command: value }
    : { tool: l.tools.find((t) => t !== 'Bash') ?? 'Edit', path: value };
}

/** What the hook would do with this lesson for the explained call. */
function tryOutcome(ex: Explanation, id: string): HTMLElement {
  const inc = ex.included.find((i) => i.id === id);
  const den = ex.denied.find((i) => i.id === id);
  const drop = ex.dropped.find((i) => i.id === id);
  return inc
    ? h('p', { class: 'ok' }, `would be injected (${inc.form}) ← ${inc.matched_by.join(', ')}`)
    : den
      ? h('p', { class: 'danger' }, `would deny the call ← ${den.matched_by.join(', ')}`)
      : drop
        ? h('p', { class: 'warn' }, `matches, but dropped: ${drop.reason}`)
        : h('p', { class: 'muted' }, 'does not match this call');
}

function tryForm(l: Lesson): HTMLElement[] {
  const tryOut = h('div', { class: 'try' });
  const tryInput = h('input', {
    name: 'example',
    placeholder:
      l.commands.length > 0 ? 'a command, e.g. pytest -v tests/' : 'a path, e.g. tests/test_api.py',
  }) as HTMLInputElement;
  const runTry = async () => {
    const value = tryInput.value.trim();
    if (value === '') return;
    try {
      const ex = await api<Explanation>(`/api/explain${query(tryParams(l, value))}`);
      mount(tryOut, tryOutcome(ex, l.id));
    } catch (error) {
      fail(error);
    }
  };
  const form = h(
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
  );
  return [form, tryOut];
}

function recentFires(detail: LessonDetail): HTMLElement | null {
  if (detail.fires.recent.length === 0) return null;
  return h(
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
            h('td', { class: 'nowrap' }, formatDate(f.time)),
            h('td', {}, f.host),
            h('td', {}, f.tool ?? f.event),
            h('td', {}, f.denied ? 'denied' : 'injected'),
            h('td', {}, f.matched_by.join(', ')),
          ),
        ),
    ),
  );
}

export function lessonExamples(detail: LessonDetail): HTMLElement {
  return card(
    'Examples',
    h('p', { class: 'muted' }, `Fired ${detail.fires.count} time(s) in the audit log.`),
    recentFires(detail),
    tryForm(detail.lesson),
  );
}

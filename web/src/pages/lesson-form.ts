/**
 * The lesson form, for a new lesson and for editing one: it hands a draft to `onSubmit`. A trigger
 * the breadth check finds too broad (409 `too-broad`) is said in the form, with its figures, and
 * saved only on a second click, "Save anyway"; any change to the form asks the check again. An
 * edit sends only the fields the user changed, with the values they had when the form opened.
 */
import { ApiError } from '../api.js';
import type { Lesson } from '../api-types.js';
import { h } from '../dom.js';
import { splitList } from '../ui/split-list.js';
import { fail } from '../ui/toast.js';

type LessonFields = Partial<Lesson>;

const field = (label: string, control: HTMLElement) =>
  h('label', { class: 'field' }, h('span', {}, label), control);

const text = (name: string, value = '', attrs: Record<string, string> = {}) =>
  h('input', { name, value, ...attrs });

function area(name: string, value = '', rows = 3): HTMLTextAreaElement {
  const el = h('textarea', { name, rows }) as HTMLTextAreaElement;
  el.value = value;
  return el;
}

const choice = (name: string, options: string[], value: string) =>
  h(
    'select',
    { name },
    options.map((o) => h('option', { value: o, ...(o === value ? { selected: true } : {}) }, o)),
  );

function lessonFields(initial: LessonFields): HTMLElement[] {
  return [
    field(
      'Summary (one line, what the agent is shown)',
      text('summary', initial.summary ?? '', { required: 'true', maxlength: '280' }),
    ),
    field('Body (markdown)', area('body', initial.body ?? '', 4)),
    h(
      'div',
      { class: 'grid2' },
      field('Mistake', area('mistake', initial.mistake ?? '', 2)),
      field('Remediation', area('remediation', initial.remediation ?? '', 2)),
    ),
    h(
      'div',
      { class: 'grid3' },
      field('Tools (comma separated)', text('tools', (initial.tools ?? []).join(', '))),
      field('Tags', text('tags', (initial.tags ?? []).join(', '))),
      field('Stack', text('stack', (initial.stack ?? []).join(', '))),
    ),
    h(
      'div',
      { class: 'grid2' },
      field('Command regexes (one a line)', area('commands', (initial.commands ?? []).join('\n'), 2)),
      field('Path globs (one a line)', area('paths', (initial.paths ?? []).join('\n'), 2)),
    ),
    field(
      'Error regexes (one a line): the lesson waits for a call that printed one, and speaks after it',
      area('errors', (initial.errors ?? []).join('\n'), 2),
    ),
    h(
      'div',
      { class: 'grid3' },
      field(
        'Severity',
        choice('severity', ['low', 'medium', 'high', 'critical'], initial.severity ?? 'medium'),
      ),
      field('Type', choice('type', ['hint', 'guard', 'checkpoint'], initial.type ?? 'hint')),
      field(
        'Priority (1-10)',
        text('priority', String(initial.priority ?? 5), { type: 'number', min: '1', max: '10' }),
      ),
    ),
  ];
}

const TEXTS = ['body', 'mistake', 'remediation'] as const;

const lines = (value: string): string[] =>
  value
    .split('\n')
    .map((x) => x.trim())
    .filter(Boolean);

/** The request body: lists split, blank optional texts left out (an edit removes them: `unset`). */
function readDraft(form: HTMLFormElement): Record<string, unknown> {
  const data = new FormData(form);
  const get = (k: string) => String(data.get(k) ?? '');
  const draft: Record<string, unknown> = {
    summary: get('summary').trim(),
    tools: splitList(get('tools')),
    tags: splitList(get('tags')),
    stack: splitList(get('stack')),
    // One a line: a regex may hold a comma, and so may a glob (`src/{api,web}/**`).
    commands: lines(get('commands')),
    paths: lines(get('paths')),
    errors: lines(get('errors')),
    severity: get('severity'),
    type: get('type'),
    priority: Number(get('priority')),
  };
  for (const k of TEXTS) if (get(k).trim() !== '') draft[k] = get(k);
  return draft;
}

/** A list the lesson does not have counts as empty. */
const sameValue = (a: unknown, b: unknown): boolean =>
  JSON.stringify(a ?? (Array.isArray(b) ? [] : null)) === JSON.stringify(b ?? (Array.isArray(a) ? [] : null));

/**
 * An edit sends only the fields the user changed: another tab's save of another field in the
 * meantime is kept, never written back with the value this form was opened with, and a save over
 * its change to the same field is refused (`ifUnchanged`). A text the user emptied is removed
 * (`unset`).
 */
function changedFields(draft: Record<string, unknown>, initial: LessonFields): Record<string, unknown> {
  const changed: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(draft))
    if (!sameValue(value, initial[key as keyof LessonFields])) changed[key] = value;
  const unset = TEXTS.filter((k) => draft[k] === undefined && (initial[k] ?? '').trim() !== '');
  if (unset.length > 0) changed.unset = unset;
  // What those fields held when the form opened: a field someone changed since is refused (409).
  const touched = [...Object.keys(changed).filter((k) => k !== 'unset'), ...unset];
  if (touched.length > 0)
    changed.ifUnchanged = Object.fromEntries(
      touched.map((k) => [k, initial[k as keyof LessonFields] ?? null]),
    );
  return changed;
}

export function lessonForm(
  initial: LessonFields,
  submitLabel: string,
  onSubmit: (draft: Record<string, unknown>) => Promise<void>,
): HTMLElement {
  const submit = h('button', { type: 'submit', class: 'primary' }, submitLabel) as HTMLButtonElement;
  const warning = h('p', { class: 'breadth-warning', role: 'alert', hidden: true });
  let force = false;
  const reset = () => {
    force = false;
    warning.hidden = true;
    submit.textContent = submitLabel;
  };
  const form = h(
    'form',
    { class: 'lesson-form' },
    lessonFields(initial),
    warning,
    h('div', { class: 'actions' }, submit),
  ) as HTMLFormElement;
  form.addEventListener('input', reset);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const draft = initial.id === undefined ? readDraft(form) : changedFields(readDraft(form), initial);
    void onSubmit(force ? { ...draft, force: true } : draft)
      .then(reset)
      .catch((error: unknown) => {
        if (!force && error instanceof ApiError && error.code === 'too-broad') {
          force = true;
          warning.textContent = `${error.message}. Narrow its commands, paths or errors, or save it anyway.`;
          warning.hidden = false;
          submit.textContent = 'Save anyway';
          return;
        }
        fail(error);
      });
  });
  return form;
}

/** Explain: a dry run of the hook's real pipeline (GET /api/explain) for one tool call, and why. */
import { api, query } from '../api.js';
import type { Explanation } from '../api-types.js';
import { h, mount } from '../dom.js';
import type { Child } from '../dom.js';
import type { PageContext } from '../page-context.js';
import { card } from '../ui/card.js';
import { pill } from '../ui/pill.js';
import { fail } from '../ui/toast.js';

function outcomeTable(ex: Explanation): HTMLElement {
  const row = (id: string, label: string, why: string[], cls = '') =>
    h(
      'tr',
      { class: cls },
      h('td', {}, h('a', { href: `#/lessons/${id}` }, id)),
      h('td', {}, pill(label, cls)),
      h('td', {}, ex.summaries[id] ?? ''),
      h('td', { class: 'muted' }, why.join(', ')),
    );
  return h(
    'table',
    { class: 'compact' },
    h(
      'thead',
      {},
      h('tr', {}, h('th', {}, 'lesson'), h('th', {}, 'outcome'), h('th', {}, 'summary'), h('th', {}, 'why')),
    ),
    h(
      'tbody',
      {},
      ex.denied.map((d) => row(d.id, 'deny', d.matched_by, 'danger')),
      ex.included.map((i) => row(i.id, `inject (${i.form})`, i.matched_by, 'ok')),
      ex.dropped.map((d) => row(d.id, d.reason, d.matched_by, 'muted')),
    ),
  );
}

function explanationView(ex: Explanation): Child[] {
  const shown = ex.permissionDecisionReason ?? ex.additionalContext;
  return [
    h('p', { class: 'muted' }, `${ex.lessons} lesson(s) in the manifest, ${ex.matched} matched this call.`),
    ex.disabled
      ? h('p', { class: 'warn' }, 'lore is disabled in this project: the hook would print {}')
      : null,
    ex.included.length + ex.denied.length + ex.dropped.length === 0
      ? h('p', { class: 'empty' }, 'No lesson matches this call.')
      : outcomeTable(ex),
    shown
      ? card(
          ex.permissionDecisionReason ? 'The agent would be denied with' : 'The agent would receive',
          h('pre', { class: 'body' }, shown),
        )
      : null,
  ];
}

export async function explainPage(ctx: PageContext): Promise<void> {
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
      mount(out, explanationView(await api<Explanation>(`/api/explain${query(params)}`)));
    } catch (error) {
      fail(error);
    }
  };
  mount(
    ctx.main,
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

/**
 * The review queue (GET /api/candidates): one candidate at a time, approved (with the summary and
 * tags as edited) or rejected from the keyboard: j/k move, a approve, e edit, r reject.
 */
import { api } from '../api.js';
import type { ApprovedCandidate, CandidateJson, CandidateList } from '../api-types.js';
import { h, mount } from '../dom.js';
import type { Child } from '../dom.js';
import type { PageContext } from '../page-context.js';
import { refreshReviewCount } from '../refresh-review-count.js';
import { pill } from '../ui/pill.js';
import { scopeRow } from '../ui/scope-row.js';
import { splitList } from '../ui/split-list.js';
import { fail, toast } from '../ui/toast.js';

type Queue = { candidates: CandidateJson[]; index: number };
type ReviewActions = {
  decide(approve: boolean): Promise<void>;
  select(index: number): void;
  focusSummary(): void;
};

function queueItems(queue: Queue, actions: ReviewActions): HTMLElement[] {
  return queue.candidates.map((c, i) =>
    h(
      'li',
      { class: i === queue.index ? 'selected' : '', 'data-id': c.id, onclick: () => actions.select(i) },
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
  );
}

function candidateButtons(actions: ReviewActions): HTMLElement {
  return h(
    'div',
    { class: 'actions' },
    h(
      'button',
      { type: 'button', class: 'primary', name: 'approve', onclick: () => void actions.decide(true) },
      'Approve (a)',
    ),
    h('button', { type: 'button', onclick: () => actions.focusSummary() }, 'Edit (e)'),
    h(
      'button',
      { type: 'button', class: 'danger', name: 'reject', onclick: () => void actions.decide(false) },
      'Reject (r)',
    ),
  );
}

const labelled = (label: string, value: string | null | undefined): HTMLElement | null =>
  value ? h('p', {}, h('b', {}, `${label}: `), value) : null;

/**
 * Capture's text beside the model's once `lore distill` rewrote the candidate; a note when its
 * distillation was refused or failed.
 */
function distillComparison(c: CandidateJson): Child {
  const d = c.distill;
  if (d.status === null) return null;
  const by = [d.provider, d.model].filter(Boolean).join(' ');
  const note =
    d.status === 'applied'
      ? null
      : h('p', { class: 'muted distill-note' }, `Distillation ${d.status} (${by}): ${d.note ?? ''}`);
  if (d.distilled === null) return note;
  return h(
    'div',
    {},
    note,
    h(
      'div',
      { class: 'compare' },
      h(
        'section',
        { class: 'heuristic' },
        h('h3', {}, 'Heuristic (lore scan)'),
        labelled('Summary', d.heuristic.summary),
        labelled('Mistake', d.heuristic.mistake),
        labelled('Fix', d.heuristic.remediation),
        scopeRow('commands', d.heuristic.commands),
        scopeRow('paths', d.heuristic.paths),
        scopeRow('tags', d.heuristic.tags),
      ),
      h(
        'section',
        { class: 'distilled' },
        h('h3', {}, `Distilled (${by})`),
        labelled('Summary', d.distilled.summary),
        labelled('Context', d.distilled.context),
        labelled('Observation', d.distilled.observation),
        labelled('Implication', d.distilled.implication),
        labelled('Action', d.distilled.action),
        scopeRow('commands', d.distilled.commands),
        scopeRow('paths', d.distilled.paths),
        scopeRow('tags', d.distilled.tags),
      ),
    ),
  );
}

function candidateDetail(queue: Queue, c: CandidateJson, actions: ReviewActions): Child[] {
  return [
    h('h2', {}, `Candidate ${queue.index + 1} of ${queue.candidates.length}`),
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
    scopeRow('commands', c.commands),
    scopeRow('paths', c.paths),
    distillComparison(c),
    scopeRow('failed', c.distill.evidence.commands),
    scopeRow('failed on', c.distill.evidence.paths),
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
    candidateButtons(actions),
  ];
}

/** The queue's keys; inside a text field only Enter (approve, from the summary) and Escape count. */
function reviewKeys(queue: Queue, actions: ReviewActions): (event: KeyboardEvent) => void {
  return (event) => {
    const target = event.target as HTMLElement;
    const typing = target.tagName === 'INPUT' || target.tagName === 'TEXTAREA';
    if (typing) {
      if (event.key === 'Enter' && target.getAttribute('name') === 'summary') void actions.decide(true);
      if (event.key === 'Escape') target.blur();
      return;
    }
    if (event.metaKey || event.ctrlKey || event.altKey) return;
    if (event.key === 'j' || event.key === 'ArrowDown')
      actions.select(Math.min(queue.candidates.length - 1, queue.index + 1));
    else if (event.key === 'k' || event.key === 'ArrowUp') actions.select(Math.max(0, queue.index - 1));
    else if (event.key === 'a') void actions.decide(true);
    else if (event.key === 'r') void actions.decide(false);
    else if (event.key === 'e') actions.focusSummary();
    else return;
    event.preventDefault();
  };
}

export async function reviewPage(ctx: PageContext): Promise<void> {
  const queue: Queue = { candidates: [], index: 0 };
  const listHost = h('ol', { class: 'queue' });
  const detailHost = h('div', { class: 'card candidate' });
  const field = (name: string) => detailHost.querySelector(`[name=${name}]`) as HTMLInputElement | null;
  mount(
    ctx.main,
    h(
      'div',
      { class: 'page-head' },
      h('h1', {}, 'Review queue'),
      h('p', { class: 'muted keys' }, 'keys: j/k move · a approve · e edit · r reject'),
    ),
    h('div', { class: 'review' }, listHost, detailHost),
  );
  const render = () => {
    mount(listHost, queueItems(queue, actions));
    const c = queue.candidates[queue.index];
    mount(
      detailHost,
      c
        ? candidateDetail(queue, c, actions)
        : h(
            'p',
            { class: 'empty' },
            'Nothing to review. Candidates appear here after `lore scan` (or `lore up`).',
          ),
    );
  };
  const load = async () => {
    queue.candidates = (await api<CandidateList>('/api/candidates')).candidates;
    queue.index = Math.min(queue.index, Math.max(0, queue.candidates.length - 1));
    render();
    void refreshReviewCount();
  };
  const actions: ReviewActions = {
    select: (index) => {
      queue.index = index;
      render();
    },
    focusSummary: () => field('summary')?.focus(),
    decide: async (approve) => {
      const c = queue.candidates[queue.index];
      if (!c) return;
      try {
        if (approve) {
          const summary = field('summary')?.value.trim();
          const tags = splitList(field('tags')?.value ?? '');
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
    },
  };
  const onKey = reviewKeys(queue, actions);
  document.addEventListener('keydown', onKey);
  ctx.onLeave(() => document.removeEventListener('keydown', onKey));
  await load().catch(fail);
}

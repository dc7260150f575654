/**
 * The review queue (GET /api/candidates): one candidate at a time, approved (with the summary and
 * tags as edited) or rejected from the keyboard: j/k move, a approve, e edit, r reject. Approving
 * says how often the trigger would have fired on the recent calls; a trigger the breadth check
 * finds too broad (409 `too-broad`) is saved only on a second click, "Approve anyway". A candidate
 * decided meanwhile elsewhere (404) is said so and the queue reloaded.
 *
 * Below the queue, the lessons held for review (GET /api/review/held): lessons marked needsReview
 * because their mistake kept repeating after they were injected (the transcript lines where it
 * did), or because an import found their trigger too broad; each can be kept (clears the mark) or
 * archived.
 */
import { api, ApiError } from '../api.js';
import type {
  ApprovedCandidate,
  CandidateJson,
  CandidateList,
  HeldLesson,
  HeldLessonList,
} from '../api-types.js';
import { h, mount } from '../dom.js';
import type { Child } from '../dom.js';
import type { PageContext } from '../page-context.js';
import { refreshReviewCount } from '../refresh-review-count.js';
import { pill } from '../ui/pill.js';
import { scopeRow } from '../ui/scope-row.js';
import { splitList } from '../ui/split-list.js';
import { fail, toast } from '../ui/toast.js';

type Queue = {
  candidates: CandidateJson[];
  index: number;
  /** The candidate whose approval the breadth check refused, and why: the next approve forces it. */
  broad?: { id: string; message: string };
};
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

function candidateButtons(actions: ReviewActions, broad: boolean): HTMLElement {
  return h(
    'div',
    { class: 'actions' },
    h(
      'button',
      {
        type: 'button',
        class: broad ? 'danger' : 'primary',
        name: broad ? 'approve-anyway' : 'approve',
        onclick: () => void actions.decide(true),
      },
      broad ? 'Approve anyway (a)' : 'Approve (a)',
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
    scopeRow('errors', c.errors),
    distillComparison(c),
    scopeRow('failed', c.distill.evidence.commands),
    scopeRow('failed on', c.distill.evidence.paths),
    queue.broad?.id === c.id
      ? h(
          'p',
          { class: 'breadth-warning', role: 'alert' },
          queue.broad.message,
          '. Narrow its commands or paths with `lore candidates approve ID --command ...`, or approve it anyway.',
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
    candidateButtons(actions, queue.broad?.id === c.id),
  ];
}

type HeldActions = { keep(id: string): Promise<void>; archive(id: string): Promise<void> };

function heldCard(lesson: HeldLesson, actions: HeldActions): HTMLElement {
  const o = lesson.outcomes;
  return h(
    'li',
    { class: 'card held-lesson', 'data-id': lesson.id },
    h('div', {}, h('a', { href: `#/lessons/${lesson.id}` }, lesson.summary)),
    h(
      'div',
      { class: 'meta' },
      pill(lesson.id),
      pill(`tier ${lesson.tier}`),
      pill(`confidence ${lesson.confidence.toFixed(2)}`),
      o.repeated > 0 ? pill(`repeated ${o.repeated}`, 'warn') : null,
      o.prevented > 0 ? pill(`prevented ${o.prevented}`) : null,
      o.noise > 0 ? pill(`noise ${o.noise}`) : null,
      lesson.breadth.broad ? pill('broad trigger', 'warn') : null,
    ),
    lesson.mistake ? h('p', {}, h('b', {}, 'Mistake: '), lesson.mistake) : null,
    h('p', { class: 'muted breadth' }, `Trigger: ${lesson.breadth.message}`),
    lesson.repeated.length > 0
      ? h(
          'div',
          {},
          h('b', {}, 'Repeated after it was injected:'),
          h(
            'ul',
            { class: 'evidence' },
            lesson.repeated.map((r) =>
              h('li', {}, h('code', {}, `${r.file}:${r.line}`), ` (${r.form}, ${r.at.slice(0, 10)})`),
            ),
          ),
        )
      : null,
    h(
      'div',
      { class: 'actions' },
      h(
        'button',
        { type: 'button', class: 'primary', name: 'keep', onclick: () => void actions.keep(lesson.id) },
        'Keep',
      ),
      h(
        'button',
        { type: 'button', class: 'danger', name: 'archive', onclick: () => void actions.archive(lesson.id) },
        'Archive',
      ),
    ),
  );
}

function heldSection(held: HeldLessonList, actions: HeldActions): Child[] {
  return [
    h('h2', {}, `Lessons held for review (${held.lessons.length})`),
    held.lessons.length === 0
      ? h(
          'p',
          { class: 'empty' },
          'None. A lesson is held here when its mistake keeps repeating after it was injected, or when an import finds its trigger too broad.',
        )
      : h(
          'ul',
          { class: 'held-list' },
          held.lessons.map((lesson) => heldCard(lesson, actions)),
        ),
    held.skippedOutcomes > 0
      ? h(
          'p',
          { class: 'muted' },
          `${held.skippedOutcomes} unreadable line(s) in outcomes.jsonl were skipped.`,
        )
      : null,
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
  const heldHost = h('section', { class: 'held', id: 'held' });
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
    heldHost,
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
  const heldActions: HeldActions = {
    keep: async (id) => {
      try {
        await api(`/api/lessons/${id}/keep`, { method: 'POST' });
        toast(`kept ${id}: it is injected again`);
        await loadHeld();
      } catch (error) {
        fail(error);
      }
    },
    archive: async (id) => {
      try {
        await api(`/api/lessons/${id}`, { method: 'DELETE' });
        toast(`archived ${id}`);
        await loadHeld();
      } catch (error) {
        fail(error);
      }
    },
  };
  const loadHeld = async () => {
    mount(heldHost, heldSection(await api<HeldLessonList>('/api/review/held'), heldActions));
  };
  const load = async () => {
    const [list] = await Promise.all([api<CandidateList>('/api/candidates'), loadHeld()]);
    queue.candidates = list.candidates;
    queue.index = Math.min(queue.index, Math.max(0, queue.candidates.length - 1));
    render();
    void refreshReviewCount();
  };
  let deciding = false;
  const actions: ReviewActions = {
    select: (index) => {
      queue.index = index;
      queue.broad = undefined;
      render();
    },
    focusSummary: () => field('summary')?.focus(),
    decide: async (approve) => {
      const c = queue.candidates[queue.index];
      // a double click, or a key held down, decides once: the rest wait for the answer
      if (!c || deciding) return;
      deciding = true;
      try {
        if (approve) {
          const summary = field('summary')?.value.trim();
          const tags = splitList(field('tags')?.value ?? '');
          // The second click on a broad trigger's approval saves it anyway.
          const force = queue.broad?.id === c.id;
          const added = await api<ApprovedCandidate>(`/api/candidates/${c.id}/approve`, {
            method: 'POST',
            body: {
              ...(summary && summary !== c.summary ? { summary } : {}),
              // sent when edited, emptied included: an empty field approves it without tags
              ...(tags.join('\n') !== c.tags.join('\n') ? { tags } : {}),
              ...(force ? { force: true } : {}),
            },
          });
          queue.broad = undefined;
          toast(`approved as lesson ${added.id}; ${added.breadth.message}`);
        } else {
          await api(`/api/candidates/${c.id}/reject`, { method: 'POST' });
          toast('rejected: this pattern will not be proposed again');
        }
        await load();
      } catch (error) {
        if (approve && error instanceof ApiError && error.code === 'too-broad') {
          queue.broad = { id: c.id, message: error.message };
          render();
          return;
        }
        if (error instanceof ApiError && error.code === 'not-found') {
          // approved or rejected meanwhile (another tab, `lore review`): this queue was stale
          toast(`candidate ${c.id} was already decided elsewhere; the queue is reloaded`, 'error');
          await load().catch(fail);
          return;
        }
        fail(error);
      } finally {
        deciding = false;
      }
    },
  };
  const onKey = reviewKeys(queue, actions);
  document.addEventListener('keydown', onKey);
  ctx.onLeave(() => document.removeEventListener('keydown', onKey));
  await load().catch(fail);
}

/**
 * The lesson page's "Measured" card: the lesson's figures in the last replay (`lore replay`) and
 * what outcome feedback (`lore scan`) concluded about its real injections.
 */
import type { LessonDetail } from '../api-types.js';
import { h } from '../dom.js';
import { card } from '../ui/card.js';
import { formatDate } from '../ui/format-date.js';
import { statTiles } from '../ui/stat-tiles.js';

const FORMS = ['guard', 'checkpoint', 'before-call', 'after-call'] as const;

export const percent = (value: number | null): string =>
  value === null ? '–' : `${Math.round(value * 100)}%`;

function replayPart(detail: LessonDetail): HTMLElement {
  const r = detail.replay;
  if (r === null)
    return h(
      'p',
      { class: 'muted replay-empty' },
      detail.lastReplayAt
        ? [
            `Not in the last replay (${formatDate(detail.lastReplayAt)}). Run `,
            h('code', {}, 'lore replay'),
            ' to measure it.',
          ]
        : [
            'No replay yet. Run ',
            h('code', {}, 'lore replay'),
            ' to see how often this lesson would have fired, hit its mistake, or been noise.',
          ],
    );
  const forms = FORMS.filter((form) => r.byForm[form] !== undefined);
  return h(
    'div',
    { class: 'replay-figures' },
    h(
      'p',
      { class: 'muted' },
      `Last replay ${formatDate(r.at)}${r.asOf ? ' (--as-of)' : ''}, over ${r.calls} calls. `,
      h('a', { href: '#/replay' }, 'Replay page'),
    ),
    h(
      'div',
      { class: 'stats' },
      statTiles([
        ['fires', r.fires],
        ['hits', r.hits],
        ['misses', r.misses],
        ['noise', r.noise],
        ['prevented', r.prevented],
        ['precision', percent(r.precision)],
      ]),
    ),
    forms.length > 0
      ? h(
          'table',
          { class: 'compact by-form' },
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              ['form', 'fires', 'hits', 'misses', 'noise', 'prevented'].map((t) => h('th', {}, t)),
            ),
          ),
          h(
            'tbody',
            {},
            forms.map((form) => {
              const f = r.byForm[form]!;
              return h(
                'tr',
                { 'data-form': form },
                h('td', {}, form),
                [f.fires, f.hits, f.misses, f.noise, f.prevented].map((n) =>
                  h('td', { class: 'num' }, String(n)),
                ),
              );
            }),
          ),
        )
      : null,
    r.asCheckpoint
      ? h(
          'p',
          { class: 'as-checkpoint' },
          `As a checkpoint it would have denied ${r.asCheckpoint.denials} call(s) and prevented ${r.asCheckpoint.prevented}.`,
        )
      : null,
    r.recurrences > 0 ? h('p', {}, `Its mistake recurred ${r.recurrences} time(s) after it existed.`) : null,
    r.toolOnly
      ? h('p', { class: 'warn' }, 'Scoped by tool alone: it fires on every call of its tools.')
      : null,
    r.suggestions.map((s) => h('p', { class: 'notice inline suggestion' }, `${s.kind}: ${s.text}`)),
  );
}

function outcomesPart(detail: LessonDetail): HTMLElement {
  const o = detail.outcomes;
  if (o === null)
    return h(
      'p',
      { class: 'muted outcomes-empty' },
      'No injection judged yet: ',
      h('code', {}, 'lore scan'),
      ' judges each injection by the calls after it.',
    );
  return h(
    'div',
    { class: 'outcome-figures' },
    h('h3', {}, 'Outcomes of its injections'),
    h(
      'div',
      { class: 'stats' },
      statTiles([
        ['prevented', o.prevented],
        ['repeated', o.repeated],
        ['noise', o.noise],
        ['unlinked', o.unlinked],
      ]),
    ),
    o.last
      ? h(
          'p',
          { class: 'muted' },
          `Last: ${o.last.verdict} (${o.last.form}), injected ${formatDate(o.last.injectedAt)}.`,
        )
      : null,
    h(
      'p',
      {},
      `Outcome feedback: ${o.feedback.helpful} helpful, ${o.feedback.notHelpful} not helpful (automatic).`,
    ),
  );
}

export function lessonMeasures(detail: LessonDetail): HTMLElement {
  const card_ = card('Measured', replayPart(detail), outcomesPart(detail));
  card_.id = 'lesson-measures';
  return card_;
}

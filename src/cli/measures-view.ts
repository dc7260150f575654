/** What lore measured about a lesson (the last replay, outcome feedback) as the lines `lore show` prints. */
import { DELIVERY_FORMS } from '../core/replay/replay-report.js';
import type { FormFigures } from '../core/replay/replay-report.js';
import type { LessonMeasures } from '../store/lessons/lesson-measures.js';

const day = (iso: string) => iso.slice(0, 10);
const percent = (value: number | null) => (value === null ? '–' : `${Math.round(value * 100)}%`);
const figures = (f: FormFigures) =>
  `fires ${f.fires}   hits ${f.hits}   misses ${f.misses}   noise ${f.noise}   prevented ${f.prevented}`;

export function formatLessonMeasures(measures: LessonMeasures): string[] {
  const { replay, outcomes, lastReplayAt } = measures;
  const lines: string[] = [];
  if (replay) {
    lines.push(
      `replay (${day(replay.at)}${replay.asOf ? ', --as-of' : ''}, ${replay.calls} calls): ${figures(replay)}   precision ${percent(replay.precision)}`,
    );
    for (const form of DELIVERY_FORMS) {
      const f = replay.byForm[form];
      if (f) lines.push(`  ${form}: ${figures(f)}`);
    }
    if (replay.recurrences > 0) lines.push(`  recurrences after it existed: ${replay.recurrences}`);
    if (replay.asCheckpoint)
      lines.push(
        `  as a checkpoint it would have denied ${replay.asCheckpoint.denials} call(s) and prevented ${replay.asCheckpoint.prevented}`,
      );
    if (replay.toolOnly) lines.push('  scoped by tool alone: it fires on every call of its tools');
    for (const s of replay.suggestions) lines.push(`  suggestion (${s.kind}): ${s.text}`);
  } else if (lastReplayAt) {
    lines.push(`replay: not in the last replay (${day(lastReplayAt)}); run \`lore replay\` to measure it`);
  } else {
    lines.push(
      'replay: none yet; run `lore replay` to see how often it would have fired, hit and been noise',
    );
  }
  if (outcomes) {
    const last = outcomes.last
      ? ` (last: ${outcomes.last.verdict}, ${outcomes.last.form}, injected ${outcomes.last.injectedAt})`
      : '';
    lines.push(
      `outcomes: ${outcomes.total} injection(s) judged: ${outcomes.prevented} prevented, ${outcomes.repeated} repeated, ${outcomes.noise} noise, ${outcomes.unlinked} unlinked${last}`,
      `  outcome feedback: ${outcomes.feedback.helpful} helpful, ${outcomes.feedback.notHelpful} not helpful (automatic, from \`lore scan\`)`,
    );
  } else {
    lines.push('outcomes: none judged yet (`lore scan` judges each injection by the calls after it)');
  }
  return lines;
}

import type { Command } from '../command.js';
import { formatLessonDetail } from '../output.js';
import { openCommandWorkspace } from '../open-workspace.js';
import { resolveLesson } from '../../store/lessons/lesson-writes.js';
import { readLessonReport } from '../../store/lessons/lesson-report.js';
import { readLessonMeasures } from '../../store/lessons/lesson-measures.js';
import { formatProblem } from '../../core/errors.js';
import { formatLessonMeasures } from '../measures-view.js';

export const command: Command = {
  spec: {
    usage: 'lore show ID [--json]',
    description:
      'Shows one lesson in full with its vote summary, its feedback (helpful / not helpful; they move its\n' +
      'confidence), how often it was injected (from the audit log), its figures in the last replay\n' +
      '(`lore replay`: fires, hits, misses, noise, prevented, precision, by delivery form) and what\n' +
      'outcome feedback concluded about its injections (`lore scan`: prevented, repeated, noise,\n' +
      'unlinked). ID is an id, any unique prefix of one, or a slug.',
    options: {},
    positionals: { min: 1, max: 1, names: 'ID' },
    json: true,
    examples: ['lore show 7m2k', 'lore show pytest-hangs-tty --json'],
  },
  async run(ctx, args) {
    const ws = await openCommandWorkspace(ctx);
    try {
      const target = await resolveLesson(ws, args.positionals[0] ?? '');
      const report = readLessonReport(ws, target, ctx.now());
      const measures = readLessonMeasures(ws, target);
      for (const problem of measures.problems) ctx.note(`lore: ${formatProblem(problem)}`);
      const { feedback, timesInjected, lastInjectedAt } = report;
      const usage = [
        `feedback: ${feedback.helpful} helpful, ${feedback.notHelpful} not helpful`,
        `injected: ${timesInjected} time(s)${lastInjectedAt ? ` (last ${lastInjectedAt})` : ''}`,
        ...formatLessonMeasures(measures),
      ];
      return {
        data: {
          lesson: report.lesson,
          file: report.file,
          votes: report.votes,
          feedback,
          timesInjected,
          lastInjectedAt,
          replay: measures.replay,
          lastReplayAt: measures.lastReplayAt,
          outcomes: measures.outcomes,
          problems: [...report.problems, ...measures.problems],
        },
        text: formatLessonDetail(target.lesson, report.file, report.votes, usage),
      };
    } finally {
      ws.close();
    }
  },
};

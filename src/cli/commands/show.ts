import type { Command } from '../command.js';
import { formatLessonDetail } from '../output.js';
import { openCommandWorkspace } from '../open-workspace.js';
import { resolveLesson } from '../../store/lessons/lesson-writes.js';
import { readLessonReport } from '../../store/lessons/lesson-report.js';

export const command: Command = {
  spec: {
    usage: 'lore show ID [--json]',
    description:
      'Shows one lesson in full with its vote summary, its feedback (helpful / not helpful; they move its\n' +
      'confidence) and how often it was injected (from the audit log). ID is an id, any unique prefix\n' +
      'of one, or a slug.',
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
      const { feedback, timesInjected, lastInjectedAt } = report;
      const usage = [
        `feedback: ${feedback.helpful} helpful, ${feedback.notHelpful} not helpful`,
        `injected: ${timesInjected} time(s)${lastInjectedAt ? ` (last ${lastInjectedAt})` : ''}`,
      ];
      return {
        data: {
          lesson: report.lesson,
          file: report.file,
          votes: report.votes,
          feedback,
          timesInjected,
          lastInjectedAt,
          problems: report.problems,
        },
        text: formatLessonDetail(target.lesson, report.file, report.votes, usage),
      };
    } finally {
      ws.close();
    }
  },
};

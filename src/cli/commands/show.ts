import type { Command } from '../command.js';
import { formatLessonDetail } from '../output.js';
import { openCommandWorkspace } from '../open-workspace.js';
import { resolveLesson } from '../../store/lesson-writes.js';
import { summarizeVotes } from '../../core/rank/votes.js';

export const command: Command = {
  spec: {
    usage: 'lore show ID [--json]',
    description:
      'Shows one lesson in full with its vote summary. ID is an id, any unique prefix of one, or a slug.',
    options: {},
    positionals: { min: 1, max: 1, names: 'ID' },
    json: true,
    examples: ['lore show 7m2k', 'lore show pytest-hangs-tty --json'],
  },
  async run(ctx, args) {
    const ws = await openCommandWorkspace(ctx);
    try {
      const target = await resolveLesson(ws, args.positionals[0] ?? '');
      const { votes, problems } = ws.store(target.tier).readVotes(target.id);
      const summary = summarizeVotes(votes, ctx.now(), ws.halfLifeDays);
      const file = ws.displayPath(target.file);
      return {
        data: { lesson: target.lesson, file, votes: { ...summary, votes }, problems },
        text: formatLessonDetail(target.lesson, file, summary),
      };
    } finally {
      ws.close();
    }
  },
};

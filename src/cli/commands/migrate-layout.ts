import type { Command } from '../command.js';
import { flagOption } from '../command.js';
import { openWorkspace } from '../../store/workspace/workspace.js';
import { migrateLayout } from '../../store/lessons/migrate-layout.js';

export const command: Command = {
  spec: {
    usage: 'lore migrate-layout [--dry-run] [--json]',
    description:
      'Moves lessons of the old flat layout (lessons/<id>.yaml, and <id>.votes.jsonl beside it) into\n' +
      'lessons/<id>/lesson.yaml and lessons/<id>/votes.jsonl, in both tiers. A file whose id is not a lore id\n' +
      'gets a new one (the old name is kept as its slug when it has none).',
    options: { 'dry-run': { type: 'boolean', description: 'show the moves, change nothing' } },
    positionals: { min: 0, max: 0, names: '' },
    json: true,
  },
  async run(ctx, args) {
    const ws = await openWorkspace({ cwd: ctx.cwd, root: ctx.root, env: ctx.env });
    try {
      const dryRun = flagOption(args, 'dry-run');
      const moves = await migrateLayout(ws, { dryRun, nowMs: ctx.now() });
      const lines =
        moves.length === 0
          ? ['nothing to migrate: every lesson already has its own directory']
          : [
              ...moves.map(
                (m) =>
                  `${dryRun ? 'would move' : 'moved'} ${ws.displayPath(m.from)} -> ${ws.displayPath(m.to)}${m.problem ? `  (${m.problem})` : ''}`,
              ),
              dryRun ? 'run again without --dry-run to apply' : 'done; review with `git status` and commit',
            ];
      return {
        data: { dryRun, moves },
        text: lines.join('\n'),
        exitCode: moves.some((m) => m.problem) ? 1 : 0,
      };
    } finally {
      ws.close();
    }
  },
};

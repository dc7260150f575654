import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { LoreError } from '../../core/errors.js';
import { formatProblem } from '../../core/errors.js';
import { TIERS } from '../../core/lesson/constants.js';
import { choiceOption, flagOption } from '../command.js';
import type { Command } from '../command.js';
import { openCommandWorkspace, settleIndex } from '../open-workspace.js';
import { importLessons } from '../../store/lore-json.js';

export const command: Command = {
  spec: {
    usage: 'lore import F [--tier T] [--replace] [--dry-run] [--json]',
    description:
      'Adds the lessons of a lore JSON export (F, or - for stdin), keeping their ids, and merges their votes.\n' +
      'A lesson whose id already exists is left alone when identical, and reported as a conflict otherwise\n' +
      '(--replace overwrites it). Invalid entries are reported and skipped; exit status 1 if there were any.',
    options: {
      tier: {
        type: 'string',
        value: 'T',
        description: `put every lesson in this tier (${TIERS.join(' | ')}; default: each lesson's own)`,
      },
      replace: { type: 'boolean', description: 'overwrite lessons whose id exists with different content' },
      'dry-run': { type: 'boolean', description: 'report what would change, write nothing' },
    },
    positionals: { min: 1, max: 1, names: 'F' },
    json: true,
  },
  async run(ctx, args) {
    const source = args.positionals[0] ?? '';
    let text: string;
    try {
      text = source === '-' ? await ctx.readStdin() : readFileSync(resolve(ctx.cwd, source), 'utf8');
    } catch (error) {
      throw new LoreError(
        'usage',
        `cannot read ${source}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      );
    }
    const ws = await openCommandWorkspace(ctx);
    try {
      const report = await importLessons(ws, text, source, {
        tier: choiceOption(args, 'tier', TIERS),
        replace: flagOption(args, 'replace'),
        dryRun: flagOption(args, 'dry-run'),
      });
      const verb = flagOption(args, 'dry-run') ? 'would import' : 'imported';
      const lines = [
        ...report.problems.map(formatProblem),
        `${verb} ${report.added.length} new, ${report.replaced.length} replaced, ${report.unchanged.length} unchanged, ` +
          `${report.conflicts.length} conflict(s), ${report.invalid} invalid; ${report.votesAdded} vote(s) added`,
      ];
      if (report.conflicts.length > 0)
        lines.push(`conflicts (kept as they are; --replace overwrites): ${report.conflicts.join(', ')}`);
      return { data: report, text: lines.join('\n'), exitCode: report.invalid > 0 ? 1 : 0 };
    } finally {
      await settleIndex(ws).catch(() => undefined);
      ws.close();
    }
  },
};

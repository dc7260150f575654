import { flagOption } from '../command.js';
import type { Command } from '../command.js';
import { noteProblems, openCommandWorkspace } from '../open-workspace.js';
import { aggregateSkills } from '../../store/views/workspace-views.js';

const ACTION_TEXT = {
  write: { done: 'wrote', dry: 'would write' },
  unchanged: { done: 'up to date', dry: 'up to date' },
  remove: { done: 'removed', dry: 'would remove' },
  'not-ours': { done: 'left alone (not written by lore)', dry: 'would leave alone (not written by lore)' },
} as const;

export const command: Command = {
  spec: {
    usage: 'lore aggregate [--dry-run] [--json]',
    description:
      'Writes one agent skill per tool with many lessons: every tool named in a tool:<name> tag of at least\n' +
      'aggregate.threshold (default 5) active project lessons gets <aggregate.dir>/lore-<tool>/SKILL.md\n' +
      '(default .claude/skills, which Claude Code loads as project skills), listing the command patterns, and each\n' +
      "lesson's id, summary and fix. A skill whose tool fell below the threshold is removed. Files lore did not\n" +
      'write are never touched. The hook then points at the skill instead of injecting those lessons one by one.\n' +
      'With aggregate.enabled: true in .lore/config.yaml, every lesson write aggregates again.',
    options: {
      'dry-run': { type: 'boolean', description: 'say what would change, change nothing' },
    },
    positionals: { min: 0, max: 0, names: '' },
    json: true,
    examples: ['lore aggregate --dry-run', 'lore aggregate --json'],
  },
  async run(ctx, args) {
    const dryRun = flagOption(args, 'dry-run');
    const ws = await openCommandWorkspace(ctx);
    try {
      const report = await aggregateSkills(ws, { dryRun, nowMs: ctx.now(), rebuildManifest: !dryRun });
      const problems = await noteProblems(ctx, ws);
      const changes = report.changes.map((change) => ({ ...change, path: ws.displayPath(change.path) }));
      const lines = changes.map(
        (change) =>
          `${ACTION_TEXT[change.action][dryRun ? 'dry' : 'done']}: ${change.path}` +
          (change.tool === undefined
            ? ' (its tool has fewer lessons now)'
            : ` (${change.tool}: ${change.lessons.length} lessons)`),
      );
      if (changes.length === 0) {
        lines.push(`no tool has ${report.threshold} or more active project lessons (tag them tool:<name>)`);
      }
      return {
        data: {
          dir: ws.displayPath(report.dir),
          threshold: report.threshold,
          dryRun,
          skills: changes,
          problems,
        },
        text: lines.join('\n'),
      };
    } finally {
      ws.close();
    }
  },
};

import { flagOption } from '../command.js';
import type { Command } from '../command.js';
import { noteProblems, openCommandWorkspace, settleIndex } from '../open-workspace.js';
import { applyUnusedDecay } from '../../store/lessons/unused-decay.js';

export const command: Command = {
  spec: {
    usage: 'lore maintain [--dry-run] [--json]',
    description:
      'Periodic upkeep. The unused-decay step: every active lesson loses 0.02 confidence per 30 days\n' +
      'without an injection (floor 0.1), counted from its last injection in the audit log, its creation or\n' +
      'the last decay applied (remembered in .lore/cache/maintain.json). Lessons under the confidence\n' +
      'floor (config inject.minConfidence) stop being injected; feedback (`lore feedback`) raises them again.',
    options: {
      'dry-run': { type: 'boolean', description: 'show what would change; write nothing' },
    },
    positionals: { min: 0, max: 0, names: '' },
    json: true,
    examples: ['lore maintain', 'lore maintain --dry-run --json'],
  },
  async run(ctx, args) {
    const dryRun = flagOption(args, 'dry-run');
    const ws = await openCommandWorkspace(ctx);
    try {
      const decayed = await applyUnusedDecay(ws, ctx.now(), { dryRun });
      const problems = await noteProblems(ctx, ws);
      const verb = dryRun ? 'would lower' : 'lowered';
      const text =
        decayed.length === 0
          ? 'nothing to do: no active lesson has gone 30 days without an injection since its creation or its last decay'
          : [
              `${verb} the confidence of ${decayed.length} unused lesson(s):`,
              ...decayed.map(
                (c) =>
                  `  ${c.id}  ${c.before} -> ${c.after}  (${c.periods} x 30 days unused since ${c.since.slice(0, 10)})  ${c.summary.slice(0, 80)}`,
              ),
            ].join('\n');
      return { data: { dryRun, decayed, problems }, text };
    } finally {
      if (!dryRun) await settleIndex(ws).catch(() => undefined);
      ws.close();
    }
  },
};

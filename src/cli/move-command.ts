/**
 * `lore promote` and `lore demote`: one command shape, two directions along
 * project -> user -> universal. The store does the move (src/store/lessons/move-lesson.ts).
 */
import { LoreError } from '../core/errors.js';
import { SCOPE_CLASSES } from '../core/lesson/constants.js';
import type { ScopeClass } from '../core/lesson/constants.js';
import { choiceOption } from './command.js';
import type { Command } from './command.js';
import { openCommandWorkspace, settleIndex } from './open-workspace.js';
import { moveLesson, nextScope, scopeClassOf } from '../store/lessons/move-lesson.js';
import { resolveLesson } from '../store/lessons/lesson-writes.js';

const WHERE: Record<ScopeClass, string> = {
  project: 'the project tier (.lore/)',
  user: 'the user tier ($LORE_HOME)',
  universal: 'the user tier, marked universal',
};

export function createMoveCommand(direction: 'promote' | 'demote'): Command {
  const targets = SCOPE_CLASSES.filter((scope) =>
    direction === 'promote' ? scope !== 'project' : scope !== 'universal',
  );
  return {
    spec: {
      usage: `lore ${direction} ID [--to ${targets.join('|')}] [--json]`,
      description:
        (direction === 'promote'
          ? "Widens a lesson's reach one step: project -> user (moves it to $LORE_HOME) -> universal\n" +
            '(a user lesson meant to be shared beyond this machine).'
          : "Narrows a lesson's reach one step: universal -> user -> project (moves it into .lore/).") +
        '\nA move between tiers carries the whole lesson directory (lesson.yaml, votes.jsonl, feedback.jsonl)\n' +
        'and keeps the id; a process killed mid-way is completed by the next lore command in this project.\n' +
        'The lesson records classifiedBy: human.',
      options: {
        to: {
          type: 'string',
          value: targets.join('|'),
          description: `where to (default: one step ${direction === 'promote' ? 'up' : 'down'})`,
        },
      },
      positionals: { min: 1, max: 1, names: 'ID' },
      json: true,
      examples:
        direction === 'promote'
          ? ['lore promote 7m2k', 'lore promote 7m2k --to universal']
          : ['lore demote 7m2k', 'lore demote 7m2k --to project'],
    },
    async run(ctx, args) {
      const explicit = choiceOption(args, 'to', targets);
      const ws = await openCommandWorkspace(ctx);
      try {
        const ref = args.positionals[0] ?? '';
        const current = scopeClassOf((await resolveLesson(ws, ref)).lesson);
        const to = explicit ?? nextScope(current, direction);
        if (to === undefined) {
          throw new LoreError(
            'usage',
            `${ref} is already ${current === 'universal' ? 'universal, the widest reach' : 'in the project tier, the narrowest reach'}`,
            {
              hint: `to move it the other way: lore ${direction === 'promote' ? 'demote' : 'promote'} ${ref}`,
            },
          );
        }
        const order = SCOPE_CLASSES.indexOf(to) - SCOPE_CLASSES.indexOf(current);
        if ((direction === 'promote' && order < 0) || (direction === 'demote' && order > 0)) {
          throw new LoreError(
            'usage',
            `${ref} is ${current}: ${direction} --to ${to} would go the other way`,
            {
              hint: `use lore ${direction === 'promote' ? 'demote' : 'promote'} ${ref} --to ${to}`,
            },
          );
        }
        const moved = await moveLesson(ws, ref, to, ctx.now());
        const text = moved.changed
          ? `${direction}d ${moved.id} (${moved.slug}): ${moved.from} -> ${moved.to}, now in ${WHERE[moved.to]}\n` +
            `file: ${moved.file}${moved.moved.length > 0 ? `\nmoved: ${moved.moved.join(', ')}` : ''}`
          : `${moved.id} is already ${moved.to}; nothing changed`;
        return {
          data: {
            id: moved.id,
            from: moved.from,
            to: moved.to,
            changed: moved.changed,
            tier: moved.tier,
            file: moved.file,
            moved: moved.moved,
            lesson: moved.lesson,
          },
          text,
        };
      } finally {
        await settleIndex(ws).catch(() => undefined);
        ws.close();
      }
    },
  };
}

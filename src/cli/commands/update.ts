import { listOption } from '../command.js';
import type { Command } from '../command.js';
import { LESSON_OPTIONS, draftFromArgs, inFlagTerms } from '../lesson-flags.js';
import { openCommandWorkspace, settleIndex } from '../open-workspace.js';
import { updateLesson } from '../../store/lessons/lesson-writes.js';

export const command: Command = {
  spec: {
    usage: 'lore update ID [--summary TEXT] [--tag T]... [any lore add flag] [--unset FIELD]... [--json]',
    description:
      'Changes the given fields of a lesson; every other field, comments and unknown fields in the file stay.\n' +
      'A list flag (--tag, --path, ...) replaces that whole list. --unset FIELD removes a field or empties a list.',
    options: {
      ...LESSON_OPTIONS,
      unset: {
        type: 'string',
        multiple: true,
        value: 'FIELD',
        description: 'remove a field (body, tags, paths, ...); repeatable',
      },
    },
    positionals: { min: 1, max: 1, names: 'ID' },
    json: true,
    examples: [
      'lore update 7m2k --severity high --tag lang:python --tag tool:pytest',
      'lore update 7m2k --unset paths',
    ],
  },
  async run(ctx, args) {
    const draft = await draftFromArgs(ctx, args);
    const ws = await openCommandWorkspace(ctx);
    try {
      const updated = await updateLesson(ws, args.positionals[0] ?? '', draft, {
        nowMs: ctx.now(),
        unset: listOption(args, 'unset'),
      });
      return {
        data: { id: updated.id, tier: updated.tier, lesson: updated.lesson },
        text: `updated ${updated.id} (${updated.lesson.slug})`,
      };
    } catch (error) {
      throw inFlagTerms(error);
    } finally {
      await settleIndex(ws).catch(() => undefined);
      ws.close();
    }
  },
};

import { flagOption, listOption } from '../command.js';
import { requireNarrowUpdate } from '../../store/breadth/check-draft.js';
import { FORCE_OPTION, breadthLine } from '../breadth-view.js';
import type { Command } from '../command.js';
import { LESSON_OPTIONS, draftFromArgs, inFlagTerms } from '../lesson-flags.js';
import { openCommandWorkspace, settleIndex } from '../open-workspace.js';
import { updateLesson } from '../../store/lessons/lesson-writes.js';

export const command: Command = {
  spec: {
    usage:
      'lore update ID [--summary TEXT] [--tag T]... [any lore add flag] [--unset FIELD]... [--force] [--json]',
    description:
      'Changes the given fields of a lesson; every other field, comments and unknown fields in the file stay.\n' +
      'A list flag (--tag, --path, ...) replaces that whole list. --unset FIELD removes a field or empties a list.\n' +
      'A change of the trigger (tools, commands, paths, contents, errors, tags, mistake) runs the breadth check of `lore add`.',
    options: {
      ...LESSON_OPTIONS,
      unset: {
        type: 'string',
        multiple: true,
        value: 'FIELD',
        description: 'remove a field (body, tags, paths, ...); repeatable',
      },
      force: FORCE_OPTION,
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
      const ref = args.positionals[0] ?? '';
      const unset = listOption(args, 'unset') ?? [];
      const breadth = await requireNarrowUpdate(
        ws,
        ref,
        { draft, unset },
        flagOption(args, 'force'),
        'add --force to the same command',
      );
      const updated = await updateLesson(ws, ref, draft, { nowMs: ctx.now(), unset });
      return {
        data: {
          id: updated.id,
          tier: updated.tier,
          lesson: updated.lesson,
          ...(updated.movedFrom ? { movedFrom: updated.movedFrom } : {}),
          ...(breadth ? { breadth } : {}),
        },
        text: `updated ${updated.id} (${updated.lesson.slug})${updated.movedFrom ? ` in the ${updated.tier} tier: it was moved there from the ${updated.movedFrom} tier meanwhile` : ''}${breadth ? `\n${breadthLine(breadth)}` : ''}`,
      };
    } catch (error) {
      throw inFlagTerms(error);
    } finally {
      await settleIndex(ws).catch(() => undefined);
      ws.close();
    }
  },
};

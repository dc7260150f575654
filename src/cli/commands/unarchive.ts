import { LoreError } from '../../core/errors.js';
import type { Command } from '../command.js';
import { openCommandWorkspace, settleIndex } from '../open-workspace.js';
import { resolveLesson, setStatus } from '../../store/lessons/lesson-writes.js';

export const command: Command = {
  spec: {
    usage: 'lore unarchive ID [--json]',
    description: 'Makes an archived lesson active again.',
    options: {},
    positionals: { min: 1, max: 1, names: 'ID' },
    json: true,
  },
  async run(ctx, args) {
    const ws = await openCommandWorkspace(ctx);
    try {
      const ref = args.positionals[0] ?? '';
      const target = await resolveLesson(ws, ref);
      if (target.lesson.status === 'superseded') {
        throw new LoreError(
          'conflict',
          `${target.id} is superseded by ${target.lesson.supersededBy ?? 'another lesson'}, not archived`,
        );
      }
      const result = await setStatus(ws, ref, 'active', ctx.now());
      return {
        data: { id: result.id, status: result.lesson.status, changed: result.changed },
        text: result.changed ? `${result.id} is active again` : `${result.id} was already active`,
      };
    } finally {
      await settleIndex(ws).catch(() => undefined);
      ws.close();
    }
  },
};

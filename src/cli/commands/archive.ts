import type { Command } from '../command.js';
import { openCommandWorkspace, settleIndex } from '../open-workspace.js';
import { setStatus } from '../../store/lessons/lesson-writes.js';

export const command: Command = {
  spec: {
    usage: 'lore archive ID [--json]',
    description:
      'Retires a lesson: its file stays (and its history in git), but it is no longer listed or injected.\nUndo with `lore unarchive ID`.',
    options: {},
    positionals: { min: 1, max: 1, names: 'ID' },
    json: true,
  },
  async run(ctx, args) {
    const ws = await openCommandWorkspace(ctx);
    try {
      const result = await setStatus(ws, args.positionals[0] ?? '', 'archived', ctx.now());
      return {
        data: { id: result.id, status: result.lesson.status, changed: result.changed },
        text: result.changed
          ? `archived ${result.id} (${result.lesson.slug})`
          : `${result.id} was already archived`,
      };
    } finally {
      await settleIndex(ws).catch(() => undefined);
      ws.close();
    }
  },
};

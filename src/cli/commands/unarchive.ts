import type { Command } from '../command.js';
import { openCommandWorkspace, settleIndex } from '../open-workspace.js';
import { setStatus } from '../../store/lessons/lesson-writes.js';

export const command: Command = {
  spec: {
    usage: 'lore unarchive ID [--json]',
    description:
      'Makes an archived lesson active again. One that a newer lesson superseded before it was archived\n' +
      'goes back to superseded (only its replacement is injected).',
    options: {},
    positionals: { min: 1, max: 1, names: 'ID' },
    json: true,
  },
  async run(ctx, args) {
    const ws = await openCommandWorkspace(ctx);
    try {
      const result = await setStatus(ws, args.positionals[0] ?? '', 'active', ctx.now());
      const { status, supersededBy } = result.lesson;
      const text = !result.changed
        ? `${result.id} was already active`
        : status === 'superseded'
          ? `${result.id} is unarchived and superseded by ${supersededBy ?? 'another lesson'} again, as before it was archived`
          : `${result.id} is active again`;
      return { data: { id: result.id, status, changed: result.changed }, text };
    } finally {
      await settleIndex(ws).catch(() => undefined);
      ws.close();
    }
  },
};

import { LoreError } from '../../core/errors.js';
import { stringOption } from '../command.js';
import type { Command } from '../command.js';
import { openCommandWorkspace, settleIndex } from '../open-workspace.js';
import { supersedeLesson } from '../../store/lessons/lesson-writes.js';

export const command: Command = {
  spec: {
    usage: 'lore supersede OLD --with NEW [--json]',
    description:
      'Marks OLD as superseded by NEW (OLD: status superseded, supersededBy NEW; NEW: supersedes OLD).\n' +
      'Both files change together: if lore is killed half-way, the next lore command completes the change.',
    options: { with: { type: 'string', value: 'NEW', description: 'the lesson that replaces OLD' } },
    positionals: { min: 1, max: 1, names: 'OLD' },
    json: true,
    examples: ['lore supersede 7m2k --with q9x4'],
  },
  async run(ctx, args) {
    const replacement = stringOption(args, 'with');
    if (replacement === undefined) {
      throw new LoreError('usage', 'missing --with NEW', { hint: 'usage: lore supersede OLD --with NEW' });
    }
    const ws = await openCommandWorkspace(ctx);
    try {
      const result = await supersedeLesson(ws, args.positionals[0] ?? '', replacement, ctx.now());
      return {
        data: { old: result.old.lesson, new: result.replacement.lesson },
        text: `${result.old.id} is now superseded by ${result.replacement.id}`,
      };
    } catch (error) {
      throw asCommandLine(error);
    } finally {
      await settleIndex(ws).catch(() => undefined);
      ws.close();
    }
  },
};

/** The store's "already superseded" names the lessons; here it says the command that would do it. */
function asCommandLine(error: unknown): unknown {
  if (!(error instanceof LoreError) || error.code !== 'conflict') return error;
  const details = error.details as { supersededBy?: string; replacement?: string } | undefined;
  if (details?.supersededBy === undefined || details.replacement === undefined) return error;
  return new LoreError(error.code, error.message, {
    hint: `supersede ${details.supersededBy} instead: lore supersede ${details.supersededBy} --with ${details.replacement}`,
    details: error.details,
  });
}

import { LoreError } from '../../core/errors.js';
import { summarizeVotes } from '../../core/rank/votes.js';
import { stringOption } from '../command.js';
import type { Command } from '../command.js';
import { openCommandWorkspace, settleIndex } from '../open-workspace.js';
import { upvoteLesson } from '../../store/lessons/lesson-writes.js';

export const command: Command = {
  spec: {
    usage: 'lore upvote ID --model M --task T [--json]',
    description:
      'Records that the lesson helped model M on task T. One vote per (lesson, model, task): voting again\n' +
      'changes nothing and the first vote time is kept. Votes lose half their weight every 180 days\n' +
      '(config votes.halfLifeDays; LORE_VOTE_HALF_LIFE_DAYS=0 disables decay).',
    options: {
      model: {
        type: 'string',
        value: 'M',
        description: 'the model or agent that was helped (claude-opus-4, codex, ...)',
      },
      task: {
        type: 'string',
        value: 'T',
        description: 'the task it helped with (issue id, PR, session id); required',
      },
    },
    positionals: { min: 1, max: 1, names: 'ID' },
    json: true,
    examples: ['lore upvote 7m2k --model claude-sonnet-4 --task PROJ-42'],
  },
  async run(ctx, args) {
    const model = stringOption(args, 'model');
    const task = stringOption(args, 'task');
    if (task === undefined || task.trim() === '') {
      throw new LoreError('usage', 'a vote without a task is refused', {
        hint: 'pass --task ID: the task the lesson helped with',
      });
    }
    if (model === undefined || model.trim() === '') {
      throw new LoreError('usage', 'missing --model', {
        hint: 'pass --model NAME: the model the lesson helped',
      });
    }
    const ws = await openCommandWorkspace(ctx);
    try {
      const at = new Date(ctx.now()).toISOString();
      const { target, recorded } = await upvoteLesson(ws, args.positionals[0] ?? '', {
        model: model.trim(),
        task: task.trim(),
        at,
      });
      const summary = summarizeVotes(
        ws.store(target.tier).readVotes(target.id).votes,
        ctx.now(),
        ws.halfLifeDays,
      );
      return {
        data: { id: target.id, recorded, votes: summary },
        text: recorded
          ? `upvoted ${target.id}: ${summary.count} vote(s)`
          : `${target.id} already has a vote from ${model} for ${task}; nothing changed (${summary.count} vote(s))`,
      };
    } finally {
      await settleIndex(ws).catch(() => undefined);
      ws.close();
    }
  },
};

import { LoreError } from '../../core/errors.js';
import {
  appendFeedback,
  FEEDBACK_SOURCES,
  readFeedback,
  summarizeFeedback,
} from '../../store/lessons/feedback.js';
import type { FeedbackSource } from '../../store/lessons/feedback.js';
import { choiceOption, flagOption, stringOption } from '../command.js';
import type { Command } from '../command.js';
import { openCommandWorkspace, settleIndex } from '../open-workspace.js';

/** `outcome` is lore's own verdict from a transcript (`lore scan`), never given by hand. */
const EXPLICIT_SOURCES = FEEDBACK_SOURCES.filter((source) => source !== 'outcome');

export const command: Command = {
  spec: {
    usage:
      'lore feedback ID --helpful|--not-helpful [--task T] [--note TEXT] [--model M] [--session S] [--json]',
    description:
      'Records whether a lesson helped with a task, in lessons/<id>/feedback.jsonl, and moves its confidence:\n' +
      '+0.05 per helpful report (at most 1.0), -0.1 per not-helpful one (at least 0.1). With --session, one\n' +
      'verdict per session counts once (the Stop hook and `lore scan` pass the session of a\n' +
      '`LEARNING_HELPFUL: <id>` / `LEARNING_NOT_HELPFUL: <id>` marker). `lore show` reports the counts.\n' +
      "On an organisation lesson the report is kept but its confidence stays the server's.",
    options: {
      helpful: { type: 'boolean', description: 'the lesson helped' },
      'not-helpful': { type: 'boolean', description: 'the lesson did not help (or misled)' },
      task: {
        type: 'string',
        value: 'T',
        description: 'the task it was shown for (default: the session, else "manual")',
      },
      note: { type: 'string', value: 'TEXT', description: 'why, in a sentence' },
      model: { type: 'string', value: 'M', description: 'the model or agent judging it' },
      session: {
        type: 'string',
        value: 'S',
        description: 'the agent session the verdict came from (default: LORE_SESSION_ID)',
      },
      source: { type: 'string', value: 'S', description: `${EXPLICIT_SOURCES.join(' | ')} (default cli)` },
    },
    positionals: { min: 1, max: 1, names: 'ID' },
    json: true,
    examples: [
      'lore feedback 7m2k --helpful --task PROJ-42',
      'lore feedback 7m2k --not-helpful --note "outdated"',
    ],
  },
  async run(ctx, args) {
    const helpful = flagOption(args, 'helpful');
    const notHelpful = flagOption(args, 'not-helpful');
    if (helpful === notHelpful) {
      throw new LoreError('usage', 'say --helpful or --not-helpful (one of them)', {
        hint: 'lore feedback ID --helpful --task T',
      });
    }
    const source = (choiceOption(args, 'source', EXPLICIT_SOURCES) ?? 'cli') as FeedbackSource;
    const session = stringOption(args, 'session')?.trim() || ctx.env.LORE_SESSION_ID?.trim() || undefined;
    const task = stringOption(args, 'task')?.trim() || session || 'manual';
    const note = stringOption(args, 'note');
    const model = stringOption(args, 'model');
    const ws = await openCommandWorkspace(ctx);
    try {
      const result = await appendFeedback(ws, args.positionals[0] ?? '', {
        helpful,
        task,
        at: new Date(ctx.now()).toISOString(),
        ...(note ? { note } : {}),
        ...(model ? { model } : {}),
        ...(session ? { session } : {}),
        source,
      });
      const summary = summarizeFeedback(readFeedback(ws, result));
      const { before, after } = result.confidence;
      return {
        data: {
          id: result.id,
          recorded: result.recorded,
          helpful,
          confidence: result.confidence,
          feedback: summary,
        },
        text: result.recorded
          ? `${result.id}: ${helpful ? 'helpful' : 'not helpful'} recorded; confidence ${before} -> ${after} (${summary.helpful} helpful, ${summary.notHelpful} not helpful)`
          : `${result.id}: session ${session} already said ${helpful ? 'helpful' : 'not helpful'}; nothing changed`,
      };
    } finally {
      await settleIndex(ws).catch(() => undefined);
      ws.close();
    }
  },
};

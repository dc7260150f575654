import { homedir } from 'node:os';
import { flagOption, numberOption } from '../command.js';
import type { Command } from '../command.js';
import { openCommandWorkspace } from '../open-workspace.js';
import { formatDistillRun } from '../distill-view.js';
import { formatProblem } from '../../core/errors.js';
import { localNames } from '../../capture/capture-candidates.js';
import { distillCandidates } from '../../store/distill/distill-candidates.js';
import { openDistillProvider } from '../../store/distill/distill-settings.js';

export const command: Command = {
  spec: {
    usage: 'lore distill [ID...] [--limit N] [--force] [--json]',
    description:
      'Sends lesson candidates (redacted) to the model configured in the distill section of the config, and writes\n' +
      'back a summary, COIA fields (context, observation, implication, action), a trigger and tags, kept only when they\n' +
      'validate against the lesson schema and the trigger still matches the failed command or path; otherwise the\n' +
      'candidate stays as it was, with a note. Off until distill.provider is set. Without IDs: every candidate not\n' +
      'distilled or refused yet, in review order. Answers are cached by a hash of the request (a candidate is never\n' +
      'sent twice); calls and tokens are capped per UTC day (distill.dailyCalls, distill.dailyTokens). Exit 1 when a\n' +
      'call failed (timeout, endpoint down, HTTP error), or when a candidate file that cannot be read was skipped\n' +
      '(named on stderr with its line) and no other candidate was left to distill.',
    options: {
      limit: { type: 'string', value: 'N', description: 'distill at most N candidates in this run' },
      force: {
        type: 'boolean',
        description: 'ask again even when an answer is cached (each call counts against the budget)',
      },
    },
    positionals: { min: 0, max: Number.POSITIVE_INFINITY, names: '[ID...]' },
    json: true,
    examples: ['lore distill --limit 3', 'lore distill 7m2k', 'lore scan --distill'],
  },
  async run(ctx, args) {
    const limit = numberOption(args, 'limit', { integer: true, min: 1 });
    const ws = await openCommandWorkspace(ctx);
    try {
      const settings = openDistillProvider(ws, ctx.env);
      const progress = ctx.isTTY && !ctx.json;
      const run = await distillCandidates(ws, settings, {
        refs: args.positionals,
        ...(limit !== undefined ? { limit } : {}),
        force: flagOption(args, 'force'),
        nowMs: ctx.now(),
        names: localNames(ctx.env.HOME ?? homedir()),
        ...(progress ? { onResult: (r) => ctx.note(`lore distill: ${r.id} ${r.outcome}`) } : {}),
      });
      for (const problem of run.problems) ctx.note(`lore distill: ${formatProblem(problem)}`);
      const failed = run.results.some((result) => result.outcome === 'failed');
      // Nothing distilled but a candidate skipped: the run did not do what was asked.
      const onlySkipped = run.results.length === 0 && run.problems.length > 0;
      return {
        data: run,
        text: formatDistillRun(run),
        ...(failed || onlySkipped ? { exitCode: 1 as const } : {}),
      };
    } finally {
      ws.close();
    }
  },
};

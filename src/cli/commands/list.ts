import { resolve } from 'node:path';
import { STATUSES, TIERS } from '../../core/lesson/constants.js';
import { toRepoPath } from '../../core/match/repo-path.js';
import { choiceOption, listOption, stringOption } from '../command.js';
import type { Command } from '../command.js';
import { formatLessonRow } from '../output.js';
import { noteProblems, openCommandWorkspace } from '../open-workspace.js';
import { categoriesForOperation } from '../../core/rank/operation-categories.js';
import { stackOverlaps } from '../../core/rank/filter-relevant.js';
import { OPERATION_OPTION, STACK_OPTION, operationOption, stackOption } from '../stack-option.js';

export const command: Command = {
  spec: {
    usage:
      'lore list [--status S|any] [--tag T]... [--tool T]... [--path P] [--tier T] [--operation OP] [--stack auto|S]... [--json]',
    description:
      'Lists lessons, highest ranked first (votes, priority, most recently updated).\n' +
      '--path P keeps lessons whose path globs match P (relative to the working directory, or repo-relative);\n' +
      'a glob P (db/**) keeps lessons whose globs lie within it or contain it (db/migrations/**, **).\n' +
      '--tag T matches a tag exactly, or its value (--tag python matches lang:python). Filters are ANDed.\n' +
      '--operation and --stack filter like `lore relevant` (which also ranks by severity and keeps 10).',
    options: {
      status: { type: 'string', value: 'S', description: `${STATUSES.join(' | ')} | any (default active)` },
      tag: {
        type: 'string',
        multiple: true,
        value: 'T',
        description: 'only lessons with this tag; repeatable',
      },
      tool: {
        type: 'string',
        multiple: true,
        value: 'T',
        description: 'only lessons scoped to this tool; repeatable',
      },
      path: { type: 'string', value: 'P', description: 'only lessons whose path globs match P' },
      tier: { type: 'string', value: 'T', description: TIERS.join(' | ') },
      operation: OPERATION_OPTION,
      stack: STACK_OPTION,
    },
    positionals: { min: 0, max: 0, names: '' },
    json: true,
    examples: [
      'lore list',
      'lore list --path src/api/handlers.py',
      'lore list --tag lang:python --status any --json',
    ],
  },
  async run(ctx, args) {
    const status = choiceOption(args, 'status', [...STATUSES, 'any'] as const) ?? 'active';
    const tier = choiceOption(args, 'tier', TIERS);
    const categories = categoriesForOperation(operationOption(args));
    const ws = await openCommandWorkspace(ctx);
    try {
      const rawPath = stringOption(args, 'path');
      const path =
        rawPath === undefined ? undefined : toRepoPath(resolve(ctx.cwd, rawPath), ws.projectRoot ?? ctx.cwd);
      const stack = stackOption(args, ws.projectRoot, 'none');
      const lessons = (
        await ws.index.list(
          { status, tags: listOption(args, 'tag'), tools: listOption(args, 'tool'), tier, path },
          ctx.now(),
          ws.halfLifeDays,
        )
      ).filter(
        ({ lesson }) =>
          (categories === undefined || categories.has(lesson.category)) &&
          (stack === undefined || lesson.tier === 'project' || stackOverlaps(lesson.stack, stack.stack)),
      );
      const problems = await noteProblems(ctx, ws);
      const text =
        lessons.length === 0
          ? 'no lessons match' +
            (status === 'active' ? ' (only active ones are listed; try --status any)' : '')
          : lessons
              .map((item) =>
                formatLessonRow(
                  item.lesson,
                  item.matchedBy.length > 0 ? `  <- ${item.matchedBy.join(', ')}` : '',
                ),
              )
              .join('\n');
      return {
        data: {
          lessons: lessons.map((item) => ({
            ...item.lesson,
            file: ws.displayPath(item.file),
            votes: { count: item.votes.count, lastVotedAt: item.votes.lastVotedAt, score: item.voteScore },
            matchedBy: item.matchedBy,
          })),
          ...(path === undefined ? {} : { path }),
          ...(stack === undefined ? {} : { stack: stack.stack }),
          problems,
        },
        text,
      };
    } finally {
      ws.close();
    }
  },
};

import { RELEVANT_LIMIT, filterRelevant } from '../../core/rank/filter-relevant.js';
import { choiceOption, numberOption } from '../command.js';
import type { Command } from '../command.js';
import { formatLessonRow } from '../output.js';
import { noteProblems, openCommandWorkspace } from '../open-workspace.js';
import { OPERATION_OPTION, STACK_OPTION, operationOption, stackOption } from '../stack-option.js';

export const command: Command = {
  spec: {
    usage: 'lore relevant [--operation OP] [--stack auto|S]... [--tier T] [--limit N] [--json]',
    description:
      'The lessons that matter for the work here, most severe first (critical > high > medium > low), then\n' +
      'the newest; at most 10. Project lessons always apply; a user-tier lesson only when its stack overlaps\n' +
      "the repository's (a lesson without a stack applies everywhere; so does every lesson in a repository\n" +
      'whose stack lore cannot detect). On an id or slug conflict the project lesson wins. Active, reviewed\n' +
      'lessons only. Prints nothing (exit 0) when nothing matches, so scripts can paste the output as it is.',
    options: {
      operation: OPERATION_OPTION,
      stack: STACK_OPTION,
      tier: { type: 'string', value: 'T', description: 'project | user (default both)' },
      limit: {
        type: 'string',
        value: 'N',
        description: `at most N lessons (1-${RELEVANT_LIMIT}, default ${RELEVANT_LIMIT})`,
      },
    },
    positionals: { min: 0, max: 0, names: '' },
    json: true,
    examples: [
      'lore relevant --operation test',
      'lore relevant --operation deploy --stack python,docker --json',
    ],
  },
  async run(ctx, args) {
    const operation = operationOption(args);
    const tier = choiceOption(args, 'tier', ['project', 'user'] as const);
    const limit =
      numberOption(args, 'limit', { integer: true, min: 1, max: RELEVANT_LIMIT }) ?? RELEVANT_LIMIT;
    const ws = await openCommandWorkspace(ctx);
    try {
      const stack = stackOption(args, ws.projectRoot, 'auto') ?? { stack: [], source: 'detected' as const };
      const listed = await ws.index.list({ status: 'active' }, ctx.now(), ws.halfLifeDays);
      const byLesson = new Map(listed.map((item) => [item.lesson, item]));
      const chosen = filterRelevant(
        listed.map((item) => item.lesson),
        { operation, stack: stack.stack, tier, limit },
      );
      const problems = await noteProblems(ctx, ws);
      return {
        data: {
          operation: operation ?? null,
          stack: stack.stack,
          stackSource: stack.source,
          lessons: chosen.map((lesson) => ({
            ...lesson,
            file: ws.displayPath(byLesson.get(lesson)?.file ?? ''),
          })),
          problems,
        },
        text: chosen.map((lesson) => formatLessonRow(lesson, `  (${lesson.category})`)).join('\n'),
      };
    } finally {
      ws.close();
    }
  },
};

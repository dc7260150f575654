import { resolve } from 'node:path';
import { PROMPT_FORMATS, renderTaskPrompt } from '../../core/prompt/render-task-prompt.js';
import { OPERATIONS } from '../../core/rank/operation-categories.js';
import { docsScope, selectFeatureDocs } from '../../store/docs/docs-actions.js';
import { selectTaskLessons } from '../../store/inject/task-prompt.js';
import { choiceOption, listOption, numberOption, stringOption } from '../command.js';
import type { Command } from '../command.js';
import { openCommandWorkspace } from '../open-workspace.js';

export const command: Command = {
  spec: {
    usage:
      'lore prompt [--files F]... [--tags T]... [--features F]... [--title TEXT] [--description TEXT] [--operation OP] [--limit 5] [--task ID] [--session ID] [--format system-reminder|markdown|json|coia] [--json]',
    description:
      'Prints the task pre-prompt for an agent about to work on a task: the top lessons (summaries only)\n' +
      "scoped by the task's files (path globs) and tags, BM25 over its title and description, and the\n" +
      'operation mapped to lesson categories; one line says how to pull a body. Prints nothing at all when\n' +
      'no lesson matches. The same is a library function: `import { taskPrompt } from "lore"`.\n' +
      '--features F adds the project docs whose related_features name F (see `lore docs`).\n' +
      '--task ID records each lesson shown, once per task (`lore injections`, `times injected` in `lore show`).\n' +
      '--session ID leaves out what the agent session was already shown and marks what it shows as shown,\n' +
      "so the session's hooks do not repeat it (recorded under session:ID when no --task is given).",
    options: {
      files: {
        type: 'string',
        multiple: true,
        value: 'F',
        description: 'a file the task touches; repeatable',
      },
      tags: {
        type: 'string',
        multiple: true,
        value: 'T',
        description: 'a tag of the task (lang:python); repeatable',
      },
      features: {
        type: 'string',
        multiple: true,
        value: 'F',
        description: 'a feature the task is about: adds docs whose related_features name it; repeatable',
      },
      title: { type: 'string', value: 'TEXT', description: 'the task title' },
      description: { type: 'string', value: 'TEXT', description: 'the task description' },
      operation: { type: 'string', value: 'OP', description: OPERATIONS.join(' | ') },
      limit: { type: 'string', value: 'N', description: 'at most N lessons (default 5)' },
      task: { type: 'string', value: 'ID', description: 'the task id: record what was shown for it' },
      session: {
        type: 'string',
        value: 'ID',
        description: "the agent's session id: skip and claim lessons in the hooks' dedup state",
      },
      format: {
        type: 'string',
        value: 'FMT',
        description: `${PROMPT_FORMATS.join(' | ')} (default system-reminder)`,
      },
    },
    positionals: { min: 0, max: 0, names: '' },
    json: true,
    examples: [
      'lore prompt --files db/migrations/0042.sql --title "add a users.email index" --operation implement',
      'lore prompt --tags lang:python --format markdown',
      'lore prompt --features auth --files src/auth/session.ts',
    ],
  },
  async run(ctx, args) {
    const operation = choiceOption(args, 'operation', OPERATIONS);
    const format = choiceOption(args, 'format', PROMPT_FORMATS) ?? 'system-reminder';
    const limit = numberOption(args, 'limit', { integer: true, min: 1, max: 50 }) ?? 5;
    const ws = await openCommandWorkspace(ctx);
    try {
      const lessons = await selectTaskLessons(
        ws,
        {
          // as `lore list --path` takes them: from where the command runs
          files: listOption(args, 'files')?.map((file) => resolve(ctx.cwd, file)),
          tags: listOption(args, 'tags'),
          title: stringOption(args, 'title'),
          description: stringOption(args, 'description'),
          operation,
          limit,
          task: stringOption(args, 'task'),
          coia: format === 'coia',
          session: stringOption(args, 'session'),
        },
        ctx.now(),
      );
      const features = listOption(args, 'features') ?? [];
      const docs = features.length === 0 ? [] : await selectFeatureDocs(docsScope(ws), features);
      return {
        data: features.length === 0 ? { lessons } : { lessons, docs },
        text: renderTaskPrompt(lessons, format, docs),
      };
    } finally {
      ws.close();
    }
  },
};

import { choiceOption, flagOption } from '../command.js';
import type { Command } from '../command.js';
import { LESSON_OPTIONS, draftFromArgs } from '../lesson-flags.js';
import { openCommandWorkspace, settleIndex } from '../open-workspace.js';
import { addLesson, author } from '../../store/lesson-writes.js';
import { initTier } from '../../store/init-tier.js';

export const command: Command = {
  spec: {
    usage:
      'lore add --summary TEXT [--body TEXT | --body-file F] [--tool T]... [--command REGEX]... [--path GLOB]... [--tag T]... [options]',
    description:
      'Adds a lesson to the project tier (.lore/lessons/<id>/lesson.yaml) or, with --tier user, to $LORE_HOME.\n' +
      'Prints the new id. Scope axes (tools, commands, paths, tags, stack) are ORed: any one can match.',
    options: {
      ...LESSON_OPTIONS,
      tier: {
        type: 'string',
        value: 'project|user',
        description: 'where the lesson lives (default project)',
      },
      quiet: { type: 'boolean', short: 'q', description: 'print only the id' },
    },
    positionals: { min: 0, max: 0, names: '' },
    json: true,
    examples: [
      'lore add --summary "Run pytest with -p no:cacheprovider in CI" --command "^pytest\\b" --tag lang:python',
      'lore add --summary "Never edit generated files" --path "src/gen/**" --severity high --type guard',
    ],
  },
  async run(ctx, args) {
    const tier = choiceOption(args, 'tier', ['project', 'user'] as const) ?? 'project';
    const draft = await draftFromArgs(ctx, args);
    const ws = await openCommandWorkspace(ctx);
    try {
      if (tier === 'user' && !ws.user.exists()) initTier(ws.user.layout);
      const added = await addLesson(ws, draft, { tier, nowMs: ctx.now(), createdBy: author(ctx.env) });
      const file = ws.displayPath(added.file);
      const text = flagOption(args, 'quiet')
        ? added.id
        : `${added.id}\nadded ${added.lesson.slug} (${tier}) in ${file}\nsee it with: lore show ${added.id}`;
      return { data: { id: added.id, slug: added.lesson.slug, tier, file, lesson: added.lesson }, text };
    } finally {
      await settleIndex(ws).catch(() => undefined);
      ws.close();
    }
  },
};

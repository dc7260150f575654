import { LoreError } from '../../core/errors.js';
import { choiceOption, flagOption } from '../command.js';
import type { Command } from '../command.js';
import { LESSON_OPTIONS, draftFromArgs, inFlagTerms } from '../lesson-flags.js';
import { openCommandWorkspace, settleIndex } from '../open-workspace.js';
import { NO_DUPLICATE_OPTION, noteDuplicates, refuseDuplicates } from '../duplicate-note.js';
import { addLesson, author } from '../../store/lessons/lesson-writes.js';
import { findDuplicates } from '../../store/curate/find-duplicates.js';
import { initTier } from '../../store/workspace/init-tier.js';
import { requireNarrowTrigger } from '../../store/breadth/check-draft.js';
import { BREADTH_DESCRIPTION, FORCE_OPTION, breadthLine, guardFixLine } from '../breadth-view.js';

export const command: Command = {
  spec: {
    usage:
      'lore add --summary TEXT [--body TEXT | --body-file F] [--tool T]... [--command REGEX]... [--path GLOB]... [--tag T]... [--force] [options]',
    description:
      'Adds a lesson to the project tier (.lore/lessons/<id>/lesson.yaml) or, with --tier user, to $LORE_HOME.\n' +
      'Prints the new id. Scope axes (tools, commands, paths, tags, stack) are ORed: any one can match.\n' +
      'Near-duplicates already in the store are named on stderr (--json: "duplicates"), with the suggestion\n' +
      'to upvote them instead; the lesson is still added unless --no-duplicate is given.\n' +
      BREADTH_DESCRIPTION,
    options: {
      ...LESSON_OPTIONS,
      tier: {
        type: 'string',
        value: 'project|user',
        description: 'where the lesson lives (default project)',
      },
      universal: {
        type: 'boolean',
        description: 'a user-tier lesson meant to be shared beyond this machine (implies --tier user)',
      },
      'no-duplicate': NO_DUPLICATE_OPTION,
      force: FORCE_OPTION,
      quiet: { type: 'boolean', short: 'q', description: 'print only the id' },
    },
    positionals: { min: 0, max: 0, names: '' },
    json: true,
    examples: [
      'lore add --summary "Run pytest with -p no:cacheprovider in CI" --command "^pytest\\b" --tag lang:python',
      'lore add --summary "Never edit generated files" --path "src/gen/**" --severity high --type guard',
      'lore add --summary "Publishing needs the changelog entry first" --command "npm\\s+publish" --type checkpoint',
      'lore add --summary "Write the failing test first" --universal --category process',
    ],
  },
  async run(ctx, args) {
    const universal = flagOption(args, 'universal');
    const given = choiceOption(args, 'tier', ['project', 'user'] as const);
    if (universal && given === 'project') {
      throw new LoreError('usage', '--universal lessons live in the user tier; drop --tier project');
    }
    const tier = universal ? 'user' : (given ?? 'project');
    const draft = await draftFromArgs(ctx, args);
    const ws = await openCommandWorkspace(ctx);
    try {
      const duplicates =
        draft.summary === undefined
          ? []
          : await findDuplicates(
              ws,
              { ...draft, summary: draft.summary },
              { threshold: ws.config.duplicates.threshold, nowMs: ctx.now(), env: ctx.env },
            );
      if (duplicates.length > 0 && flagOption(args, 'no-duplicate')) refuseDuplicates(duplicates);
      const breadth = requireNarrowTrigger(
        ws,
        draft,
        flagOption(args, 'force'),
        'add --force to the same command',
      );
      if (tier === 'user' && !ws.user.exists()) initTier(ws.user.layout);
      const added = await addLesson(ws, draft, {
        tier,
        nowMs: ctx.now(),
        createdBy: author(ctx.env),
        ...(universal ? { placement: { universal: true } } : {}),
      });
      noteDuplicates(ctx, duplicates);
      const file = ws.displayPath(added.file);
      const text = flagOption(args, 'quiet')
        ? added.id
        : [
            added.id,
            `added ${added.lesson.slug} (${universal ? 'user, universal' : tier}) in ${file}`,
            breadthLine(breadth),
            ...guardFixLine(added.lesson),
            `see it with: lore show ${added.id}`,
          ].join('\n');
      return {
        data: {
          id: added.id,
          slug: added.lesson.slug,
          tier,
          file,
          lesson: added.lesson,
          duplicates,
          breadth,
        },
        text,
      };
    } catch (error) {
      throw inFlagTerms(error);
    } finally {
      await settleIndex(ws).catch(() => undefined);
      ws.close();
    }
  },
};

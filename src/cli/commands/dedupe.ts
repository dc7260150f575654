import { choiceOption, numberOption } from '../command.js';
import type { Command } from '../command.js';
import { truncate } from '../output.js';
import { noteProblems, openCommandWorkspace } from '../open-workspace.js';
import { findDuplicateGroups } from '../../store/curate/find-duplicates.js';
import type { DuplicateGroup, DuplicateMatch } from '../../store/curate/find-duplicates.js';

function row(match: DuplicateMatch, label: string): string {
  return `  ${label.padEnd(5)} ${match.id}  ${match.tier.padEnd(7)}  ${label === 'keep' ? '     ' : match.score.toFixed(2)}  ${truncate(match.summary, 100)}`;
}

/** How to retire `other` in favour of `keep`: a project lesson replaces a user one only once promoted. */
function retireCommand(other: DuplicateMatch, keep: DuplicateMatch): string {
  const supersede = `lore supersede ${other.id} --with ${keep.id}`;
  return other.tier === 'user' && keep.tier === 'project'
    ? `lore promote ${keep.id} && ${supersede}`
    : supersede;
}

function formatGroups(groups: readonly DuplicateGroup[], threshold: number): string {
  if (groups.length === 0) return `no likely duplicates (similarity threshold ${threshold})`;
  const blocks = groups.map((group, i) =>
    [
      `group ${i + 1}:`,
      row(group.keep, 'keep'),
      ...group.others.map((other) => row(other, 'dup')),
      ...group.others.map((other) => `  ${retireCommand(other, group.keep)}   # or lore archive ${other.id}`),
    ].join('\n'),
  );
  return `${blocks.join('\n\n')}\n\n${groups.length} group(s) at similarity >= ${threshold}; "keep" is a suggestion (project tier, most votes, oldest)`;
}

export const command: Command = {
  spec: {
    usage: 'lore dedupe [--threshold X] [--tier T] [--json]',
    description:
      'Lists groups of active lessons that say nearly the same thing, with a suggestion of which one to\n' +
      'keep and the commands to retire the others. Changes nothing. Similarity (0-1) compares the words of\n' +
      'summary, mistake and remediation and, when both lessons have one, their scope; each lesson is scored\n' +
      'only against the lessons sharing the most words with it, so it stays fast on large stores.\n' +
      'Default threshold: config duplicates.threshold (0.4).\n' +
      'With embeddings configured and lessons embedded (`lore sync --embed`), lessons whose vectors are at least\n' +
      'embeddings.duplicateSimilarity (0.9) alike are paired too, paraphrases included (`semantic` in --json).',
    options: {
      threshold: {
        type: 'string',
        value: 'X',
        description: 'similarity from which lessons count as duplicates (0-1)',
      },
      tier: { type: 'string', value: 'T', description: 'project | user (default both)' },
    },
    positionals: { min: 0, max: 0, names: '' },
    json: true,
    examples: ['lore dedupe', 'lore dedupe --threshold 0.6 --json'],
  },
  async run(ctx, args) {
    const tier = choiceOption(args, 'tier', ['project', 'user'] as const);
    const given = numberOption(args, 'threshold', { min: 0, max: 1 });
    const ws = await openCommandWorkspace(ctx);
    try {
      const threshold = given ?? ws.config.duplicates.threshold;
      const groups = await findDuplicateGroups(ws, { threshold, tier, nowMs: ctx.now() });
      const problems = await noteProblems(ctx, ws);
      return { data: { threshold, groups, problems }, text: formatGroups(groups, threshold) };
    } finally {
      ws.close();
    }
  },
};

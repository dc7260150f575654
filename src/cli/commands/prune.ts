import { choiceOption, flagOption } from '../command.js';
import type { Command } from '../command.js';
import { noteProblems, openCommandWorkspace, settleIndex } from '../open-workspace.js';
import { pruneLessons } from '../../store/curate/prune-lessons.js';
import type { PruneItem, PruneReport } from '../../store/curate/prune-lessons.js';

function formatItems(title: string, items: readonly PruneItem[], archived: ReadonlySet<string>): string[] {
  if (items.length === 0) return [];
  return [
    `${title} (${items.length}):`,
    ...items.flatMap((item) => [
      `  ${item.id}  ${item.tier.padEnd(7)}  ${item.severity.padEnd(8)}  ${item.summary}${archived.has(item.id) ? '  (archived)' : ''}`,
      ...item.reasons.map((reason) => `      ${reason.rule}: ${reason.message}`),
    ]),
  ];
}

function formatReport(report: PruneReport, staleOnly: boolean): string {
  const archived = new Set(report.archived);
  const lines = [
    ...formatItems('stale', report.stale, archived),
    ...(staleOnly ? [] : formatItems('old (age rule)', report.aged, archived)),
  ];
  const checks = report.checks;
  const notes: string[] = [];
  if (checks.commits.unknown > 0)
    notes.push(
      `${checks.commits.unknown} evidence commit(s) could not be checked (${checks.git ? 'not a commit hash, ambiguous, or a shallow clone' : 'not a git repository'}): they never make a lesson stale`,
    );
  if (checks.tasks.unknown > 0)
    notes.push(
      checks.tasks.configured
        ? `${checks.tasks.unknown} evidence task(s) have ids that cannot name a file: they never make a lesson stale`
        : `${checks.tasks.unknown} evidence task(s) not checked: set prune.taskPaths in config.yaml to say where tasks live`,
    );
  if (lines.length === 0) {
    lines.push(
      staleOnly
        ? `no stale lessons (${checks.staleChecked} project lesson(s) checked)`
        : `nothing to prune (${checks.staleChecked} project lesson(s) checked for staleness; age rule: older than ${checks.age?.maxAgeDays} days, severity at most ${checks.age?.maxSeverity})`,
    );
  } else if (report.dryRun) {
    lines.push(
      '',
      `dry run: nothing changed; archive these with: lore prune${staleOnly ? ' --stale-only' : ''} --archive`,
    );
  } else {
    lines.push('', `archived ${report.archived.length} lesson(s); bring one back with: lore unarchive ID`);
  }
  return [...lines, ...notes.map((note) => `note: ${note}`)].join('\n');
}

export const command: Command = {
  spec: {
    usage: 'lore prune [--stale-only] [--archive] [--tier T] [--json]',
    description:
      'Finds lessons that no longer describe the repository, and old minor ones. Nothing changes without\n' +
      '--archive, and nothing is ever deleted: archived lessons stay in their files (lore unarchive ID).\n' +
      'Stale (project tier): no file matches any of its path globs (git ls-files, or a walk honouring\n' +
      '.gitignore outside git); every evidence commit is gone from the current branch; every evidence task\n' +
      'is gone (only where prune.taskPaths says tasks live; otherwise tasks are never checked).\n' +
      'Age rule (both tiers, skipped with --stale-only): created more than prune.maxAgeDays ago (default\n' +
      '365), not changed or upvoted since, severity at most prune.maxSeverity (default low). Never high or\n' +
      'critical lessons, never lessons younger than 30 days.',
    options: {
      'stale-only': { type: 'boolean', description: 'only stale lessons: skip the age rule' },
      archive: {
        type: 'boolean',
        description: 'archive what is reported (default: a dry run that changes nothing)',
      },
      tier: { type: 'string', value: 'T', description: 'project | user (default both)' },
    },
    positionals: { min: 0, max: 0, names: '' },
    json: true,
    examples: ['lore prune', 'lore prune --stale-only --json', 'lore prune --stale-only --archive'],
  },
  async run(ctx, args) {
    const staleOnly = flagOption(args, 'stale-only');
    const archive = flagOption(args, 'archive');
    const tier = choiceOption(args, 'tier', ['project', 'user'] as const);
    const ws = await openCommandWorkspace(ctx);
    try {
      const report = await pruneLessons(ws, { staleOnly, archive, tier, nowMs: ctx.now() });
      const problems = await noteProblems(ctx, ws);
      return { data: { ...report, problems }, text: formatReport(report, staleOnly) };
    } finally {
      if (archive) await settleIndex(ws).catch(() => undefined);
      ws.close();
    }
  },
};

import type { Command } from '../command.js';
import { openWorkspace } from '../../store/workspace/workspace.js';
import type { Workspace } from '../../store/workspace/workspace.js';
import { unchangedSinceSync, writeSyncStamp } from '../../store/workspace/sync-stamp.js';
import type { ManifestHead } from '../../core/inject/types.js';
import { recoverWrites } from '../../store/fs/journal.js';
import { join } from 'node:path';
import { noteProblems } from '../open-workspace.js';
import { flagOption } from '../command.js';
import { formatProblem } from '../../core/errors.js';

export const command: Command = {
  spec: {
    usage: 'lore sync [--embed] [--json]',
    description:
      'Rebuilds the index (.lore/cache/index.db) and the hook manifest (.lore/cache/manifest/) from the lesson files, finishes any change a killed lore\n' +
      'process left half-done, and removes its temporary files. Read commands refresh the index on their own;\n' +
      'sync is for a clean slate. When no lesson, votes, config or doc file changed since the last full build\n' +
      '(every file is stat-ed, none parsed), both are kept as they are; --force rebuilds them regardless.\n' +
      'Exits 1 when a votes.jsonl holds an invalid line (after rebuilding).\n' +
      '--embed then embeds every lesson (and doc) whose text has no vector yet with the configured model (config\n' +
      'embeddings: provider, url, model), in batches, for `lore search --hybrid`; vectors are cached by text and\n' +
      'model in .lore/cache/embeddings.db, so a rebuild re-embeds nothing. Exit 1 when the endpoint failed\n' +
      '(what was embedded is kept; the rest waits for the next --embed).',
    options: {
      embed: { type: 'boolean', description: 'embed new and changed lessons with embeddings.provider' },
      force: { type: 'boolean', description: 'rebuild the index and the manifest even when nothing changed' },
    },
    positionals: { min: 0, max: 0, names: '' },
    json: true,
  },
  async run(ctx, args) {
    const started = performance.now();
    const ws = await openWorkspace({ cwd: ctx.cwd, root: ctx.root, env: ctx.env });
    try {
      const recovered = recoverWrites(join(ws.cacheDir, 'journal'), (path) =>
        ctx.note(
          `lore: ${ws.displayPath(path)} changed after an interrupted write; kept as it is, the older text from the journal not applied`,
        ),
      );
      const swept = ws.tiers.reduce((sum, tier) => sum + tier.sweep(), 0);
      const { sourcePaths, stampSources, sweepManifestTemps } =
        await import('../../store/hook-state/manifest-files.js');
      // Stamped before the index reads the files: a change during the sync makes the manifest stale.
      const sources = stampSources(sourcePaths(ws.tiers.map((tier) => tier.layout.dir)));
      // Nothing to finish and nothing changed since the last full build: both are kept (one scan).
      const unchanged =
        !flagOption(args, 'force') && recovered === 0 && swept === 0 ? await builtManifest(ws) : undefined;
      let manifest: { lessons: number; stack: string[] };
      if (unchanged === undefined) {
        await ws.index.rebuild();
        await ws.ready();
        const aggregate = ws.index.scanAggregate();
        for (const tier of ws.tiers) sweepManifestTemps(tier.layout.cacheDir);
        const { rebuildWorkspaceManifest } = await import('../../store/manifest/manifest-build.js');
        const built = await rebuildWorkspaceManifest(ws, ctx.now(), sources);
        if (aggregate !== undefined) writeSyncStamp(ws, aggregate, built.head);
        manifest = { lessons: built.head.lessonCount, stack: built.head.stack };
      } else {
        for (const tier of ws.tiers) sweepManifestTemps(tier.layout.cacheDir);
        manifest = { lessons: unchanged.lessonCount, stack: unchanged.stack };
      }
      const stats = await ws.index.stats();
      const problems = await noteProblems(ctx, ws);
      // the embedding code (and the config parser it brings) loads only for --embed
      const embedded = flagOption(args, 'embed')
        ? await (await import('../embed-command.js')).embedCommand(ctx, ws)
        : undefined;
      // the rebuilt index gets its vectors back from the cache now, not at the first hybrid search
      // (a kept index has them; what the cache holds beyond them is copied in)
      const withVectors =
        embedded === undefined && (ws.config.embeddings?.provider ?? 'none') !== 'none'
          ? await (await import('../../store/embed/embed-workspace.js')).reloadLessonVectors(ws)
          : undefined;
      const ms = Math.round(performance.now() - started);
      const errors = problems.filter((p) => p.severity === 'error').length;
      const text = `${unchanged === undefined ? 'indexed' : 'nothing changed: kept the index of'} ${stats.total} lesson(s) in ${ms} ms${errors > 0 ? `; ${errors} problem(s): run lore check` : ''}${recovered > 0 ? `; completed ${recovered} interrupted change(s)` : ''}`;
      // Votes are source of truth beside the lesson (Orbit's sidecar): a rebuild that skipped a
      // corrupt line would quietly lose a vote, so sync still rebuilds but fails, as Orbit's does.
      const badVotes = problems.filter((p) => p.file.endsWith('votes.jsonl'));
      for (const problem of badVotes.slice(0, 5)) ctx.note(`lore sync: ${formatProblem(problem)}`);
      if (badVotes.length > 0)
        ctx.note('lore sync: fix or remove the invalid vote line(s); `lore check` lists them all');
      const failed = badVotes.length > 0 || embedded?.report.failure !== undefined;
      return {
        ...(failed ? { exitCode: 1 as const } : {}),
        data: {
          lessons: stats.total,
          byStatus: stats.byStatus,
          problems: problems.length,
          errors,
          invalidVotes: badVotes.length,
          recovered,
          swept,
          manifest,
          rebuilt: unchanged === undefined,
          ...(embedded === undefined ? {} : { embeddings: embedded.report }),
          ...(withVectors === undefined ? {} : { withVectors }),
          ms,
        },
        text:
          embedded !== undefined
            ? `${text}\n${embedded.text}`
            : withVectors === undefined
              ? text
              : `${text}; ${withVectors} lesson(s) searchable by meaning (run \`lore sync --embed\` for new ones)`,
      };
    } finally {
      ws.close();
    }
  },
};

/**
 * The manifest head when the index and the manifest are both what a rebuild would make now (see
 * sync-stamp.ts); undefined when either must be built again. One full scan either way.
 */
async function builtManifest(ws: Workspace): Promise<ManifestHead | undefined> {
  if (!(await ws.index.isCurrent())) return undefined;
  const aggregate = ws.index.scanAggregate();
  return aggregate === undefined ? undefined : unchangedSinceSync(ws, aggregate);
}

import type { Command } from '../command.js';
import { openWorkspace } from '../../store/workspace/workspace.js';
import { recoverWrites } from '../../store/fs/journal.js';
import { join } from 'node:path';
import { noteProblems } from '../open-workspace.js';
import { flagOption } from '../command.js';
import { embedCommand } from '../embed-command.js';
import { formatProblem } from '../../core/errors.js';

export const command: Command = {
  spec: {
    usage: 'lore sync [--embed] [--json]',
    description:
      'Rebuilds the index (.lore/cache/index.db) and the hook manifest (.lore/cache/manifest/) from the lesson files, finishes any change a killed lore\n' +
      'process left half-done, and removes its temporary files. Read commands refresh the index on their own;\n' +
      'sync is for a clean slate. Exits 1 when a votes.jsonl holds an invalid line (after rebuilding).\n' +
      '--embed then embeds every lesson (and doc) whose text has no vector yet with the configured model (config\n' +
      'embeddings: provider, url, model), in batches, for `lore search --hybrid`; vectors are cached by text and\n' +
      'model in .lore/cache/embeddings.db, so a rebuild re-embeds nothing. Exit 1 when the endpoint failed\n' +
      '(what was embedded is kept; the rest waits for the next --embed).',
    options: {
      embed: { type: 'boolean', description: 'embed new and changed lessons with embeddings.provider' },
    },
    positionals: { min: 0, max: 0, names: '' },
    json: true,
  },
  async run(ctx, args) {
    const started = performance.now();
    const ws = await openWorkspace({ cwd: ctx.cwd, root: ctx.root, env: ctx.env });
    try {
      const recovered = recoverWrites(join(ws.cacheDir, 'journal'));
      const swept = ws.tiers.reduce((sum, tier) => sum + tier.sweep(), 0);
      const { sourcePaths, stampSources, sweepManifestTemps } =
        await import('../../store/hook-state/manifest-files.js');
      // Stamped before the index reads the files: a change during the sync makes the manifest stale.
      const sources = stampSources(sourcePaths(ws.tiers.map((tier) => tier.layout.dir)));
      await ws.index.rebuild();
      await ws.ready();
      for (const tier of ws.tiers) sweepManifestTemps(tier.layout.cacheDir);
      const { rebuildWorkspaceManifest } = await import('../../store/manifest/manifest-build.js');
      const manifest = await rebuildWorkspaceManifest(ws, ctx.now(), sources);
      const stats = await ws.index.stats();
      const problems = await noteProblems(ctx, ws);
      const embedded = flagOption(args, 'embed') ? await embedCommand(ctx, ws) : undefined;
      // the rebuilt index gets its vectors back from the cache now, not at the first hybrid search
      const withVectors =
        embedded === undefined && (ws.config.embeddings?.provider ?? 'none') !== 'none'
          ? await (await import('../../store/embed/embed-workspace.js')).reloadLessonVectors(ws)
          : undefined;
      const ms = Math.round(performance.now() - started);
      const errors = problems.filter((p) => p.severity === 'error').length;
      const text = `indexed ${stats.total} lesson(s) in ${ms} ms${errors > 0 ? `; ${errors} problem(s): run lore check` : ''}${recovered > 0 ? `; completed ${recovered} interrupted change(s)` : ''}`;
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
          manifest: { lessons: manifest.head.lessonCount, stack: manifest.head.stack },
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

/**
 * The last replay, read back for `lore show`, `GET /api/replay`, the lesson page and the Replay
 * page: `<cache>/replay/last.json` of the workspace's own cache (the project's inside a project,
 * where `lore replay` writes it), else the user tier's. Missing is no replay yet (null); a file
 * that cannot be read or is not a replay report is a `Problem` naming it, never a crash.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Problem } from '../../core/errors.js';
import { parseReplayReport } from '../../core/analytics/parse-replay-report.js';
import { LAST_REPLAY_FILE } from '../../core/replay/replay-report.js';
import type { ReplayReport } from '../../core/replay/replay-report.js';
import type { Workspace } from '../workspace/workspace.js';

export type LastReplay = {
  report: ReplayReport;
  /** The file it was read from, as shown to people. */
  file: string;
};

export type LastReplayRead = { last: LastReplay | null; problems: Problem[] };

/** What to run when there is no replay (or a broken one): the one sentence every surface shows. */
export const REPLAY_HINT =
  'run `lore replay` to replay your agents’ transcripts through the hook and measure each lesson';

/** The cache directories of the workspace's own tiers, the workspace's own (the hook's) first. */
export function ownCacheDirs(ws: Pick<Workspace, 'cacheDir' | 'tiers'>): string[] {
  const dirs = [ws.cacheDir];
  for (const tier of ws.tiers)
    if (tier.tier !== 'org' && !dirs.includes(tier.layout.cacheDir)) dirs.push(tier.layout.cacheDir);
  return dirs;
}

/** The first valid last replay of `cacheDirs`, with a problem for each broken file before it. */
export function readLastReplayIn(
  cacheDirs: readonly string[],
  displayPath: (path: string) => string = (path) => path,
): LastReplayRead {
  const problems: Problem[] = [];
  for (const dir of cacheDirs) {
    const path = join(dir, LAST_REPLAY_FILE);
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      problems.push({
        file: displayPath(path),
        message: `the last replay cannot be read (${(error as Error).message}); run \`lore replay\` again to rewrite it`,
        severity: 'error',
      });
      continue;
    }
    const parsed = parseReplayReport(text);
    if (!parsed.ok) {
      problems.push({
        file: displayPath(path),
        message: `the last replay is broken: ${parsed.message}; run \`lore replay\` again to rewrite it`,
        severity: 'error',
      });
      continue;
    }
    return { last: { report: parsed.report, file: displayPath(path) }, problems };
  }
  return { last: null, problems };
}

export function readLastReplay(ws: Workspace): LastReplayRead {
  return readLastReplayIn(ownCacheDirs(ws), (path) => ws.displayPath(path));
}

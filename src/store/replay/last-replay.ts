/**
 * The last replay, kept for the dashboard's Replay page and `lore show`: `<cache>/replay/last.json`
 * of the workspace (the project's cache, or the user tier's), written atomically. Read back by
 * `read-last-replay.ts`.
 */
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { LAST_REPLAY_FILE } from '../../core/replay/replay-report.js';
import type { ReplayReport } from '../../core/replay/replay-report.js';
import { writeFileAtomic } from '../fs/fs-atomic.js';

export function lastReplayPath(cacheDir: string): string {
  return join(cacheDir, LAST_REPLAY_FILE);
}

export function writeLastReplay(cacheDir: string, report: ReplayReport): string {
  const path = lastReplayPath(cacheDir);
  mkdirSync(dirname(path), { recursive: true });
  writeFileAtomic(path, `${JSON.stringify(report, null, 2)}\n`);
  return path;
}

/**
 * The SessionStart hook's background `lore pull`, on its own switch (LORE_NO_PULL=1), independent
 * of the background scan (LORE_NO_SCAN=1). Two stats decide, so a session start on a machine
 * without an organisation remote, or one that pulled recently, costs almost nothing; the CLI
 * checks the stamp again (and claims it) before it pulls.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { orgTierDir, resolveLoreHome, tierLayout } from '../store/fs/paths.js';
import { ranWithin } from '../core/utc-time.js';

/** The same default and variable as `lore pull --background` (src/cli/commands/pull.ts). */
const DEFAULT_PULL_INTERVAL_MINUTES = 15;
/** The user tier's list of organisation remotes (src/store/org-client/remote-config.ts). */
const REMOTES_FILE = 'remotes.json';

export type PullRequest = { cwd: string };

/** Where `lore pull --background` leaves its stamp. */
export function pullStamp(loreHome: string): string {
  return join(tierLayout(orgTierDir(loreHome)).cacheDir, 'pull', 'background.stamp');
}

function intervalMs(env: NodeJS.ProcessEnv): number {
  const value = Number(env.LORE_PULL_INTERVAL_MINUTES);
  // a bad value is the CLI's to report; the hook only must not start a pull every session
  const minutes =
    env.LORE_PULL_INTERVAL_MINUTES?.trim() && Number.isFinite(value) && value >= 0
      ? value
      : DEFAULT_PULL_INTERVAL_MINUTES;
  return minutes * 60_000;
}

/** What the session start did about the org tier, for the debug log. */
export function maybeStartPull(
  env: NodeJS.ProcessEnv,
  nowMs: number,
  cwd: string,
  start: ((request: PullRequest) => boolean) | undefined,
): string {
  if (start === undefined) return 'LORE_NO_PULL=1';
  const home = resolveLoreHome(env);
  if (statSync(join(home, REMOTES_FILE), { throwIfNoEntry: false }) === undefined) return 'no remote';
  const last = statSync(pullStamp(home), { throwIfNoEntry: false })?.mtimeMs;
  if (ranWithin(last, nowMs, intervalMs(env))) return 'ran recently';
  try {
    return start({ cwd }) ? 'started' : 'no lore CLI next to the hook';
  } catch {
    return 'could not start';
  }
}

/**
 * What this machine knows of each remote's lessons (`$LORE_HOME/org/state.json`): per remote, the
 * version and vote count of each lesson the last pull wrote, the version of each lesson last seen
 * there (pulled or pushed: a push's base version), the projects it pulls, and when it last pulled. A missing or damaged
 * file means a full pull; it holds no secrets. A pull and a push can run at once (the background
 * pull of a session start, a push by hand): each changes the file only through `updateRemoteState`,
 * a read-modify-write under a short lock, so neither writes back a stale copy over the other's
 * acknowledgements.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../fs/fs-atomic.js';
import { withLocks } from '../fs/lock.js';
import { tierLayout } from '../fs/paths.js';

export type RemoteState = {
  lastPullAt?: string;
  /** The projects whose lessons every pull brings too (`lore pull --project`), until dropped. */
  projects?: string[];
  pulled: Record<string, { version: number; votes: number }>;
  known: Record<string, number>;
};
export type OrgState = { version: 1; remotes: Record<string, RemoteState> };

export const ORG_STATE_FILE = 'state.json';

export function readOrgState(orgDir: string): OrgState {
  try {
    const parsed = JSON.parse(readFileSync(join(orgDir, ORG_STATE_FILE), 'utf8')) as OrgState;
    if (parsed.version === 1 && typeof parsed.remotes === 'object' && parsed.remotes !== null) return parsed;
  } catch {
    // none yet, or damaged: start over (the next pull fetches everything)
  }
  return { version: 1, remotes: {} };
}

export function writeOrgState(orgDir: string, state: OrgState): void {
  mkdirSync(orgDir, { recursive: true });
  writeFileAtomic(join(orgDir, ORG_STATE_FILE), JSON.stringify(state));
}

export const emptyRemoteState = (): RemoteState => ({ pulled: {}, known: {} });

/**
 * Changes one remote's state over the file's current copy, read and written under a lock held only
 * for that (never across a request), so what another process wrote meanwhile stays. `change` gets
 * the remote's state as it is now (an empty one when there is none) and changes it in place.
 */
export function updateRemoteState(orgDir: string, remote: string, change: (mine: RemoteState) => void): void {
  withLocks([join(tierLayout(orgDir).cacheDir, 'locks', 'state.lock')], () => {
    const state = readOrgState(orgDir);
    const mine = (state.remotes[remote] ??= emptyRemoteState());
    change(mine);
    writeOrgState(orgDir, state);
  });
}

/** Forgets a remote (`lore remote remove`): what it pulled and the versions it knew. */
export function forgetRemoteState(orgDir: string, remote: string): void {
  withLocks([join(tierLayout(orgDir).cacheDir, 'locks', 'state.lock')], () => {
    const state = readOrgState(orgDir);
    if (!Object.hasOwn(state.remotes, remote)) return;
    delete state.remotes[remote];
    writeOrgState(orgDir, state);
  });
}

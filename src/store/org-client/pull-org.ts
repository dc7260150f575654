/**
 * `lore pull`: the organisation's accepted lessons come down into the org tier
 * (`$LORE_HOME/org/lessons/<id>/`), which lore only reads. The server's index (id, version, vote
 * count) is compared with what the last pull wrote, so only changed lessons are fetched, in
 * batches; lessons the organisation no longer offers are removed. Every lesson is checked before
 * it is written (a valid id and record), each file is written atomically, and one pull runs at a
 * time. The hooks and every read work from these files, offline.
 */
import { mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ID_PATTERN } from '../../core/lesson/constants.js';
import { serializeLesson } from '../../core/lesson/lesson-yaml.js';
import { LessonSchema } from '../../core/lesson/schema.js';
import type { Lesson } from '../../core/lesson/schema.js';
import { withLocks, withLocksAsync } from '../fs/lock.js';
import { orgTierDir, tierLayout } from '../fs/paths.js';
import { LESSON_FILE, VOTES_FILE } from '../lessons/tier-store.js';
import type { OrgClient, OrgIndex, OrgIndexEntry, PulledLesson } from './org-client.js';
import { pendingVoteLines, readLocalSupersedes, readPendingVotes } from './org-local.js';
import type { LocalSupersede, PendingVote } from './org-local.js';
import { emptyRemoteState, forgetRemoteState, readOrgState, updateRemoteState } from './org-state.js';
import type { RemoteState } from './org-state.js';

export const FETCH_BATCH = 1000;

export type PullReport = {
  remote: string;
  url: string;
  /** The projects pulled besides the organisation's own lessons (remembered for later pulls). */
  projects: string[];
  added: string[];
  updated: string[];
  removed: string[];
  unchanged: number;
  /** Lessons the server sent that lore could not take (with why); the others were written. */
  skipped: Array<{ id: string; reason: string }>;
  total: number;
};

/** A pulled lesson as the org tier keeps it: tier org, `universal` dropped (it means the user tier). */
function orgRecord(pulled: PulledLesson): Lesson | string {
  if (!ID_PATTERN.test(pulled.id)) return 'not a lesson id';
  const { universal: _universal, ...rest } = pulled.lesson as Lesson & { universal?: boolean };
  void _universal;
  const parsed = LessonSchema.safeParse({ ...rest, tier: 'org' });
  if (!parsed.success) return parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
  if (parsed.data.id !== pulled.id) return 'its record names another id';
  return parsed.data;
}

/** Votes as the local sidecar keeps them: each user's vote stays its own (task `user:task`). */
function votesText(pulled: PulledLesson): string {
  return pulled.votes
    .map((vote) => JSON.stringify({ model: vote.model, task: `${vote.user}:${vote.task}`, at: vote.at }))
    .join('\n');
}

/**
 * Whole files through a rename, so a reader never sees half of one; without an fsync per file
 * (10,000 of them cost a minute here): the copy can always be fetched again, and a file a crash
 * left empty is fetched again by the next pull (see `needsFetch`).
 */
function writeMirrored(path: string, content: string): void {
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, content);
  renameSync(temp, path);
}

/** What this machine adds to the copy: votes still waiting for a push, a local replacement. */
type LocalOverlay = { pending: PendingVote[]; superseded: Record<string, LocalSupersede> };

function writeLesson(lessonsDir: string, pulled: PulledLesson, lesson: Lesson, local: LocalOverlay): void {
  const dir = join(lessonsDir, pulled.id);
  // both files' text first: nothing of a lesson is written unless all of it can be
  const votes = [votesText(pulled), ...pendingVoteLines(local.pending, pulled.id)].filter((v) => v !== '');
  const replaced = local.superseded[pulled.id];
  const shown: Lesson = replaced ? { ...lesson, status: 'superseded', supersededBy: replaced.by } : lesson;
  const text = serializeLesson(shown);
  mkdirSync(dir, { recursive: true });
  if (votes.length === 0) rmSync(join(dir, VOTES_FILE), { force: true });
  else writeMirrored(join(dir, VOTES_FILE), `${votes.join('\n')}\n`);
  writeMirrored(join(dir, LESSON_FILE), text);
}

/** Whether the copy of a lesson is missing, empty (a crash mid-pull) or older than the server's. */
function needsFetch(
  lessonsDir: string,
  had: { version: number; votes: number } | undefined,
  entry: { id: string; version: number; votes: number },
): boolean {
  if (had === undefined || had.version !== entry.version || had.votes !== entry.votes) return true;
  return (statSync(join(lessonsDir, entry.id, LESSON_FILE), { throwIfNoEntry: false })?.size ?? 0) === 0;
}

/** What one pull learnt, applied to the state file at its end (or where it failed). */
type PullChanges = {
  pulled: Record<string, { version: number; votes: number }>;
  removed: string[];
  known: Record<string, number>;
  lastPullAt?: string;
  projects?: string[];
};

/**
 * A pull's changes over the state as it is now. The version a pull saw of a lesson replaces the
 * one this machine knew, unless a push acknowledged another meanwhile (the state no longer holds
 * what the pull started from): then the newer of the two stays.
 */
export function applyPullChanges(
  mine: RemoteState,
  changes: PullChanges,
  knownAtStart: Readonly<Record<string, number>>,
): void {
  Object.assign(mine.pulled, changes.pulled);
  for (const id of changes.removed) delete mine.pulled[id];
  for (const [id, version] of Object.entries(changes.known)) {
    const now = mine.known[id];
    mine.known[id] = now === undefined || now === knownAtStart[id] ? version : Math.max(now, version);
  }
  if (changes.lastPullAt !== undefined) mine.lastPullAt = changes.lastPullAt;
  if (changes.projects !== undefined) {
    if (changes.projects.length > 0) mine.projects = changes.projects;
    else delete mine.projects;
  }
}

/**
 * The projects a pull brings: those earlier pulls remembered, plus `add`, minus `drop`. Remembered
 * so that the next plain `lore pull` (the background one of every session start) keeps a project's
 * lessons instead of removing them as no longer offered.
 */
export function pullProjects(
  remembered: readonly string[] | undefined,
  add: readonly string[],
  drop: readonly string[],
): string[] {
  return [...new Set([...(remembered ?? []), ...add])].filter((name) => !drop.includes(name)).sort();
}

/** The index of the organisation's lessons and of each project's, as one (no project: one request). */
async function readIndex(client: OrgClient, projects: readonly string[]): Promise<OrgIndex> {
  if (projects.length === 0) return client.index();
  const lessons = new Map<string, OrgIndexEntry>();
  const proposals = new Map<string, OrgIndex['proposals'][number]>();
  for (const project of projects) {
    const index = await client.index(project);
    for (const entry of index.lessons) lessons.set(entry.id, entry);
    for (const proposal of index.proposals) proposals.set(proposal.id, proposal);
  }
  return { lessons: [...lessons.values()], proposals: [...proposals.values()] };
}

const hasChanges = (changes: PullChanges): boolean =>
  changes.lastPullAt !== undefined ||
  changes.removed.length > 0 ||
  Object.keys(changes.pulled).length + Object.keys(changes.known).length > 0;

export async function pullOrg(
  loreHome: string,
  remote: { name: string; url: string },
  client: OrgClient,
  options: { projects?: readonly string[]; dropProjects?: readonly string[]; nowIso: string },
): Promise<PullReport> {
  const dir = orgTierDir(loreHome);
  const layout = tierLayout(dir);
  mkdirSync(layout.lessonsDir, { recursive: true });
  // One pull at a time; the state file itself is changed only under its own short lock, at the
  // end, so a push running meanwhile keeps the versions the server acknowledged to it.
  return withLocksAsync([join(layout.cacheDir, 'locks', 'pull.lock')], async () => {
    const mine = readOrgState(dir).remotes[remote.name] ?? emptyRemoteState();
    const projects = pullProjects(mine.projects, options.projects ?? [], options.dropProjects ?? []);
    const changes: PullChanges = { pulled: {}, removed: [], known: {} };
    let report: PullReport;
    try {
      report = await pullChanges(dir, remote, client, projects, mine, changes);
      changes.projects = projects;
      changes.lastPullAt = options.nowIso;
    } finally {
      // what was written is recorded even when the pull failed part way (the next one goes on);
      // a pull that learnt nothing leaves the file as it was
      if (hasChanges(changes))
        updateRemoteState(dir, remote.name, (now) => applyPullChanges(now, changes, mine.known));
    }
    // only after a whole pull: one that failed (offline) keeps every copy it has
    report.removed.push(...removeUnrecorded(dir));
    return report;
  });
}

/**
 * Removes the lessons of the org tier that no remote's state records: written by a pull killed
 * (Ctrl-C, a shutdown) before it recorded them, or kept from before the state file was lost. The
 * pull that runs next fetches again what the organisation still offers and records it; what it
 * no longer offers (a lesson a curator took back meanwhile) nothing else would ever remove, and
 * the hooks would go on injecting it. Under the pull lock, after the state was written.
 */
function removeUnrecorded(dir: string): string[] {
  const lessonsDir = tierLayout(dir).lessonsDir;
  const recorded = new Set(
    Object.values(readOrgState(dir).remotes).flatMap((state) => Object.keys(state.pulled ?? {})),
  );
  const unrecorded = readdirSync(lessonsDir).filter((name) => ID_PATTERN.test(name) && !recorded.has(name));
  for (const id of unrecorded) rmSync(join(lessonsDir, id), { recursive: true, force: true });
  return unrecorded.sort();
}

async function pullChanges(
  dir: string,
  remote: { name: string; url: string },
  client: OrgClient,
  projects: string[],
  mine: RemoteState,
  changes: PullChanges,
): Promise<PullReport> {
  const { lessons: index, proposals } = await readIndex(client, projects);
  // the versions of this user's own proposals: learnt, never written into the org tier
  for (const proposal of proposals) changes.known[proposal.id] = proposal.version;
  const lessonsDir = tierLayout(dir).lessonsDir;
  const local = { pending: readPendingVotes(dir), superseded: readLocalSupersedes(dir) };
  const offered = new Set(index.map((entry) => entry.id));
  const changed = index.filter((entry) => needsFetch(lessonsDir, mine.pulled[entry.id], entry));
  const report: PullReport = {
    remote: remote.name,
    url: remote.url,
    projects,
    added: [],
    updated: [],
    removed: [],
    unchanged: index.length - changed.length,
    skipped: [],
    total: index.length,
  };
  for (let at = 0; at < changed.length; at += FETCH_BATCH) {
    const batch = await client.fetch(changed.slice(at, at + FETCH_BATCH).map((entry) => entry.id));
    for (const pulled of batch) {
      const lesson = orgRecord(pulled);
      if (typeof lesson === 'string') {
        report.skipped.push({ id: pulled.id, reason: lesson });
        continue;
      }
      writeLesson(lessonsDir, pulled, lesson, local);
      (mine.pulled[pulled.id] === undefined ? report.added : report.updated).push(pulled.id);
      changes.pulled[pulled.id] = { version: pulled.version, votes: pulled.votes.length };
      changes.known[pulled.id] = pulled.version;
    }
  }
  // A lesson another remote still offers stays: it is that remote's too (the same server added
  // twice, a lesson pushed to two organisations), and removing it here would only have the other
  // remote's next pull bring it back, while the hooks meanwhile miss it.
  const elsewhere = pulledByOthers(dir, remote.name);
  for (const id of Object.keys(mine.pulled)) {
    if (offered.has(id)) continue;
    changes.removed.push(id);
    if (elsewhere.has(id)) continue;
    if (ID_PATTERN.test(id)) rmSync(join(lessonsDir, id), { recursive: true, force: true });
    report.removed.push(id);
  }
  return report;
}

/** The ids the other remotes' last pulls wrote (org/state.json). */
function pulledByOthers(dir: string, remote: string): Set<string> {
  const others = Object.entries(readOrgState(dir).remotes).filter(([name]) => name !== remote);
  return new Set(others.flatMap(([, state]) => Object.keys(state.pulled ?? {})));
}

/**
 * Removes from the org tier what a remote's pulls wrote, and its state (`lore remote remove`): the
 * lessons of a server this machine no longer follows must not stay injected with nothing left to
 * remove them. A lesson another remote pulled too stays. Under the pull lock: never during a pull.
 * The ids removed; the caller refreshes the index and the manifests.
 */
export function dropRemoteLessons(loreHome: string, remote: string): string[] {
  const dir = orgTierDir(loreHome);
  const layout = tierLayout(dir);
  return withLocks([join(layout.cacheDir, 'locks', 'pull.lock')], () => {
    const state = readOrgState(dir);
    const kept = pulledByOthers(dir, remote);
    const removed = Object.keys(state.remotes[remote]?.pulled ?? {}).filter(
      (id) => !kept.has(id) && ID_PATTERN.test(id),
    );
    for (const id of removed) rmSync(join(layout.lessonsDir, id), { recursive: true, force: true });
    forgetRemoteState(dir, remote);
    return removed.sort();
  });
}

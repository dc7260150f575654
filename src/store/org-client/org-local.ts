/**
 * What this machine adds to the read-only org tier without the server: votes waiting for the next
 * `lore push` (`$LORE_HOME/org/pending-votes.jsonl`, one JSON line per vote, appended with
 * O_APPEND) and local lessons that replace an org lesson here (`$LORE_HOME/org/local-supersede.json`).
 * These two files are the record; the mirrored lesson files only show them, so the index and the
 * hook see a vote or a replacement at once, and `lore pull` shows them again over what it writes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { voteKey } from '../../core/rank/votes.js';
import type { Vote } from '../../core/rank/votes.js';
import { appendLine, unlinkQuietly, writeFileAtomic } from '../fs/fs-atomic.js';
import { withLocks } from '../fs/lock.js';
import { tierLayout } from '../fs/paths.js';

export const PENDING_VOTES_FILE = 'pending-votes.jsonl';
export const LOCAL_SUPERSEDE_FILE = 'local-supersede.json';

export type PendingVote = Vote & { id: string };
export type LocalSupersede = { by: string; at: string };

const pendingKey = (vote: { id: string; model: string; task: string }) => `${vote.id}\u0000${voteKey(vote)}`;

function pendingLock(orgDir: string): string {
  return join(tierLayout(orgDir).cacheDir, 'locks', 'pending-votes.lock');
}

/** Every well-formed pending vote; a damaged line (a crash mid-write) is skipped, never fatal. */
export function readPendingVotes(orgDir: string): PendingVote[] {
  let text: string;
  try {
    text = readFileSync(join(orgDir, PENDING_VOTES_FILE), 'utf8');
  } catch {
    return [];
  }
  const votes: PendingVote[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const v = JSON.parse(line) as Partial<PendingVote>;
      if ([v.id, v.model, v.task, v.at].every((field) => typeof field === 'string' && field !== ''))
        votes.push({ id: v.id, model: v.model, task: v.task, at: v.at } as PendingVote);
    } catch {
      // half a line: the vote it carried was never acknowledged to its voter
    }
  }
  return votes;
}

/** Records a vote for the next push; false when the same vote already waits. */
export function recordPendingVote(orgDir: string, id: string, vote: Vote): boolean {
  return withLocks([pendingLock(orgDir)], () => {
    const key = pendingKey({ id, ...vote });
    if (readPendingVotes(orgDir).some((seen) => pendingKey(seen) === key)) return false;
    appendLine(
      join(orgDir, PENDING_VOTES_FILE),
      JSON.stringify({ id, model: vote.model, task: vote.task, at: vote.at }),
    );
    return true;
  });
}

/**
 * Drops the votes the server acknowledged. Under the same lock as `recordPendingVote`, so a vote
 * cast while a push runs stays in the file.
 */
export function removePendingVotes(orgDir: string, done: readonly PendingVote[]): void {
  if (done.length === 0) return;
  const gone = new Set(done.map(pendingKey));
  withLocks([pendingLock(orgDir)], () => {
    const kept = readPendingVotes(orgDir).filter((vote) => !gone.has(pendingKey(vote)));
    const path = join(orgDir, PENDING_VOTES_FILE);
    if (kept.length === 0) unlinkQuietly(path);
    else writeFileAtomic(path, kept.map((v) => `${JSON.stringify(v)}\n`).join(''));
  });
}

/** Drops the pending votes on `ids` (lessons this machine no longer follows); the votes dropped. */
export function dropPendingVotesOn(orgDir: string, ids: readonly string[]): PendingVote[] {
  const gone = new Set(ids);
  const dropped = readPendingVotes(orgDir).filter((vote) => gone.has(vote.id));
  removePendingVotes(orgDir, dropped);
  return dropped;
}

export function readLocalSupersedes(orgDir: string): Record<string, LocalSupersede> {
  try {
    const parsed = JSON.parse(readFileSync(join(orgDir, LOCAL_SUPERSEDE_FILE), 'utf8')) as {
      version?: number;
      superseded?: Record<string, LocalSupersede>;
    };
    if (parsed.version === 1 && typeof parsed.superseded === 'object' && parsed.superseded !== null)
      return parsed.superseded;
  } catch {
    // none yet (or damaged: the org copies show as the server has them)
  }
  return {};
}

/** Remembers that local lesson `by` replaces org lesson `id` on this machine. */
export function recordLocalSupersede(orgDir: string, id: string, entry: LocalSupersede): void {
  withLocks([join(tierLayout(orgDir).cacheDir, 'locks', 'local-supersede.lock')], () => {
    const superseded = { ...readLocalSupersedes(orgDir), [id]: entry };
    writeFileAtomic(join(orgDir, LOCAL_SUPERSEDE_FILE), JSON.stringify({ version: 1, superseded }, null, 2));
  });
}

/** The votes of this machine still waiting for a push, as lines of the mirrored votes.jsonl. */
export function pendingVoteLines(pending: readonly PendingVote[], id: string): string[] {
  return pending
    .filter((vote) => vote.id === id)
    .map((vote) => JSON.stringify({ model: vote.model, task: vote.task, at: vote.at }));
}

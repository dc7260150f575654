/**
 * The votes this machine cast on organisation lessons go up with `lore push`, one request each to
 * the server's vote route, which keeps one row per lesson, user, model and task: sending a vote
 * twice (a push killed after the server answered) counts it once. A vote leaves the pending file
 * only once the server acknowledged it; one the server cannot take (its lesson is gone there, or
 * it refuses the vote itself with a 400: words no vote may hold) is dropped and reported; when the
 * server cannot be reached the rest wait for the next push.
 */
import { LoreError } from '../../core/errors.js';
import type { OrgClient } from './org-client.js';
import { readPendingVotes, removePendingVotes } from './org-local.js';
import type { PendingVote } from './org-local.js';

export type VotePushReport = {
  /** Votes the server acknowledged (new or already there). */
  sent: number;
  /** Of those, the votes the server did not have yet. */
  added: number;
  dropped: Array<{ id: string; model: string; task: string; reason: string }>;
  /** Votes still waiting (the server could not be reached, or refused this token). */
  pending: number;
  error: string | null;
};

export async function pushPendingVotes(orgDir: string, client: OrgClient): Promise<VotePushReport> {
  const waiting = readPendingVotes(orgDir);
  const done: PendingVote[] = [];
  const report: VotePushReport = { sent: 0, added: 0, dropped: [], pending: 0, error: null };
  try {
    for (const vote of waiting) {
      try {
        const answer = await client.vote(vote.id, { model: vote.model, task: vote.task });
        report.sent += 1;
        if (answer.added) report.added += 1;
      } catch (error) {
        // only "no such lesson" and a refusal of this vote are final; anything else (offline, a
        // read token) may pass later; kept, a refused vote would hold back every vote after it
        if (!(error instanceof LoreError) || !isFinal(error)) throw error;
        report.dropped.push({ id: vote.id, model: vote.model, task: vote.task, reason: error.message });
      }
      done.push(vote);
    }
  } catch (error) {
    report.error = error instanceof Error ? error.message : String(error);
  } finally {
    removePendingVotes(orgDir, done);
  }
  report.pending = waiting.length - done.length;
  return report;
}

/** The server will never take this vote: its lesson is gone, or the vote itself is malformed (400). */
function isFinal(error: LoreError): boolean {
  return error.code === 'not-found' || (error.details as { status?: number } | undefined)?.status === 400;
}

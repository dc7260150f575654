/**
 * Votes: one line of votes.jsonl per upvote, `{"model","task","at"}`. A vote counts once per
 * (model, task), at its earliest time, whatever the file holds; its weight halves every
 * `halfLifeDays` (0: no decay).
 */
import type { Problem } from '../errors.js';

export type Vote = { model: string; task: string; at: string };
export type VoteSummary = { count: number; lastVotedAt: string | null; score: number };

const DAY_MS = 86_400_000;

export function voteKey(vote: Pick<Vote, 'model' | 'task'>): string {
  return `${vote.model}\u0000${vote.task}`;
}

/** Parses votes.jsonl text. A malformed line is reported and skipped; the others still count. */
export function parseVotes(text: string, file: string): { votes: Vote[]; problems: Problem[] } {
  const votes: Vote[] = [];
  const problems: Problem[] = [];
  const lines = text.split('\n');
  lines.forEach((line, index) => {
    if (line.trim() === '') return;
    const vote = toVote(line);
    if (vote) votes.push(vote);
    else {
      problems.push({
        file,
        line: index + 1,
        message: 'malformed vote line skipped (expected {"model","task","at"})',
        severity: 'warning',
      });
    }
  });
  return { votes: dedupeVotes(votes), problems };
}

function toVote(line: string): Vote | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== 'object') return undefined;
  const { model, task, at } = value as Record<string, unknown>;
  if (typeof model !== 'string' || model === '' || typeof task !== 'string' || task === '') return undefined;
  if (typeof at !== 'string' || Number.isNaN(Date.parse(at))) return undefined;
  return { model, task, at };
}

/** One vote per (model, task): the earliest. Order: by time, then key. */
export function dedupeVotes(votes: readonly Vote[]): Vote[] {
  const earliest = new Map<string, Vote>();
  for (const vote of votes) {
    const key = voteKey(vote);
    const seen = earliest.get(key);
    if (!seen || Date.parse(vote.at) < Date.parse(seen.at)) earliest.set(key, vote);
  }
  return [...earliest.values()].sort(
    (a, b) => Date.parse(a.at) - Date.parse(b.at) || voteKey(a).localeCompare(voteKey(b)),
  );
}

/** Sum of vote weights; a vote `halfLifeDays` old weighs 0.5. Future-dated votes weigh 1. */
export function voteScore(times: readonly string[], nowMs: number, halfLifeDays: number): number {
  let score = 0;
  for (const at of times) {
    if (halfLifeDays <= 0) {
      score += 1;
      continue;
    }
    const ageDays = Math.max(0, nowMs - Date.parse(at)) / DAY_MS;
    score += Math.pow(0.5, ageDays / halfLifeDays);
  }
  return score;
}

export function summarizeVotes(votes: readonly Vote[], nowMs: number, halfLifeDays: number): VoteSummary {
  const unique = dedupeVotes(votes);
  const last = unique.reduce<string | null>(
    (latest, vote) => (latest === null || Date.parse(vote.at) > Date.parse(latest) ? vote.at : latest),
    null,
  );
  return {
    count: unique.length,
    lastVotedAt: last,
    score: voteScore(
      unique.map((vote) => vote.at),
      nowMs,
      halfLifeDays,
    ),
  };
}

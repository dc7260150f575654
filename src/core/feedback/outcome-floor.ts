/**
 * When outcome feedback takes a lesson out of injection, and when it proposes a guard. Pure.
 *
 * The floor: at least three automatic not-helpfuls (its mistake came back after it was shown) and
 * fewer than a third of its automatic verdicts helpful: the lesson is held (`needsReview`) until a
 * person keeps or archives it; only verdicts after the last time a person kept it count.
 *
 * A guard proposal: an advisory lesson (not already a guard) whose mistake came back at least twice
 * after it was delivered as context: denying the call would have stopped it.
 */
import type { OutcomeRecord } from './outcome-record.js';

export const OUTCOME_FLOOR = { minNotHelpful: 3, helpfulShare: 1 / 3 } as const;
export const GUARD_PROPOSAL_REPEATS = 2;

export type OutcomeVerdictLine = { helpful: boolean; at: string };

export type OutcomeTally = { helpful: number; notHelpful: number };

/** The automatic verdicts after `keptAt` (a person's last keep), counted. */
export function tallyOutcomes(verdicts: readonly OutcomeVerdictLine[], keptAt?: string): OutcomeTally {
  const counted = verdicts.filter((item) => keptAt === undefined || item.at > keptAt);
  const helpful = counted.filter((item) => item.helpful).length;
  return { helpful, notHelpful: counted.length - helpful };
}

/** Whether outcome feedback holds a lesson for review. */
export function belowOutcomeFloor(tally: OutcomeTally): boolean {
  const total = tally.helpful + tally.notHelpful;
  return (
    tally.notHelpful >= OUTCOME_FLOOR.minNotHelpful && tally.helpful / total < OUTCOME_FLOOR.helpfulShare
  );
}

/** Lessons whose mistake kept repeating after advisory delivery, with their repeats, most first. */
export function guardProposals(
  records: readonly Pick<OutcomeRecord, 'lesson' | 'form' | 'verdict'>[],
  isGuard: (lesson: string) => boolean,
): { lesson: string; repeats: number }[] {
  const repeats = new Map<string, number>();
  for (const record of records) {
    if (record.verdict !== 'repeated' || (record.form !== 'after-call' && record.form !== 'before-call'))
      continue;
    repeats.set(record.lesson, (repeats.get(record.lesson) ?? 0) + 1);
  }
  return [...repeats]
    .filter(([lesson, count]) => count >= GUARD_PROPOSAL_REPEATS && !isGuard(lesson))
    .map(([lesson, count]) => ({ lesson, repeats: count }))
    .sort((a, b) => b.repeats - a.repeats || a.lesson.localeCompare(b.lesson));
}

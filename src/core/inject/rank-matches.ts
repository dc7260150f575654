/**
 * Stage 4, rank: the strongest evidence first (a command or path match beats a tag, a tag beats a
 * word or a tool name), then the rank base precomputed in the manifest (priority, confidence,
 * votes, severity, stack), then id for a stable order.
 */
import type { Match } from './types.js';

export function rankMatches(matches: readonly Match[]): Match[] {
  return [...matches].sort(
    (a, b) =>
      b.strength - a.strength ||
      b.lesson.score - a.lesson.score ||
      (a.lesson.id < b.lesson.id ? -1 : a.lesson.id > b.lesson.id ? 1 : 0),
  );
}

/**
 * Stage 4, rank: the strongest evidence first (a command or path match beats a tag, a tag beats a
 * word or a tool name), then the rank base precomputed in the manifest (priority, confidence,
 * votes, severity, stack), then id for a stable order.
 */
import type { ManifestLesson, Match } from './types.js';

export function rankMatches(matches: readonly Match[]): Match[] {
  return [...matches].sort(
    (a, b) =>
      b.strength - a.strength ||
      b.lesson.score - a.lesson.score ||
      (a.lesson.id < b.lesson.id ? -1 : a.lesson.id > b.lesson.id ? 1 : 0),
  );
}

/**
 * A guard or checkpoint that can deny a call: it has commands, paths or contents. These come first
 * in the rank order.
 */
export function deniesCalls(lesson: ManifestLesson): boolean {
  return (lesson.guard || lesson.checkpoint === true) && lesson.strength === 3;
}

/** A checkpoint that can deny a call (the first of a session its commands, paths or contents match). */
export function checkpointDenies(lesson: ManifestLesson): boolean {
  return lesson.checkpoint === true && lesson.strength === 3;
}

/** The rank order of the manifest: guards and checkpoints that can deny first, then strength, score, id. */
export function compareEntries(a: ManifestLesson, b: ManifestLesson): number {
  return (
    Number(deniesCalls(b)) - Number(deniesCalls(a)) ||
    b.strength - a.strength ||
    b.score - a.score ||
    (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  );
}

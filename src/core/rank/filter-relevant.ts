/**
 * The curated list of lessons for the work at hand (`lore relevant`, and the task pre-prompt of
 * `lore prompt`): active, reviewed lessons of both tiers; user-tier lessons only when their
 * `stack` overlaps the repository's (an empty stack matches every repository, and so does a
 * repository whose stack lore cannot tell, as in the hook); with an operation, only the
 * categories it maps to. A user-tier lesson with the id or slug of a project lesson is left out:
 * the project lesson wins. Ranked by severity (critical > high > medium > low), then the newest
 * first; at most 10. Pure.
 */
import type { Category, LessonSeverity, Status, Tier } from '../lesson/constants.js';
import { stackAllows } from '../inject/detect-stack.js';
import { categoriesForOperation } from './operation-categories.js';
import type { Operation } from './operation-categories.js';

export const RELEVANT_LIMIT = 10;

/** The fields the filter reads; a full Lesson fits. */
export type RelevantLesson = {
  id: string;
  slug: string;
  tier: Tier;
  status: Status;
  category: Category;
  severity: LessonSeverity;
  stack: readonly string[];
  updatedAt: string;
  needsReview?: boolean;
};

export type RelevantOptions = {
  operation?: Operation | undefined;
  /** The repository's stack (detected from its manifest files, or given). */
  stack: readonly string[];
  /** Only this tier's lessons (a project lesson still hides a user-tier one with its id or slug). */
  tier?: Tier | undefined;
  /** At most this many (default and maximum 10). */
  limit?: number;
};

const SEVERITY_ORDER: Readonly<Record<LessonSeverity, number>> = { critical: 0, high: 1, medium: 2, low: 3 };

/** Most severe first, then the most recently updated, then by id (a stable order). */
export function compareSeverityThenDate(a: RelevantLesson, b: RelevantLesson): number {
  return (
    SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] ||
    Date.parse(b.updatedAt) - Date.parse(a.updatedAt) ||
    (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  );
}

/** Whether a user-tier lesson's stack lets it apply in a repository with `stack`. */
export function stackOverlaps(lessonStack: readonly string[], stack: readonly string[]): boolean {
  return stackAllows(
    lessonStack,
    stack.map((entry) => entry.toLowerCase()),
  );
}

export function filterRelevant<T extends RelevantLesson>(
  lessons: readonly T[],
  options: RelevantOptions,
): T[] {
  const limit = Math.max(0, Math.min(options.limit ?? RELEVANT_LIMIT, RELEVANT_LIMIT));
  const categories = categoriesForOperation(options.operation);
  const live = lessons.filter((lesson) => lesson.status === 'active' && lesson.needsReview !== true);
  const projectIds = new Set(live.filter((l) => l.tier === 'project').map((l) => l.id));
  const projectSlugs = new Set(live.filter((l) => l.tier === 'project').map((l) => l.slug));
  const seen = new Set<string>();
  const kept: T[] = [];
  for (const lesson of live) {
    if (lesson.tier !== 'project' && (projectIds.has(lesson.id) || projectSlugs.has(lesson.slug))) continue;
    if (options.tier !== undefined && lesson.tier !== options.tier) continue;
    if (lesson.tier !== 'project' && !stackOverlaps(lesson.stack, options.stack)) continue;
    if (categories !== undefined && !categories.has(lesson.category)) continue;
    const key = `${lesson.tier}:${lesson.id}`;
    if (seen.has(key)) continue;
    seen.add(key);
    kept.push(lesson);
  }
  return kept.sort(compareSeverityThenDate).slice(0, limit);
}

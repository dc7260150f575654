/**
 * A lesson as text that is equal for equal content whatever its key order and tier: how imports
 * (lore's own JSON, the other formats) tell a re-import of the same lesson from a changed one.
 */
import type { Lesson } from './schema.js';

export function comparableLesson(lesson: Lesson): string {
  const { tier: _tier, ...rest } = lesson;
  void _tier;
  return JSON.stringify(sortKeys(rest));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
  );
}

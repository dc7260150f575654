import type { Lesson } from '../lesson/schema.js';
import { originId } from './imported-lesson.js';
import { exportKey } from './interop-format.js';
import type { RememberedIds } from './interop-format.js';

/** Ids like ADD's `L-007` or Orbit's `L-0042`: one past the highest number already used. */
export function nextNumberedId(prefix: string, width: number, used: ReadonlySet<string>): string {
  let highest = 0;
  for (const id of used) {
    if (!id.startsWith(prefix)) continue;
    const digits = id.slice(prefix.length);
    if (/^\d+$/.test(digits)) highest = Math.max(highest, Number(digits));
  }
  return `${prefix}${String(highest + 1).padStart(width, '0')}`;
}

/**
 * A format's id for every lesson: the one it came with from that format (`origin.id`, first
 * come first served), else the one an earlier export to the same folder gave it (`remembered`),
 * else the next numbered id under the prefix `prefixOf` gives it, past every id in use or ever
 * used in that folder. Numbering in export order alone renumbered the others whenever a lesson
 * was added or deleted, and an import of the export then mapped learnings to the wrong lessons.
 */
export function assignNumberedIds(
  lessons: readonly Lesson[],
  formats: readonly string[],
  prefixOf: (lesson: Lesson) => string,
  width: number,
  remembered: RememberedIds = { ids: new Map(), taken: new Set() },
): Map<string, string> {
  const ids = new Map<string, string>();
  const used = new Set<string>();
  for (const lesson of lessons) {
    const id = originId(lesson, formats);
    if (id !== undefined && !used.has(id)) {
      ids.set(lesson.id, id);
      used.add(id);
    }
  }
  for (const lesson of lessons) {
    const id = remembered.ids.get(exportKey(lesson));
    if (ids.has(lesson.id) || id === undefined || used.has(id)) continue;
    ids.set(lesson.id, id);
    used.add(id);
  }
  const taken = new Set([...used, ...remembered.taken]);
  for (const lesson of lessons) {
    if (ids.has(lesson.id)) continue;
    const id = nextNumberedId(prefixOf(lesson), width, taken);
    taken.add(id);
    ids.set(lesson.id, id);
  }
  return ids;
}

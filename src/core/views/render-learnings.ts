/**
 * The lessons as a Markdown page (`LEARNINGS.md`, and the managed section of `AGENTS.md` and
 * friends): grouped by category, newest first in each group, each entry with its id, summary and
 * tier and severity badges. Deterministic: the same lessons always give the same bytes.
 */
import { CATEGORIES } from '../lesson/constants.js';
import type { Lesson } from '../lesson/schema.js';

export type ViewLesson = Pick<
  Lesson,
  'id' | 'summary' | 'category' | 'tier' | 'severity' | 'type' | 'createdAt'
>;

export type RenderOptions = {
  /** The page heading; omitted when undefined. */
  title?: string;
  /** Markdown level of the title; the category headings sit one level below. */
  level: number;
  /** The line under the title. */
  intro: string;
  /** Lessons left out (a capped section): said in one line at the end. */
  omitted?: number;
};

/** Markdown would read these as formatting, or an HTML comment that breaks the markers. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_[\]<>|#]/g, '\\$&');
}

function categoryTitle(category: string): string {
  return category.charAt(0).toUpperCase() + category.slice(1);
}

/** Newest first; equal times by id, so the order never depends on the input order. */
export function compareNewestFirst(a: ViewLesson, b: ViewLesson): number {
  const byTime = Date.parse(b.createdAt) - Date.parse(a.createdAt);
  if (byTime !== 0 && Number.isFinite(byTime)) return byTime;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

export function renderLessonEntry(lesson: ViewLesson): string {
  const badges = [lesson.tier, lesson.severity, ...(lesson.type === 'guard' ? ['guard'] : [])];
  return `- \`${lesson.id}\` ${escapeMarkdown(lesson.summary)} ${badges.map((badge) => `\`${badge}\``).join(' ')}`;
}

export function renderLearnings(lessons: readonly ViewLesson[], options: RenderOptions): string {
  const lines: string[] = [];
  const level = Math.max(1, Math.min(5, options.level));
  if (options.title !== undefined) lines.push(`${'#'.repeat(level)} ${options.title}`, '');
  lines.push(options.intro, '');
  if (lessons.length === 0) {
    lines.push('No active lessons yet.', '');
  }
  const known = new Set<string>(CATEGORIES);
  const order = [
    ...CATEGORIES,
    ...[...new Set(lessons.map((l) => l.category))].filter((c) => !known.has(c)).sort(),
  ];
  for (const category of order) {
    const group = lessons.filter((lesson) => lesson.category === category);
    if (group.length === 0) continue;
    lines.push(`${'#'.repeat(level + 1)} ${categoryTitle(category)} (${group.length})`, '');
    for (const lesson of [...group].sort(compareNewestFirst)) lines.push(renderLessonEntry(lesson));
    lines.push('');
  }
  if (options.omitted !== undefined && options.omitted > 0) {
    lines.push(`${options.omitted} more lesson(s) not shown here: run \`lore list\` to see them all.`, '');
  }
  return `${lines.join('\n').replace(/\n+$/, '')}\n`;
}

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
> &
  Partial<Pick<Lesson, 'body' | 'agents'>>;

export type RenderOptions = {
  /** The page heading; omitted when undefined. */
  title?: string;
  /** Markdown level of the title; the category headings sit one level below. */
  level: number;
  /** The line under the title. */
  intro: string;
  /** Lessons left out (a capped section): said in one line at the end. */
  omitted?: number;
  /**
   * Each lesson's body indented under its entry, as ADD's generated learnings.md has it (AC-027):
   * LEARNINGS.md is the page people read; the managed sections stay one line a lesson.
   */
  bodies?: boolean;
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
  // `\<!--` still spells the markers' `<!-- lore:end` (a lesson about the section): `&lt;` does not
  const summary = escapeMarkdown(lesson.summary).replaceAll('\\<!--', '&lt;!--');
  return `- \`${lesson.id}\` ${summary} ${badges.map((badge) => `\`${badge}\``).join(' ')}`;
}

/**
 * A body as the entry's indented continuation. An HTML comment opener is defused: a body must
 * never open a comment that swallows the page, or spell the managed section's markers.
 */
export function renderLessonBody(body: string | undefined): string[] {
  const text = (body ?? '').replace(/<!--/g, '&lt;!--').replace(/\s+$/, '');
  if (text.trim() === '') return [];
  return ['', ...text.split('\n').map((line) => (line.trim() === '' ? '' : `  ${line}`))];
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
    let afterBody = false;
    for (const lesson of [...group].sort(compareNewestFirst)) {
      const body = options.bodies === true ? renderLessonBody(lesson.body) : [];
      // A bullet after an indented body needs a blank line, or it reads as part of that body.
      if (afterBody) lines.push('');
      lines.push(renderLessonEntry(lesson), ...body);
      afterBody = body.length > 0;
    }
    lines.push('');
  }
  if (options.omitted !== undefined && options.omitted > 0) {
    lines.push(`${options.omitted} more lesson(s) not shown here: run \`lore list\` to see them all.`, '');
  }
  return `${lines.join('\n').replace(/\n+$/, '')}\n`;
}

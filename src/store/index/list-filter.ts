/**
 * A list or search filter. What it asks of a lesson's indexed columns and tags is described once
 * (`filterConditions`): `filterSql` turns the description into a WHERE clause and
 * `filterPredicate` into a test of rows held in memory, so the two cannot disagree. Tools,
 * commands and paths are matched in JS afterwards (`matchDetails`, with the reasons; the path's
 * globs by match-paths.ts).
 */
import type { Lesson, Status, Tier } from '../../core/lesson/schema.js';
import type { IndexedLesson } from './index-types.js';
import { cachedRegex } from '../../core/match/cached-regex.js';
import { LoreError } from '../../core/errors.js';

export type ListFilter = {
  status?: Status | 'any';
  tags?: readonly string[];
  tools?: readonly string[];
  tier?: Tier;
  /** Repo-relative path: lessons whose path globs match it. */
  path?: string;
  /** A shell command: lessons whose command regexes match it. */
  command?: string;
  /** Only lessons the hook would inject: at least this confidence, not waiting for review. */
  injectable?: { minConfidence: number };
};

/** The columns a filter reads, as a row kept in memory names them. */
export type FilterColumns = {
  status: string;
  tier: string;
  confidence: number;
  needsReview: number;
};
/** `tags`: lower-cased, as the index stores them; needed only when the filter has tags. */
export type FilterRow = FilterColumns & { tags?: readonly string[] };

const SQL_COLUMNS: Record<keyof FilterColumns, string> = {
  status: 'l.status',
  tier: 'l.tier',
  confidence: 'l.confidence',
  needsReview: 'l.needs_review',
};

export type Condition =
  | { kind: 'equals'; column: keyof FilterColumns; value: string | number }
  | { kind: 'atLeast'; column: 'confidence'; value: number }
  /** A tag, lower-cased: equal, or (without a `:`) the value of a `category:value` tag. */
  | { kind: 'tag'; tag: string };

/** The one description of a filter: every condition must hold. */
export function filterConditions(filter: ListFilter): Condition[] {
  const conditions: Condition[] = [];
  if (filter.status !== 'any')
    conditions.push({ kind: 'equals', column: 'status', value: filter.status ?? 'active' });
  if (filter.tier) conditions.push({ kind: 'equals', column: 'tier', value: filter.tier });
  if (filter.injectable) {
    conditions.push({ kind: 'atLeast', column: 'confidence', value: filter.injectable.minConfidence });
    conditions.push({ kind: 'equals', column: 'needsReview', value: 0 });
  }
  const tags = [...new Set((filter.tags ?? []).map((tag) => tag.toLowerCase()))];
  // SQLite refuses a WHERE deeper than 1,000 terms, and a stack this deep overflows before that
  if (tags.length > MAX_FILTER_TAGS)
    throw new LoreError(
      'usage',
      `a filter takes at most ${MAX_FILTER_TAGS} tags (got ${tags.length}); a lesson must carry every one of them`,
      { hint: 'filter by fewer tags' },
    );
  for (const tag of tags) conditions.push({ kind: 'tag', tag });
  return conditions;
}

/** Tags one filter may ask for (each is one more condition every lesson must meet). */
export const MAX_FILTER_TAGS = 100;

/** Whether `filterPredicate` can decide the filter from the columns alone (no tags to look up). */
export function columnsOnly(filter: ListFilter): boolean {
  return (filter.tags?.length ?? 0) === 0;
}

/** The filter as a WHERE clause over `lessons l` ('' for none); its parameters go to `params`. */
export function filterSql(filter: ListFilter, params: (string | number)[]): string {
  const clauses = filterConditions(filter).map((condition) => {
    switch (condition.kind) {
      case 'equals':
        params.push(condition.value);
        return `${SQL_COLUMNS[condition.column]} = ?`;
      case 'atLeast':
        params.push(condition.value);
        return `${SQL_COLUMNS[condition.column]} >= ?`;
      case 'tag':
        if (condition.tag.includes(':')) {
          params.push(condition.tag);
          return 'EXISTS (SELECT 1 FROM lesson_tags t WHERE t.lesson = l.rowid AND t.tag = ?)';
        }
        params.push(condition.tag, condition.tag, condition.tag);
        return "EXISTS (SELECT 1 FROM lesson_tags t WHERE t.lesson = l.rowid AND (t.tag = ? OR substr(t.tag, -length(?) - 1) = ':' || ?))";
    }
  });
  return clauses.join(' AND ');
}

/** The filter as a test of rows held in memory (the description is worked out once, not per row). */
export function filterPredicate(filter: ListFilter): (row: FilterRow) => boolean {
  const conditions = filterConditions(filter);
  return (row) =>
    conditions.every((condition) => {
      switch (condition.kind) {
        case 'equals':
          return row[condition.column] === condition.value;
        case 'atLeast':
          return row[condition.column] >= condition.value;
        case 'tag':
          if (row.tags === undefined) throw new Error('a tag filter needs the row tags');
          return row.tags.some((tag) => tagMatches(tag, condition.tag));
      }
    });
}

/** A lesson's tag against a wanted one: equal, or a bare value against a `category:value` tag. */
export function tagMatches(tag: string, wanted: string): boolean {
  const a = tag.toLowerCase();
  const b = wanted.toLowerCase();
  return a === b || (!b.includes(':') && a.endsWith(`:${b}`));
}

/** A lesson's command regex (checked safe when the lesson was written) against a shell command. */
export function commandMatches(source: string, command: string): boolean {
  const regex = cachedRegex(source);
  return regex !== null && regex.test(command);
}

/**
 * The reasons a lesson matches the filter's tags, tools, path (`pathHits`: rowid -> matching
 * globs) and command; undefined when a tool, the path or the command does not match. Tags only
 * give reasons: the SQL filter already kept the lessons that have them.
 */
export function matchDetails(
  item: IndexedLesson | (() => Lesson),
  rowid: number,
  filter: ListFilter,
  pathHits: Map<number, string[]> | undefined,
): string[] | undefined {
  const reasons: string[] = [];
  // The record is parsed only when a tag, tool or command filter needs to look into it.
  let parsed: Lesson | undefined;
  const lessonOf = (): Lesson => (parsed ??= typeof item === 'function' ? item() : item.lesson);
  for (const tag of filter.tags ?? []) {
    const hit = lessonOf().tags.find((t) => tagMatches(t, tag));
    if (hit) reasons.push(`tag:${hit}`);
  }
  for (const tool of filter.tools ?? []) {
    const hit = lessonOf().tools.find((t) => t.toLowerCase() === tool.toLowerCase());
    if (!hit) return undefined;
    reasons.push(`tool:${hit}`);
  }
  if (pathHits) {
    const globs = pathHits.get(rowid);
    if (!globs) return undefined;
    for (const glob of globs) reasons.push(`path:${glob}`);
  }
  if (filter.command !== undefined) {
    const hit = lessonOf().commands.find((source) => commandMatches(source, filter.command as string));
    if (hit === undefined) return undefined;
    reasons.push(`command:${hit}`);
  }
  return reasons;
}

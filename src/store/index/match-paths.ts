/** A path filter: which lessons' globs match a path, remembered per reader (see reader-memo.ts). */
import { isGlobPattern } from '../../core/match/glob-syntax.js';
import { MEMO_PATHS } from './reader-memo.js';
import type { PathRow, QueryContext } from './reader-memo.js';

/**
 * One pass over every lesson glob: rowid -> the globs matching `path` (literal prefilter, one
 * RegExp per source). The first path a reader asks about is prefiltered inside SQLite; from the
 * second on, the globs are kept in memory grouped by literal.
 */
export function matchPaths(ctx: QueryContext, path: string): Map<number, string[]> {
  const { db, memo, regexes } = ctx;
  const known = memo.pathHits.get(path);
  if (known) {
    // most recently used last
    memo.pathHits.delete(path);
    memo.pathHits.set(path, known);
    return known;
  }
  const hits = new Map<number, string[]>();
  const test = (row: PathRow) => {
    let regex = regexes.get(row.regex);
    if (!regex) {
      regex = new RegExp(row.regex);
      regexes.set(row.regex, regex);
    }
    if (regex.test(path)) hits.set(row.lesson, [...(hits.get(row.lesson) ?? []), row.glob]);
  };
  memo.pathQueries += 1;
  if (memo.pathQueries === 1 && memo.pathTable === undefined) {
    // The literal prefilter runs inside SQLite: only globs whose required literal occurs in the
    // path reach JS (instr(x, '') is 1, so globs without a literal always do).
    const rows = db.all<PathRow & { literal: string }>(
      'SELECT lesson, glob, regex, literal FROM lesson_paths WHERE instr(?, literal) > 0',
      path,
    );
    for (const row of rows) test(row);
  } else {
    // A long-lived reader (`lore mcp`) asks again and again: keep the globs in memory, grouped by
    // literal, until a refresh changes something.
    memo.pathTable ??= pathTable(ctx);
    for (const [literal, rows] of memo.pathTable) {
      if (literal !== '' && !path.includes(literal)) continue;
      for (const row of rows) test(row);
    }
  }
  if (memo.pathHits.size >= MEMO_PATHS) memo.pathHits.delete(memo.pathHits.keys().next().value as string);
  memo.pathHits.set(path, hits);
  return hits;
}

/**
 * A `path` filter as given: a concrete path matched by the lessons' globs, or, given `contains`
 * (the glob's containment test, `createContainment`), a glob matched by containment.
 */
export function matchPathFilter(
  ctx: QueryContext,
  path: string,
  contains: ((lessonGlob: string) => boolean) | undefined,
): Map<number, string[]> {
  if (contains === undefined) return matchPaths(ctx, path);
  const hits = new Map<number, string[]>();
  for (const row of ctx.db.all<PathRow>('SELECT lesson, glob, regex FROM lesson_paths')) {
    if (contains(row.glob)) hits.set(row.lesson, [...(hits.get(row.lesson) ?? []), row.glob]);
  }
  return hits;
}

/** The containment test of a glob filter; undefined for a concrete path (picomatch stays unloaded). */
export async function containmentFor(
  path: string | undefined,
): Promise<((lessonGlob: string) => boolean) | undefined> {
  if (path === undefined || !isGlobPattern(path)) return undefined;
  const { createContainment } = await import('../../core/match/glob.js');
  return createContainment(path);
}

function pathTable({ db }: QueryContext): Map<string, PathRow[]> {
  const table = new Map<string, PathRow[]>();
  for (const row of db.all<PathRow & { literal: string }>(
    'SELECT lesson, glob, regex, literal FROM lesson_paths',
  )) {
    const group = table.get(row.literal);
    if (group) group.push(row);
    else table.set(row.literal, [row]);
  }
  return table;
}

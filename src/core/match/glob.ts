/**
 * Path globs of lessons, compiled to regular expression sources (so the hook manifest can store
 * them precompiled). Conventions, as in .gitignore:
 * - a glob without a slash matches at any depth (`*.py` is `**\/*.py`);
 * - a glob without wildcards names a file or a directory and everything under it;
 * - a trailing slash names a directory and everything under it;
 * - dotfiles match like any other file.
 */
import picomatch from 'picomatch';

const WILDCARD = /[*?[\]{}()!+@]/;

export function expandGlob(glob: string): string[] {
  let pattern = glob.trim().replace(/^\.\//, '');
  const isDirectory = pattern.endsWith('/');
  pattern = pattern.replace(/\/+$/, '');
  if (!pattern.includes('/')) pattern = `**/${pattern}`;
  if (isDirectory) return [`${pattern}/**`];
  if (!WILDCARD.test(glob)) return [pattern, `${pattern}/**`];
  return [pattern];
}

/** One regular expression source matching a repo-relative POSIX path. */
export function compileGlob(glob: string): string {
  const sources = expandGlob(glob).map((pattern) => picomatch.makeRe(pattern, { dot: true }).source);
  return sources.length === 1 ? (sources[0] ?? '') : sources.map((source) => `(?:${source})`).join('|');
}

export { toRepoPath } from './repo-path.js';

export type GlobMatcher = (path: string) => boolean;

export function createGlobMatcher(glob: string): GlobMatcher {
  const regex = new RegExp(compileGlob(glob));
  return (path) => regex.test(path);
}

/** The globs of `globs` that match `path` (repo-relative). */
export function matchingGlobs(globs: readonly string[], path: string): string[] {
  return globs.filter((glob) => createGlobMatcher(glob)(path));
}

/**
 * Orbit's glob containment for `list --path GLOB`: a lesson glob is listed when one of the two
 * contains the other: `db/**` lists a lesson on `db/migrations/**`, and `db/migrations/*.sql`
 * lists a lesson on `db/**`. Each side's expanded pattern text is tested as a path against the
 * other's regex, which decides containment exactly for the `dir/**` and `*.ext` shapes lessons use;
 * two globs that only partly overlap (`db/**` and `*.sql`) are not listed.
 */
export function globsContain(lessonGlob: string, queryGlob: string): boolean {
  return createContainment(queryGlob)(lessonGlob);
}

/** `globsContain` with the query compiled once, for testing every lesson glob against it. */
export function createContainment(queryGlob: string): (lessonGlob: string) => boolean {
  const queryRegex = new RegExp(compileGlob(queryGlob));
  const queryPatterns = expandGlob(queryGlob);
  return (lessonGlob) => {
    if (expandGlob(lessonGlob).some((pattern) => queryRegex.test(pattern))) return true;
    const lessonRegex = new RegExp(compileGlob(lessonGlob));
    return queryPatterns.some((pattern) => lessonRegex.test(pattern));
  };
}

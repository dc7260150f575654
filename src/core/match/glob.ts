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

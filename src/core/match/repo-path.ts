/**
 * Paths as lessons see them: relative to the repository root, with forward slashes.
 */
/** Makes a path repo-relative and POSIX: `./src\\a.ts` -> `src/a.ts`. Absolute paths need `root`. */
export function toRepoPath(path: string, root?: string): string {
  let normalized = path.replace(/\\/g, '/');
  const base = root?.replace(/\\/g, '/').replace(/\/+$/, '');
  if (base !== undefined && base !== '' && (normalized === base || normalized.startsWith(`${base}/`))) {
    normalized = normalized.slice(base.length);
  }
  const parts: string[] = [];
  for (const part of normalized.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  return parts.join('/');
}

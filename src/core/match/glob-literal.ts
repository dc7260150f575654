/**
 * The longest run of plain characters every path matching a glob must contain: a cheap
 * `includes()` test that skips compiling and running most glob regexes. Empty when the glob's
 * syntax (braces, classes, extglobs, negation) makes any literal unsafe.
 */
const UNSAFE = /[{}[\]()!+@\\|]/;

export function requiredGlobLiteral(glob: string): string {
  if (UNSAFE.test(glob)) return '';
  let best = '';
  for (const part of glob.trim().split(/[*?/]+/)) {
    if (part === '.' || part === '..') continue;
    if (part.length > best.length) best = part;
  }
  return best;
}

/**
 * Every run of plain characters a path matching the glob must contain (at least `minLength` long,
 * longest first, at most `max`): the conjunction the manifest files a path lesson under. Empty
 * when the glob's syntax makes any literal unsafe.
 */
export function requiredGlobLiterals(glob: string, minLength = 2, max = 3): string[] {
  if (UNSAFE.test(glob)) return [];
  const parts = new Set<string>();
  for (const part of glob.trim().split(/[*?/]+/)) {
    if (part === '.' || part === '..' || part.length < minLength) continue;
    parts.add(part);
  }
  return [...parts].sort((a, b) => b.length - a.length || (a < b ? -1 : a > b ? 1 : 0)).slice(0, max);
}

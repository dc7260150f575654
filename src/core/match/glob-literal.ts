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

/**
 * Whether a lesson's path glob is well formed. picomatch reads an unclosed `[` or `{` as a
 * literal character, so `src/[unclosed` would be stored and silently never match what its author
 * meant; lore refuses it instead and says how to write the literal.
 */

const CLOSERS: Readonly<Record<string, string>> = { '[': ']', '{': '}', '(': ')' };

/** Why the glob is malformed, or undefined when it is fine. */
export function findGlobSyntaxProblem(glob: string): string | undefined {
  const open: string[] = [];
  let classStart = -1;
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i] ?? '';
    if (char === '\\') {
      i++;
      continue;
    }
    // Inside a character class only `]` is special (`[{]` holds `{`), and not as its first
    // member: `[]]` and `[!]]` hold `]`.
    if (open.at(-1) === '[') {
      const negated = glob[classStart + 1] === '!' || glob[classStart + 1] === '^';
      if (char === ']' && i > classStart + (negated ? 2 : 1)) open.pop();
      continue;
    }
    if (char === '[') classStart = i;
    if (char in CLOSERS) open.push(char);
    else if (char === ']' || char === '}' || char === ')') {
      if (open.length === 0 || CLOSERS[open.at(-1) ?? ''] !== char)
        return `has an unmatched "${char}" (write \\${char} for the character itself)`;
      open.pop();
    }
  }
  const unclosed = open.at(-1);
  return unclosed === undefined
    ? undefined
    : `has an unclosed "${unclosed}" (close it with "${CLOSERS[unclosed]}", or write \\${unclosed} for the character itself)`;
}

/**
 * Whether a `path` filter is a glob (lessons are then listed by containment) or a concrete path.
 * Here, without picomatch, so the read path can tell before it loads the glob compiler.
 */
export function isGlobPattern(value: string): boolean {
  return /[*?[\]{}]/.test(value);
}

/**
 * Whether a lesson's path glob is well formed. picomatch reads an unclosed `[` or `{` as a
 * literal character, so `src/[unclosed` would be stored and silently never match what its author
 * meant; lore refuses it instead and says how to write the literal.
 */

const CLOSERS: Readonly<Record<string, string>> = { '[': ']', '{': '}', '(': ')' };

/** Wildcards past these make a glob's regex backtrack polynomially: seconds on a long path. */
const MAX_STARS_PER_SEGMENT = 2;
const MAX_GLOBSTARS = 3;

/**
 * Too many wildcards: each `*` in a segment and each `**` segment is one more unbounded loop over
 * the same characters, so a path that nearly matches is tried in n^k ways (`*a*a*a*b` takes 0.7 s
 * on a 255-character name, `*a*a*a*a*a*a*b` seconds on 60 characters).
 */
function wildcardProblem(glob: string): string | undefined {
  let globstars = 0;
  let previousGlobstar = false;
  for (const segment of glob.split('/')) {
    if (segment === '**') {
      if (!previousGlobstar) globstars += 1;
      previousGlobstar = true;
      continue;
    }
    previousGlobstar = false;
    let stars = 0;
    let inClass = false;
    for (let i = 0; i < segment.length; i += 1) {
      const char = segment[i];
      if (char === '\\') i += 1;
      else if (char === '[') inClass = true;
      else if (char === ']') inClass = false;
      else if (char === '*' && !inClass && segment[i - 1] !== '*') stars += 1;
    }
    if (stars > MAX_STARS_PER_SEGMENT)
      return `has ${stars} "*" wildcards in the segment "${segment}": matching it can take seconds on a long path; use at most ${MAX_STARS_PER_SEGMENT} in a segment`;
  }
  return globstars > MAX_GLOBSTARS
    ? `has ${globstars} "**" segments: matching it can take seconds on a long path; use at most ${MAX_GLOBSTARS}`
    : undefined;
}

/** Why the glob is malformed (or too slow to match), or undefined when it is fine. */
export function findGlobSyntaxProblem(glob: string): string | undefined {
  const slow = wildcardProblem(glob);
  if (slow !== undefined) return slow;
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

/**
 * Refuses lesson regexes that can backtrack catastrophically (exponential time on a crafted or
 * unlucky command): a hook runs them on every matching tool call and must never hang.
 *
 * Flagged, under an unbounded repetition (`*`, `+`, `{n,}`):
 * - a repeated part that can match the empty string: `(a*)*`;
 * - nested quantifiers whose inner loop can run into the next iteration: `(a+)+`, `(\w+\s?)*`;
 * - alternatives that can start the same way: `(a|ab)*`, `(\w|\d)+`.
 * Unambiguous nesting such as `(\s+-\w+)*` (each iteration starts with what the last cannot eat)
 * passes. And, in a sequence, loops in a row that can share out the same run of text (`.*.*`,
 * `\S+.*`, `\s+.*\s+.*`): polynomial, but of a degree that hangs on one long line (`splitRun`).
 */
import { parseRegex } from './regex-ast.js';
import type { RegexNode } from './regex-ast.js';

/** Characters a class is probed with: ASCII plus a few others. */
const PROBES: string[] = [
  ...Array.from({ length: 128 }, (_, i) => String.fromCharCode(i)),
  '\u00e9',
  '\u00a0',
  '\u2028',
  '\u4e2d',
];

type CharSet = boolean[];

const setCache = new Map<string, CharSet>();

/** Whether the regex being checked runs case-insensitively (set for one `findBacktrackingRisk` call). */
let ignoreCase = false;

function charSet(node: RegexNode): CharSet | undefined {
  if (node.kind === 'char') {
    const value = ignoreCase ? node.value.toLowerCase() : node.value;
    return PROBES.map((probe) => (ignoreCase ? probe.toLowerCase() : probe) === value);
  }
  if (node.kind !== 'set') return undefined;
  const key = `${ignoreCase ? 'i' : ''}/${node.source}`;
  let cached = setCache.get(key);
  if (!cached) {
    const regex = new RegExp(`^(?:${node.source})$`, ignoreCase ? 'i' : '');
    cached = PROBES.map((probe) => regex.test(probe));
    setCache.set(key, cached);
  }
  return cached;
}

function overlaps(a: readonly CharSet[], b: readonly CharSet[]): boolean {
  return a.some((x) => b.some((y) => x.some((hit, i) => hit && y[i] === true)));
}

function nullable(node: RegexNode): boolean {
  switch (node.kind) {
    case 'char':
    case 'set':
    case 'opaque':
      return false;
    case 'assert':
    case 'backref':
      return true;
    case 'group':
      return nullable(node.body);
    case 'repeat':
      return node.min === 0 || nullable(node.body);
    case 'alt':
      return node.branches.some(nullable);
    case 'seq':
      return node.items.every(nullable);
  }
}

/** Character sets a match of `node` can start with. */
function firstSets(node: RegexNode): CharSet[] {
  switch (node.kind) {
    case 'char':
    case 'set':
      return [charSet(node) as CharSet];
    case 'group':
    case 'repeat':
      return firstSets(node.body);
    case 'alt':
      return node.branches.flatMap(firstSets);
    case 'seq': {
      const out: CharSet[] = [];
      for (const item of node.items) {
        out.push(...firstSets(item));
        if (!nullable(item)) break;
      }
      return out;
    }
    default:
      return [];
  }
}

/** Character sets an unbounded loop at the end of `node` can keep consuming. */
function tailLoopSets(node: RegexNode): CharSet[] {
  switch (node.kind) {
    case 'group':
      return tailLoopSets(node.body);
    case 'repeat':
      return node.max === Infinity || node.max > 16
        ? [...firstSets(node.body), ...tailLoopSets(node.body)]
        : tailLoopSets(node.body);
    case 'alt':
      return node.branches.flatMap(tailLoopSets);
    case 'seq': {
      const out: CharSet[] = [];
      for (let i = node.items.length - 1; i >= 0; i -= 1) {
        const item = node.items[i] as RegexNode;
        out.push(...tailLoopSets(item));
        if (!nullable(item)) break;
      }
      return out;
    }
    default:
      return [];
  }
}

function exact(node: RegexNode): string | undefined {
  if (node.kind === 'char') return ignoreCase ? node.value.toLowerCase() : node.value;
  if (node.kind === 'group') return exact(node.body);
  if (node.kind === 'seq') {
    let out = '';
    for (const item of node.items) {
      const part = exact(item);
      if (part === undefined) return undefined;
      out += part;
    }
    return out;
  }
  return undefined;
}

/** The alternation a repeated body starts with, if any. */
function leadingAlternation(node: RegexNode): Extract<RegexNode, { kind: 'alt' }> | undefined {
  if (node.kind === 'alt') return node;
  if (node.kind === 'group') return leadingAlternation(node.body);
  if (node.kind === 'seq' && node.items.length === 1) return leadingAlternation(node.items[0] as RegexNode);
  return undefined;
}

/** The branches of an alternation, with those that are alternations themselves opened: `x|(?:a|b)` is x, a, b. */
function flatBranches(alt: Extract<RegexNode, { kind: 'alt' }>): RegexNode[] {
  return alt.branches.flatMap((branch) => {
    const inner = leadingAlternation(branch);
    return inner === undefined ? [branch] : flatBranches(inner);
  });
}

function ambiguousBranches(alt: Extract<RegexNode, { kind: 'alt' }>): boolean {
  const branches = flatBranches(alt);
  for (let i = 0; i < branches.length; i += 1) {
    for (let j = i + 1; j < branches.length; j += 1) {
      const a = branches[i] as RegexNode;
      const b = branches[j] as RegexNode;
      const ea = exact(a);
      const eb = exact(b);
      if (ea !== undefined && eb !== undefined) {
        if (ea.startsWith(eb) || eb.startsWith(ea)) return true;
        continue;
      }
      if (overlaps(firstSets(a), firstSets(b))) return true;
    }
  }
  return false;
}

/** A node's shape as text, groups opened and (when case is ignored) characters lowered: equal text, same language. */
function shape(node: RegexNode): string {
  switch (node.kind) {
    case 'char':
      return JSON.stringify(ignoreCase ? node.value.toLowerCase() : node.value);
    case 'group':
      return shape(node.body);
    case 'seq':
      return node.items.length === 1
        ? shape(node.items[0] as RegexNode)
        : `(${node.items.map(shape).join(' ')})`;
    case 'alt':
      return `[${node.branches.map(shape).join('|')}]`;
    case 'repeat':
      return `${shape(node.body)}{${node.min},${node.max}}`;
    case 'set':
    case 'assert':
      return `${node.kind}:${node.source}`;
    default:
      return node.kind;
  }
}

/**
 * An alternation anywhere in a repeated body with two branches of the same language
 * (`(?:x(?:a|a))*`): each iteration can match two ways, so a failing match tries 2^n of them.
 */
function duplicateBranches(node: RegexNode): boolean {
  switch (node.kind) {
    case 'group':
      return duplicateBranches(node.body);
    case 'repeat':
      return duplicateBranches(node.body);
    case 'seq':
      return node.items.some(duplicateBranches);
    case 'alt': {
      const shapes = flatBranches(node).map(shape);
      return new Set(shapes).size < shapes.length || node.branches.some(duplicateBranches);
    }
    default:
      return false;
  }
}

/** One step of a sequence, for `splitRun`: what one character there can be, and how often. */
type Unit =
  | {
      /** The characters it matches (none: something else, an assertion or a part too complex). */
      set: CharSet;
      /** It repeats without a useful bound (`*`, `+`, `{2,}`, `{0,50}`): it can take any share of a run. */
      loop: boolean;
      /** It can match nothing, so a run of text goes on past it. */
      nullable: boolean;
    }
  /** An optional copy of a repeated group: taken whole or not at all. */
  | { optional: Unit[] };

const NONE: CharSet = PROBES.map(() => false);

/** The one character a node matches (a char, a class, `.`), through groups; undefined otherwise. */
function oneChar(node: RegexNode): CharSet | undefined {
  let body = node;
  while (body.kind === 'group' || (body.kind === 'seq' && body.items.length === 1))
    body = body.kind === 'group' ? body.body : (body.items[0] as RegexNode);
  return charSet(body);
}

/** Where an unanchored search may start: anywhere. */
const ANY_START: Unit = { set: PROBES.map(() => true), loop: true, nullable: true };

/** Copies of a repeated group written out: enough to show three loops in a row. */
const UNROLLED = 16;
const UNROLLED_UNBOUNDED = 3;

/**
 * A sequence as units: plain groups opened, loops over one character kept as loops, other
 * repeats written out (`(?:.* ){3}` is `.*`, ` `, `.*`, ` `, `.*`, ` `; the copies past the
 * minimum optional).
 */
function unitsOf(items: readonly RegexNode[]): Unit[] {
  return items.flatMap((item): Unit[] => {
    if (item.kind === 'group') return unitsOf([item.body]);
    if (item.kind === 'seq') return unitsOf(item.items);
    if (item.kind === 'repeat') {
      const one = oneChar(item.body);
      if (one !== undefined && (item.max === Infinity || item.max > UNROLLED))
        return [{ set: one, loop: true, nullable: item.min === 0 }];
      const copies = Math.min(item.max, item.max === Infinity ? UNROLLED_UNBOUNDED : UNROLLED);
      const body = unitsOf([item.body]);
      return Array.from({ length: copies }, (_, i): Unit[] =>
        i < item.min ? body : [{ optional: body }],
      ).flat();
    }
    const set = item.kind === 'char' || item.kind === 'set' ? (charSet(item) ?? NONE) : NONE;
    return [{ set, loop: false, nullable: nullable(item) }];
  });
}

/** Characters that run long in real commands and output: letters and digits. */
const WORD = PROBES.map((probe) => /^[A-Za-z0-9]$/.test(probe));

/**
 * Loops that can share out one run of text between them (`.*.*X`, `\S+.*X`, `\s+.*\s+.*X`,
 * `(?:.* ){8}X`): a match that fails tries every way of splitting the run, so its time grows
 * with the run's length to the power of the loops: 1.5 s for `.*.*X` on a 2,000-character line,
 * a minute for `git (.* ){8}--force` on a 547-character `git add`, and minutes for
 * `git\s+.*\s+.*--force` on a line of spaces. For each character, the loops that can take it are
 * counted along a stretch whose every step can take it or match nothing. Refused: two such loops
 * side by side (nothing between them but what can match nothing) that share a letter or digit,
 * since words, paths and encoded blobs make long runs of them; three side by side that share
 * any character; three in one stretch split by that character (`.* .* .*`: each space is a
 * place to split). An unanchored search tries every start, which counts as one loop more at
 * the front: `.* .*X` (115 s on 6,000 characters of ` a`) is three. Two side by side that share
 * only spacing (`git\s+.*`) pass, as do two split by a character (`a.*b.*c`): runs of spaces
 * are short, and a split needs that character.
 */
function splitRun(items: readonly RegexNode[], unanchored = false): string | undefined {
  // An unanchored search tries every start: one more loop, over everything, before the first
  // item (counted with the loops of its stretch, though never side by side with them).
  const units: Unit[] = [...(unanchored ? [ANY_START] : []), ...unitsOf(items)];
  for (let c = 0; c < PROBES.length; c += 1) {
    const word = WORD[c] === true;
    const run = { loops: 0, adjacent: 0 };
    /** Walks `list` for character c; true as soon as the loops are too many. */
    const walk = (list: readonly Unit[]): boolean => {
      for (const unit of list) {
        if ('optional' in unit) {
          // taken only when every step of it can take c; a copy without loops is a step that
          // can be skipped
          const takeable = unit.optional.every((u) => 'optional' in u || u.nullable || u.set[c] === true);
          const loops = unit.optional.some((u) => 'optional' in u || u.loop);
          if (takeable && loops && walk(unit.optional)) return true;
          continue;
        }
        const takes = unit.set[c] === true;
        if (!takes && !unit.nullable) {
          run.loops = 0;
          run.adjacent = 0;
        } else if (unit === ANY_START) {
          run.loops += 1;
        } else if (unit.loop && takes) {
          run.loops += 1;
          run.adjacent += 1;
          if (run.loops >= 3 || run.adjacent >= 3 || (run.adjacent >= 2 && word)) return true;
        } else if (!unit.nullable) run.adjacent = 0;
      }
      return false;
    };
    if (walk(units)) return 'loops in a row can share out the same text between them';
  }
  return undefined;
}

const NESTED_HINT = 'Rewrite it without the nested repetition, e.g. (a+)+ -> a+, (\\w+\\s?)* -> [\\w\\s]*';
const SPLIT_HINT =
  'Keep one loop where two meet, and drop a leading .* (a search tries every start anyway): .*.* -> .*, \\S+.* -> \\S.*, .*\\s+--x -> \\s--x, git (.* ){8} -> git .*';

function describe(source: string, problem: string, hint = NESTED_HINT): string {
  return `the regular expression /${source}/ can backtrack catastrophically (${problem}); a hook would hang on some commands. ${hint}`;
}

/**
 * The first risk in `node`. `top`: a branch of the whole pattern, where an unanchored search
 * tries every start (one loop more, before its first item, unless it opens with `^`).
 */
function check(node: RegexNode, source: string, top = false): string | undefined {
  switch (node.kind) {
    case 'group':
      return check(node.body, source);
    case 'alt':
      for (const branch of node.branches) {
        const found = check(branch, source, top);
        if (found) return found;
      }
      return undefined;
    case 'seq': {
      for (const item of node.items) {
        const found = check(item, source);
        if (found) return found;
      }
      const first = node.items[0];
      const anchored = first?.kind === 'assert' && first.source === '^';
      const split = splitRun(node.items, top && !anchored);
      return split ? describe(source, split, SPLIT_HINT) : undefined;
    }
    case 'repeat': {
      if (node.max === Infinity || node.max > 16) {
        if (nullable(node.body)) return describe(source, 'a repeated part can match the empty string');
        if (overlaps(tailLoopSets(node.body), firstSets(node.body)))
          return describe(source, 'nested quantifiers: an inner repetition can run into the next outer one');
        const alt = leadingAlternation(node.body);
        if ((alt && ambiguousBranches(alt)) || duplicateBranches(node.body))
          return describe(source, 'alternatives under a repetition can match the same text');
      }
      return check(node.body, source);
    }
    default:
      return undefined;
  }
}

/**
 * Why `source` is unsafe to run on untrusted input, or undefined when it is fine. `flags` as it
 * runs: with `i`, characters and classes overlap as they match (`K|k` is ambiguous).
 */
export function findBacktrackingRisk(source: string, flags = ''): string | undefined {
  const node = parseRegex(source);
  if (node === undefined) return undefined;
  ignoreCase = flags.includes('i');
  try {
    return check(node, source, true);
  } finally {
    ignoreCase = false;
  }
}

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

/** The one character set an unbounded loop repeats (`\s+`, `.*`, `[^/]{2,}`), if it is one. */
function loopSet(node: RegexNode): CharSet | undefined {
  if (node.kind !== 'repeat' || !(node.max === Infinity || node.max > 16)) return undefined;
  let body = node.body;
  while (body.kind === 'group' || (body.kind === 'seq' && body.items.length === 1))
    body = body.kind === 'group' ? body.body : (body.items[0] as RegexNode);
  return charSet(body);
}

/** A sequence's items with plain groups opened: `(?:\s+.*)\s+` is `\s+`, `.*`, `\s+`. */
function openItems(items: readonly RegexNode[]): RegexNode[] {
  return items.flatMap((item) => {
    if (item.kind === 'group') return openItems([item.body]);
    if (item.kind === 'seq') return openItems(item.items);
    return [item];
  });
}

/** Characters that run long in real commands and output: letters and digits. */
const WORD = PROBES.map((probe) => /^[A-Za-z0-9]$/.test(probe));

/**
 * Loops in a row that can share out one run of text (`.*.*X`, `\S+.*X`, `\s+.*\s+.*X`): a match
 * that fails tries every way of splitting the run between them, so its time grows with the run's
 * length to the power of the loops (times the start positions): 1.5 s for `.*.*X` on a 2,000
 * character line, and minutes for `git\s+.*\s+.*--force` on a line of spaces. Refused: two such
 * loops that share a letter or digit (words, paths and encoded blobs make long runs of them), or
 * three that share any character. Two that share only spacing (`\s+.*`) pass: runs of spaces
 * are short.
 */
function splitRun(items: readonly RegexNode[]): string | undefined {
  let run: CharSet[] = [];
  const judge = (): string | undefined => {
    for (let i = 0; i < run.length; i += 1) {
      let shared = run[i] as CharSet;
      for (let j = i + 1; j < run.length; j += 1) {
        shared = shared.map((hit, k) => hit && (run[j] as CharSet)[k] === true);
        if (!shared.includes(true)) break;
        if (j - i >= 2 || shared.some((hit, k) => hit && WORD[k] === true))
          return 'loops in a row can share out the same text between them';
      }
    }
    return undefined;
  };
  for (const item of openItems(items)) {
    const set = loopSet(item);
    if (set !== undefined) run.push(set);
    else if (!nullable(item)) {
      const found = judge();
      if (found) return found;
      run = [];
    }
  }
  return judge();
}

const NESTED_HINT = 'Rewrite it without the nested repetition, e.g. (a+)+ -> a+, (\\w+\\s?)* -> [\\w\\s]*';
const SPLIT_HINT = 'Keep one loop where two meet, e.g. .*.* -> .*, \\S+.* -> \\S.*, \\s+.*\\s+ -> \\s.*\\s';

function describe(source: string, problem: string, hint = NESTED_HINT): string {
  return `the regular expression /${source}/ can backtrack catastrophically (${problem}); a hook would hang on some commands. ${hint}`;
}

function check(node: RegexNode, source: string): string | undefined {
  switch (node.kind) {
    case 'group':
      return check(node.body, source);
    case 'alt':
      for (const branch of node.branches) {
        const found = check(branch, source);
        if (found) return found;
      }
      return undefined;
    case 'seq': {
      const split = splitRun(node.items);
      if (split) return describe(source, split, SPLIT_HINT);
      for (const item of node.items) {
        const found = check(item, source);
        if (found) return found;
      }
      return undefined;
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
    return check(node, source);
  } finally {
    ignoreCase = false;
  }
}

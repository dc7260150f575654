/**
 * The literals a regular expression requires: a list of strings such that every string the
 * pattern matches (anywhere, unanchored) contains at least one of them. The hook manifest files a
 * lesson under these, so a hook call compiles only the regexes whose literals occur in its input.
 * An empty list means "no usable literal": the lesson must be checked on every call.
 */
import { parseRegex } from './regex-ast.js';
import type { RegexNode } from './regex-ast.js';

type Requirement = string[] | undefined;

/** The one string a node always matches, when there is exactly one. */
function exactString(node: RegexNode): string | undefined {
  switch (node.kind) {
    case 'char':
      return node.value;
    case 'group':
      return exactString(node.body);
    case 'seq': {
      let out = '';
      for (const item of node.items) {
        const part = exactString(item);
        if (part === undefined) return undefined;
        out += part;
      }
      return out;
    }
    case 'repeat': {
      if (node.min !== node.max || node.min > 64) return undefined;
      const part = exactString(node.body);
      return part === undefined ? undefined : part.repeat(node.min);
    }
    default:
      return undefined;
  }
}

/** Higher is more selective: the shortest alternative's length, less a little per alternative. */
function selectivity(requirement: string[]): number {
  return Math.min(...requirement.map((s) => s.length)) - requirement.length * 0.01;
}

function better(a: Requirement, b: Requirement): Requirement {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return selectivity(b) > selectivity(a) ? b : a;
}

function requirement(node: RegexNode): Requirement {
  switch (node.kind) {
    case 'char':
      return [node.value];
    case 'group':
      return requirement(node.body);
    case 'repeat':
      return node.min >= 1 ? requirement(node.body) : undefined;
    case 'alt': {
      const out = new Set<string>();
      for (const branch of node.branches) {
        const req = requirement(branch);
        if (req === undefined) return undefined;
        for (const literal of req) out.add(literal);
      }
      return [...out];
    }
    case 'seq': {
      let best: Requirement;
      let run = '';
      const flush = () => {
        if (run !== '') best = better(best, [run]);
        run = '';
      };
      for (const item of node.items) {
        const exact = exactString(item);
        if (exact !== undefined) {
          run += exact;
          continue;
        }
        flush();
        best = better(best, requirement(item));
      }
      flush();
      return best;
    }
    default:
      return undefined;
  }
}

/** Any-of literals for `source`; [] when none is certain (or the pattern is not understood). */
export function requiredRegexLiterals(source: string): string[] {
  const node = parseRegex(source);
  if (node === undefined) return [];
  const req = requirement(node);
  if (req === undefined || req.some((literal) => literal === '')) return [];
  return [...new Set(req)].sort();
}

/**
 * Marks a literal every match starts with (`^npm\s` gives `\u0002npm`): the pattern tested on a
 * whole command matches only commands that start with it.
 */
export const ANCHOR = '\u0002';

/**
 * Clauses in conjunction: every match contains, for each clause, at least one of its strings.
 * `top`: `node` is the whole pattern, so a `^` that opens it anchors the first run of characters.
 */
function clauses(node: RegexNode, top = false): string[][] {
  switch (node.kind) {
    case 'char':
      return [[node.value]];
    case 'group':
      return clauses(node.body);
    case 'repeat':
      return node.min >= 1 ? clauses(node.body) : [];
    case 'alt': {
      const req = requirement(node);
      return req === undefined ? [] : [req];
    }
    case 'seq': {
      const out: string[][] = [];
      const first = node.items[0];
      let anchored = top && first?.kind === 'assert' && first.source === '^';
      let run = '';
      const flush = () => {
        // a run holding the manifest's separators (control characters) is left out
        if (run !== '' && ![...run].some((c) => c.charCodeAt(0) <= 4)) {
          out.push([anchored ? `${ANCHOR}${run}` : run]);
        }
        anchored = false;
        run = '';
      };
      node.items.forEach((item, i) => {
        if (anchored && i === 0) return;
        const exact = exactString(item);
        if (exact !== undefined) {
          run += exact;
          return;
        }
        flush();
        out.push(...clauses(item));
      });
      flush();
      return out;
    }
    default:
      return [];
  }
}

/**
 * Every requirement of `source`, most selective first and at most `max` of them: clauses in
 * conjunction, each a list of strings of which every match contains at least one.
 * `terraform\s+(apply|destroy)` gives `[["terraform"], ["apply", "destroy"]]`. Short clauses
 * (a single `/`) narrow a conjunction but select nothing alone: [] (no usable requirement) unless
 * the most selective clause has strings at least `minLength` long.
 */
export function requiredRegexClauses(source: string, minLength = 2, max = 4): string[][] {
  const node = parseRegex(source);
  if (node === undefined) return [];
  const seen = new Set<string>();
  const out: string[][] = [];
  for (const clause of clauses(node, true)) {
    const literals = [...new Set(clause)].sort();
    if (literals.length === 0 || literals.some((literal) => literal === '')) continue;
    const key = literals.join('\u0000');
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(literals);
  }
  out.sort((a, b) => selectivity(b) - selectivity(a));
  const best = out[0];
  if (best === undefined || best.some((literal) => literal.replace(ANCHOR, '').length < minLength)) return [];
  return out.slice(0, max);
}

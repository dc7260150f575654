/**
 * The keys the manifest files tool-call lessons under (`ManifestHead.literals`), and the test a
 * hook call runs on them. A key names a tool scope, a domain and a conjunction of literals:
 *
 *   <scope>|<domain><literal>[\u0001<literal>]...
 *
 * - scope: `*` (any tool) or the lesson's tools, normalized and sorted, joined by `,`;
 * - domain: `c` for literals of command regexes and `tool:` tags, looked for in the command (and
 *   a prompt), `p` for literals of path globs and `lang:` tags, looked for in the repo-relative
 *   paths (and a prompt);
 * - literals: every one of them must occur for the key to select its lessons; one that opens with
 *   `\u0002` (from a `^` that opens the regex) must open a tool call's command.
 *
 * A lesson is a candidate when any of its keys is satisfied, so `terraform\s+apply` files its
 * lesson under `bash|cterraform\u0001apply`, which `terraform plan` does not satisfy, and a path
 * lesson for `src/**` is not read for a Bash command that mentions `src`.
 */
import { normalizeTool } from './tool-names.js';

export type LiteralDomain = 'c' | 'p';

const SCOPE_END = '|';
const AND = '\u0001';

/** The scope of a lesson's tools: `*` when any tool will do (no tools, or a wildcard). */
export function toolScope(tools: readonly string[]): string {
  if (tools.length === 0) return '*';
  const names = new Set<string>();
  for (const tool of tools) {
    const name = normalizeTool(tool);
    if (name === '' || /[*|,]/.test(name)) return '*';
    names.add(name);
  }
  return [...names].sort().join(',');
}

export function literalKey(scope: string, domain: LiteralDomain, literals: readonly string[]): string {
  return `${scope}${SCOPE_END}${domain}${literals.join(AND)}`;
}

/**
 * Clauses in conjunction (each a list of alternatives) as conjunctions to file under: one per
 * choice of an alternative from each clause. Past `max` conjunctions the least selective clauses
 * (the last ones) are dropped, which only widens what selects the lesson.
 */
export function expandClauses(clauses: readonly (readonly string[])[], max = 16): string[][] {
  let kept = clauses.filter((clause) => clause.length > 0);
  const count = (list: readonly (readonly string[])[]) => list.reduce((n, clause) => n * clause.length, 1);
  while (kept.length > 1 && count(kept) > max) kept = kept.slice(0, -1);
  if (kept.length === 0 || count(kept) > max) return [];
  let out: string[][] = [[]];
  for (const clause of kept) out = out.flatMap((prefix) => clause.map((literal) => [...prefix, literal]));
  return out.map((conjunction) => [...new Set(conjunction)].sort());
}

export type LiteralTexts = {
  /** The command, and a prompt's text. */
  command: string;
  /** The repo-relative paths, and a prompt's text. */
  paths: string;
  /** The normalized tool of a tool call; undefined admits every scope (prompts, session events). */
  tool?: string;
  /** True on a tool call without a tool name: only `*` scopes apply. */
  toolCall: boolean;
  /**
   * `command` is one shell command (no prompt): a literal its regex anchors (`\u0002npm` from
   * `^npm`) must open it. Otherwise anchored literals are looked for anywhere.
   */
  anchored?: boolean;
};

/** Whether a key of the given scope applies to this event. */
function scopeAdmits(scope: string, texts: LiteralTexts): boolean {
  if (scope === '*' || !texts.toolCall) return true;
  if (texts.tool === undefined) return false;
  return scope === texts.tool || scope.split(',').includes(texts.tool);
}

/** Calls `found` with the postings of every satisfied key of `table`. */
export function satisfiedKeys(
  table: Readonly<Record<string, string>>,
  texts: LiteralTexts,
  found: (postings: string) => void,
): void {
  const scopes = new Map<string, boolean>();
  for (const key in table) {
    const end = key.indexOf(SCOPE_END);
    if (end < 0) continue;
    const scope = key.slice(0, end);
    let admits = scopes.get(scope);
    if (admits === undefined) {
      admits = scopeAdmits(scope, texts);
      scopes.set(scope, admits);
    }
    if (!admits) continue;
    const haystack = key.charCodeAt(end + 1) === 0x70 /* p */ ? texts.paths : texts.command;
    let start = end + 2;
    let all = true;
    for (;;) {
      const stop = key.indexOf(AND, start);
      const literal = stop < 0 ? key.slice(start) : key.slice(start, stop);
      const found =
        literal.charCodeAt(0) !== 2
          ? haystack.includes(literal)
          : texts.anchored === true
            ? haystack.startsWith(literal.slice(1))
            : haystack.includes(literal.slice(1));
      if (!found) {
        all = false;
        break;
      }
      if (stop < 0) break;
      start = stop + 1;
    }
    if (all) found(table[key] as string);
  }
}

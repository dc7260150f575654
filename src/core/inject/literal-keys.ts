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
 *
 * On disk (`ManifestHead.literals`) the keys are grouped by scope, each scope one string of
 * entries `<domain><literals>\u0003<postings>` joined by `\u0004`: the hook parses a handful of
 * strings instead of an object of thousands of keys, and skips the scopes a tool call rules out.
 */
import { normalizeTool } from './tool-names.js';

export type LiteralDomain = 'c' | 'p';

export const LITERAL_DOMAINS: readonly LiteralDomain[] = ['c', 'p'];

/** Opens a literal its regex anchors at the start (`^npm`): see regex-literals.ts. */
export const ANCHOR_MARK = '\u0002';

const SCOPE_END = '|';
const AND = '\u0001';
const POSTINGS = '\u0003';
const ENTRY_END = '\u0004';

/**
 * Whether a literal holds a separator of the packed table (it cannot be filed). `|` may: scopes
 * never hold one, so a key's first `|` ends its scope.
 */
export function reservedIn(literal: string): boolean {
  return [AND, POSTINGS, ENTRY_END].some((separator) => literal.includes(separator));
}

/** Literal keys grouped by scope: scope -> its entries, packed (see the top of this file). */
export type LiteralTable = Record<string, string>;

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

/**
 * Finds the satisfied keys of a literal index for an event's texts, calling `found` with the
 * postings of each (in no particular order). The manifest in memory scans its table
 * (`tableLookup`); the hook probes the index files (src/store/hook-state/literal-index.ts).
 */
export type LiteralLookup = (texts: LiteralTexts, found: (postings: string) => void) => void;

/** The lookup over a packed table: every key of every admitted scope is tested. */
export function tableLookup(table: Readonly<LiteralTable>): LiteralLookup {
  return (texts, found) => satisfiedKeys(table, texts, found);
}

/** The text a key of the domain is looked for in. */
export function haystackOf(domain: LiteralDomain, texts: LiteralTexts): string {
  return domain === 'p' ? texts.paths : texts.command;
}

/** Whether a key of the given scope applies to this event. */
export function scopeAdmits(scope: string, texts: LiteralTexts): boolean {
  if (scope === '*' || !texts.toolCall) return true;
  if (texts.tool === undefined) return false;
  return scope === texts.tool || scope.split(',').includes(texts.tool);
}

/** key -> postings, as a packed table by scope. */
export function packLiteralTable(postings: ReadonlyMap<string, string>): LiteralTable {
  const scopes = new Map<string, string[]>();
  for (const key of [...postings.keys()].sort()) {
    const end = key.indexOf(SCOPE_END);
    if (end < 0) continue;
    const scope = key.slice(0, end);
    const entry = `${key.slice(end + 1)}${POSTINGS}${postings.get(key) ?? ''}`;
    const list = scopes.get(scope);
    if (list === undefined) scopes.set(scope, [entry]);
    else list.push(entry);
  }
  const table: LiteralTable = {};
  for (const scope of [...scopes.keys()].sort()) table[scope] = (scopes.get(scope) ?? []).join(ENTRY_END);
  return table;
}

/** A packed table back to key -> postings. */
export function unpackLiteralTable(table: Readonly<LiteralTable>): Map<string, string> {
  const out = new Map<string, string>();
  for (const scope in table) {
    for (const entry of (table[scope] ?? '').split(ENTRY_END)) {
      const mid = entry.indexOf(POSTINGS);
      if (mid > 0) out.set(`${scope}${SCOPE_END}${entry.slice(0, mid)}`, entry.slice(mid + 1));
    }
  }
  return out;
}

/** One key of a table: its scope, domain, literals (joined by \u0001) and postings. */
export type LiteralEntry = { scope: string; domain: LiteralDomain; part: string; postings: string };

/** Every key of a packed table, in table order. */
export function literalEntries(table: Readonly<LiteralTable>): LiteralEntry[] {
  const out: LiteralEntry[] = [];
  for (const [key, postings] of unpackLiteralTable(table)) {
    const end = key.indexOf(SCOPE_END);
    const domain = key.charAt(end + 1);
    if (domain !== 'c' && domain !== 'p') continue;
    out.push({ scope: key.slice(0, end), domain, part: key.slice(end + 2), postings });
  }
  return out;
}

/** The packed table of some entries (`literalEntries` undone). */
export function entriesTable(entries: readonly LiteralEntry[]): LiteralTable {
  return packLiteralTable(
    new Map(entries.map((e) => [`${e.scope}${SCOPE_END}${e.domain}${e.part}`, e.postings] as const)),
  );
}

/** Calls `found` with the postings of every satisfied key of `table`. */
export function satisfiedKeys(
  table: Readonly<LiteralTable>,
  texts: LiteralTexts,
  found: (postings: string) => void,
): void {
  for (const scope in table) {
    if (!scopeAdmits(scope, texts)) continue;
    const packed = table[scope];
    if (typeof packed !== 'string') continue;
    let at = 0;
    while (at < packed.length) {
      let stop = packed.indexOf(ENTRY_END, at);
      if (stop < 0) stop = packed.length;
      const mid = packed.indexOf(POSTINGS, at);
      if (mid > at && mid < stop && satisfied(packed, at, mid, texts)) found(packed.slice(mid + 1, stop));
      at = stop + 1;
    }
  }
}

/** Whether the literals of the entry at `packed[from, to)` (domain first) all occur. */
function satisfied(packed: string, from: number, to: number, texts: LiteralTexts): boolean {
  const haystack = packed.charCodeAt(from) === 0x70 /* p */ ? texts.paths : texts.command;
  return literalsOccur(packed, from + 1, to, haystack, texts.anchored === true);
}

/**
 * Whether every literal of `packed[from, to)` (literals joined by \u0001) occurs in `haystack`; an
 * anchored one (\u0002 first) must open it when `anchored` (the haystack is one shell command).
 * An empty literal never occurs (the manifest files none: it would select every call).
 */
export function literalsOccur(
  packed: string,
  from: number,
  to: number,
  haystack: string,
  anchored: boolean,
): boolean {
  let start = from;
  for (;;) {
    let stop = packed.indexOf(AND, start);
    if (stop < 0 || stop > to) stop = to;
    const opens = packed.charCodeAt(start) === 2;
    const literal = packed.slice(opens ? start + 1 : start, stop);
    const found =
      literal !== '' && (opens && anchored ? haystack.startsWith(literal) : haystack.includes(literal));
    if (!found) return false;
    if (stop === to) return true;
    start = stop + 1;
  }
}

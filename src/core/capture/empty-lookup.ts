/**
 * A lookup that printed nothing, then the same lookup asked narrower printed what was looked for
 * (`pacman -Ss hunspell aspell sonnet` found nothing, since pacman wants every term to match;
 * `pacman -Ss hunspell && pacman -Ss aspell` found both): the first one was asked wrong, though it
 * reported success. The second must ask the same program about no word the first did not give it,
 * so a search for something else (a refined pattern, another folder) is a new question, not a fix.
 */
import { commandOf } from './call-target.js';
import { isShellTool } from './classify-result.js';
import type { ToolCall, ToolResult } from './events.js';
import { segmentKey, segments, stripQuotes } from './shell-command.js';

/** Programs that narrow or count what a lookup printed: a pipe into them still only looks. */
const FILTERS = new Set([
  'grep',
  'egrep',
  'head',
  'tail',
  'sort',
  'uniq',
  'wc',
  'cut',
  'awk',
  'tr',
  'column',
]);

/** Lookups whose empty answer can be a question asked wrong: package and file searches. */
const SEARCHERS: Readonly<Record<string, RegExp>> = {
  pacman: /^-(Ss|Qs|Si|Qi|Ql|Qo)$/,
  yay: /^-(Ss|Qs)$/,
  paru: /^-(Ss|Qs)$/,
  apt: /^(search|list|show)$/,
  'apt-cache': /^(search|show|policy)$/,
  dnf: /^(search|list|info)$/,
  brew: /^(search|list|info)$/,
  winget: /^(search|list|show)$/,
  choco: /^(search|list|find)$/,
  opkg: /^(list|list-installed|find|info)$/,
  npm: /^(search|ls|list|view)$/,
  pip: /^(list|show)$/,
  flatpak: /^(search|list)$/,
  snap: /^(find|list)$/,
};

/** What a result says when the command printed nothing (Gemini CLI writes `Output: (empty)`). */
export function printedNothing(result: ToolResult): boolean {
  const text = result.text.trim();
  return text === '' || /^Output: \(empty\)$/m.test(text);
}

/** Any searcher's name in a command: most commands name none and are not split at all. */
const NAMES_A_SEARCHER = new RegExp(`\\b(${Object.keys(SEARCHERS).join('|')})\\b`);

/** The program and its words (flags aside) of each search a command runs, when it only searches. */
function searches(call: ToolCall): { program: string; words: string[] }[] | undefined {
  const command = isShellTool(call.tool) ? commandOf(call) : undefined;
  if (command === undefined || !NAMES_A_SEARCHER.test(command)) return undefined;
  const out: { program: string; words: string[] }[] = [];
  for (const segment of segments(command)) {
    // Filters and lookups have no command key: their first word is the program.
    const program = segmentKey(segment)?.[0] ?? stripQuotes(segment[0] ?? '');
    if (FILTERS.has(program)) continue;
    const form = SEARCHERS[program];
    const rest = segment.slice(segment.indexOf(program) + 1).map((word) => stripQuotes(word));
    if (form === undefined || !form.test(rest[0] ?? '')) return undefined;
    out.push({ program, words: rest.slice(1).filter((word) => !word.startsWith('-') && word.length >= 2) });
  }
  return out.length > 0 ? out : undefined;
}

/**
 * Whether `later` asks again what `empty` (a search that printed nothing) asked, narrower: the same
 * program, at least one of the same words and none it was not given, another command.
 */
export function askedNarrower(empty: ToolCall, later: ToolCall): boolean {
  const before = searches(empty);
  const after = searches(later);
  if (before === undefined || after === undefined || commandOf(empty) === commandOf(later)) return false;
  const given = new Set(before.flatMap((search) => search.words));
  const programs = new Set(before.map((search) => search.program));
  const asked = after.filter((search) => programs.has(search.program)).flatMap((search) => search.words);
  return (
    asked.length > 0 && asked.every((word) => given.has(word)) && after.every((s) => programs.has(s.program))
  );
}

/** Whether a call is a search whose empty answer a narrower one may show to be wrong. */
export function isSearch(call: ToolCall): boolean {
  return searches(call) !== undefined;
}

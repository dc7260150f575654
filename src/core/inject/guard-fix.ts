/**
 * A guard that blocks its own fix. A guard denies every call its commands match and tells the
 * agent to run the corrected command; when the corrected command matches too (`git stash( |$)`
 * denying `git stash -u`, the fix the lesson names), the agent is denied again and again and
 * cannot follow the lesson at all.
 *
 * The fix is what the lesson writes in backticks: in its remediation (or COIA action), and the
 * first span of a summary that starts with "Run" or "Use" (capture's advice shape, "Run `X` here:
 * ..."). Only the spans the guard's own commands match are kept, at manifest build: a span the
 * guard does not match is never denied, and a span that is only part of the bad command (`git
 * push` for a guard on `git push --force`) is not matched by the guard, so it can never let the
 * bad command through.
 *
 * The hook then lets a call through when every part of it (split at `&&`, `||`, `;`, `|`, `&` and
 * line ends) that a guard's command matches is one of those fixes, word for word (runs of spaces
 * aside). Exactly the fix, not the fix with more arguments: `rm -rf build/cache/old build` starts
 * with a fix `rm -rf build/cache/old` and deletes what the guard is there for. Pure.
 */
import { cachedRegex } from '../match/cached-regex.js';

/** Longest span taken as a command: past that it is prose or code, not a command line. */
const SPAN_MAX = 200;
const SPAN = /`([^`\n]+)`/g;
const LEADS_WITH_FIX = /^\s*(?:run|use)\b/i;
const SEPARATORS = /&&|\|\||[;|&\n]/;

const squeeze = (text: string) => text.trim().replace(/\s+/g, ' ');

function spans(text: string | undefined): string[] {
  if (text === undefined) return [];
  return [...text.matchAll(SPAN)]
    .map((m) => squeeze(m[1] ?? ''))
    .filter((s) => s !== '' && s.length <= SPAN_MAX);
}

export type FixSource = {
  summary: string;
  remediation?: string;
  action?: string;
  commands: readonly string[];
};

/** The commands the lesson names as its fix that its own command regexes match (deduplicated). */
export function blockedFixes(lesson: FixSource): string[] {
  if (lesson.commands.length === 0) return [];
  const named = [...spans(lesson.remediation), ...spans(lesson.action)];
  if (LEADS_WITH_FIX.test(lesson.summary)) named.push(...spans(lesson.summary).slice(0, 1));
  const regexes = lesson.commands.map((source) => cachedRegex(source)).filter((r) => r !== null);
  return [...new Set(named)].filter((fix) => regexes.some((regex) => regex.test(fix)));
}

function isFix(part: string, fixes: readonly string[]): boolean {
  return fixes.includes(part);
}

/**
 * Whether `command` follows the guard's fix: each part of it that one of `commands` matches is a
 * fix. A command none of whose parts matches on its own (a regex spanning two parts) follows the
 * fix only when it is one, whole.
 */
export function followsFix(command: string, commands: readonly string[], fixes: readonly string[]): boolean {
  if (fixes.length === 0) return false;
  const regexes = commands.map((source) => cachedRegex(source)).filter((r) => r !== null);
  const parts = command
    .split(SEPARATORS)
    .map(squeeze)
    .filter((part) => part !== '');
  const matching = parts.filter((part) => regexes.some((regex) => regex.test(part)));
  if (matching.length === 0) return isFix(squeeze(command), fixes);
  return matching.every((part) => isFix(part, fixes));
}

/**
 * How the CLI shows the breadth check (core/breadth/check-breadth.ts): the `--force` flag, the
 * line printed after a lesson is written, and the sentence of `--help`.
 */
import type { OptionSpec } from './command.js';
import type { Breadth } from '../core/breadth/check-breadth.js';
import { blockedFixes } from '../core/inject/guard-fix.js';
import type { Lesson } from '../core/lesson/schema.js';

export const FORCE_OPTION: OptionSpec = {
  type: 'boolean',
  description: 'save a trigger the breadth check finds too broad (the figures are still printed)',
};

export const BREADTH_DESCRIPTION =
  'The breadth check counts the calls the trigger would have fired on among the recent ones `lore scan`\n' +
  'cached: more than 1% of them with fewer than a third at its mistake is too broad, and is saved only with --force.';

/** One line for after the write: the figures, and what overrode the check (`--force`). */
/**
 * What a guard with commands lets through (guard-fix.ts), or how to check that it does not deny
 * its own fix; nothing for any other lesson.
 */
export function guardFixLine(lesson: Lesson): string[] {
  if (lesson.type !== 'guard' || lesson.commands.length === 0) return [];
  const fixes = blockedFixes(lesson);
  if (fixes.length > 0)
    return [
      `guard: denies every call its commands match but its fix, let through: ${fixes.map((f) => `\`${f}\``).join(', ')}`,
    ];
  return [
    'guard: denies every call its commands match; if the corrected command is one of them, name it in backticks in --remediation to let it through (check: lore explain --tool Bash --command "FIX")',
  ];
}

export function breadthLine(breadth: Breadth, forcedBy = 'because of --force'): string {
  if (breadth.noCache) return breadth.message;
  return `breadth: ${breadth.message}${breadth.broad ? `; broad, saved ${forcedBy}` : ''}`;
}

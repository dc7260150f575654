/**
 * How the CLI shows the breadth check (core/breadth/check-breadth.ts): the `--force` flag, the
 * line printed after a lesson is written, and the sentence of `--help`.
 */
import type { OptionSpec } from './command.js';
import type { Breadth } from '../core/breadth/check-breadth.js';

export const FORCE_OPTION: OptionSpec = {
  type: 'boolean',
  description: 'save a trigger the breadth check finds too broad (the figures are still printed)',
};

export const BREADTH_DESCRIPTION =
  'The breadth check counts the calls the trigger would have fired on among the recent ones `lore scan`\n' +
  'cached: more than 1% of them with fewer than a third at its mistake is too broad, and is saved only with --force.';

/** One line for after the write: the figures, and what overrode the check (`--force`). */
export function breadthLine(breadth: Breadth, forcedBy = 'because of --force'): string {
  if (breadth.noCache) return breadth.message;
  return `breadth: ${breadth.message}${breadth.broad ? `; broad, saved ${forcedBy}` : ''}`;
}

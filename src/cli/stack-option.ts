/**
 * `--operation OP` and `--stack auto|S,...`, shared by `lore relevant` and `lore list`: the
 * operation's categories (src/core/rank/operation-categories.ts) and the repository's stack
 * (detected from its manifest files, as the hook does, or given).
 */
import { LoreError } from '../core/errors.js';
import { OPERATIONS, isOperation } from '../core/rank/operation-categories.js';
import type { Operation } from '../core/rank/operation-categories.js';
import { listOption, stringOption } from './command.js';
import type { OptionSpec, ParsedArgs } from './command.js';
import { readStack } from '../store/workspace/read-stack.js';

export const OPERATION_OPTION: OptionSpec = {
  type: 'string',
  value: 'OP',
  description: `only the categories that matter for OP: ${OPERATIONS.join(' | ')}`,
};

export const STACK_OPTION: OptionSpec = {
  type: 'string',
  multiple: true,
  value: 'auto|S',
  description:
    "user-tier lessons only when their stack overlaps the repository's: auto (detected from its manifest files) or a list (python,react)",
};

export function operationOption(args: ParsedArgs): Operation | undefined {
  const raw = stringOption(args, 'operation');
  if (raw === undefined) return undefined;
  if (!isOperation(raw)) {
    throw new LoreError('usage', `--operation must be one of ${OPERATIONS.join(', ')}; got "${raw}"`);
  }
  return raw;
}

/** The stack to filter by: undefined when no --stack was given and `fallback` is 'none'. */
export function stackOption(
  args: ParsedArgs,
  projectRoot: string | undefined,
  fallback: 'auto' | 'none',
): { stack: string[]; source: 'detected' | 'given' } | undefined {
  const given = (listOption(args, 'stack') ?? [])
    .flatMap((value) => value.split(','))
    .map((value) => value.trim().toLowerCase())
    .filter((value) => value !== '');
  if (given.length === 0 && fallback === 'none') return undefined;
  if (given.length === 0 || (given.length === 1 && given[0] === 'auto')) {
    return { stack: readStack(projectRoot ?? null), source: 'detected' };
  }
  if (given.includes('auto'))
    throw new LoreError('usage', '--stack auto cannot be combined with stack names');
  return { stack: [...new Set(given)].sort(), source: 'given' };
}

/**
 * What `lore add` and candidate approval say about near-duplicates already in the store: one line
 * each, on stderr, and the suggestion to upvote the existing lesson instead of keeping two.
 */
import { LoreError } from '../core/errors.js';
import type { DuplicateMatch } from '../store/curate/find-duplicates.js';
import type { CommandContext, OptionSpec } from './command.js';
import { truncate } from './output.js';

export const NO_DUPLICATE_OPTION: OptionSpec = {
  type: 'boolean',
  description:
    'refuse (exit 1, nothing written) when a near-duplicate exists; default: add anyway and name them',
};

export function noteDuplicates(ctx: CommandContext, duplicates: readonly DuplicateMatch[]): void {
  if (duplicates.length === 0 || ctx.json) return;
  ctx.note(`lore: ${duplicates.length} similar lesson(s) already in the store:`);
  for (const match of duplicates) {
    ctx.note(
      `  ${match.id}  ${match.tier.padEnd(7)}  ${match.score.toFixed(2)}  ${truncate(match.summary, 100)}`,
    );
  }
  const first = duplicates[0]?.id ?? 'ID';
  ctx.note(`if it says the same, upvote it instead: lore upvote ${first} --model M --task T`);
  ctx.note('(then retire the new one: lore archive NEW_ID; lore dedupe lists every duplicate)');
}

export function refuseDuplicates(duplicates: readonly DuplicateMatch[]): never {
  const first = duplicates[0]?.id ?? 'ID';
  throw new LoreError(
    'conflict',
    `not added: ${duplicates.length} similar lesson(s) already exist (${duplicates.map((d) => `${d.id} ${d.score.toFixed(2)}`).join(', ')})`,
    {
      hint: `upvote the existing one instead: lore upvote ${first} --model M --task T\nor add it anyway without --no-duplicate`,
      details: duplicates,
    },
  );
}

/**
 * The half-life of votes a workspace ranks with: `LORE_VOTE_HALF_LIFE_DAYS` over the config's
 * `votes.halfLifeDays`. The workspace and the background manifest rebuilder both read it here,
 * so an invalid value is refused by both, never read leniently by one.
 */
import { LoreError } from '../../core/errors.js';
import type { Config } from '../../core/lesson/schema.js';

export function voteHalfLifeDays(env: NodeJS.ProcessEnv, config: Config): number {
  const value = env.LORE_VOTE_HALF_LIFE_DAYS;
  if (value === undefined || value.trim() === '') return config.votes.halfLifeDays;
  const days = Number(value);
  if (!Number.isFinite(days) || days < 0) {
    throw new LoreError('usage', `LORE_VOTE_HALF_LIFE_DAYS must be a number of days >= 0, got "${value}"`);
  }
  return days;
}

/**
 * The breadth check as the surfaces run it: read this workspace's call cache once, check a
 * lesson draft (or many, for `lore import`) against it, and refuse a too-broad trigger unless
 * forced. Each surface prints the figures its own way.
 */
import { LoreError } from '../../core/errors.js';
import { createBreadthCheck, touchesTrigger, updatedTrigger } from '../../core/breadth/check-breadth.js';
import { resolveLesson } from '../lessons/lesson-writes.js';
import type { Breadth, BreadthTrigger } from '../../core/breadth/check-breadth.js';
import type { Tier } from '../../core/lesson/schema.js';
import type { Workspace } from '../workspace/workspace.js';
import { callCachePath, readCallCache } from './call-cache.js';

export type BreadthChecker = (trigger: BreadthTrigger) => Breadth;

/** A checker over this workspace's call cache, read once. */
export function openBreadthChecker(ws: Pick<Workspace, 'cacheDir'>): BreadthChecker {
  const cache = readCallCache(callCachePath(ws.cacheDir));
  return cache.status === 'ok'
    ? createBreadthCheck(cache.calls)
    : createBreadthCheck(undefined, cache.status);
}

/** The check of one draft; a too-broad one throws unless `force` (the error carries the figures). */
export function requireNarrowTrigger(
  ws: Pick<Workspace, 'cacheDir'>,
  trigger: BreadthTrigger,
  force: boolean,
  retry: string,
): Breadth {
  const breadth = openBreadthChecker(ws)(trigger);
  if (breadth.broad && !force) throw tooBroadError(breadth, retry);
  return breadth;
}

/**
 * The check of an update: nothing when it leaves the trigger as it was (the lesson is not even
 * read); else the trigger it will have, refused when too broad unless `force`.
 */
export async function requireNarrowUpdate(
  ws: Workspace,
  ref: string,
  update: { draft: Parameters<typeof touchesTrigger>[0]; unset: readonly string[] },
  force: boolean,
  retry: string,
): Promise<Breadth | undefined> {
  if (!touchesTrigger(update.draft, update.unset)) return undefined;
  const current = await resolveLesson(ws, ref);
  const trigger = updatedTrigger(current.lesson, update.draft, update.unset) ?? current.lesson;
  return requireNarrowTrigger(ws, trigger, force, retry);
}

export function tooBroadError(breadth: Breadth, retry: string): LoreError {
  const atShare = breadth.fires === 0 ? 0 : Math.round((breadth.atMistake / breadth.fires) * 100);
  return new LoreError(
    'conflict',
    `this trigger is broad: it ${breadth.message} (${(breadth.share * 100).toFixed(1)}% of the calls, ${atShare}% of its fires at its mistake); not saved`,
    {
      hint: `narrow it (a --command or --path, fewer --tool), or save it anyway: ${retry}`,
      details: { breadth },
    },
  );
}

/** A lesson `lore import` found broad (or scoped by tool alone), and whether it was held for review. */
export type BroadImport = { id: string; tier: Tier; from: string; breadth: Breadth; held: boolean };

/**
 * The unused-decay step of `lore maintain`: an active lesson loses 0.02 confidence per 30 days
 * without an injection (floor 0.1), counted from the later of its last injection (the audit log),
 * its creation and the last decay applied. What was applied is remembered per lesson in
 * `<cache>/maintain.json`, so running it twice in a day changes nothing the second time.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { planUnusedDecay } from '../../core/feedback/adjust-confidence.js';
import type { Tier } from '../../core/lesson/schema.js';
import { writeFileAtomic } from '../fs/fs-atomic.js';
import { withLocks } from '../fs/lock.js';
import { lessonLock, rewriteConfidence } from './lesson-writes.js';
import { readLessonUsage } from './lesson-usage.js';
import type { Workspace } from '../workspace/workspace.js';
import { afterWrite } from '../workspace/after-write.js';

export const MAINTAIN_STATE = 'maintain.json';

export type DecayChange = {
  id: string;
  tier: Tier;
  summary: string;
  periods: number;
  before: number;
  after: number;
  since: string;
};

type MaintainState = { decayedThrough: Record<string, string> };

function readState(path: string): MaintainState {
  try {
    const value = JSON.parse(readFileSync(path, 'utf8')) as Partial<MaintainState>;
    return { decayedThrough: { ...(value.decayedThrough ?? {}) } };
  } catch {
    return { decayedThrough: {} };
  }
}

export async function applyUnusedDecay(
  ws: Workspace,
  nowMs: number,
  options: { dryRun: boolean },
): Promise<DecayChange[]> {
  await ws.ready();
  const statePath = join(ws.cacheDir, MAINTAIN_STATE);
  const state = readState(statePath);
  const usage = readLessonUsage(ws.cacheDir);
  const listed = await ws.index.list({ status: 'active' }, nowMs, ws.halfLifeDays);
  const changes: DecayChange[] = [];
  const touched = new Map<Tier, { tier: Tier; id: string }[]>();
  for (const item of listed) {
    const { lesson } = item;
    const tier = lesson.tier;
    const key = `${tier}:${lesson.id}`;
    const since = Math.max(
      Date.parse(lesson.createdAt) || 0,
      Date.parse(usage.get(lesson.id)?.lastInjectedAt ?? '') || 0,
      Date.parse(state.decayedThrough[key] ?? '') || 0,
    );
    const plan = planUnusedDecay(lesson.confidence, since, nowMs);
    if (plan === undefined) continue;
    const target = { tier, id: lesson.id, lesson, file: item.file };
    let confidence = { before: lesson.confidence, after: plan.confidence };
    if (!options.dryRun) {
      confidence = withLocks([lessonLock(ws, target)], () =>
        rewriteConfidence(
          ws,
          target,
          (current) => planUnusedDecay(current, since, nowMs)?.confidence ?? current,
        ),
      );
      state.decayedThrough[key] = plan.decayedThrough;
      if (confidence.after !== confidence.before)
        touched.set(tier, [...(touched.get(tier) ?? []), { tier, id: lesson.id }]);
    }
    if (confidence.after === confidence.before) continue;
    changes.push({
      id: lesson.id,
      tier,
      summary: lesson.summary,
      periods: plan.periods,
      before: confidence.before,
      after: confidence.after,
      since: new Date(since).toISOString(),
    });
  }
  if (!options.dryRun) {
    writeFileAtomic(statePath, `${JSON.stringify(state)}\n`);
    for (const [tier, changed] of touched) await afterWrite(ws, tier, changed);
  }
  return changes;
}

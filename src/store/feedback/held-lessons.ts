/**
 * The review side of outcome-linked feedback: the lessons outcomes hold (`needsReview` set by
 * `lore scan` because their mistake kept coming back after they were shown), with the transcript
 * lines of each repeat; keeping one (a person decided it stays: injected again, and only verdicts
 * after this count toward the floor); and the advisory lessons proposed as guards.
 */
import { LoreError } from '../../core/errors.js';
import { guardProposals } from '../../core/feedback/outcome-floor.js';
import { resolveLesson, updateLesson } from '../lessons/lesson-writes.js';
import type { Lesson } from '../../core/lesson/schema.js';
import type { Workspace } from '../workspace/workspace.js';
import { ownCacheDirs } from '../replay/read-last-replay.js';
import { appendHold, lastHolds, readHolds, workspaceOutcomes } from './outcome-log.js';
import type { HoldLine } from './outcome-log.js';

export type HeldLesson = {
  id: string;
  tier: string;
  summary: string;
  heldAt: string;
  /** The automatic verdicts that held it. */
  helpful: number;
  notHelpful: number;
  /** Where its mistake came back after it was shown: transcript file and line. */
  repeats: { file: string; line: number; form: string; injectedAt: string }[];
  /** What a person can do about it. */
  keep: string;
  archive: string;
};

export type GuardProposal = {
  id: string;
  summary: string;
  /** Times its mistake came back after it was delivered as context. */
  repeats: number;
  /** The command that makes it a guard. */
  command: string;
};

function workspaceHolds(ws: Workspace): Map<string, HoldLine> {
  const out = new Map<string, HoldLine>();
  for (const dir of ownCacheDirs(ws)) for (const [id, hold] of lastHolds(readHolds(dir))) out.set(id, hold);
  return out;
}

/** The lessons outcomes hold for review, most repeats first. */
export async function heldLessons(ws: Workspace, nowMs: number): Promise<HeldLesson[]> {
  const held = [...workspaceHolds(ws).values()].filter((hold) => hold.action === 'held');
  if (held.length === 0) return [];
  const listed = await ws.index.list({ status: 'active' }, nowMs, ws.halfLifeDays);
  const byId = new Map(listed.map((item) => [item.lesson.id, item.lesson] as const));
  const outcomes = workspaceOutcomes(ws);
  return held
    .flatMap((hold) => {
      const lesson = byId.get(hold.lesson);
      if (lesson === undefined || !lesson.needsReview) return [];
      const repeats = outcomes
        .filter((record) => record.lesson === hold.lesson && record.verdict === 'repeated')
        .map((record) => ({
          file: record.evidence?.file ?? '',
          line: record.evidence?.line ?? 0,
          form: record.form,
          injectedAt: record.injectedAt,
        }));
      return [
        {
          id: lesson.id,
          tier: lesson.tier,
          summary: lesson.summary,
          heldAt: hold.at,
          helpful: hold.helpful ?? 0,
          notHelpful: hold.notHelpful ?? 0,
          repeats,
          keep: `lore review --keep ${lesson.id}`,
          archive: `lore archive ${lesson.id}`,
        },
      ];
    })
    .sort((a, b) => b.repeats.length - a.repeats.length || a.id.localeCompare(b.id));
}

/** Advisory lessons whose mistake kept coming back after they were shown: make them guards. */
export async function proposedGuards(ws: Workspace, nowMs: number): Promise<GuardProposal[]> {
  const outcomes = workspaceOutcomes(ws);
  if (!outcomes.some((record) => record.verdict === 'repeated')) return [];
  const listed = await ws.index.list({ status: 'active' }, nowMs, ws.halfLifeDays);
  const byId = new Map(listed.map((item) => [item.lesson.id, item.lesson] as const));
  return guardProposals(outcomes, (id) => {
    const lesson = byId.get(id);
    return lesson === undefined || lesson.type !== 'hint';
  }).map(({ lesson, repeats }) => ({
    id: lesson,
    summary: byId.get(lesson)?.summary ?? '',
    repeats,
    command: `lore update ${lesson} --type guard`,
  }));
}

/**
 * A person keeps a lesson outcomes held: it is injected again (`needsReview` cleared), and only
 * automatic verdicts after now count toward the floor. A lesson neither held nor marked
 * `needsReview` is refused (usage), nothing written.
 */
export async function keepHeldLesson(
  ws: Workspace,
  ref: string,
  nowMs: number,
): Promise<{ id: string; tier: string; wasHeld: boolean; lesson: Lesson }> {
  const target = await resolveLesson(ws, ref);
  const wasHeld = workspaceHolds(ws).get(target.id)?.action === 'held';
  // Held by its outcomes, or marked for review (an import found its trigger too broad). A `kept`
  // line for a lesson neither would reset which outcomes count toward holding it.
  if (!wasHeld && target.lesson.needsReview !== true)
    throw new LoreError('usage', `lesson ${target.id} is not held for review: there is nothing to keep`, {
      hint: 'the held lessons are listed by `lore candidates list` (under "lessons held by their outcomes")',
    });
  const lesson = target.lesson.needsReview
    ? (await updateLesson(ws, target.id, {}, { nowMs, unset: ['needsReview'] })).lesson
    : target.lesson;
  appendHold(ws.store(target.tier).layout.cacheDir, {
    lesson: target.id,
    action: 'kept',
    at: new Date(nowMs).toISOString(),
  });
  return { id: target.id, tier: target.tier, wasHeld, lesson };
}

/**
 * The age rule of `lore prune`: an active lesson created more than `maxAgeDays` ago, not changed
 * and not upvoted since then, at or below `maxSeverity`, may be archived. Never a high or critical
 * lesson and never one younger than 30 days, whatever the config says. Pure.
 */
import type { LessonSeverity } from '../lesson/constants.js';

export const MIN_AGE_DAYS = 30;
const DAY_MS = 86_400_000;
const SEVERITY_LEVEL: Readonly<Record<LessonSeverity, number>> = { low: 0, medium: 1, high: 2, critical: 3 };
/** The highest severity the age rule may ever archive. */
const CEILING: LessonSeverity = 'medium';

export type AgePolicy = { maxAgeDays: number; maxSeverity: LessonSeverity };

export type AgeInput = {
  status: string;
  severity: LessonSeverity;
  createdAt: string;
  updatedAt: string;
  /** The latest vote, if any. */
  lastVotedAt?: string | null;
};

export type AgeReason = { rule: 'age'; ageDays: number; idleDays: number; message: string };

export function findAgeReason(lesson: AgeInput, policy: AgePolicy, nowMs: number): AgeReason | undefined {
  if (lesson.status !== 'active') return undefined;
  const ceiling = Math.min(SEVERITY_LEVEL[policy.maxSeverity], SEVERITY_LEVEL[CEILING]);
  if (SEVERITY_LEVEL[lesson.severity] > ceiling) return undefined;
  const limitDays = Math.max(policy.maxAgeDays, MIN_AGE_DAYS);
  const created = Date.parse(lesson.createdAt);
  if (!Number.isFinite(created)) return undefined;
  const ageDays = Math.floor((nowMs - created) / DAY_MS);
  if (ageDays <= limitDays) return undefined;
  const last = Math.max(
    created,
    Date.parse(lesson.updatedAt) || created,
    lesson.lastVotedAt ? Date.parse(lesson.lastVotedAt) || created : created,
  );
  const idleDays = Math.floor((nowMs - last) / DAY_MS);
  if (idleDays <= limitDays) return undefined;
  return {
    rule: 'age',
    ageDays,
    idleDays,
    message: `${lesson.severity} severity, created ${ageDays} days ago, untouched for ${idleDays} days (limit ${limitDays})`,
  };
}

/**
 * The text a lesson is injected as, rendered once when the manifest is built: the full form
 * (summary, mistake, fix; the start of the body only for a lesson that has neither a mistake nor a
 * fix, whose advice lives there: a captured lesson's body is its evidence, pulled on demand with
 * `lore show ID`), a one-line summary that stands in when the full form does not fit, and, for
 * guards and checkpoints, the reason a denied call shows the agent.
 */
import type { Lesson } from '../lesson/schema.js';

const BODY_MAX = 1200;

function clip(text: string, max: number): string {
  const clean = text.trim();
  return clean.length <= max ? clean : `${clean.slice(0, max - 1).trimEnd()}…`;
}

export type RenderedLesson = {
  text: string;
  summary: string;
  /** A guard's deny reason. */
  reason: string;
  /** A checkpoint's deny reason: the whole lesson, and that the unchanged call may follow. */
  checkpointReason: string;
};

/** `fixes`: what a guard lets through (guard-fix.ts `blockedFixes`), named in its reason. */
export function renderLesson(lesson: Lesson, fixes: readonly string[] = []): RenderedLesson {
  const fix = lesson.remediation ?? lesson.action;
  const mistake = lesson.mistake ?? lesson.observation;
  const lines = [`[lore ${lesson.id}] ${lesson.summary}`];
  if (mistake !== undefined) lines.push(`Mistake: ${clip(mistake, 600)}`);
  if (fix !== undefined) lines.push(`Fix: ${clip(fix, 600)}`);
  if (mistake === undefined && fix === undefined && lesson.body !== undefined && lesson.body.trim() !== '')
    lines.push(clip(lesson.body, BODY_MAX));
  const letThrough = fixes.map((command) => `\`${command}\``);
  const reason = [
    `lore guard ${lesson.id} blocked this call: ${lesson.summary}`,
    ...(fix !== undefined ? [`Fix: ${clip(fix, 600)}`] : []),
    letThrough.length > 0
      ? `Run the corrected command instead (${clip(letThrough.join(', '), 300)} ${letThrough.length > 1 ? 'are' : 'is'} let through).`
      : 'Run the corrected command instead.',
  ].join('\n');
  const checkpointReason = [
    `lore checkpoint ${lesson.id}: read this lesson before this call runs.`,
    ...lines,
    'If the call is right as it is, run it again unchanged: lore stops it only once per session.',
  ].join('\n');
  return {
    text: lines.join('\n'),
    summary: `[lore ${lesson.id}] ${lesson.summary}`,
    reason,
    checkpointReason,
  };
}

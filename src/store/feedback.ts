/**
 * Feedback on a lesson: did it help with the task it was shown for? One JSON line per report,
 * appended (O_APPEND) to `lessons/<id>/feedback.jsonl` beside `votes.jsonl`. Unlike votes,
 * feedback may be negative and is not deduplicated: it feeds analytics (the helpful ratio).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LoreError } from '../core/errors.js';
import { appendLine } from './fs-atomic.js';
import { lessonLockPath, withLocks } from './lock.js';
import { resolveLesson } from './lesson-writes.js';
import type { ResolvedLesson } from './lesson-writes.js';
import type { Workspace } from './workspace.js';

export const FEEDBACK_FILE = 'feedback.jsonl';

export type Feedback = { helpful: boolean; task: string; at: string; model?: string; note?: string };

export function feedbackPath(ws: Workspace, target: Pick<ResolvedLesson, 'tier' | 'id'>): string {
  return join(ws.store(target.tier).lessonDir(target.id).dir, FEEDBACK_FILE);
}

/** Appends one report about the lesson `ref` (id, prefix or slug); returns the lesson it landed on. */
export async function appendFeedback(ws: Workspace, ref: string, entry: Feedback): Promise<ResolvedLesson> {
  if (typeof entry.helpful !== 'boolean')
    throw new LoreError('usage', 'feedback needs helpful: true or false');
  if (entry.task.trim() === '')
    throw new LoreError('usage', 'feedback needs a task', { hint: 'name the task the lesson was shown for' });
  const target = await resolveLesson(ws, ref);
  const line = JSON.stringify({
    helpful: entry.helpful,
    task: entry.task.trim(),
    at: entry.at,
    ...(entry.model ? { model: entry.model } : {}),
    ...(entry.note ? { note: entry.note } : {}),
  });
  const lock = lessonLockPath(ws.store(target.tier).layout.cacheDir, target.id, '-feedback');
  withLocks([lock], () => appendLine(feedbackPath(ws, target), line));
  return target;
}

/** Every report on a lesson, oldest first; torn or foreign lines are skipped. */
export function readFeedback(ws: Workspace, target: Pick<ResolvedLesson, 'tier' | 'id'>): Feedback[] {
  let text: string;
  try {
    text = readFileSync(feedbackPath(ws, target), 'utf8');
  } catch {
    return [];
  }
  const out: Feedback[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const value = JSON.parse(line) as Partial<Feedback>;
      if (typeof value.helpful === 'boolean' && typeof value.at === 'string')
        out.push({ ...value, helpful: value.helpful, at: value.at, task: String(value.task ?? '') });
    } catch {
      // a torn line: skip it
    }
  }
  return out;
}

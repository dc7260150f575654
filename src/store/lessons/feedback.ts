/**
 * Feedback on a lesson: did it help with the task it was shown for? One JSON line per report,
 * appended (O_APPEND) to `lessons/<id>/feedback.jsonl` beside `votes.jsonl`, and the lesson's
 * confidence moved in lesson.yaml (+0.05 helpful, -0.1 not helpful; core/feedback), so the
 * index, the hook manifest, `lore show` and the MCP server all read one number.
 *
 * Every source goes through `appendFeedback`: `lore feedback`, the MCP tool `lore_feedback`, the
 * HTTP API, the Stop hook's `LEARNING_HELPFUL:` markers and the transcript scanner. A report that
 * names its session counts once per (session, verdict): the Stop hook and a later rescan of the
 * same transcript never count a marker twice.
 *
 * `source: 'outcome'` reports are automatic: `lore scan` judged what followed an injection
 * (src/capture/judge-outcomes.ts). They move confidence in smaller steps (+0.02 / -0.05)
 * and count once per injection: their task is `outcome:<injection id>`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LoreError } from '../../core/errors.js';
import type { Problem } from '../../core/errors.js';
import {
  CONFIDENCE_STEP,
  OUTCOME_CONFIDENCE_STEP,
  adjustConfidence,
} from '../../core/feedback/adjust-confidence.js';
import { appendLine } from '../fs/fs-atomic.js';
import { lessonLockPath, withLocks } from '../fs/lock.js';
import { lessonLock, requireReportLength, resolveLesson, rewriteConfidence } from './lesson-writes.js';
import type { ResolvedLesson } from './lesson-writes.js';
import type { Workspace } from '../workspace/workspace.js';
import { afterWrite } from '../workspace/after-write.js';

export const FEEDBACK_FILE = 'feedback.jsonl';

export const FEEDBACK_SOURCES = ['cli', 'mcp', 'api', 'hook', 'scan', 'outcome'] as const;
export type FeedbackSource = (typeof FEEDBACK_SOURCES)[number];

export type Feedback = {
  helpful: boolean;
  task: string;
  at: string;
  model?: string;
  note?: string;
  /** The agent session the verdict came from: one report per (session, verdict). */
  session?: string;
  source?: FeedbackSource;
};

export type FeedbackResult = ResolvedLesson & {
  /** False when this session already gave this verdict: nothing was written. */
  recorded: boolean;
  confidence: { before: number; after: number };
};

export type FeedbackSummary = {
  helpful: number;
  notHelpful: number;
  lastAt: string | null;
  /** Of those, the automatic verdicts from outcomes (`source: outcome`). */
  outcomeHelpful: number;
  outcomeNotHelpful: number;
};

export function feedbackPath(ws: Workspace, target: Pick<ResolvedLesson, 'tier' | 'id'>): string {
  return join(ws.store(target.tier).lessonDir(target.id).dir, FEEDBACK_FILE);
}

/** Appends one report about the lesson `ref` (id, prefix or slug) and moves its confidence. */
export async function appendFeedback(ws: Workspace, ref: string, entry: Feedback): Promise<FeedbackResult> {
  if (typeof entry.helpful !== 'boolean')
    throw new LoreError('usage', 'feedback needs helpful: true or false');
  if (entry.task.trim() === '')
    throw new LoreError('usage', 'feedback needs a task', { hint: 'name the task the lesson was shown for' });
  for (const field of ['task', 'model', 'session', 'note'] as const) requireReportLength(field, entry[field]);
  const target = await resolveLesson(ws, ref);
  const session = entry.session?.trim() || undefined;
  const line = JSON.stringify({
    helpful: entry.helpful,
    task: entry.task.trim(),
    at: entry.at,
    ...(entry.model ? { model: entry.model } : {}),
    ...(entry.note ? { note: entry.note } : {}),
    ...(session ? { session } : {}),
    ...(entry.source ? { source: entry.source } : {}),
  });
  const feedbackLock = lessonLockPath(ws.store(target.tier).layout.cacheDir, target.id, '-feedback');
  const outcome = withLocks([feedbackLock, lessonLock(ws, target)], () => {
    // explicit reports count once per (session, verdict); outcome verdicts once per injection (task)
    const task = entry.task.trim();
    const counted = (item: Feedback) =>
      entry.source === 'outcome'
        ? item.source === 'outcome' && item.task === task
        : item.source !== 'outcome' &&
          session !== undefined &&
          item.session === session &&
          item.helpful === entry.helpful;
    if ((session !== undefined || entry.source === 'outcome') && readFeedback(ws, target).some(counted)) {
      const current = target.lesson.confidence;
      return { recorded: false, confidence: { before: current, after: current } };
    }
    appendLine(feedbackPath(ws, target), line);
    // an org lesson's confidence is the server's (its copy here is read-only): the report is kept, the lesson unchanged
    const kept = { before: target.lesson.confidence, after: target.lesson.confidence };
    const confidence =
      target.tier === 'org'
        ? kept
        : rewriteConfidence(ws, target, (current) =>
            adjustConfidence(
              current,
              entry.helpful,
              entry.source === 'outcome' ? OUTCOME_CONFIDENCE_STEP : CONFIDENCE_STEP,
            ),
          );
    return { recorded: true, confidence };
  });
  if (outcome.confidence.after !== outcome.confidence.before) await afterWrite(ws, target.tier, [target]);
  const lesson = { ...target.lesson, confidence: outcome.confidence.after };
  return { ...target, lesson, ...outcome };
}

/** Every report on a lesson, oldest first; torn or foreign lines are skipped (`lore check` names them). */
export function readFeedback(ws: Workspace, target: Pick<ResolvedLesson, 'tier' | 'id'>): Feedback[] {
  return readFeedbackFile(feedbackPath(ws, target)).items;
}

/** A feedback file's reports and the lines skipped (none when there is no such file). */
export function readFeedbackFile(path: string): { items: Feedback[]; problems: Problem[] } {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return { items: [], problems: [] };
  }
  return parseFeedback(text, path);
}

/** The reports of a feedback file's text; a line that is not one is skipped and named. */
export function parseFeedback(text: string, file: string): { items: Feedback[]; problems: Problem[] } {
  const items: Feedback[] = [];
  const problems: Problem[] = [];
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    let value: Partial<Feedback> | null = null;
    try {
      value = JSON.parse(line) as Partial<Feedback> | null;
    } catch {
      // a torn line (a writer killed mid-way) or not JSON at all
    }
    if (
      value !== null &&
      typeof value === 'object' &&
      typeof value.helpful === 'boolean' &&
      typeof value.at === 'string'
    )
      items.push({ ...value, helpful: value.helpful, at: value.at, task: String(value.task ?? '') });
    else
      problems.push({
        file,
        line: index + 1,
        message: 'malformed feedback line skipped (expected {"helpful": true|false, "at", "task"})',
        severity: 'warning',
      });
  });
  return { items, problems };
}

export function summarizeFeedback(items: readonly Feedback[]): FeedbackSummary {
  let lastAt: string | null = null;
  for (const item of items) if (lastAt === null || item.at > lastAt) lastAt = item.at;
  const outcome = items.filter((item) => item.source === 'outcome');
  return {
    helpful: items.filter((item) => item.helpful).length,
    notHelpful: items.filter((item) => !item.helpful).length,
    lastAt,
    outcomeHelpful: outcome.filter((item) => item.helpful).length,
    outcomeNotHelpful: outcome.filter((item) => !item.helpful).length,
  };
}

export type MarkerFeedback = { ref: string; helpful: boolean; session: string };

/**
 * Records agents' `LEARNING_HELPFUL:` / `LEARNING_NOT_HELPFUL:` markers (from `lore scan`), once per
 * session and verdict: a rescan of the same transcript records nothing new. Markers naming no
 * lesson of this workspace (another repository's, a typo) are counted and skipped.
 */
export async function recordMarkerFeedback(
  ws: Workspace,
  markers: readonly MarkerFeedback[],
  nowMs: number,
  source: FeedbackSource,
): Promise<{ recorded: number; repeated: number; unknown: number }> {
  const counts = { recorded: 0, repeated: 0, unknown: 0 };
  const once = new Map(markers.map((m) => [`${m.session}\u0000${m.ref}\u0000${m.helpful}`, m] as const));
  for (const marker of once.values()) {
    if (marker.session.trim() === '') {
      counts.unknown += 1;
      continue;
    }
    try {
      const result = await appendFeedback(ws, marker.ref, {
        helpful: marker.helpful,
        task: marker.session,
        session: marker.session,
        at: new Date(nowMs).toISOString(),
        source,
      });
      if (result.recorded) counts.recorded += 1;
      else counts.repeated += 1;
    } catch (error) {
      if (!(error instanceof LoreError)) throw error;
      counts.unknown += 1;
    }
  }
  return counts;
}

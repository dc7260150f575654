/**
 * `lore prompt` and the library function for orchestrators: the lessons for a task. Scope from the
 * task's files (path globs) and tags, BM25 over its title and description, the operation mapped to
 * lesson categories (core/rank/operation-categories). Lessons the hook would never inject (needs
 * review, under the confidence floor) are left out. Order: scope matches first, then text relevance,
 * then the one ordering (votes, priority, confidence, recency, id).
 */
import { categoriesForOperation } from '../../core/rank/operation-categories.js';
import type { Operation } from '../../core/rank/operation-categories.js';
import { compareRankable } from '../../core/rank/rank-results.js';
import type { PromptLesson } from '../../core/prompt/render-task-prompt.js';
import type { ListedLesson } from '../index/lesson-index.js';
import { repoPathOf } from './learnings-sidecar.js';
import type { Workspace } from '../workspace/workspace.js';
import { tmpdir } from 'node:os';
import { injectionTask } from '../../core/injection-record.js';
import { utcIso } from '../../core/utc-time.js';
import { openSessionState } from '../hook-state/session-state.js';
import { recordInjections } from '../lessons/injection-log.js';
import { readLessonUsage } from '../lessons/lesson-usage.js';
import type { Lesson } from '../../core/lesson/schema.js';

/** A lesson's COIA parts; mistake / remediation stand in for observation / action. */
function coiaParts(lesson: Lesson, used: number): NonNullable<PromptLesson['coia']> {
  const pick = (...values: (string | undefined)[]) => values.find((v) => v !== undefined && v.trim() !== '');
  const parts = {
    context: pick(lesson.context),
    observation: pick(lesson.observation, lesson.mistake),
    implication: pick(lesson.implication),
    action: pick(lesson.action, lesson.remediation),
  };
  return { ...Object.fromEntries(Object.entries(parts).filter(([, v]) => v !== undefined)), used };
}

export type TaskPromptRequest = {
  files?: readonly string[];
  tags?: readonly string[];
  title?: string;
  description?: string;
  operation?: Operation;
  /** Default 5. */
  limit?: number;
  /** The task the prompt is for: each lesson shown is recorded once for it (injections.jsonl). */
  task?: string;
  /**
   * The agent session the prompt goes into: lessons the session was already shown are left out,
   * and the ones shown are claimed in the hooks' dedup state, so no hook repeats them.
   */
  session?: string;
  /** Fill each lesson's `coia` parts and use count (the `coia` rendering). */
  coia?: boolean;
  /** Where the hooks keep session state (default: the OS temp directory and this user's uid). */
  hookState?: { tmpdir: string; uid: number | string };
};

type Candidate = { item: ListedLesson; scope: Set<string>; text: Set<string>; relevance: number };

export async function selectTaskLessons(
  ws: Workspace,
  request: TaskPromptRequest,
  nowMs: number,
): Promise<PromptLesson[]> {
  await ws.ready();
  const limit = request.limit ?? 5;
  const categories = categoriesForOperation(request.operation);
  const minConfidence = ws.config.inject.minConfidence;
  const candidates = new Map<string, Candidate>();
  const keep = (item: ListedLesson): Candidate | undefined => {
    const { lesson } = item;
    if (lesson.needsReview || lesson.confidence < minConfidence) return undefined;
    if (lesson.priority < (ws.config.inject.minPriority ?? 1)) return undefined;
    if (categories !== undefined && !categories.has(lesson.category)) return undefined;
    const key = `${lesson.tier}:${lesson.id}`;
    let candidate = candidates.get(key);
    if (!candidate) {
      candidate = { item, scope: new Set(), text: new Set(), relevance: 0 };
      candidates.set(key, candidate);
    }
    return candidate;
  };
  const status = 'active' as const;

  for (const file of request.files ?? []) {
    const path = repoPathOf(ws, file);
    if (path === undefined) continue;
    for (const item of await ws.index.list({ status, path }, nowMs, ws.halfLifeDays)) {
      const candidate = keep(item);
      for (const reason of item.matchedBy) candidate?.scope.add(reason);
    }
  }
  for (const tag of request.tags ?? []) {
    for (const item of await ws.index.list({ status, tags: [tag] }, nowMs, ws.halfLifeDays)) {
      const candidate = keep(item);
      for (const reason of item.matchedBy) candidate?.scope.add(reason);
    }
  }
  const query = [request.title, request.description].filter((part) => part && part.trim() !== '').join(' ');
  if (query !== '') {
    const results = await ws.index.search(
      query,
      { status, limit: Math.max(limit * 4, 20) },
      ws.config.search.weights,
      nowMs,
      ws.halfLifeDays,
    );
    for (const result of results) {
      const candidate = keep(result);
      if (!candidate) continue;
      candidate.relevance = Math.max(candidate.relevance, result.relevance);
      for (const reason of result.matchedBy) candidate.text.add(reason);
    }
  }
  const asked =
    (request.files?.length ?? 0) > 0 ||
    (request.tags?.length ?? 0) > 0 ||
    query !== '' ||
    categories !== undefined;
  if (asked && query === '' && (request.files?.length ?? 0) === 0 && (request.tags?.length ?? 0) === 0) {
    // Only an operation: the best lessons of its categories.
    for (const item of await ws.index.list({ status }, nowMs, ws.halfLifeDays)) keep(item);
  }

  const rankKey = (c: Candidate) => ({
    id: c.item.lesson.id,
    relevance: c.relevance,
    voteScore: c.item.voteScore,
    priority: c.item.lesson.priority,
    confidence: c.item.lesson.confidence,
    updatedAt: c.item.lesson.updatedAt,
  });
  const state =
    request.session === undefined || request.session.trim() === ''
      ? undefined
      : openSessionState(
          request.hookState?.tmpdir ?? tmpdir(),
          request.session.trim(),
          'main',
          request.hookState?.uid ?? process.getuid?.() ?? 'user',
        );
  const shown = (id: string) => state !== undefined && (state.seen.has(id) || state.seenElsewhere.has(id));
  const chosen = [...candidates.values()]
    .sort((a, b) => b.scope.size - a.scope.size || compareRankable(rankKey(a), rankKey(b)))
    .filter((c) => !shown(c.item.lesson.id))
    .slice(0, limit);
  // How often each was shown before this prompt (the `coia` rendering's "used N×").
  const usage = request.coia === true ? readLessonUsage(ws.cacheDir) : undefined;
  // Claimed as the hook claims what it shows: its later calls in the session skip these.
  for (const c of chosen) state?.claim(c.item.lesson.id, c.item.lesson.priority);
  const task = injectionTask(request.task, request.session);
  if (task !== undefined) {
    const at = utcIso(nowMs);
    recordInjections(
      ws.cacheDir,
      chosen.map((c) => ({
        lesson: c.item.lesson.id,
        task,
        session: request.session?.trim() || null,
        channel: 'prompt' as const,
        at,
        matchedBy: [...c.scope, ...c.text],
        feedback: null,
      })),
    );
  }
  return chosen.map((c) => ({
    ...(usage === undefined
      ? {}
      : { coia: coiaParts(c.item.lesson, usage.get(c.item.lesson.id)?.timesInjected ?? 0) }),
    id: c.item.lesson.id,
    summary: c.item.lesson.summary,
    type: c.item.lesson.type,
    category: c.item.lesson.category,
    priority: c.item.lesson.priority,
    confidence: c.item.lesson.confidence,
    matched_by: [...c.scope, ...c.text],
  }));
}

/**
 * lore as a library, for orchestrators that spawn agents for tasks: the task pre-prompt that
 * `lore prompt` prints, computed in-process.
 *
 *   import { taskPrompt } from 'lore';
 *   const preamble = await taskPrompt({ cwd: repo, files: ['src/db/users.ts'], title: 'Add a column' });
 *   // '' when no lesson applies
 */
import { renderTaskPrompt } from './core/prompt/render-task-prompt.js';
import type { PromptDoc, PromptFormat, PromptLesson } from './core/prompt/render-task-prompt.js';
import { docsScope, selectFeatureDocs } from './store/docs/docs-actions.js';
import { selectTaskLessons } from './store/inject/task-prompt.js';
import type { TaskPromptRequest } from './store/inject/task-prompt.js';
import { openWorkspace } from './store/workspace/workspace.js';

export { PROMPT_FORMATS, renderTaskPrompt } from './core/prompt/render-task-prompt.js';
export type { PromptDoc, PromptFormat, PromptLesson } from './core/prompt/render-task-prompt.js';
export type { TaskPromptRequest } from './store/inject/task-prompt.js';
export { OPERATIONS } from './core/rank/operation-categories.js';
export type { Operation } from './core/rank/operation-categories.js';
export { compareSeverityThenDate, filterRelevant, RELEVANT_LIMIT } from './core/rank/filter-relevant.js';
export type { RelevantLesson, RelevantOptions } from './core/rank/filter-relevant.js';

export type TaskPromptOptions = TaskPromptRequest & {
  /** A directory inside the repository (its `.lore/` is found upward). Default: process.cwd(). */
  cwd?: string;
  /** The repository root holding `.lore/`, instead of searching upward. */
  root?: string;
  env?: NodeJS.ProcessEnv;
  /** Features the task is about: the docs whose related_features name one are added. */
  features?: readonly string[];
  /** Default `system-reminder`. */
  format?: PromptFormat;
  nowMs?: number;
};

/** The lessons for a task, ranked, as data. */
export async function taskLessons(options: TaskPromptOptions = {}): Promise<PromptLesson[]> {
  const ws = await openWorkspace({
    cwd: options.cwd ?? process.cwd(),
    root: options.root,
    env: options.env ?? process.env,
  });
  try {
    return await selectTaskLessons(ws, options, options.nowMs ?? Date.now());
  } finally {
    ws.close();
  }
}

/** The project docs for a task's `features` (their related_features), as data. */
export async function taskDocs(options: TaskPromptOptions = {}): Promise<PromptDoc[]> {
  if ((options.features ?? []).length === 0) return [];
  const ws = await openWorkspace({
    cwd: options.cwd ?? process.cwd(),
    root: options.root,
    env: options.env ?? process.env,
  });
  try {
    return await selectFeatureDocs(docsScope(ws), options.features ?? []);
  } finally {
    ws.close();
  }
}

/** The task pre-prompt as text: '' when no lesson (and no doc for its features) applies (JSON: an empty list). */
export async function taskPrompt(options: TaskPromptOptions = {}): Promise<string> {
  return renderTaskPrompt(
    await taskLessons(options),
    options.format ?? 'system-reminder',
    await taskDocs(options),
  );
}

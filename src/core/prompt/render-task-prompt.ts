/**
 * The task pre-prompt: the top lessons for a task, summaries only, with one line on how to pull a
 * body. Rendered for a system prompt (`<system-reminder>`), as markdown, or as JSON; nothing at
 * all when no lesson matched, so an orchestrator can paste the output unconditionally.
 */
export const PROMPT_FORMATS = ['system-reminder', 'markdown', 'json'] as const;
export type PromptFormat = (typeof PROMPT_FORMATS)[number];

export type PromptLesson = {
  id: string;
  summary: string;
  type: string;
  category: string;
  priority: number;
  confidence: number;
  matched_by: string[];
};

/** A project doc for the task (its related_features name one of the task's features). */
export type PromptDoc = {
  path: string;
  type: string;
  summary: string;
  matched_by: string[];
};

const DOC_PULL_LINE = 'Read a doc with `lore docs show <path>` (or the MCP tool lore_docs_show).';

const PULL_LINE =
  'Read a lesson in full with `lore show <id>` (or the MCP tool lore_show). After using one, say LEARNING_HELPFUL: <id> or LEARNING_NOT_HELPFUL: <id>.';

export function renderTaskPrompt(
  lessons: readonly PromptLesson[],
  format: PromptFormat,
  docs: readonly PromptDoc[] = [],
): string {
  if (lessons.length === 0 && docs.length === 0) return '';
  if (format === 'json') {
    const data =
      docs.length === 0
        ? { lessons, pull: PULL_LINE }
        : { lessons, docs, pull: PULL_LINE, docsPull: DOC_PULL_LINE };
    return `${JSON.stringify(data, null, 2)}\n`;
  }
  const items = lessons.map((lesson) => {
    const why = lesson.matched_by.length > 0 ? ` (${lesson.matched_by.join(', ')})` : '';
    const guard = lesson.type === 'guard' ? 'GUARD: ' : '';
    return format === 'markdown'
      ? `- **${lesson.id}** ${guard}${lesson.summary}${why}`
      : `- [${lesson.id}] ${guard}${lesson.summary}${why}`;
  });
  const docItems = docs.map((doc) => {
    const why = doc.matched_by.length > 0 ? ` (${doc.matched_by.join(', ')})` : '';
    return format === 'markdown'
      ? `- \`${doc.path}\` (${doc.type}) ${doc.summary}${why}`
      : `- [${doc.path}] (${doc.type}) ${doc.summary}${why}`;
  });
  if (format === 'markdown') {
    return [
      ...(items.length > 0 ? ['## Lessons for this task', '', ...items, '', PULL_LINE, ''] : []),
      ...(docItems.length > 0
        ? ['## Project docs for this task', '', ...docItems, '', DOC_PULL_LINE, '']
        : []),
    ].join('\n');
  }
  return [
    '<system-reminder>',
    ...(items.length > 0
      ? ["Lessons from this repository's past mistakes that apply to this task:", ...items, PULL_LINE]
      : []),
    ...(docItems.length > 0 ? ["Project docs about this task's features:", ...docItems, DOC_PULL_LINE] : []),
    '</system-reminder>',
    '',
  ].join('\n');
}

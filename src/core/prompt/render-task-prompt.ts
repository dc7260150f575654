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

const PULL_LINE =
  'Read a lesson in full with `lore show <id>` (or the MCP tool lore_show). After using one, say LEARNING_HELPFUL: <id> or LEARNING_NOT_HELPFUL: <id>.';

export function renderTaskPrompt(lessons: readonly PromptLesson[], format: PromptFormat): string {
  if (lessons.length === 0) return '';
  if (format === 'json') return `${JSON.stringify({ lessons, pull: PULL_LINE }, null, 2)}\n`;
  const items = lessons.map((lesson) => {
    const why = lesson.matched_by.length > 0 ? ` (${lesson.matched_by.join(', ')})` : '';
    const guard = lesson.type === 'guard' ? 'GUARD: ' : '';
    return format === 'markdown'
      ? `- **${lesson.id}** ${guard}${lesson.summary}${why}`
      : `- [${lesson.id}] ${guard}${lesson.summary}${why}`;
  });
  if (format === 'markdown') {
    return ['## Lessons for this task', '', ...items, '', PULL_LINE, ''].join('\n');
  }
  return [
    '<system-reminder>',
    "Lessons from this repository's past mistakes that apply to this task:",
    ...items,
    PULL_LINE,
    '</system-reminder>',
    '',
  ].join('\n');
}

/**
 * The task pre-prompt: the top lessons for a task, summaries only, with one line on how to pull a
 * body. Rendered for a system prompt (`<system-reminder>`), as markdown, or as JSON; nothing at
 * all when no lesson matched, so an orchestrator can paste the output unconditionally.
 */
export const PROMPT_FORMATS = ['system-reminder', 'markdown', 'json', 'coia'] as const;
export type PromptFormat = (typeof PROMPT_FORMATS)[number];

export type PromptLesson = {
  id: string;
  summary: string;
  type: string;
  category: string;
  priority: number;
  confidence: number;
  matched_by: string[];
  /**
   * For `coia`, the Persistent Learnings Layer's rendering: the four parts (a lesson written as
   * mistake / remediation gives those as observation / action) and how often it was shown before.
   */
  coia?: { context?: string; observation?: string; implication?: string; action?: string; used: number };
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
  // Nothing to add to a prompt; JSON still says so, for the scripts that parse it.
  if (lessons.length === 0 && docs.length === 0 && format !== 'json') return '';
  if (format === 'coia') return renderCoia(lessons, docs);
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

/**
 * The Persistent Learnings Layer's injected form, one block a lesson:
 * `### Title [confidence: 0.95, used 3×]`, the four labelled parts it has, and its id.
 */
function renderCoia(lessons: readonly PromptLesson[], docs: readonly PromptDoc[]): string {
  const blocks = lessons.map((lesson) => {
    const parts = lesson.coia ?? { used: 0 };
    const lines = [
      `### ${lesson.summary} [confidence: ${lesson.confidence.toFixed(2)}, used ${parts.used}×]`,
      '',
      ...(
        [
          ['Context', parts.context],
          ['Observation', parts.observation],
          ['Implication', parts.implication],
          ['Action', parts.action],
        ] as const
      )
        .filter(([, text]) => text !== undefined && text.trim() !== '')
        .map(([label, text]) => `**${label}**: ${(text ?? '').trim()}`),
      '',
      `_ID: ${lesson.id}${lesson.matched_by.length > 0 ? ` | matched by ${lesson.matched_by.join(', ')}` : ''}_`,
    ];
    return lines.join('\n');
  });
  const docItems = docs.map((doc) => `- \`${doc.path}\` (${doc.type}) ${doc.summary}`);
  return [
    ...(blocks.length > 0 ? [blocks.join('\n\n'), '', PULL_LINE] : []),
    ...(docItems.length > 0 ? ['', ...docItems, '', DOC_PULL_LINE] : []),
    '',
  ].join('\n');
}

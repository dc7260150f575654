/**
 * One lesson as a Markdown page (the MCP resource `lesson://{id}`): the summary as the heading,
 * a line of its attributes, its scope, mistake, remediation and body.
 */
import type { Lesson } from '../lesson/schema.js';

export type MarkdownLesson = Pick<
  Lesson,
  | 'id'
  | 'summary'
  | 'type'
  | 'category'
  | 'severity'
  | 'priority'
  | 'confidence'
  | 'status'
  | 'tools'
  | 'commands'
  | 'paths'
  | 'tags'
  | 'mistake'
  | 'remediation'
  | 'body'
>;

export function renderLessonMarkdown(lesson: MarkdownLesson): string {
  const scope = [
    ...lesson.tools.map((t) => `tool ${t}`),
    ...lesson.commands.map((c) => `command /${c}/`),
    ...lesson.paths.map((p) => `path ${p}`),
    ...lesson.tags.map((t) => `tag ${t}`),
  ];
  return [
    `# ${lesson.summary}`,
    '',
    `id ${lesson.id} · ${lesson.type} · ${lesson.category} · severity ${lesson.severity} · priority ${lesson.priority} · confidence ${lesson.confidence} · ${lesson.status}`,
    ...(scope.length > 0 ? ['', `scope: ${scope.join(', ')}`] : []),
    ...(lesson.mistake ? ['', `mistake: ${lesson.mistake}`] : []),
    ...(lesson.remediation ? ['', `remediation: ${lesson.remediation}`] : []),
    ...(lesson.body ? ['', lesson.body.trimEnd()] : []),
    '',
  ].join('\n');
}

/**
 * Text renderings of lesson data. Commands compute data; these turn it into lines for people.
 */
import type { Lesson } from '../core/lesson/schema.js';

export function truncate(text: string, width: number): string {
  return text.length <= width ? text : `${text.slice(0, Math.max(0, width - 1))}…`;
}

/** One line per lesson: `id  tier  severity  p5  summary  [tags]`. */
export function formatLessonRow(lesson: Lesson, extra = ''): string {
  const flags = [
    lesson.status !== 'active' ? lesson.status : '',
    lesson.type === 'hint' ? '' : lesson.type,
    lesson.needsReview ? 'needs-review' : '',
    lesson.universal === true && lesson.tier === 'user' ? 'universal' : '',
  ]
    .filter((flag) => flag !== '')
    .join(',');
  const tags = lesson.tags.length > 0 ? `  [${lesson.tags.join(' ')}]` : '';
  return `${lesson.id}  ${lesson.tier.padEnd(7)}  ${lesson.severity.padEnd(8)}  p${String(lesson.priority).padEnd(2)}  ${truncate(lesson.summary, 100)}${tags}${flags ? `  (${flags})` : ''}${extra}`;
}

function block(label: string, value: string | undefined): string[] {
  if (value === undefined || value === '') return [];
  if (!value.includes('\n')) return [`${label}: ${value}`];
  return [
    `${label}:`,
    ...value
      .replace(/\n+$/, '')
      .split('\n')
      .map((line) => `  ${line}`),
  ];
}

function list(label: string, values: readonly string[]): string[] {
  return values.length === 0 ? [] : [`${label}: ${values.join(', ')}`];
}

export function formatLessonDetail(
  lesson: Lesson,
  file: string,
  votes: { count: number; lastVotedAt: string | null; score: number },
  usage: readonly string[] = [],
): string {
  const lines = [
    `${lesson.id}  ${lesson.slug}`,
    lesson.summary,
    '',
    `status: ${lesson.status}${lesson.supersededBy ? ` (superseded by ${lesson.supersededBy})` : ''}`,
    `tier: ${lesson.tier}${lesson.universal === true && lesson.tier === 'user' ? ' (universal)' : ''}${lesson.classifiedBy ? ` (classified by ${lesson.classifiedBy})` : ''}   type: ${lesson.type}   category: ${lesson.category}   severity: ${lesson.severity}`,
    `priority: ${lesson.priority}   confidence: ${lesson.confidence}${lesson.needsReview ? '   needs review' : ''}`,
    ...list('tools', lesson.tools),
    ...list('commands', lesson.commands),
    ...list('paths', lesson.paths),
    ...list('contents', lesson.contents),
    ...list('errors', lesson.errors),
    ...list('tags', lesson.tags),
    ...list('stack', lesson.stack),
    ...list('agents', lesson.agents),
    ...list('supersedes', lesson.supersedes),
    ...block('mistake', lesson.mistake),
    ...block('remediation', lesson.remediation),
    ...block('context', lesson.context),
    ...block('observation', lesson.observation),
    ...block('implication', lesson.implication),
    ...block('action', lesson.action),
    ...lesson.evidence.map((e) => `evidence: ${e.kind}=${e.ref}${e.note ? ` (${e.note})` : ''}`),
    `votes: ${votes.count}${votes.lastVotedAt ? ` (last ${votes.lastVotedAt}, score ${votes.score.toFixed(2)})` : ''}`,
    ...usage,
    `created: ${lesson.createdAt}${lesson.createdBy ? ` by ${lesson.createdBy}` : ''}   updated: ${lesson.updatedAt}`,
    `file: ${file}`,
  ];
  if (lesson.body) lines.push('', lesson.body.replace(/\n+$/, ''));
  return lines.join('\n');
}

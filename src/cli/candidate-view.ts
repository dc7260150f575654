/** How candidates look in `lore scan`, `lore candidates` and `lore review`: as text (data: core/capture/candidate-json.ts). */
import type { CandidateRecord } from '../core/capture/merge-candidate.js';
import type { ListedCandidateJson } from '../core/capture/candidate-json.js';
import type { Tier } from '../core/lesson/schema.js';
import { distillComparison } from '../core/distill/distill-comparison.js';
import type { DistillComparison } from '../core/distill/distill-comparison.js';
import { truncate } from './output.js';

export { listedCandidateJson, scanCandidateJson } from '../core/capture/candidate-json.js';
export type { ListedCandidateJson, ScanCandidateJson } from '../core/capture/candidate-json.js';

export function formatCandidateRow(c: ListedCandidateJson): string {
  const flags = [
    c.occurrences > 1 ? `x${c.occurrences}` : '',
    c.userCorrected ? 'user-corrected' : '',
    c.needsReview ? 'needs-review' : '',
  ]
    .filter((flag) => flag !== '')
    .join(',');
  return `${c.id}  ${c.store.padEnd(7)}  t${c.tier}  p${String(c.priority).padEnd(2)}  ${c.confidence.toFixed(2)}  ${truncate(c.summary, 110)}${flags ? `  (${flags})` : ''}`;
}

export function formatCandidateDetail(record: CandidateRecord, store: Tier, file: string): string {
  const comparison = distillComparison(record);
  const lines = [
    `${record.id}  ${record.capture.kind} (tier ${record.capture.tier})  ${store}`,
    record.summary,
    '',
    `confidence ${record.confidence}${record.needsReview ? ' (needs review)' : ''}   priority ${record.priority}   seen ${record.occurrences}x in ${record.sourceSessions.length} session(s), ${record.capture.projects.length} project(s)`,
    ...(record.capture.tool ? [`tool: ${record.capture.tool}`] : []),
    ...((record.commands as string[] | undefined)?.length
      ? [`commands: ${(record.commands as string[]).join('  ')}`]
      : []),
    ...((record.paths as string[] | undefined)?.length
      ? [`paths: ${(record.paths as string[]).join(', ')}`]
      : []),
    ...((record.errors as string[] | undefined)?.length
      ? [`waits for its error: ${(record.errors as string[]).join('  ')}`]
      : []),
    ...((record.agents as string[] | undefined)?.length
      ? [`only in: ${(record.agents as string[]).join(', ')} (its agents)`]
      : []),
    ...((record.tags as string[] | undefined)?.length
      ? [`tags: ${(record.tags as string[]).join(' ')}`]
      : []),
    ...(typeof record.mistake === 'string' ? [`mistake: ${record.mistake}`] : []),
    ...(typeof record.remediation === 'string' ? [`fix: ${record.remediation}`] : []),
    ...(record.capture.scope
      ? [
          `belongs: ${record.capture.scope}${record.capture.scopeReason ? ` (${record.capture.scopeReason})` : ''}`,
        ]
      : []),
    ...formatDistillSection(comparison),
    ...comparison.evidence.commands.slice(0, 3).map((command) => `failed: ${truncate(command, 150)}`),
    ...comparison.evidence.paths.slice(0, 3).map((path) => `failed on: ${path}`),
    `evidence: ${record.capture.evidence
      .slice(0, 6)
      .map((ref) => `${ref.file}:${ref.line}`)
      .join(', ')}`,
    `file: ${file}`,
  ];
  return lines.join('\n');
}

/** Words of `text` in lines of at most `width` characters (a longer word gets a line of its own). */
export function wrapText(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.replace(/\s+/g, ' ').trim().split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(line);
  return lines;
}

/**
 * Two columns of labelled fields, each wrapped to its half of the width (continuation lines
 * indented within it), joined by a bar.
 */
export function sideBySide(
  left: readonly (readonly [string, string])[],
  right: readonly (readonly [string, string])[],
  width = 120,
): string[] {
  const half = Math.floor((width - 3) / 2);
  const column = (fields: readonly (readonly [string, string])[]) =>
    fields.flatMap(([label, value]) =>
      wrapText(value === '' ? label : `${label}: ${value}`, half - 2).map((line, i) =>
        i === 0 ? line : `  ${line}`,
      ),
    );
  const a = column(left);
  const b = column(right);
  return Array.from({ length: Math.max(a.length, b.length) }, (_, i) =>
    `${(a[i] ?? '').padEnd(half)} │ ${b[i] ?? ''}`.trimEnd(),
  );
}

/**
 * The distillation, for review: capture's text beside the model's once one was applied; how the
 * last attempt went otherwise.
 */
export function formatDistillSection(comparison: DistillComparison): string[] {
  if (comparison.status === null) return [];
  const by = `${comparison.provider ?? 'a model'}${comparison.model ? ` ${comparison.model}` : ''}`;
  const when = comparison.at ? `, ${comparison.at.slice(0, 10)}` : '';
  const note =
    comparison.status === 'applied'
      ? []
      : [`distill: ${comparison.status} (${by}${when}): ${comparison.note ?? ''}`];
  const distilled = comparison.distilled;
  if (distilled === null) return note;
  const h = comparison.heuristic;
  const field = (label: string, value: string | null | undefined): (readonly [string, string])[] =>
    value === null || value === undefined || value === '' ? [] : [[label, value]];
  const list = (label: string, items: readonly string[]) => field(label, items.join('  '));
  return [
    ...note,
    '',
    ...sideBySide(
      [
        ['heuristic (lore scan)', ''],
        ...field('summary', h.summary),
        ...field('mistake', h.mistake),
        ...field('fix', h.remediation),
        ...list('commands', h.commands),
        ...list('paths', h.paths),
        ...list('tags', h.tags),
      ],
      [
        [`distilled (${by}${when})`, ''],
        ...field('summary', distilled.summary),
        ...field('context', distilled.context),
        ...field('observation', distilled.observation),
        ...field('implication', distilled.implication),
        ...field('action', distilled.action),
        ...list('commands', distilled.commands),
        ...list('paths', distilled.paths),
        ...list('tags', distilled.tags),
      ],
    ),
    '',
  ];
}

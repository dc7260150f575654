/** How candidates look in `lore scan`, `lore candidates` and `lore review`: as text (data: core/capture/candidate-json.ts). */
import type { CandidateRecord } from '../core/capture/merge-candidate.js';
import type { ListedCandidateJson } from '../core/capture/candidate-json.js';
import type { Tier } from '../core/lesson/schema.js';
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
    `evidence: ${record.capture.evidence
      .slice(0, 6)
      .map((ref) => `${ref.file}:${ref.line}`)
      .join(', ')}`,
    `file: ${file}`,
  ];
  return lines.join('\n');
}

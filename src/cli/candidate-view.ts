/** How candidates look in `lore scan`, `lore candidates` and `lore review`: as data and as text. */
import type { CandidateRecord } from '../core/capture/merge-candidate.js';
import type { Tier } from '../core/lesson/schema.js';
import { truncate } from './output.js';

/** The candidate shape of `lore scan --json` (the issue's contract), plus nothing. */
export type ScanCandidateJson = {
  id: string;
  tool: string | null;
  trigger: string;
  summary: string;
  confidence: number;
  priority: number;
  tier: 1 | 2;
  evidence: { file: string; line: number }[];
};

export function scanCandidateJson(
  record: CandidateRecord,
  evidence?: { file: string; line: number }[],
): ScanCandidateJson {
  return {
    id: record.id,
    tool: record.capture.tool ?? null,
    trigger: record.capture.trigger,
    summary: record.summary,
    confidence: record.confidence,
    priority: record.priority,
    tier: record.capture.tier,
    evidence: evidence ?? record.capture.evidence,
  };
}

export type ListedCandidateJson = ScanCandidateJson & {
  kind: string;
  store: Tier;
  file: string;
  occurrences: number;
  sessions: number;
  projects: number;
  userCorrected: boolean;
  needsReview: boolean;
};

export function listedCandidateJson(record: CandidateRecord, store: Tier, file: string): ListedCandidateJson {
  return {
    ...scanCandidateJson(record),
    kind: record.capture.kind,
    store,
    file,
    occurrences: record.occurrences,
    sessions: record.sourceSessions.length,
    projects: record.capture.projects.length,
    userCorrected: record.capture.signals.userCorrection,
    needsReview: record.needsReview,
  };
}

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
    `evidence: ${record.capture.evidence
      .slice(0, 6)
      .map((ref) => `${ref.file}:${ref.line}`)
      .join(', ')}`,
    `file: ${file}`,
  ];
  return lines.join('\n');
}

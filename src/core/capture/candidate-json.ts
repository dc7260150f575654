/**
 * Candidates as data: the shape of `lore scan --json`, `lore candidates list --json` and the HTTP
 * API's candidate list. Pure.
 */
import type { Tier } from '../lesson/schema.js';
import type { CandidateRecord } from './merge-candidate.js';

/** The candidate shape of `lore scan --json` (the contract), plus nothing. */
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

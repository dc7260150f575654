/**
 * A candidate is a lesson record (valid against the lesson schema) with `needsReview` below the
 * confidence floor and a `capture` block saying how it was found. A repeat of the same pattern
 * (same content hash) merges into the existing candidate: occurrences, sessions and projects grow,
 * confidence and priority are recomputed, and the same episode seen twice (same anchor) changes
 * nothing.
 */
import { SCHEMA_VERSION } from '../lesson/schema.js';
import type { ScopeClass } from '../lesson/constants.js';
import { slugify } from '../lesson/lesson-id.js';
import type { CandidateDraft } from './draft-candidate.js';
import type { EpisodeKind, EpisodeSignals, EvidenceRef } from './episode.js';
import { mergeSignals, scoreConfidence, scorePriority } from './score.js';
import type { ConfidenceWeights, PriorityWeights } from './score.js';

export type CaptureInfo = {
  kind: EpisodeKind;
  tier: 1 | 2;
  agents: string[];
  tool?: string;
  trigger: string;
  signals: EpisodeSignals;
  projects: string[];
  /** `file:line` of every episode merged in (the newest 200). */
  anchors: string[];
  /** Transcript lines that show it (the first 20). */
  evidence: EvidenceRef[];
  firstSeen: string;
  lastSeen: string;
  /** Where the lesson belongs, as classified at capture (absent on candidates of older scans). */
  scope?: ScopeClass;
  scopeReason?: string;
};

export type CandidateRecord = Record<string, unknown> & {
  id: string;
  summary: string;
  confidence: number;
  priority: number;
  needsReview: boolean;
  occurrences: number;
  sourceSessions: string[];
  contentHash: string;
  capture: CaptureInfo;
};

export type ScoringConfig = {
  floor: number;
  confidence: ConfidenceWeights;
  priority: PriorityWeights;
};

export type MergeResult = { record: CandidateRecord; change: 'new' | 'merged' | 'unchanged' };

function union(list: readonly string[], item: string | undefined, max = 200): string[] {
  if (item === undefined || list.includes(item)) return [...list];
  return [...list, item].slice(-max);
}

export function scoreCandidate(record: CandidateRecord, scoring: ScoringConfig): CandidateRecord {
  const spread = {
    tier: record.capture.tier,
    sessions: record.sourceSessions.length,
    projects: record.capture.projects.length,
    occurrences: record.occurrences,
  };
  const confidence = scoreConfidence(record.capture.signals, spread, scoring.confidence);
  return {
    ...record,
    confidence,
    priority: scorePriority(record.capture.signals, spread, scoring.priority),
    needsReview: confidence < scoring.floor,
  };
}

export function mergeCandidate(
  draft: CandidateDraft,
  existing: CandidateRecord | undefined,
  context: { id: string; nowIso: string; tier: 'project' | 'user'; scoring: ScoringConfig },
): MergeResult {
  const seenAt = context.nowIso;
  if (existing) {
    if (existing.capture.anchors.includes(draft.anchor)) return { record: existing, change: 'unchanged' };
    const capture: CaptureInfo = {
      ...existing.capture,
      agents: union(existing.capture.agents, draft.agent),
      signals: mergeSignals(existing.capture.signals, draft.signals),
      projects: union(existing.capture.projects, draft.project),
      anchors: union(existing.capture.anchors, draft.anchor),
      evidence: [...existing.capture.evidence, ...draft.evidence].slice(0, 20),
      lastSeen: seenAt,
      scope: existing.capture.scope ?? draft.scope.scope,
      scopeReason: existing.capture.scopeReason ?? draft.scope.reason,
    };
    const merged: CandidateRecord = {
      ...existing,
      occurrences: existing.occurrences + 1,
      sourceSessions: union(existing.sourceSessions, draft.session),
      capture,
      updatedAt: seenAt,
    };
    return { record: scoreCandidate(merged, context.scoring), change: 'merged' };
  }
  const record: CandidateRecord = {
    schemaVersion: SCHEMA_VERSION,
    id: context.id,
    slug: slugify(draft.summary) || 'captured-lesson',
    summary: draft.summary,
    body: draft.body,
    ...(draft.mistake !== undefined ? { mistake: draft.mistake } : {}),
    ...(draft.remediation !== undefined ? { remediation: draft.remediation } : {}),
    tools: draft.tools,
    commands: draft.commands,
    paths: draft.paths,
    tags: draft.tags,
    category: draft.category,
    severity: draft.severity,
    type: 'hint',
    tier: context.tier,
    priority: 5,
    confidence: 0,
    needsReview: true,
    status: 'active',
    evidence: [{ kind: 'session', ref: draft.session, note: `${draft.agent} transcript` }],
    sourceSessions: [draft.session],
    occurrences: 1,
    contentHash: draft.contentHash,
    createdAt: seenAt,
    createdBy: 'lore scan',
    updatedAt: seenAt,
    capture: {
      kind: draft.kind,
      tier: draft.tier,
      agents: [draft.agent],
      ...(draft.tool !== undefined ? { tool: draft.tool } : {}),
      trigger: draft.trigger,
      signals: draft.signals,
      projects: draft.project === undefined ? [] : [draft.project],
      anchors: [draft.anchor],
      evidence: draft.evidence.slice(0, 20),
      firstSeen: seenAt,
      lastSeen: seenAt,
      scope: draft.scope.scope,
      scopeReason: draft.scope.reason,
    },
  };
  return { record: scoreCandidate(record, context.scoring), change: 'new' };
}

/** Review order: repeated first, then user-corrected, then priority, confidence, newest. */
export function compareCandidates(a: CandidateRecord, b: CandidateRecord): number {
  const repeated = (c: CandidateRecord) => (c.occurrences > 1 ? 1 : 0);
  const corrected = (c: CandidateRecord) => (c.capture.signals.userCorrection ? 1 : 0);
  return (
    repeated(b) - repeated(a) ||
    corrected(b) - corrected(a) ||
    b.occurrences - a.occurrences ||
    b.priority - a.priority ||
    b.confidence - a.confidence ||
    String(b.updatedAt).localeCompare(String(a.updatedAt)) ||
    a.id.localeCompare(b.id)
  );
}

/**
 * A candidate is a lesson record (valid against the lesson schema) with `needsReview` below the
 * confidence floor and a `capture` block saying how it was found. A repeat of the same pattern
 * (same content hash) merges into the existing candidate: occurrences, sessions and projects grow,
 * confidence and priority are recomputed, and the same episode seen twice (same anchor, or the
 * same session's line in a file of the same name read under another path) changes nothing. A #lesson block joined with the heuristic find of its episode also merges into the
 * candidate stored under the find's hash, and takes it over: the block's words and triggers, both
 * evidence lists (`takeOverBy`); so does the fix of a retry loop that an earlier scan, stopping
 * part way through the session, settled without it (`completesEpisode`).
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
  /**
   * Content hashes of the heuristic finds a #lesson block took over: a repeat of one merges
   * here, and approving or rejecting the candidate decides them too.
   */
  hashes?: string[];
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

/** The error patterns a merged candidate keeps (the newest). */
const MAX_ERRORS = 5;

/** A stored candidate's `errors` (none in a candidate written before the field). */
function errorsOf(record: CandidateRecord): string[] {
  const errors = record['errors'];
  return Array.isArray(errors) ? errors.filter((e): e is string => typeof e === 'string') : [];
}

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

/** Every content hash a candidate stands for: its own and those of the finds a block took over. */
export function candidateHashes(record: CandidateRecord): string[] {
  return [record.contentHash, ...(record.capture.hashes ?? [])];
}

/** Every content hash a draft stands for (a joined block: the heuristic find's too). */
export function draftHashes(draft: CandidateDraft): string[] {
  return [draft.contentHash, ...(draft.joined?.hashes ?? [])];
}

function unionAll(list: readonly string[], items: readonly string[], max = 200): string[] {
  return items.reduce<string[]>((out, item) => union(out, item, max), [...list]);
}

/** `file:line` anchors of the same line in files of the same name (the folders may differ). */
function sameFileLine(a: string, b: string): boolean {
  const name = (anchor: string) =>
    anchor.slice(Math.max(anchor.lastIndexOf('/'), anchor.lastIndexOf('\\')) + 1);
  return name(a) === name(b);
}

function dedupeRefs(refs: readonly EvidenceRef[]): EvidenceRef[] {
  const seen = new Set<string>();
  return refs.filter((ref) => {
    const key = `${ref.file}:${ref.line}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export function mergeCandidate(
  draft: CandidateDraft,
  existing: CandidateRecord | undefined,
  context: { id: string; nowIso: string; tier: 'project' | 'user'; scoring: ScoringConfig },
): MergeResult {
  const seenAt = context.nowIso;
  if (existing) {
    const anchors = [draft.anchor, ...(draft.joined?.anchors ?? [])];
    const sameEpisode =
      anchors.some((anchor) => existing.capture.anchors.includes(anchor)) ||
      // the same session's file read under another path (a symlinked folder, a moved or copied
      // transcript): the same episode, not a repeat
      (existing.sourceSessions.includes(draft.session) &&
        anchors.some((anchor) => existing.capture.anchors.some((known) => sameFileLine(known, anchor))));
    const takeOver = draft.kind === 'lesson-block' && existing.capture.kind !== 'lesson-block';
    const completed = sameEpisode && completesEpisode(existing, draft);
    if (sameEpisode && !takeOver && !completed) return { record: existing, change: 'unchanged' };
    const capture: CaptureInfo = {
      ...existing.capture,
      agents: union(existing.capture.agents, draft.agent),
      signals: mergeSignals(existing.capture.signals, draft.signals),
      projects: union(existing.capture.projects, draft.project),
      anchors: unionAll(existing.capture.anchors, anchors),
      evidence: dedupeRefs([...existing.capture.evidence, ...draft.evidence]).slice(0, 20),
      lastSeen: seenAt,
      scope: existing.capture.scope ?? draft.scope.scope,
      scopeReason: existing.capture.scopeReason ?? draft.scope.reason,
    };
    const merged: CandidateRecord = {
      ...existing,
      // A lesson found again from another failure waits for either failure's error.
      ...(errorsOf(existing).length > 0 && draft.errors.length > 0
        ? { errors: unionAll(errorsOf(existing), draft.errors, MAX_ERRORS) }
        : {}),
      // The same episode found again (a block joining the find of an earlier scan) is no repeat.
      occurrences: existing.occurrences + (sameEpisode ? 0 : 1),
      sourceSessions: union(existing.sourceSessions, draft.session),
      capture,
      updatedAt: seenAt,
    };
    const record = takeOver || completed ? takeOverBy(merged, draft) : withHashes(merged, draftHashes(draft));
    return { record: scoreCandidate(record, context.scoring), change: 'merged' };
  }
  const record: CandidateRecord = {
    schemaVersion: SCHEMA_VERSION,
    id: context.id,
    slug: slugify(draft.summary) || 'captured-lesson',
    ...draftContent(draft),
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
      anchors: unionAll([draft.anchor], draft.joined?.anchors ?? []),
      evidence: draft.evidence.slice(0, 20),
      firstSeen: seenAt,
      lastSeen: seenAt,
      scope: draft.scope.scope,
      scopeReason: draft.scope.reason,
      ...(draft.joined ? { hashes: draft.joined.hashes } : {}),
    },
  };
  return { record: scoreCandidate(record, context.scoring), change: 'new' };
}

/** The lesson fields a draft gives a candidate: words, triggers, tags, classification. */
function draftContent(draft: CandidateDraft) {
  return {
    summary: draft.summary,
    body: draft.body,
    ...(draft.mistake !== undefined ? { mistake: draft.mistake } : {}),
    ...(draft.remediation !== undefined ? { remediation: draft.remediation } : {}),
    tools: draft.tools,
    commands: draft.commands,
    paths: draft.paths,
    errors: draft.errors,
    ...(draft.agents !== undefined ? { agents: draft.agents } : {}),
    tags: draft.tags,
    category: draft.category,
    severity: draft.severity,
  };
}

/** `hashes` with the draft's hashes that are not the record's own. */
function withHashes(record: CandidateRecord, hashes: readonly string[]): CandidateRecord {
  const others = unionAll(record.capture.hashes ?? [], hashes).filter((h) => h !== record.contentHash);
  if (others.length === 0) return record;
  return { ...record, capture: { ...record.capture, hashes: others } };
}

/** Episodes settled without a fix: what a scan that stops part way through a session finds. */
const SETTLED_KINDS: ReadonlySet<EpisodeKind> = new Set(['retry-loop', 'timeout', 'self-diagnosis']);

/**
 * Whether `draft` is the fuller find of the episode `existing` was captured from: a scan that
 * stopped while the session was still being written settled its failures as they stood (three
 * failed tries: a retry loop), and the next scan read the call that fixed them. The fix's words
 * then replace the loop's ("Use `--env=node` …" rather than "Do not retry `npm test` …"), as one
 * scan of the whole session would have written them; not over a distilled text, which a person
 * asked for.
 */
function completesEpisode(existing: CandidateRecord, draft: CandidateDraft): boolean {
  const distill = existing['distill'];
  const distilled = typeof distill === 'object' && distill !== null && 'heuristic' in distill;
  return draft.kind === 'error-fix' && SETTLED_KINDS.has(existing.capture.kind) && !distilled;
}

/**
 * A candidate taken over by a draft of the same pattern (a #lesson block, or the fuller find of
 * the same episode): the draft's words, triggers, tags, hash and tier; the evidence, sessions and
 * occurrences of both. The old hash stays in `hashes`, so the old find merges here when it comes
 * again.
 */
function takeOverBy(record: CandidateRecord, draft: CandidateDraft): CandidateRecord {
  const { mistake: _mistake, remediation: _remediation, ...rest } = record;
  const taken: CandidateRecord = {
    ...rest,
    slug: slugify(draft.summary) || record.slug,
    ...draftContent(draft),
    contentHash: draft.contentHash,
    capture: {
      ...record.capture,
      kind: draft.kind,
      tier: draft.tier,
      trigger: draft.trigger,
      ...(draft.tool !== undefined ? { tool: draft.tool } : {}),
      scope: draft.scope.scope,
      scopeReason: draft.scope.reason,
    },
  };
  return withHashes(taken, [record.contentHash, ...draftHashes(draft)]);
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

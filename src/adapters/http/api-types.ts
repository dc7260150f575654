/**
 * The JSON the dashboard reads from the HTTP API, as types derived from the core and store code the
 * routes (api-routes.ts) call; each route's body `satisfies` its type there, so a route and the
 * dashboard cannot drift apart. Type-only: web/src imports them with `import type`, so a change to a
 * record breaks the dashboard's typecheck instead of its pages, and esbuild erases them.
 */
import type { lessonSource, Usage } from '../../core/analytics/summarize-usage.js';
import type { ListedCandidateJson } from '../../core/capture/candidate-json.js';
import type { CaptureInfo } from '../../core/capture/merge-candidate.js';
import type { DistillComparison } from '../../core/distill/distill-comparison.js';
import type { Lesson, Status, Tier } from '../../core/lesson/schema.js';
import type { Vote, VoteSummary } from '../../core/rank/votes.js';
import type { AuditRecord } from '../../store/hook-state/audit-log.js';
import type { LessonIndex, ListedLesson } from '../../store/index/lesson-index.js';
import type { explainCall } from '../../store/inject/explain-call.js';
import type { Feedback } from '../../store/lessons/feedback.js';
import type { GuardProposal, HeldLesson } from '../../store/feedback/held-lessons.js';
import type { ResolvedLesson } from '../../store/lessons/lesson-writes.js';

/** GET /api/status */
export type ServerStatus = {
  projectRoot: string | null;
  userTier: string;
  /** e.g. that this is the bundled sample corpus. */
  notice: string | null;
  tiers: Tier[];
};

/** A lesson in a list: the record, its file (as shown), its votes and what it matched by. */
export type LessonJson = ListedLesson['lesson'] & {
  file: string;
  votes: VoteSummary;
  matchedBy: ListedLesson['matchedBy'];
};

/** The counts above the lesson list. */
export type LessonStats = {
  total: number;
  active: number;
  superseded: number;
  archived: number;
  needsReview: number;
  lastIndexed: Awaited<ReturnType<LessonIndex['stats']>>['indexedAt'];
};

/** GET /api/lessons */
export type LessonList = {
  items: LessonJson[];
  total: number;
  offset: number;
  limit: number;
  stats: LessonStats;
  /** With `hybrid=1`: why the search gave BM25 results only, or which lessons wait for vectors. */
  notice?: string;
};

/** A time the hook injected (or denied with) the lesson, from the audit log. */
export type LessonFire = Pick<AuditRecord, 'time' | 'host' | 'event' | 'tool' | 'session'> & {
  denied: boolean;
  matched_by: string[];
};

/** One line of a lesson's history: created, updated, a vote, feedback or a git commit. */
export type LessonEvent = { at: string; kind: string; detail: string };

/** A lesson named by supersedes / supersededBy; `missing` when the id resolves to nothing. */
export type RelatedLesson = { id: string; summary: string; status: Status | 'missing' };

/** GET /api/lessons/:id */
export type LessonDetail = {
  lesson: Lesson;
  tier: ResolvedLesson['tier'];
  file: string;
  source: ReturnType<typeof lessonSource>;
  votes: VoteSummary & { votes: Vote[] };
  feedback: { helpful: number; notHelpful: number; items: Feedback[] };
  fires: { count: number; recent: LessonFire[] };
  history: LessonEvent[];
  supersededBy: RelatedLesson | null;
  supersedes: RelatedLesson[];
};

/** POST /api/lessons (201) */
export type CreatedLesson = {
  id: ResolvedLesson['id'];
  slug: Lesson['slug'];
  tier: Tier;
  file: string;
  lesson: Lesson;
};

/** A candidate in the review queue: the listed shape plus what the reviewer reads and edits. */
export type CandidateJson = ListedCandidateJson & {
  agents: CaptureInfo['agents'];
  mistake: string | null;
  remediation: string | null;
  tools: string[];
  commands: string[];
  paths: string[];
  tags: string[];
  lastSeen: CaptureInfo['lastSeen'];
  /** Capture's text beside the model's (`lore distill`), and the evidence both rest on. */
  distill: DistillComparison;
};

/**
 * GET /api/candidates. `held`: lessons held by their outcomes (their mistake kept coming back after
 * they were shown; not injected until kept with POST /api/lessons/:id/keep or archived), with the
 * transcript lines of the repeats; `guardProposals`: advisory lessons to make guards.
 */
export type CandidateList = {
  candidates: CandidateJson[];
  held?: HeldLesson[];
  guardProposals?: GuardProposal[];
};

/** POST /api/lessons/:id/keep */
export type KeptLesson = { id: string; tier: string; wasHeld: boolean };

/** POST /api/candidates/:id/approve (201): the lesson it became. */
export type ApprovedCandidate = CreatedLesson & { approved: ListedCandidateJson['id'] };

/** GET /api/explain: what the hook would do with one call, and why. */
export type Explanation = Awaited<ReturnType<typeof explainCall>>;

/** GET /api/analytics */
export type { Usage };

/** A lesson record as stored (the `lesson` of GET /api/lessons/:id). */
export type { Lesson };

/** The organisation routes of `lore serve --org` (the dashboard's Organisation page). */
export type { OrgLesson } from '../../store/org/org-lessons.js';
/** GET /api/org/whoami */
export type OrgWhoami = {
  org: string;
  user: string;
  role: 'read' | 'write' | 'curate' | 'admin';
  server: string;
};

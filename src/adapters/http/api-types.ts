/**
 * The JSON the dashboard reads from the HTTP API, as types derived from the core and store code the
 * routes (api-routes.ts) call; each route's body `satisfies` its type there, so a route and the
 * dashboard cannot drift apart. Type-only: web/src imports them with `import type`, so a change to a
 * record breaks the dashboard's typecheck instead of its pages, and esbuild erases them.
 */
import type { lessonSource, Usage } from '../../core/analytics/summarize-usage.js';
import type { WeeklyOutcomes } from '../../core/analytics/summarize-outcomes.js';
import type { Problem } from '../../core/errors.js';
import type { ReplayReport } from '../../core/replay/replay-report.js';
import type { LessonMeasures } from '../../store/lessons/lesson-measures.js';
import type { ListedCandidateJson } from '../../core/capture/candidate-json.js';
import type { CaptureInfo } from '../../core/capture/merge-candidate.js';
import type { DistillComparison } from '../../core/distill/distill-comparison.js';
import type { Lesson, Status, Tier } from '../../core/lesson/schema.js';
import type { Vote, VoteSummary } from '../../core/rank/votes.js';
import type { AuditRecord } from '../../store/hook-state/audit-log.js';
import type { LessonIndex, ListedLesson } from '../../store/index/lesson-index.js';
import type { explainCall } from '../../store/inject/explain-call.js';
import type { Feedback } from '../../store/lessons/feedback.js';
import type { GuardProposal, HeldLesson as OutcomeHeldLesson } from '../../store/feedback/held-lessons.js';
import type { ResolvedLesson } from '../../store/lessons/lesson-writes.js';
import type { HeldLesson, HeldLessons } from '../../store/lessons/held-lessons.js';
import type { Breadth } from '../../core/breadth/check-breadth.js';

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
  /** Lesson files that could not be loaded (so not in `items`), as `lore list --json` has them. */
  problems: Problem[];
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
  /** Its line of the last replay (`lore replay`), with the replay's date; null when none has it. */
  replay: LessonMeasures['replay'];
  lastReplayAt: LessonMeasures['lastReplayAt'];
  /** What outcome feedback (`lore scan`) concluded about its injections; null before any. */
  outcomes: LessonMeasures['outcomes'];
  /** A broken last replay or outcome records file, named. */
  problems: Problem[];
};

/** POST /api/lessons (201) */
export type CreatedLesson = {
  id: ResolvedLesson['id'];
  slug: Lesson['slug'];
  tier: Tier;
  file: string;
  lesson: Lesson;
  /** The breadth check of its trigger over the call cache (a too-broad one is a 409 `too-broad` unless `force`). */
  breadth: Breadth;
};

/** GET /api/review/held: lessons held for review (needsReview), with their outcomes' evidence. */
export type HeldLessonList = HeldLessons;
export type { HeldLesson, Breadth };

/** A candidate in the review queue: the listed shape plus what the reviewer reads and edits. */
export type CandidateJson = ListedCandidateJson & {
  agents: CaptureInfo['agents'];
  mistake: string | null;
  remediation: string | null;
  tools: string[];
  commands: string[];
  paths: string[];
  /** The error words capture gave it: approved, it waits for a call that printed one. */
  errors: string[];
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
  held?: OutcomeHeldLesson[];
  guardProposals?: GuardProposal[];
};

/** POST /api/lessons/:id/keep */
export type KeptLesson = { id: string; tier: string; wasHeld: boolean };

/** POST /api/candidates/:id/approve (201): the lesson it became. */
export type ApprovedCandidate = CreatedLesson & { approved: ListedCandidateJson['id'] };

/** GET /api/explain: what the hook would do with one call, and why. */
export type Explanation = Awaited<ReturnType<typeof explainCall>>;

/** GET /api/analytics: the audit log's numbers, and outcome feedback per ISO week. */
export type Analytics = Usage & {
  /** How many weeks `outcomesPerWeek` covers (`weeks=`, default 12). */
  weeks: number;
  /** Oldest first, zeros included: prevented (mistakes prevented), noise, repeated, unlinked. */
  outcomesPerWeek: WeeklyOutcomes[];
  /** Malformed lines skipped in outcomes.jsonl, per file. */
  outcomeProblems: Problem[];
};
export type { Usage, WeeklyOutcomes };

/** GET /api/replay: the last replay (`lore replay`), the file it was read from, broken files named. */
export type LastReplayJson = ReplayReport & { file: string; problems: Problem[] };
export type { LessonReplay, ReplaySuggestion } from '../../core/replay/replay-report.js';

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

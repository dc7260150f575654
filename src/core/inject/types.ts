/**
 * The hook's data: the events it handles, the manifest it reads, and the results each stage
 * hands to the next. Plain JSON-friendly shapes: the hook bundle imports nothing but these and
 * Node built-ins.
 */
import type { LiteralDomain, LiteralTable } from './literal-keys.js';

export const MANIFEST_VERSION = 8;

export const HOOK_EVENTS = ['PreToolUse', 'UserPromptSubmit', 'SessionStart', 'SubagentStart'] as const;
export type HookEventName = (typeof HOOK_EVENTS)[number];

export const SESSION_SOURCES = ['startup', 'resume', 'clear', 'compact', 'fork'] as const;
export type SessionSource = (typeof SESSION_SOURCES)[number];

export const HOSTS = ['claude-code', 'codex', 'gemini', 'cursor'] as const;
export type Host = (typeof HOSTS)[number];

/**
 * Which half of a tool call a host's hook sees, when it splits them: `before` can only deny
 * (Gemini's BeforeTool, Cursor's preToolUse: no context enters there), `after` can only add
 * context beside the result (Gemini's AfterTool, Cursor's postToolUse). Unset: one PreToolUse that
 * does both (Claude Code, Codex). `outcome`: a host that already ran one PreToolUse reports the
 * call's result (Claude Code's PostToolUseFailure, Codex's PostToolUse): only lessons that wait
 * for an error (`errors`) can match there; the rest spoke at PreToolUse.
 */
export type CallPhase = 'before' | 'after' | 'outcome';

/** A host's hook input, validated and bounded, in lore's terms. */
export type HookEvent = {
  event: HookEventName;
  sessionId: string;
  /** The agent whose context this is: `main`, or a subagent's id (its scope in the seen-set). */
  agentId: string;
  cwd: string;
  /** PreToolUse */
  tool?: string;
  command?: string;
  /** Paths from the tool input, repo-relative when inside the project (filled by the load stage). */
  paths?: string[];
  /** Edit/Write: the text the call would write (capped, see written-content.ts). */
  content?: string;
  /** UserPromptSubmit */
  prompt?: string;
  /** SessionStart */
  source?: SessionSource;
  /** PreToolUse on a host that splits the call (see `CallPhase`). */
  phase?: CallPhase;
  /** PreToolUse: the host's id of the tool call (Claude Code and Codex `tool_use_id`), when it sends one. */
  callId?: string;
  /** The session's transcript file, when the host names it (`transcript_path`). */
  transcriptPath?: string;
  /** A tool call's result, in the halves after it ran (`after`, `outcome`): its error or output, capped. */
  output?: string;
  /** The agent whose hook sent the event (absent: no agent's, as in `lore explain`): lessons scoped to others skip it. */
  host?: Host;
};

/** The injection settings, a snapshot of `inject.*` in the config. */
export type InjectSettings = {
  maxLessons: number;
  maxChars: number;
  sessionLessons: number;
  minConfidence: number;
  /** lessons-learned's `minPriority`: lessons below it are never injected (absent in old manifests). */
  minPriority?: number;
  compactForgetPriority: number;
  startupLessons: number;
  startupChars: number;
  guards: boolean;
};

export const DEFAULT_INJECT_SETTINGS: InjectSettings = {
  maxLessons: 3,
  maxChars: 4096,
  sessionLessons: 20,
  minConfidence: 0.5,
  minPriority: 1,
  compactForgetPriority: 7,
  startupLessons: 3,
  startupChars: 1500,
  guards: true,
};

/** One host output may carry at most this much context (Claude Code previews anything longer). */
export const HARD_MAX_CHARS = 10_000;

/** A lesson as the hook matches it: everything precompiled, nothing it does not need to match. */
export type ManifestLesson = {
  id: string;
  /** Its ordinal in the manifest: block `n / blockSize`, and the same place in the text blocks. */
  n: number;
  tier: 'project' | 'user' | 'org';
  priority: number;
  confidence: number;
  needsReview: boolean;
  guard: boolean;
  /**
   * A checkpoint lesson (absent: not one): it denies the first call of a session its commands,
   * paths or contents match, with the lesson as the reason, and is then shown like any lesson.
   */
  checkpoint?: boolean;
  /**
   * A guard's fix as the lesson names it, where its own commands match it (guard-fix.ts; absent:
   * none): a call that follows it is let through instead of denied.
   */
  fixes?: string[];
  /** Tool names (lowercase; `*` wildcards allowed), empty = any tool. */
  tools: string[];
  /** Command regex sources, as written. */
  commands: string[];
  /** Path globs as written, and their compiled regex sources (same order). */
  paths: string[];
  pathRegexes: string[];
  /**
   * Regex sources over the text a file-writing call would write (absent when none): with them the
   * lesson matches a tool call only when one matches, and its paths (if any) narrow that further.
   */
  contents?: string[];
  /**
   * Regex sources over a call's error or output, case-insensitive (absent when none): the lesson
   * waits for its mistake. It never matches before a call runs; after one its other triggers
   * match, it matches when one of these matches the call's result (`HookEvent.output`).
   */
  errors?: string[];
  tags: string[];
  stack: string[];
  /** The agents (hosts) it applies to (absent: every agent): another host's hook never matches it. */
  agents?: Host[];
  /** Lowercase summary keywords, for prompts. */
  words: string[];
  /** Precomputed rank base: priority, confidence, votes, stack boost. Higher first. */
  score: number;
  /**
   * The strength any tool-call match of this lesson has (3: command or path, 2: tool or lang tag,
   * 1: tool name only); with `score` and `id` it fixes the lesson's place in the rank order.
   */
  strength: number;
  /** The aggregated tool skill (`head.skills`) that holds this lesson: the hook points at it instead. */
  skill?: string;
};

/** An aggregated tool skill the agent can load (`lore aggregate` wrote it and it is current). */
export type ManifestSkill = {
  tool: string;
  /** SKILL.md, repo-relative. */
  path: string;
  /** How many lessons it holds. */
  lessons: number;
};

/** What a matched lesson says, read only for lessons that matched (text blocks). */
export type ManifestText = {
  slug: string;
  /** Full injection text and the one-line stand-in. */
  text: string;
  summary: string;
  /** The deny reason (guards and checkpoints only). */
  reason?: string;
  /** lesson.yaml's signature when built (mtime µs, size, inode), to notice an edited lesson. */
  sig: string;
  file: string;
};

/** A file whose signature the manifest was built against. */
export type SourceStamp = { path: string; sig: string };

export type ManifestHead = {
  version: number;
  /** Names the block directory of this build. */
  generation: string;
  builtAtMs: number;
  projectRoot: string | null;
  settings: InjectSettings;
  stack: string[];
  /** Cheap staleness check: stats of these (lessons dirs, configs, generation files). */
  sources: SourceStamp[];
  /** Lessons are stored once, in blocks of this many (ordinal `n` is in block `n / blockSize`). */
  blockSize: number;
  lessonCount: number;
  /**
   * The rank order: ordinals [0, guards) are the guards and checkpoints that can deny (they have
   * commands, paths or contents), [guards, ranked) every other lesson, each region sorted by strength, score and id, so
   * the hook can stop reading once the top lessons are settled. [ranked, lessonCount) is the
   * overflow: lessons added or changed by writes since the last full build, in no order (always
   * matched in full). Holes (archived since) are `null` in their block.
   */
  guards: number;
  ranked: number;
  /**
   * The literal index files of this build or patch in the generation directory, by domain (`c`
   * commands, `p` paths; absent: no key of that domain): literal keys and the ordinals filed under
   * them (literal-keys.ts, src/store/hook-state/literal-index.ts). Named here, in the head written
   * last, so a hook never reads a set of files a writer is still writing.
   */
  index: Partial<Record<LiteralDomain, string>>;
  /** exact keys (`tool:<name>`) -> ordinals. */
  keys: Record<string, string>;
  /** Lessons checked on every tool call (no usable literal). */
  always: string;
  /** SessionStart: the top project lessons, best first (ordinals), with their scores. */
  startup: number[];
  startupScores: number[];
  /** `capture.backgroundIntervalHours`: SessionStart starts `lore scan --background` at most this often. */
  scanIntervalHours?: number;
  /**
   * Blocks rewritten by incremental writes: block number -> the patch token naming its files now
   * (`b<n>-<token>.json`, `t<n>-<token>.json`); `words` -> the token of `words-<token>.json`.
   */
  patched: Record<string, string>;
  /** Changes with every build and patch; the writer's state file carries the same value. */
  revision?: string;
  /** Aggregated tool skills by name; lessons name theirs in `ManifestLesson.skill`. */
  skills?: Record<string, ManifestSkill>;
};

/** Lowercase summary word -> ordinals, for prompts (a separate file, read only for prompts). */
export type ManifestWords = Record<string, string>;

export type Manifest = {
  head: ManifestHead;
  /** Literal keys and the ordinals filed under them, packed by tool scope (literal-keys.ts; postings.ts). */
  literals: LiteralTable;
  words: ManifestWords;
  blocks: (ManifestLesson | null)[][];
  texts: (ManifestText | null)[][];
};

/** Reads the lesson at an ordinal (undefined for a hole); the load stage is pure given this. */
export type LessonReader = (n: number) => ManifestLesson | undefined;
/** Reads the text of the lesson at an ordinal. */
export type TextReader = (n: number) => ManifestText | undefined;

/** Why a lesson was shown. */
export type MatchReason = string;

export type Match = {
  lesson: ManifestLesson;
  matchedBy: MatchReason[];
  strength: number;
  text?: ManifestText;
};

export const SKIP_REASONS = [
  'already-shown',
  'shown-to-other-agent',
  'over-count',
  'over-budget',
  'call-denied',
  'over-session',
  'low-confidence',
  'low-priority',
  'needs-review',
  'stack-mismatch',
  'agent-mismatch',
  'guards-off',
  'state-unavailable',
  'in-skill',
  'after-call',
  'awaits-error',
  'follows-fix',
  'same-failure',
] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

export type Skip = {
  id: string;
  reason: SkipReason;
  matchedBy: MatchReason[];
  /** `in-skill`: the aggregated skill that stands in for the lesson. */
  skill?: string;
};

export type Included = {
  id: string;
  matchedBy: MatchReason[];
  /** What goes out: the full text, or the summary standing in for it. */
  text: string;
  form: 'full' | 'summary' | 'truncated';
  priority: number;
  /** A pointer to an aggregated tool skill (its `id` is the skill's name), standing in for these lessons. */
  skill?: { name: string; path: string; lessons: string[] };
  /** A denial by a checkpoint (once per session, claimed like advice); absent: a guard's, or advice. */
  kind?: 'checkpoint';
};

export type InjectionPlan = {
  included: Included[];
  /** Guard lessons denying this call, and checkpoints denying it as the session's first (`kind`). */
  denied: Included[];
  skipped: Skip[];
};

/** What one hook call decides, host-neutral; adapters turn it into the host's JSON. */
export type HookDecision = {
  event: HookEventName;
  /** The host's own event name when it differs from `event` (PostToolUseFailure answered as one). */
  hostEvent?: string;
  context?: string;
  deny?: string;
  plan: InjectionPlan;
};

/** Dedup state of one agent context in one session, as the plan stage sees it. */
export type SeenState = {
  /** Lesson ids already shown in this context. */
  seen: ReadonlySet<string>;
};

/** What a host adapter provides: input quirks in, the host's JSON out. Translation only. */
export type HookAdapter = {
  host: Host;
  /** Rewrites host-specific payload shapes into the common one (Claude Code's). */
  normalizeInput(raw: unknown): unknown;
  /** The host's own cap on one hook's context, in characters. */
  maxChars: number;
  /** Events the host can receive context for. */
  events: readonly HookEventName[];
  toOutput(decision: HookDecision): Record<string, unknown>;
  /** Which half of a tool call the raw payload is, on hosts that split it. */
  callPhase?(raw: unknown): CallPhase | undefined;
};

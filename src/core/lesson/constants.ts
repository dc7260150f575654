/**
 * The closed vocabularies and patterns of the lesson record, without zod: the hot read path
 * (list, search, show) imports these and never pays for loading the validator.
 */
export const SCHEMA_VERSION = 1;

/** org: the organisation's lessons, pulled from its server (`lore pull`), read-only here. */
export const TIERS = ['project', 'user', 'org'] as const;
export type Tier = (typeof TIERS)[number];
/** The tiers lore writes to on this machine (the org tier only receives pulls). */
export const OWN_TIERS = ['project', 'user'] as const;
export type OwnTier = (typeof OWN_TIERS)[number];

/**
 * Where a lesson belongs, as capture classifies it and `lore promote` / `lore demote` move it:
 * `project` (this repository's files, schemas, config), `user` (a library or framework: follows
 * you across repositories), `universal` (a process or method: a user-tier lesson meant to be
 * shared beyond this machine). Ordered from the narrowest reach to the widest.
 */
export const SCOPE_CLASSES = ['project', 'user', 'universal'] as const;
export type ScopeClass = (typeof SCOPE_CLASSES)[number];

/** Who decided a lesson's tier: `capture` (the classifier of `lore scan`), `human` (promote, demote). */
export const CLASSIFIERS = ['human', 'capture'] as const;
export type Classifier = (typeof CLASSIFIERS)[number];

export const STATUSES = ['active', 'superseded', 'archived'] as const;
export type Status = (typeof STATUSES)[number];

export const SEVERITIES = ['low', 'medium', 'high', 'critical'] as const;
export type LessonSeverity = (typeof SEVERITIES)[number];

/**
 * hint: advice; guard: denies every matching tool call; checkpoint: denies the first matching tool
 * call of a session with the lesson as the reason, then lets the calls after it through.
 */
export const LESSON_TYPES = ['hint', 'guard', 'checkpoint'] as const;
export type LessonType = (typeof LESSON_TYPES)[number];
/** What the `type` values mean, for --help, the schemas and the MCP tool descriptions. */
export const LESSON_TYPE_HELP =
  'hint: advice; guard: blocks every matching tool call; checkpoint: blocks the first matching call of a session, with the lesson as the reason';

export const CATEGORIES = [
  'technical',
  'anti-pattern',
  'architecture',
  'performance',
  'process',
  'collaboration',
  'security',
  'testing',
  'tooling',
] as const;
export type Category = (typeof CATEGORIES)[number];

export const EVIDENCE_KINDS = ['task', 'commit', 'session', 'file', 'url', 'issue', 'pr'] as const;

/** Ids: 10 characters of lowercase Crockford base32 (no i, l, o, u). */
export const ID_PATTERN = /^[0-9abcdefghjkmnpqrstvwxyz]{10}$/;
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const SUMMARY_MAX = 280;

/**
 * Characters no one-line text (a lesson's or a doc's summary) holds: control characters other than
 * whitespace, C0 and C1 (a bell, an escape, a CSI), DEL, and the Unicode line and paragraph
 * separators (JSON and the hook's output would carry them as line breaks a reviewer never saw).
 * NUL is refused on its own, in every field (schema.ts `nulPath`).
 */
// eslint-disable-next-line no-control-regex -- these are what it finds
export const INVISIBLE_IN_LINE = /[\u0001-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029]/;
/**
 * Bidirectional embedding, override and isolate controls (U+202A-U+202E, U+2066-U+2069): they make
 * text read differently from how it shows ("Trojan Source"), so a lesson a person reviewed could
 * tell the agent something else. No field of a lesson holds one.
 */
export const BIDI_CONTROL = /[\u202a-\u202e\u2066-\u2069]/;

/** The first character of `text` that `INVISIBLE_IN_LINE` finds, as `U+XXXX`; undefined when none. */
export function invisibleCharacter(text: string): string | undefined {
  const found = INVISIBLE_IN_LINE.exec(text)?.[0];
  return found === undefined
    ? undefined
    : `U+${found.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
}

// eslint-disable-next-line no-control-regex -- these are what it strips
const STRIPPED = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/**
 * `text` without what a summary may not hold (capture's and import's drafts, a doc's inferred
 * summary): control characters and bidirectional controls taken out, line separators made spaces.
 */
export function withoutInvisible(text: string): string {
  return text.replace(STRIPPED, '').replace(/[\u2028\u2029]/g, ' ');
}
/**
 * The longest body a write accepts, in characters. lesson.yaml is committed and every clone
 * carries it, so a pasted log belongs behind an evidence link (`file`, `url`), not in the body;
 * 64 Ki characters is several screens of Markdown. Lessons already on disk are not refused.
 */
export const BODY_MAX = 65_536;

/** Default weights of a capture candidate's confidence (config `capture.confidence`). */
export const CAPTURE_CONFIDENCE_DEFAULTS = {
  base: 0.4,
  tier1: 0.85,
  fixConfirmed: 0.2,
  userCorrection: 0.15,
  multiSession: 0.1,
  multiProject: 0.1,
  causal: 0.05,
  retry: 0.1,
  hang: 0.1,
} as const;

/** Default weights of a capture candidate's priority (config `capture.priority`). */
export const CAPTURE_PRIORITY_DEFAULTS = {
  base: 3,
  multiSession: 2,
  multiProject: 1,
  hang: 1,
  dataLoss: 1,
  userCorrection: 1,
  fixConfirmed: 1,
  selfReported: 1,
  singleOccurrence: -1,
} as const;

/** Who distills candidates (config `distill.provider`); `none` is off, the default. */
export const DISTILL_PROVIDERS = ['none', 'anthropic', 'openai', 'command'] as const;
export type DistillProviderName = (typeof DISTILL_PROVIDERS)[number];

/**
 * The distillation limits' defaults: small, so a first try costs cents, not dollars. A prompt is
 * 660-1,230 tokens (median 800) on the candidates of the test fixtures, so a call reserves about
 * 1,800 with the answer allowance, and 40,000 tokens a day admit the 20 calls.
 */
export const DISTILL_DEFAULTS = {
  timeoutSeconds: 60,
  maxOutputTokens: 1000,
  dailyCalls: 20,
  dailyTokens: 40_000,
} as const;

/** Who embeds lessons and docs for `lore search --hybrid` (config `embeddings.provider`); `none` is off. */
export const EMBEDDING_PROVIDERS = ['none', 'openai', 'ollama', 'local'] as const;
export type EmbeddingProviderName = (typeof EMBEDDING_PROVIDERS)[number];

/**
 * The `embeddings` config defaults: an even blend; a similarity floor under which the nearest
 * vectors are noise (every query has nearest neighbours, related or not); a duplicate needs far
 * more; batches small enough for a laptop's Ollama.
 */
export const EMBEDDING_DEFAULTS = {
  weight: 0.5,
  minSimilarity: 0.3,
  duplicateSimilarity: 0.9,
  batchSize: 32,
  timeoutSeconds: 30,
} as const;

/**
 * A fingerprint of the config's shape and defaults (the first 12 hex digits of the SHA-1 of
 * `JSON.stringify(defaultConfig())`). The parsed config is cached in `cache/config.json` under
 * it, so a lore that knows new config keys never reads a config parsed by an older one.
 * test/unit/config-fingerprint.test.ts fails, with the new value, when the config changes.
 */
export const CONFIG_FINGERPRINT = '8a82bd321342';

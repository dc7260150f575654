/**
 * The lesson record and the config file, defined once: the TypeScript types, the runtime
 * validation and the published JSON Schema (scripts/write-schemas.mjs) all come from here. The
 * lesson draft (what add and update take) is in draft-schema.ts.
 */
import { DOCS_DEFAULTS } from '../docs/docs-defaults.js';
import { z } from 'zod';

import {
  BIDI_CONTROL,
  CAPTURE_CONFIDENCE_DEFAULTS,
  CAPTURE_PRIORITY_DEFAULTS,
  CATEGORIES,
  CLASSIFIERS,
  DISTILL_DEFAULTS,
  DISTILL_PROVIDERS,
  EMBEDDING_DEFAULTS,
  EMBEDDING_PROVIDERS,
  ID_PATTERN,
  invisibleCharacter,
  LESSON_TYPE_HELP,
  LESSON_TYPES,
  SCHEMA_VERSION,
  SEVERITIES,
  SLUG_PATTERN,
  STATUSES,
  SUMMARY_MAX,
  TIERS,
} from './constants.js';
import { HOSTS } from '../inject/types.js';
import type { Host } from '../inject/types.js';
import { findBacktrackingRisk } from '../match/regex-safety.js';
import { findGlobSyntaxProblem } from '../match/glob-syntax.js';
import { ConfidenceSchema, EvidenceSchema, PrioritySchema } from './field-schemas.js';

export {
  CATEGORIES,
  EVIDENCE_KINDS,
  ID_PATTERN,
  LESSON_TYPES,
  SCHEMA_VERSION,
  SEVERITIES,
  SLUG_PATTERN,
  STATUSES,
  SUMMARY_MAX,
  TIERS,
} from './constants.js';
export type { Category, LessonSeverity, LessonType, Status, Tier } from './constants.js';
export { CLASSIFIERS, SCOPE_CLASSES } from './constants.js';
export type { Evidence } from './field-schemas.js';
export type { Classifier, ScopeClass } from './constants.js';

const isoTime = z.iso.datetime({ offset: true });

const singleLine = (max: number) =>
  z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(max, `must be at most ${max} characters`)
    .refine((s) => !/[\r\n]/.test(s), 'must be a single line')
    .superRefine((s, ctx) => {
      const code = invisibleCharacter(s);
      if (code !== undefined)
        ctx.addIssue({
          code: 'custom',
          message: `holds an invisible control character (${code}): remove it`,
        });
    });

/** A regular expression as it runs with `flags` (errors run case-insensitively). */
const regexSourceFor = (flags: string) =>
  z
    .string()
    .min(1, 'must not be empty')
    .superRefine((source, ctx) => {
      try {
        new RegExp(source, flags);
      } catch (error) {
        ctx.addIssue({
          code: 'custom',
          message: `is not a valid regular expression: ${(error as Error).message}`,
        });
        return;
      }
      const risk = findBacktrackingRisk(source, flags);
      if (risk !== undefined) ctx.addIssue({ code: 'custom', message: risk });
    });

const regexSource = regexSourceFor('');

const glob = z
  .string()
  .min(1, 'must not be empty')
  .refine((g) => !g.startsWith('/'), 'must be relative to the repository root (no leading /)')
  .refine((g) => !g.split('/').includes('..'), 'must not contain .. segments')
  .superRefine((g, ctx) => {
    const problem = findGlobSyntaxProblem(g);
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
  });

const tag = z
  .string()
  .min(1, 'must not be empty')
  .max(80, 'must be at most 80 characters')
  .regex(/^[^\s,]+$/, 'must not contain spaces or commas (use category:value, e.g. lang:python)');

const text = z.string().min(1, 'must not be empty');

/** A path inside the repository, for files lore writes there. */
const repoFile = z
  .string()
  .min(1, 'must not be empty')
  .refine((p) => !p.startsWith('/'), 'must be relative to the repository root (no leading /)')
  .refine((p) => !p.split(/[\\/]/).includes('..'), 'must not contain .. segments');

/** The instruction files agents without hooks read, which can hold a managed lesson section. */
export const AGENT_FILES = ['AGENTS.md', 'CLAUDE.md', 'GEMINI.md'] as const;
export type AgentFile = (typeof AGENT_FILES)[number];

/** The agents that read each instruction file: a lesson scoped to others stays out of its section. */
export const AGENT_FILE_READERS: Readonly<Record<AgentFile, readonly Host[]>> = {
  'AGENTS.md': ['codex', 'cursor'],
  'CLAUDE.md': ['claude-code'],
  'GEMINI.md': ['gemini'],
};

/**
 * Where a JSON value holds a NUL character (U+0000), in a string or a key, as a path of keys and
 * indexes (`['tags', 1]`); or undefined.
 */
export function nulPath(
  value: unknown,
  path: ReadonlyArray<string | number> = [],
): Array<string | number> | undefined {
  return pathWhere(value, (text) => text.includes('\u0000'), path);
}

/** A UTF-16 surrogate without its other half: no UTF-8 text can hold one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Where a JSON value holds a lone surrogate (`"\ud800"` in JSON or a YAML escape), in a string or
 * a key; or undefined. PostgreSQL's text and jsonb refuse one, so the organisation server checks.
 */
export function loneSurrogatePath(
  value: unknown,
  path: ReadonlyArray<string | number> = [],
): Array<string | number> | undefined {
  return pathWhere(value, (text) => LONE_SURROGATE.test(text), path);
}

export const LONE_SURROGATE_MESSAGE =
  'holds half of a UTF-16 surrogate pair (an escape such as \\ud800 with no partner), which is no character: remove it';

/** Where a JSON value (a string or a key in it) holds a bidirectional control (`BIDI_CONTROL`); or undefined. */
export function bidiPath(value: unknown): Array<string | number> | undefined {
  return pathWhere(value, (text) => BIDI_CONTROL.test(text), []);
}

function pathWhere(
  value: unknown,
  holds: (text: string) => boolean,
  path: ReadonlyArray<string | number>,
): Array<string | number> | undefined {
  if (typeof value === 'string') return holds(value) ? [...path] : undefined;
  if (value === null || typeof value !== 'object') return undefined;
  for (const [key, item] of Object.entries(value)) {
    const at = [...path, Array.isArray(value) ? Number(key) : key];
    if (holds(key)) return at;
    const found = pathWhere(item, holds, at);
    if (found !== undefined) return found;
  }
  return undefined;
}

export const BIDI_MESSAGE =
  'holds a bidirectional control character (U+202A-U+202E, U+2066-U+2069), which makes text read differently from how it shows: remove it';

/**
 * No lesson holds a NUL: it is never meant (a byte of captured binary output), the organisation's
 * PostgreSQL cannot store it, and the hook's manifest uses control characters as separators.
 */
export const NUL_MESSAGE = 'holds a NUL character (\\u0000): remove it';

/** Every field of a lesson, in the order lore writes them. Unknown fields survive with a warning. */
export const LessonSchema = z
  .looseObject({
    schemaVersion: z.literal(SCHEMA_VERSION).describe('Version of this schema.'),
    id: z.string().regex(ID_PATTERN, 'must be 10 characters of lowercase Crockford base32'),
    slug: z.string().regex(SLUG_PATTERN, 'must be lowercase words joined by hyphens').max(80),
    summary: singleLine(SUMMARY_MAX).describe('One line: what gets injected into the agent context.'),
    body: z.string().optional().describe('Markdown with the details; pulled on demand.'),
    mistake: text.optional().describe('What went wrong.'),
    remediation: text.optional().describe('What to do instead.'),
    context: text.optional().describe('COIA: the situation.'),
    observation: text.optional().describe('COIA: what was observed.'),
    implication: text.optional().describe('COIA: why it matters.'),
    action: text.optional().describe('COIA: what to do.'),
    tools: z.array(z.string().min(1)).default([]).describe('Agent tool names (Bash, Edit, ...).'),
    commands: z
      .array(regexSource)
      .default([])
      .describe('Regular expressions over a shell command; negative lookahead allowed.'),
    paths: z.array(glob).default([]).describe('Globs over repository-relative paths.'),
    contents: z
      .array(regexSource)
      .default([])
      .describe(
        'Regular expressions over the text an Edit or Write would write; a file-writing call matches only when one does.',
      ),
    errors: z
      .array(regexSourceFor('i'))
      .default([])
      .describe(
        "Regular expressions (case-insensitive) over a call's error or output: the lesson then waits for its mistake and speaks only after a call its other triggers match printed one, beside that result.",
      ),
    tags: z.array(tag).default([]).describe('Tags, preferably category:value (lang:python, tool:pytest).'),
    stack: z.array(z.string().min(1)).default([]).describe('Languages or frameworks this applies to.'),
    agents: z
      .array(z.enum(HOSTS))
      .default([])
      .describe(
        'The agents it applies to (claude-code, codex, gemini, cursor); empty: every agent. A hook of another agent never shows it.',
      ),
    symbols: z.array(z.string().min(1)).default([]).describe('Reserved: code symbols.'),
    category: z.enum(CATEGORIES).default('technical'),
    severity: z.enum(SEVERITIES).default('medium'),
    type: z.enum(LESSON_TYPES).default('hint').describe(`${LESSON_TYPE_HELP}.`),
    tier: z.enum(TIERS).default('project').describe('Where the lesson lives; the directory decides.'),
    universal: z
      .boolean()
      .optional()
      .describe(
        'User tier: meant to be shared beyond this machine (a process or method). Ignored in the project tier.',
      ),
    classifiedBy: z
      .enum(CLASSIFIERS)
      .optional()
      .describe('Who chose the tier: capture (lore scan classified it) or human (lore promote / demote).'),
    priority: PrioritySchema().default(5),
    confidence: ConfidenceSchema().default(0.9),
    needsReview: z.boolean().default(false),
    status: z.enum(STATUSES).default('active'),
    supersedes: z.array(z.string().regex(ID_PATTERN, 'must be a lesson id')).default([]),
    supersededBy: z.string().regex(ID_PATTERN, 'must be a lesson id').optional(),
    evidence: z.array(EvidenceSchema()).default([]),
    sourceSessions: z.array(z.string().min(1)).default([]),
    occurrences: z.number().int().min(0).default(1),
    contentHash: z.string().optional(),
    aliases: z
      .array(z.string().min(1))
      .optional()
      .describe(
        'Other names that resolve to this lesson, e.g. the id it had in the tool it was imported from (ADD L-001).',
      ),
    origin: z
      .looseObject({
        format: z
          .string()
          .min(1)
          .describe('The format it was imported from (orbit, lessons-learned, add, add-md, coia, cursor).'),
        id: z.string().min(1).optional().describe('Its id in that format.'),
        fields: z
          .record(z.string(), z.unknown())
          .optional()
          .describe(
            'What that format records and lore has no field for, kept so an export back is lossless.',
          ),
      })
      .optional()
      .describe('Where an imported lesson came from (`lore import --from`).'),
    createdAt: isoTime,
    createdBy: z.string().optional(),
    updatedAt: isoTime,
  })
  .superRefine((lesson, ctx) => {
    const at = nulPath(lesson);
    if (at !== undefined) ctx.addIssue({ code: 'custom', path: at, message: NUL_MESSAGE });
    const bidi = bidiPath(lesson);
    if (bidi !== undefined) ctx.addIssue({ code: 'custom', path: bidi, message: BIDI_MESSAGE });
  });
export type Lesson = z.infer<typeof LessonSchema>;
export type LessonFields = z.input<typeof LessonSchema>;

export const KNOWN_LESSON_KEYS: readonly string[] = Object.keys(LessonSchema.shape);

export const VoteSchema = z.object({
  model: z.string().min(1),
  task: z.string().min(1),
  at: isoTime,
});
export type Vote = z.infer<typeof VoteSchema>;

const weight = z.number().min(0).max(100);
const weight01 = z.number().min(0).max(1);
const priorityWeight = z.number().int().min(-10).max(10);
const CONFIDENCE_DEFAULTS = { ...CAPTURE_CONFIDENCE_DEFAULTS };
const PRIORITY_DEFAULTS = { ...CAPTURE_PRIORITY_DEFAULTS };

export const ConfigSchema = z.looseObject({
  search: z
    .object({
      limit: z.number().int().min(1).max(1000).default(10).describe('Default number of search results.'),
      weights: z
        .object({
          summary: weight.default(8),
          tags: weight.default(4),
          scope: weight.default(3),
          structured: weight.default(2),
          body: weight.default(1),
        })
        .default({ summary: 8, tags: 4, scope: 3, structured: 2, body: 1 })
        .describe('BM25 field weights.'),
    })
    .default({ limit: 10, weights: { summary: 8, tags: 4, scope: 3, structured: 2, body: 1 } }),
  votes: z
    .object({
      halfLifeDays: z
        .number()
        .min(0)
        .default(180)
        .describe('Half-life of a vote in days; 0 disables decay. LORE_VOTE_HALF_LIFE_DAYS overrides.'),
    })
    .default({ halfLifeDays: 180 }),
  defaults: z
    .object({
      category: z.enum(CATEGORIES).default('technical'),
      severity: z.enum(SEVERITIES).default('medium'),
      priority: z.number().int().min(1).max(10).default(5),
      confidence: z.number().min(0).max(1).default(0.9),
    })
    .default({ category: 'technical', severity: 'medium', priority: 5, confidence: 0.9 })
    .describe('Values `lore add` uses when a flag is not given.'),
  capture: z
    .object({
      confidenceFloor: z
        .number()
        .min(0)
        .max(1)
        .default(0.5)
        .describe('Candidates below this confidence are stored with needsReview.'),
      backgroundIntervalHours: z
        .number()
        .min(0)
        .default(24)
        .describe('`lore scan --background` runs at most once per this many hours; 0: every time.'),
      window: z
        .number()
        .int()
        .min(4)
        .max(500)
        .default(40)
        .describe('Events a failure stays open for its fix.'),
      maxCandidatesPerScan: z
        .number()
        .int()
        .min(1)
        .max(100_000)
        .default(50)
        .describe('At most this many new candidates per scan (lessons-learned: maxCandidatesPerScan).'),
      confidence: z
        .object({
          base: weight01.default(0.4),
          tier1: weight01.default(0.85),
          fixConfirmed: weight01.default(0.2),
          userCorrection: weight01.default(0.15),
          multiSession: weight01.default(0.1),
          multiProject: weight01.default(0.1),
          causal: weight01.default(0.05),
          retry: weight01.default(0.1),
          hang: weight01.default(0.1),
        })
        .default(CONFIDENCE_DEFAULTS)
        .describe('Confidence of a candidate: base (Tier 2) or tier1, plus each signal seen.'),
      priority: z
        .object({
          base: priorityWeight.default(3),
          multiSession: priorityWeight.default(2),
          multiProject: priorityWeight.default(1),
          hang: priorityWeight.default(1),
          dataLoss: priorityWeight.default(1),
          userCorrection: priorityWeight.default(1),
          fixConfirmed: priorityWeight.default(1),
          selfReported: priorityWeight.default(1),
          singleOccurrence: priorityWeight.default(-1),
        })
        .default(PRIORITY_DEFAULTS)
        .describe('Priority of a candidate (clamped to 1-10): base plus each signal seen.'),
    })
    .default({
      confidenceFloor: 0.5,
      backgroundIntervalHours: 24,
      window: 40,
      maxCandidatesPerScan: 50,
      confidence: CONFIDENCE_DEFAULTS,
      priority: PRIORITY_DEFAULTS,
    })
    .describe('`lore scan`: mining agent transcripts for lesson candidates.'),
  inject: z
    .object({
      maxLessons: z
        .number()
        .int()
        .min(1)
        .max(20)
        .default(3)
        .describe('At most this many lessons in one hook output.'),
      maxChars: z
        .number()
        .int()
        .min(200)
        .max(10_000)
        .default(4096)
        .describe(
          'Character budget of one hook output (never above 10,000: Claude Code previews longer ones).',
        ),
      sessionLessons: z
        .number()
        .int()
        .min(0)
        .max(1000)
        .default(20)
        .describe('At most this many lessons injected into one agent context per session.'),
      minConfidence: z
        .number()
        .min(0)
        .max(1)
        .default(0.5)
        .describe('Lessons below this confidence are never injected.'),
      minPriority: z
        .number()
        .int()
        .min(1)
        .max(10)
        .default(1)
        .describe('Lessons below this priority are never injected (lessons-learned: minPriority).'),
      compactForgetPriority: z
        .number()
        .int()
        .min(1)
        .max(11)
        .default(7)
        .describe(
          'After a compaction, lessons with at least this priority may be injected again (11: none).',
        ),
      startupLessons: z
        .number()
        .int()
        .min(0)
        .max(20)
        .default(3)
        .describe('Top project lessons shown at session start.'),
      startupChars: z
        .number()
        .int()
        .min(200)
        .max(10_000)
        .default(1500)
        .describe('Character budget of the session-start lessons.'),
      guards: z
        .boolean()
        .default(true)
        .describe(
          "false: guard lessons advise instead of denying the call (checkpoints still deny a session's first matching call).",
        ),
    })
    .default({
      maxLessons: 3,
      maxChars: 4096,
      sessionLessons: 20,
      minConfidence: 0.5,
      minPriority: 1,
      compactForgetPriority: 7,
      startupLessons: 3,
      startupChars: 1500,
      guards: true,
    })
    .describe('What the agent hooks inject, and how much.'),
  docs: z
    .object({
      roots: z
        .array(z.string().min(1))
        .default([...DOCS_DEFAULTS.roots])
        .describe(
          'Directories holding project Markdown docs, relative to the repository root; `*` matches one path segment.',
        ),
      hybridWeight: z
        .number()
        .min(0)
        .max(1)
        .default(DOCS_DEFAULTS.hybridWeight)
        .describe(
          'Weight of the body-level score in `lore search --kind doc --hybrid`; the lexical score gets the rest.',
        ),
      taskPrefixes: z
        .array(
          z.string().regex(/^[A-Za-z][A-Za-z0-9_]*$/, 'letters, digits and _ only, starting with a letter'),
        )
        .default([])
        .describe('Task id prefixes accepted in related_artifacts (`PROJ` accepts PROJ-123).'),
    })
    .default({ ...DOCS_DEFAULTS, roots: [...DOCS_DEFAULTS.roots], taskPrefixes: [] })
    .describe('The docs knowledge base: `lore docs`, `lore search --kind doc`.'),
  views: z
    .object({
      render: z
        .boolean()
        .default(false)
        .describe('Rewrite the LEARNINGS view (views.out) after every lesson write.'),
      out: repoFile
        .default('LEARNINGS.md')
        .describe('Where `lore render` writes, relative to the repository root.'),
      agentFiles: z
        .array(z.enum(AGENT_FILES))
        .default([])
        .describe(
          'Instruction files that get a managed lesson section (between lore:begin and lore:end markers) from `lore render` and, with views.render, after every write.',
        ),
      sectionLimit: z
        .number()
        .int()
        .min(1)
        .max(500)
        .default(50)
        .describe('At most this many lessons in a managed section (most severe, then newest).'),
      tiers: z
        .array(z.enum(TIERS))
        .min(1)
        .default(['project', 'user'])
        .describe('Whose lessons the views show: project, user or both.'),
    })
    .default({
      render: false,
      out: 'LEARNINGS.md',
      agentFiles: [],
      sectionLimit: 50,
      tiers: ['project', 'user'],
    })
    .describe('Markdown views of the lessons: `lore render`.'),
  aggregate: z
    .object({
      enabled: z
        .boolean()
        .default(false)
        .describe('Rewrite the aggregated tool skills after every lesson write.'),
      threshold: z
        .number()
        .int()
        .min(2)
        .max(1000)
        .default(5)
        .describe('A tool (tool:<name> tag) with at least this many active project lessons gets a skill.'),
      dir: repoFile
        .default('.claude/skills')
        .describe(
          'Skills folder, relative to the repository root; each skill is <dir>/lore-<tool>/SKILL.md.',
        ),
    })
    .default({ enabled: false, threshold: 5, dir: '.claude/skills' })
    .describe('`lore aggregate`: one agent skill per tool with many lessons; the hook points at it.'),
  prune: z
    .object({
      maxAgeDays: z
        .number()
        .int()
        .min(30, 'must be at least 30: lessons younger than 30 days are never archived by age')
        .default(365)
        .describe('`lore prune`: lessons created more than this many days ago may be archived by age.'),
      maxSeverity: z
        .enum(['low', 'medium'])
        .default('low')
        .describe('The age rule only archives lessons at or below this severity (never high or critical).'),
      taskPaths: z
        .array(
          z
            .string()
            .min(1)
            .includes('{task}', { message: 'must contain {task}' })
            .refine(
              (t) => !t.startsWith('/') && !t.split('/').includes('..'),
              'must stay inside the repository',
            ),
        )
        .default([])
        .describe(
          'Where evidence tasks live, as repository-relative paths with {task} (e.g. docs/tasks/{task}.md); empty: task evidence never makes a lesson stale.',
        ),
    })
    .default({ maxAgeDays: 365, maxSeverity: 'low', taskPaths: [] })
    .describe('`lore prune`: stale lessons and the age rule.'),
  duplicates: z
    .object({
      threshold: z
        .number()
        .min(0)
        .max(1)
        .default(0.4)
        .describe('Similarity (0-1) from which two lessons count as near-duplicates.'),
    })
    .default({ threshold: 0.4 })
    .describe('Near-duplicates: shown by `lore add` and candidate approval, listed by `lore dedupe`.'),
  distill: z
    .object({
      provider: z
        .enum(DISTILL_PROVIDERS)
        .default('none')
        .describe(
          'Who distills candidates: none (off), anthropic (Messages API), openai (any OpenAI-compatible chat completions endpoint: OpenAI, Ollama, vLLM, LM Studio) or command (your agent CLI in print mode).',
        ),
      model: z
        .string()
        .min(1)
        .optional()
        .describe('The model name the endpoint expects (anthropic, openai).'),
      baseUrl: z
        .url({ protocol: /^https?$/, message: 'must be an http(s) URL' })
        .optional()
        .describe(
          'The endpoint (default https://api.anthropic.com, https://api.openai.com/v1). Outside loopback, taken from the user config only.',
        ),
      apiKeyEnv: z
        .string()
        .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name')
        .optional()
        .describe(
          'The environment variable holding the API key (default ANTHROPIC_API_KEY, OPENAI_API_KEY); the key itself is never stored. User config only.',
        ),
      command: z
        .array(z.string().min(1))
        .min(1)
        .optional()
        .describe(
          'provider command: the program and its arguments; the prompt goes to its stdin (e.g. [claude, -p] or [codex, exec, "-"]). User config only.',
        ),
      timeoutSeconds: z
        .number()
        .int()
        .min(1)
        .max(600)
        .default(DISTILL_DEFAULTS.timeoutSeconds)
        .describe('Give up on one answer after this many seconds; the candidate stays as it was.'),
      maxOutputTokens: z
        .number()
        .int()
        .min(200)
        .max(8000)
        .default(DISTILL_DEFAULTS.maxOutputTokens)
        .describe('The longest answer asked for, in tokens.'),
      dailyCalls: z
        .number()
        .int()
        .min(0)
        .max(100_000)
        .default(DISTILL_DEFAULTS.dailyCalls)
        .describe('At most this many model calls per UTC day, on this machine.'),
      dailyTokens: z
        .number()
        .int()
        .min(0)
        .max(100_000_000)
        .default(DISTILL_DEFAULTS.dailyTokens)
        .describe('At most this many tokens (prompt and answer) per UTC day, on this machine.'),
    })
    .default({ provider: 'none', ...DISTILL_DEFAULTS })
    .describe(
      '`lore distill`: candidates rewritten by a model you configure (off by default; never called from a hook).',
    ),
  embeddings: z
    .object({
      provider: z
        .enum(EMBEDDING_PROVIDERS)
        .default('none')
        .describe(
          'Who embeds lessons and docs for `lore search --hybrid`: none (off: lexical search only), openai (any OpenAI-compatible /v1/embeddings endpoint: OpenAI, vLLM, LM Studio, Ollama), ollama (Ollama /api/embed) or local (a transformers.js model directory).',
        ),
      url: z
        .url({ protocol: /^https?$/, message: 'must be an http(s) URL' })
        .optional()
        .describe(
          'The endpoint (default https://api.openai.com/v1, http://127.0.0.1:11434). Outside loopback, taken from the user config only.',
        ),
      model: z.string().min(1).optional().describe('The embedding model the endpoint expects.'),
      path: z
        .string()
        .min(1)
        .optional()
        .describe('provider local: the directory holding the transformers.js model. User config only.'),
      apiKeyEnv: z
        .string()
        .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name')
        .optional()
        .describe(
          'The environment variable holding the API key (optional; openai reads OPENAI_API_KEY when unset and the endpoint is not loopback); the key itself is never stored. User config only.',
        ),
      weight: z
        .number()
        .min(0)
        .max(1)
        .default(EMBEDDING_DEFAULTS.weight)
        .describe(
          'Share of the semantic (cosine) score in `--hybrid` searches; the BM25 score gets the rest.',
        ),
      minSimilarity: z
        .number()
        .min(-1)
        .max(1)
        .default(EMBEDDING_DEFAULTS.minSimilarity)
        .describe(
          'Cosine similarity below which a lesson does not count as found by meaning (raise it for models whose unrelated texts score high).',
        ),
      duplicateSimilarity: z
        .number()
        .min(0)
        .max(1)
        .default(EMBEDDING_DEFAULTS.duplicateSimilarity)
        .describe(
          'Cosine similarity from which `lore dedupe` counts two embedded lessons as near-duplicates (paraphrases the word check misses).',
        ),
      batchSize: z
        .number()
        .int()
        .min(1)
        .max(512)
        .default(EMBEDDING_DEFAULTS.batchSize)
        .describe('Texts per embedding request in `lore sync --embed`.'),
      timeoutSeconds: z
        .number()
        .int()
        .min(1)
        .max(600)
        .default(EMBEDDING_DEFAULTS.timeoutSeconds)
        .describe(
          'Give up on one embedding request after this many seconds (search then falls back to lexical).',
        ),
    })
    .default({ provider: 'none', ...EMBEDDING_DEFAULTS })
    .describe(
      'Hybrid search: embeddings from a model you run (off by default; never called from a hook or a write).',
    ),
});
export type Config = z.infer<typeof ConfigSchema>;
export const KNOWN_CONFIG_KEYS: readonly string[] = Object.keys(ConfigSchema.shape);

export function defaultConfig(): Config {
  return ConfigSchema.parse({});
}

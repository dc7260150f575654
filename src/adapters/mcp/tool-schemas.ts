/**
 * The input and output schemas of `lore mcp`'s tools (zod; tools/list publishes them as JSON
 * Schema and every call is checked against them). Inputs are strict: an unknown key (an `id` for
 * lore_add, a misspelt field) is refused with a message naming the keys a tool takes. The lesson
 * fields are the one lesson draft (src/core/lesson/draft-schema.ts).
 *
 * Each schema is built the first time it is asked for (`SearchInput()`), not when `lore mcp`
 * loads: built all at once they took some 5 ms of every start, while the first lore_search needs
 * two of them; tools/list builds them all.
 */
import { z } from 'zod';
import { STATUSES, TIERS } from '../../core/lesson/constants.js';
import { LessonDraftSchema } from '../../core/lesson/draft-schema.js';
import { once } from '../../core/once.js';

const list = (what: string) => z.array(z.string().min(1)).describe(what);

/** The draft fields lore_add and lore_update take. */
const toolDraft = once(() =>
  LessonDraftSchema().pick({
    summary: true,
    body: true,
    mistake: true,
    remediation: true,
    tools: true,
    commands: true,
    paths: true,
    contents: true,
    errors: true,
    tags: true,
    stack: true,
    agents: true,
    category: true,
    severity: true,
    type: true,
    priority: true,
  }),
);

export const SearchInput = once(() =>
  z
    .strictObject({
      query: z
        .string()
        .describe('words to search for (BM25 over summary, scope, body); omit to list by scope'),
      tags: list('only lessons with all these tags'),
      path: z.string().min(1).describe('a file path: only lessons whose path globs match it'),
      tool: z.string().min(1).describe('a tool name: only lessons scoped to it'),
      command: z.string().min(1).describe('a shell command: only lessons whose command regexes match it'),
      status: z.enum([...STATUSES, 'any']).describe('default active'),
      limit: z.number().int().min(1).max(100).describe('default 10'),
      hybrid: z
        .boolean()
        .describe(
          'blend in meaning: cosine similarity of embeddings from the configured model (falls back to BM25 and says why)',
        ),
    })
    .partial(),
);

export const ListInput = once(() =>
  z
    .strictObject({
      status: z.enum([...STATUSES, 'any']).describe('default active'),
      tags: list('only lessons with all these tags'),
      path: z.string().min(1).describe('a file path: only lessons whose path globs match it'),
      tool: z.string().min(1).describe('a tool name: only lessons scoped to it'),
      tier: z.enum(TIERS),
      limit: z.number().int().min(1).max(500).describe('default 50'),
    })
    .partial(),
);

export const ShowInput = once(() =>
  z.strictObject({
    id: z.string().min(1).describe('a lesson id, a unique prefix of one, or a slug'),
  }),
);

export const AddInput = once(() =>
  z.strictObject({
    ...toolDraft().shape,
    summary: LessonDraftSchema().shape.summary.unwrap(),
    tier: z.enum(TIERS).optional().describe('default: project when the repository has .lore/, else user'),
    force: z
      .boolean()
      .optional()
      .describe(
        'save a trigger the breadth check finds too broad (it would fire on many recent calls, few at its mistake)',
      ),
  }),
);

export const UpdateInput = once(() =>
  z.strictObject({
    id: ShowInput().shape.id,
    ...toolDraft().shape,
    unset: z.array(z.string()).optional().describe('fields to remove (body, paths, ...)'),
    force: AddInput().shape.force,
  }),
);

export const SupersedeInput = once(() =>
  z.strictObject({
    id: z.string().min(1).describe('the lesson being replaced'),
    by: z.string().min(1).describe('the active lesson replacing it'),
  }),
);

export const UpvoteInput = once(() =>
  z.strictObject({
    id: ShowInput().shape.id,
    model: z.string().min(1).describe('the model or agent that was helped'),
    task: z.string().min(1).describe('the task it helped with (issue, PR, session id)'),
  }),
);

export const FeedbackInput = once(() =>
  z.strictObject({
    id: ShowInput().shape.id,
    helpful: z.boolean().describe('true: the lesson helped; false: it did not (or misled)'),
    task: z.string().min(1).describe('the task it was shown for'),
    note: z.string().optional().describe('why, in a sentence'),
    model: z.string().optional(),
  }),
);

const Learning = once(() =>
  z.object({ id: z.string(), summary: z.string(), matched_by: z.array(z.string()) }),
);

const Hit = once(() =>
  z.object({
    id: z.string(),
    slug: z.string(),
    summary: z.string(),
    tier: z.string(),
    status: z.string(),
    type: z.string(),
    category: z.string(),
    severity: z.string(),
    priority: z.number(),
    confidence: z.number(),
    tags: z.array(z.string()),
    paths: z.array(z.string()),
    votes: z.number(),
    matched_by: z.array(z.string()),
  }),
);

/** A file lore could not read whole (its file and line), as the CLI's `--json` reports it. */
const ProblemSchema = once(() =>
  z.object({
    file: z.string(),
    line: z.number().optional(),
    field: z.string().optional(),
    message: z.string(),
    severity: z.string(),
  }),
);

const StoreProblems = once(() =>
  z
    .array(ProblemSchema())
    .describe(
      'lesson files that could not be loaded (severity error: left out of the answer) and lines skipped (warning), each with its file and line: what `lore check` lists',
    ),
);

export const SearchOutput = once(() =>
  z.object({
    results: z.array(Hit().extend({ score: z.number() })),
    mode: z.enum(['lexical', 'hybrid']).optional(),
    fallback: z.string().optional().describe('why a hybrid search gave BM25 results only'),
    learnings: z.array(Learning()),
    hint: z.string(),
    problems: StoreProblems(),
  }),
);

export const ListOutput = once(() =>
  z.object({
    lessons: z.array(Hit()),
    total: z.number(),
    learnings: z.array(Learning()),
    problems: StoreProblems(),
  }),
);

/** A lesson's feedback as `lore show --json` reports it (the outcome counts are among the first two). */
const FeedbackSummary = once(() =>
  z.object({
    helpful: z.number(),
    notHelpful: z.number(),
    lastAt: z.string().nullable(),
    outcomeHelpful: z.number().describe('of those, the automatic verdicts from judged outcomes'),
    outcomeNotHelpful: z.number(),
  }),
);

const LessonRecord = once(() => z.looseObject({ id: z.string(), summary: z.string() }));

export const ShowOutput = once(() =>
  z.object({
    lesson: LessonRecord(),
    file: z.string(),
    votes: z.object({ count: z.number(), lastVotedAt: z.string().nullable(), score: z.number() }),
    feedback: FeedbackSummary(),
    times_injected: z.number(),
    last_injected_at: z.string().nullable(),
    replay: z
      .looseObject({ fires: z.number(), hits: z.number(), noise: z.number(), prevented: z.number() })
      .nullable()
      .describe(
        'its line of the last `lore replay` (fires, hits, noise, prevented, by delivery form), null if none',
      ),
    last_replay_at: z.string().nullable(),
    outcomes: z
      .looseObject({ prevented: z.number(), repeated: z.number(), noise: z.number() })
      .nullable()
      .describe('the judged outcomes of its injections and the automatic feedback they gave, null if none'),
    problems: z
      .array(ProblemSchema())
      .describe(
        'what could not be read about it: a votes line, the last replay or the outcomes file that is damaged (each named with its file and line)',
      ),
  }),
);

export const WriteOutput = once(() =>
  z.object({
    id: z.string(),
    tier: z.string(),
    file: z.string(),
    lesson: LessonRecord(),
    breadth: z
      .looseObject({ calls: z.number(), fires: z.number(), atMistake: z.number(), message: z.string() })
      .optional()
      .describe(
        'how often the trigger would have fired on the recent calls lore scan cached (when it was set or changed)',
      ),
  }),
);

export const SupersedeOutput = once(() => z.object({ old: LessonRecord(), replacement: LessonRecord() }));

export const UpvoteOutput = once(() =>
  z.object({
    id: z.string(),
    recorded: z.boolean(),
    votes: z.object({ count: z.number(), lastVotedAt: z.string().nullable(), score: z.number() }),
  }),
);

export const FeedbackOutput = once(() =>
  z.object({
    id: z.string(),
    recorded: z.boolean(),
    confidence: z.object({ before: z.number(), after: z.number() }),
    feedback: FeedbackSummary(),
  }),
);

const DOC_TYPE_VALUES = ['design', 'pattern', 'context', 'glossary', 'runbook'] as const;

export const DocsListInput = once(() =>
  z
    .strictObject({
      type: z.enum(DOC_TYPE_VALUES).describe('only docs of this type'),
      tags: list('only docs with all these tags'),
      limit: z.number().int().min(1).max(1000).describe('default 200'),
    })
    .partial(),
);

export const DocsShowInput = once(() =>
  z.strictObject({
    path: z.string().min(1).describe('the doc, relative to the repository root (docs/design/auth/login.md)'),
  }),
);

export const DocsAddInput = once(() =>
  z.strictObject({
    dir: z.string().min(1).describe('a directory of the repository to register as a docs root (handbook)'),
  }),
);

export const DocsAddOutput = once(() =>
  z.object({
    root: z.string(),
    added: z.boolean(),
    roots: z.array(z.string()),
    configFile: z.string(),
  }),
);

export const DocsIndexInput = once(() =>
  z.strictObject({
    force: z.boolean().optional().describe('re-read every doc, not only the changed ones'),
  }),
);

export const DocsIndexOutput = once(() =>
  z.object({
    indexed: z.number(),
    unchanged: z.number(),
    removed: z.number(),
    total: z.number(),
    skippedRoots: z.array(z.object({ root: z.string(), reason: z.string() })),
  }),
);

export const DocsMigrateInput = once(() =>
  z.strictObject({
    dryRun: z.boolean().optional().describe('report the unified diff of each doc, write nothing'),
  }),
);

export const DocsMigrateOutput = once(() =>
  z.object({
    dryRun: z.boolean(),
    changed: z.array(z.object({ path: z.string(), added: z.array(z.string()), diff: z.string() })),
    unchanged: z.number(),
    notUtf8: z.array(z.string()).describe('docs left alone byte for byte because they are not UTF-8'),
    problems: z
      .array(
        z.object({
          file: z.string(),
          line: z.number().optional(),
          field: z.string().optional(),
          message: z.string(),
          severity: z.string(),
        }),
      )
      .describe(
        'what a person must fix (a frontmatter lore cannot read, one never closed) and what was left alone (not UTF-8, changed while migrating), each with its file and line',
      ),
  }),
);

export const DocsSearchInput = once(() =>
  z.strictObject({
    query: z
      .string()
      .min(1)
      .describe('words to find in summaries and tags (and, with hybrid, in the bodies)'),
    hybrid: z.boolean().optional().describe('blend in BM25 over the doc bodies (needs `lore docs index`)'),
    limit: z.number().int().min(1).max(100).optional().describe('default 10'),
  }),
);

const DocHit = once(() =>
  z.object({
    path: z.string(),
    type: z.string(),
    summary: z.string(),
    tags: z.array(z.string()),
    paths: z.array(z.string()),
    related_features: z.array(z.string()),
    related_artifacts: z.array(z.string()),
    source: z.string().describe('frontmatter, partial (some fields inferred) or inferred'),
  }),
);

export const DocsListOutput = once(() => z.object({ docs: z.array(DocHit()), total: z.number() }));

export const DocsShowOutput = once(() =>
  z.object({
    doc: DocHit(),
    body: z.string(),
    problems: z.array(
      z.object({ line: z.number().optional(), field: z.string().optional(), message: z.string() }),
    ),
  }),
);

export const DocsSearchOutput = once(() =>
  z.object({
    mode: z.enum(['lexical', 'hybrid']),
    fallback: z.string().optional(),
    semantic: z
      .string()
      .optional()
      .describe('why a hybrid search did not use meaning (no embeddings, none embedded)'),
    results: z.array(DocHit().extend({ score: z.number(), matched_by: z.array(z.string()) })),
  }),
);

/** How to call each tool: appended to every error so the agent can retry correctly. */
export const TOOL_USAGE: Readonly<Record<string, string>> = {
  lore_search:
    'lore_search {"query"?: string, "tags"?: string[], "path"?: string, "tool"?: string, "command"?: string, "status"?: "active"|"superseded"|"archived"|"any", "limit"?: 1-100, "hybrid"?: boolean}',
  lore_list:
    'lore_list {"status"?: "active"|"superseded"|"archived"|"any", "tags"?: string[], "path"?: string, "tool"?: string, "tier"?: "project"|"user"|"org", "limit"?: 1-500}',
  lore_show: 'lore_show {"id": "<id, id prefix or slug>"}',
  lore_add:
    'lore_add {"summary": "<one line>", "body"?, "mistake"?, "remediation"?, "tools"?, "commands"?, "paths"?, "contents"?, "errors"?, "tags"?, "stack"?, "agents"?: ["claude-code"|"codex"|"gemini"|"cursor"], "category"?, "severity"?, "type"?: "hint"|"guard"|"checkpoint", "priority"?: 1-10, "tier"?} (no "id": lore allocates it)',
  lore_update: 'lore_update {"id": "<id>", <any lore_add field>..., "unset"?: ["body", ...]}',
  lore_supersede: 'lore_supersede {"id": "<old id>", "by": "<new active id>"}',
  lore_upvote: 'lore_upvote {"id": "<id>", "model": "<model>", "task": "<task>"}',
  lore_feedback: 'lore_feedback {"id": "<id>", "helpful": true|false, "task": "<task>", "note"?: "<why>"}',
  lore_docs_list:
    'lore_docs_list {"type"?: "design"|"pattern"|"context"|"glossary"|"runbook", "tags"?: string[], "limit"?: 1-1000}',
  lore_docs_show: 'lore_docs_show {"path": "<repo-relative path of a doc under the docs roots>"}',
  lore_docs_search: 'lore_docs_search {"query": "<words>", "hybrid"?: boolean, "limit"?: 1-100}',
  lore_docs_add: 'lore_docs_add {"dir": "<repo-relative directory>"}',
  lore_docs_index: 'lore_docs_index {"force"?: boolean}',
  lore_docs_migrate: 'lore_docs_migrate {"dryRun"?: boolean}',
};

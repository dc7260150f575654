/**
 * The lesson draft: what a person or an agent sets when adding or changing a lesson, defined once
 * for every surface (`lore add` / `lore update` flags, the MCP tools' input schemas, the HTTP
 * API's body check and its OpenAPI document).
 *
 * Its own file, apart from schema.ts, because `lore mcp` publishes these schemas at start-up,
 * and loading schema.ts (the record and the config, with the regex safety check) costs some 14 ms
 * as ES modules: the server loads it only once a tool reads or writes a lesson file. The hook's
 * background rebuilder bundles schema.ts and not this file.
 */
import { z } from 'zod';
import { CATEGORIES, LESSON_TYPE_HELP, LESSON_TYPES, SEVERITIES, SUMMARY_MAX } from './constants.js';
import { once } from '../once.js';
import { ConfidenceSchema, EvidenceSchema, PrioritySchema } from './field-schemas.js';
import { HOSTS } from '../inject/types.js';

const list = (what: string) => z.array(z.string()).describe(what);

/**
 * Each field's type, choices and ranges; lore fills in everything else. The store trims, lowercases
 * tags and drops empty items, then checks the whole record against LessonSchema (globs, regex
 * safety, a one-line summary), so those rules live there only.
 */
export const LessonDraftSchema = once(() =>
  z
    .strictObject({
      summary: z
        .string()
        .max(SUMMARY_MAX, `must be at most ${SUMMARY_MAX} characters`)
        .describe(`one line the agent should read (at most ${SUMMARY_MAX} characters)`),
      slug: z.string().describe('a readable handle (default: from the summary)'),
      body: z.string().describe('markdown details, pulled on demand'),
      mistake: z.string().describe('what went wrong'),
      remediation: z.string().describe('what to do instead'),
      context: z.string().describe('COIA: the situation'),
      observation: z.string().describe('COIA: what was observed'),
      implication: z.string().describe('COIA: why it matters'),
      action: z.string().describe('COIA: what to do'),
      tools: list('tool names the lesson applies to (Bash, Edit, ...)'),
      commands: list('regular expressions over a shell command'),
      paths: list('globs over repository-relative paths'),
      contents: list('regular expressions over the text an Edit or Write would write'),
      errors: list(
        "regular expressions over a call's error or output: the lesson speaks only after one appears",
      ),
      tags: list('tags, preferably category:value (lang:python)'),
      stack: list('languages or frameworks'),
      agents: z
        .array(z.enum(HOSTS))
        .describe('the agents it applies to (claude-code, codex, gemini, cursor); empty: every agent'),
      category: z.enum(CATEGORIES),
      severity: z.enum(SEVERITIES),
      type: z.enum(LESSON_TYPES).describe(LESSON_TYPE_HELP),
      priority: PrioritySchema(),
      confidence: ConfidenceSchema().describe(
        'how sure the lesson is, 0-1; below inject.minConfidence it is never injected',
      ),
      needsReview: z.boolean().describe('true: never injected until a person reviewed it'),
      evidence: z
        .array(EvidenceSchema())
        .describe('what the lesson rests on: tasks, commits, sessions, files, URLs'),
    })
    .partial(),
);
export type LessonDraft = z.infer<ReturnType<typeof LessonDraftSchema>>;
export type DraftField = keyof LessonDraft;

/** The draft's fields, in the order lore writes them (the schema's own order: a test checks). */
export const DRAFT_FIELDS: readonly DraftField[] = [
  'summary',
  'slug',
  'body',
  'mistake',
  'remediation',
  'context',
  'observation',
  'implication',
  'action',
  'tools',
  'commands',
  'paths',
  'contents',
  'errors',
  'tags',
  'stack',
  'agents',
  'category',
  'severity',
  'type',
  'priority',
  'confidence',
  'needsReview',
  'evidence',
];

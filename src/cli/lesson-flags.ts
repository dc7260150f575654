/**
 * The lesson field flags shared by `lore add`, `lore update` and `lore candidates approve`: their
 * translation to a draft, and the store's errors about fields worded as these flags.
 */
import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { LoreError } from '../core/errors.js';
import { HOSTS } from '../core/inject/types.js';
import type { Host } from '../core/inject/types.js';
import {
  BODY_MAX,
  CATEGORIES,
  EVIDENCE_KINDS,
  LESSON_TYPE_HELP,
  LESSON_TYPES,
  SEVERITIES,
} from '../core/lesson/constants.js';
import type { LessonDraft } from '../core/lesson/draft-schema.js';
import type { Evidence } from '../core/lesson/schema.js';
import { bodyTooLong, FieldError } from '../store/lessons/lesson-writes.js';
import { choiceOption, flagOption, listOption, numberOption, stringOption } from './command.js';
import type { CommandContext, OptionSpec, ParsedArgs } from './command.js';

export const LESSON_OPTIONS: Record<string, OptionSpec> = {
  summary: { type: 'string', value: 'TEXT', description: 'one line (<= 280 chars): what the agent is shown' },
  body: { type: 'string', value: 'TEXT', description: 'details in Markdown, pulled on demand' },
  'body-file': { type: 'string', value: 'F', description: 'read the body from file F (- for stdin)' },
  mistake: { type: 'string', value: 'TEXT', description: 'what went wrong' },
  remediation: { type: 'string', value: 'TEXT', description: 'what to do instead' },
  tool: {
    type: 'string',
    multiple: true,
    value: 'T',
    description: 'agent tool it applies to (Bash, Edit, ...); repeatable',
  },
  command: {
    type: 'string',
    multiple: true,
    value: 'REGEX',
    description: 'regex over shell commands; repeatable',
  },
  path: { type: 'string', multiple: true, value: 'GLOB', description: 'repo-relative path glob; repeatable' },
  content: {
    type: 'string',
    multiple: true,
    value: 'REGEX',
    description: 'regex over the text an Edit or Write would write (matches only such calls); repeatable',
  },
  error: {
    type: 'string',
    multiple: true,
    value: 'REGEX',
    description:
      "regex (case-insensitive) over a call's error or output: the lesson waits for that mistake and speaks beside its result; repeatable",
  },
  tag: {
    type: 'string',
    multiple: true,
    value: 'T',
    description: 'tag, preferably category:value (lang:python); repeatable',
  },
  stack: {
    type: 'string',
    multiple: true,
    value: 'S',
    description: 'language or framework (python, react); repeatable',
  },
  agent: {
    type: 'string',
    multiple: true,
    value: 'A',
    description: `only in this agent's sessions (${HOSTS.join(', ')}); repeatable; none: every agent`,
  },
  category: { type: 'string', value: 'C', description: CATEGORIES.join(' | ') },
  severity: { type: 'string', value: 'S', description: SEVERITIES.join(' | ') },
  priority: { type: 'string', value: 'N', description: 'priority 1-10 (higher first)' },
  confidence: { type: 'string', value: 'X', description: 'confidence 0-1' },
  type: {
    type: 'string',
    value: LESSON_TYPES.join('|'),
    description: LESSON_TYPE_HELP,
  },
  evidence: {
    type: 'string',
    multiple: true,
    value: 'kind=ref',
    description: `evidence (${EVIDENCE_KINDS.join(', ')}); repeatable`,
  },
  slug: { type: 'string', value: 'SLUG', description: 'readable handle (default: from the summary)' },
  'needs-review': { type: 'boolean', description: 'mark as needing human review (never injected)' },
};

function parseEvidence(raw: string): Evidence {
  const eq = raw.indexOf('=');
  const kind = eq > 0 ? raw.slice(0, eq) : '';
  const ref = eq > 0 ? raw.slice(eq + 1) : '';
  if (!(EVIDENCE_KINDS as readonly string[]).includes(kind) || ref.trim() === '') {
    throw new LoreError(
      'usage',
      `--evidence must be kind=ref with kind one of ${EVIDENCE_KINDS.join(', ')}; got "${raw}"`,
      {
        hint: 'e.g. --evidence commit=3f2a9c1 --evidence task=PROJ-42',
      },
    );
  }
  return { kind: kind as Evidence['kind'], ref: ref.trim() };
}

function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0; // the read below reports what is wrong with it
  }
}

export async function draftFromArgs(ctx: CommandContext, args: ParsedArgs): Promise<LessonDraft> {
  const draft: LessonDraft = {};
  const summary = stringOption(args, 'summary');
  if (summary !== undefined) draft.summary = summary;
  const body = stringOption(args, 'body');
  const bodyFile = stringOption(args, 'body-file');
  if (body !== undefined && bodyFile !== undefined) {
    throw new LoreError('usage', 'give --body or --body-file, not both');
  }
  if (body !== undefined) draft.body = body;
  if (bodyFile !== undefined) {
    // Refused before reading: a 30 MB log must not be loaded only to be turned away.
    // Past 4 bytes a character no UTF-8 text of that size fits; smaller files are counted below.
    const size = bodyFile === '-' ? 0 : fileSize(resolve(ctx.cwd, bodyFile));
    if (size > BODY_MAX * 4)
      throw bodyTooLong(size, 'bytes').inTermsOf((f) =>
        f === 'body' ? `--body-file ${bodyFile}` : fieldToFlag(f),
      );
    try {
      draft.body =
        bodyFile === '-' ? await ctx.readStdin() : readFileSync(resolve(ctx.cwd, bodyFile), 'utf8');
    } catch (error) {
      throw new LoreError(
        'usage',
        `cannot read --body-file ${bodyFile}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      );
    }
  }
  for (const key of ['mistake', 'remediation', 'slug'] as const) {
    const value = stringOption(args, key);
    if (value !== undefined) draft[key] = value;
  }
  const lists = {
    tools: 'tool',
    commands: 'command',
    paths: 'path',
    contents: 'content',
    errors: 'error',
    tags: 'tag',
    stack: 'stack',
  } as const;
  for (const [field, flag] of Object.entries(lists) as [keyof typeof lists, string][]) {
    const values = listOption(args, flag);
    // An empty value (`--path "$FILE"` with FILE unset) would be dropped in silence: the lesson
    // saved without the trigger or tag it was meant to have.
    if (values?.some((value) => value.trim() === ''))
      throw new LoreError('usage', `--${flag} needs a value, got an empty one`, {
        hint: `leave --${flag} out; to empty the list of a lesson, \`lore update ID --unset ${field}\``,
      });
    if (values !== undefined)
      draft[field] = values.flatMap((value) =>
        flag === 'tag' || flag === 'stack' ? value.split(',') : [value],
      );
  }
  const agents = listOption(args, 'agent')?.flatMap((value) => value.split(','));
  if (agents !== undefined) {
    const unknown = agents.filter((agent) => !(HOSTS as readonly string[]).includes(agent));
    if (unknown.length > 0)
      throw new LoreError('usage', `--agent ${unknown[0]}: expected one of ${HOSTS.join(', ')}`);
    draft.agents = agents as Host[];
  }
  const category = choiceOption(args, 'category', CATEGORIES);
  if (category) draft.category = category;
  const severity = choiceOption(args, 'severity', SEVERITIES);
  if (severity) draft.severity = severity;
  const type = choiceOption(args, 'type', LESSON_TYPES);
  if (type) draft.type = type;
  const priority = numberOption(args, 'priority', { integer: true, min: 1, max: 10 });
  if (priority !== undefined) draft.priority = priority;
  const confidence = numberOption(args, 'confidence', { min: 0, max: 1 });
  if (confidence !== undefined) draft.confidence = confidence;
  const evidence = listOption(args, 'evidence');
  if (evidence) draft.evidence = evidence.map(parseEvidence);
  if (flagOption(args, 'needs-review')) draft.needsReview = true;
  return draft;
}

/** `commands.1` -> `--command #2`: the CLI's errors speak the language of the flags. */
export function fieldToFlag(field: string): string {
  const [head, index] = field.split('.');
  const flags: Record<string, string> = {
    tools: '--tool',
    commands: '--command',
    paths: '--path',
    contents: '--content',
    errors: '--error',
    tags: '--tag',
    stack: '--stack',
    agents: '--agent',
    evidence: '--evidence',
    needsReview: '--needs-review',
  };
  const flag = flags[head ?? ''] ?? `--${head ?? field}`;
  return index === undefined ? flag : `${flag} #${Number(index) + 1}`;
}

/** The store names fields (`paths[0]`); a command taking lesson flags rethrows its errors with this. */
export function inFlagTerms(error: unknown): unknown {
  return error instanceof FieldError ? error.inTermsOf(fieldToFlag) : error;
}

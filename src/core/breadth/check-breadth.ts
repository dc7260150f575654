/**
 * The breadth check at authoring: how often a lesson's trigger would have fired on the recent
 * calls `lore scan` cached, and how many of those fires were at the lesson's own mistake (a failed
 * call whose error class is the class of the lesson's `mistake`). The trigger runs through the
 * hook's own matcher (`createMatcher`), compiled the way the manifest compiles a lesson. A trigger
 * that fires on more than `BREADTH_MAX_SHARE` of the calls with fewer than
 * `BREADTH_MIN_AT_MISTAKE` of its fires at its mistake is too broad: saving it asks for `--force`.
 * Pure: a draft and calls in, figures and a message out.
 */
import { createMatcher } from '../inject/create-matcher.js';
import type { LessonMatcher } from '../inject/create-matcher.js';
import { normalizeTool } from '../inject/tool-names.js';
import type { HookEvent, ManifestLesson } from '../inject/types.js';
import { compileGlob } from '../match/glob.js';
import { mistakeClass, sameErrorClass } from '../outcome/error-class.js';
import type { CachedCall } from './cached-call.js';

/** More than this share of the calls (1%) is a broad trigger... */
export const BREADTH_MAX_SHARE = 0.01;
/** ...unless at least this share of its fires (a third) were at its mistake. */
export const BREADTH_MIN_AT_MISTAKE = 1 / 3;

/** The fields of a lesson that decide where it fires: a change to one runs the breadth check. */
export const TRIGGER_FIELDS = [
  'tools',
  'commands',
  'paths',
  'contents',
  'errors',
  'tags',
  'mistake',
] as const;

type TriggerDraft = Readonly<Partial<Record<(typeof TRIGGER_FIELDS)[number], unknown>>>;

/** Whether an update (`draft` fields replace, `unset` ones go) changes a lesson's trigger. */
export function touchesTrigger(draft: TriggerDraft, unset: readonly string[]): boolean {
  return TRIGGER_FIELDS.some((field) => draft[field] !== undefined || unset.includes(field));
}

/**
 * The trigger a lesson will have after an update (`draft` fields replace, `unset` ones go), or
 * undefined when the update touches none of its trigger fields.
 */
export function updatedTrigger(
  current: BreadthTrigger,
  draft: TriggerDraft,
  unset: readonly string[],
): BreadthTrigger | undefined {
  if (!touchesTrigger(draft, unset)) return undefined;
  return Object.fromEntries(
    TRIGGER_FIELDS.map((field) => [
      field,
      unset.includes(field) ? undefined : (draft[field] ?? current[field]),
    ]),
  ) as BreadthTrigger;
}

/** The parts of a lesson (or draft) that decide where it fires. */
export type BreadthTrigger = {
  tools?: readonly string[] | undefined;
  commands?: readonly string[] | undefined;
  paths?: readonly string[] | undefined;
  contents?: readonly string[] | undefined;
  errors?: readonly string[] | undefined;
  tags?: readonly string[] | undefined;
  mistake?: string | undefined;
};

export type Breadth = {
  /** Calls in the cache (0 with no cache). */
  calls: number;
  /** Calls the trigger would have fired on. */
  fires: number;
  /** Of the fires: failed calls with the lesson's mistake (its error class). */
  atMistake: number;
  /** `fires / calls` (0 with no calls). */
  share: number;
  /** Over both thresholds: saving it asks for --force. */
  broad: boolean;
  /** Scoped by its tools alone (no commands, paths, contents, or tool/lang tags): fires on every call of them. */
  toolOnly: boolean;
  /** Its `contents` patterns could not be checked (the cache keeps no written text): the figures are an upper bound. */
  contentsUnchecked: boolean;
  /** No call cache yet (scan never ran), or it could not be read: nothing to count. */
  noCache: boolean;
  /** One line for people: "would have fired on 212 of your last 5,000 calls, 3 of them at this mistake". */
  message: string;
};

const WRITING_TOOLS = ['write', 'edit', 'notebookedit'];

const list = (value: readonly string[] | undefined) => [...(value ?? [])];

/** Whether a trigger fires on every call of its tools: nothing but tools narrows it. */
export function isToolOnly(trigger: BreadthTrigger): boolean {
  const tags = list(trigger.tags);
  return (
    list(trigger.tools).length > 0 &&
    list(trigger.errors).length === 0 &&
    list(trigger.commands).length === 0 &&
    list(trigger.paths).length === 0 &&
    list(trigger.contents).length === 0 &&
    tags.every((tag) => !/^(tool|lang):/.test(tag))
  );
}

/**
 * The trigger as the manifest compiles it (tools normalized, globs to regexes); without its
 * content patterns, which need the written text the cache does not keep.
 */
export function breadthLesson(trigger: BreadthTrigger): ManifestLesson {
  const paths = list(trigger.paths);
  // A content lesson without tools is found through the tools that write files (lessonKeys).
  const tools =
    list(trigger.tools).length === 0 && list(trigger.contents).length > 0
      ? WRITING_TOOLS
      : list(trigger.tools);
  return {
    id: 'breadth-check',
    n: 0,
    tier: 'project',
    priority: 3,
    confidence: 1,
    needsReview: false,
    guard: false,
    tools: tools.map(normalizeTool),
    commands: list(trigger.commands),
    paths,
    pathRegexes: paths.map((glob) => compileGlob(glob)),
    ...(list(trigger.errors).length > 0 ? { errors: list(trigger.errors) } : {}),
    tags: list(trigger.tags).map((tag) => tag.toLowerCase()),
    stack: [],
    words: [],
    score: 0,
    strength: 3,
  };
}

const PATH_TOOLS = new Set(['read', 'edit', 'write', 'notebookedit', 'glob', 'grep']);

/** The PreToolUse event the hook would have seen for a cached call, or undefined if it ignores the call. */
export function hookEventOf(call: CachedCall): HookEvent | undefined {
  const tool = normalizeTool(call.tool);
  const cwd = call.project?.startsWith('/') === true ? call.project : '/';
  // a failed call's error: lessons that wait for one fire on it, and only on it
  const base: HookEvent = {
    event: 'PreToolUse',
    sessionId: call.session,
    agentId: 'main',
    cwd,
    host: call.agent,
    ...(call.error !== undefined ? { output: call.error } : {}),
  };
  if (tool === 'bash')
    return call.command === undefined
      ? undefined
      : { ...base, tool: 'Bash', command: call.command, paths: [] };
  const paths = (call.paths ?? []).filter((path) => !path.startsWith('/'));
  if (tool === 'agent') return { ...base, tool: call.tool, paths: [] };
  if (PATH_TOOLS.has(tool)) return { ...base, tool: call.tool, paths };
  if (tool.startsWith('mcp__') && (call.paths ?? []).length > 0) return { ...base, tool: call.tool, paths };
  return undefined;
}

/** Thousands separated with commas, as the message shows counts. */
function count(n: number): string {
  return n.toLocaleString('en-US');
}

/** Why there are no calls to count: scan never ran here, or its cache could not be read. */
export type NoCache = 'missing' | 'damaged';

export function breadthMessage(b: Omit<Breadth, 'message'>, why: NoCache = 'missing'): string {
  if (b.noCache) {
    const head =
      why === 'damaged'
        ? 'breadth not checked: the call cache could not be read (treated as empty; the next `lore scan` writes it again)'
        : 'breadth not checked: no call cache yet (`lore scan` keeps one of your recent tool calls)';
    // Scoped by tool alone is broad whatever the history says.
    return b.toolOnly ? `${head}; scoped by tool alone, it will fire on every call of that tool` : head;
  }
  const head = `would have fired on ${count(b.fires)} of your last ${count(b.calls)} calls, ${count(b.atMistake)} of them at this mistake`;
  const notes = [
    ...(b.toolOnly ? ['scoped by tool alone, so it fires on every call of that tool'] : []),
    ...(b.contentsUnchecked
      ? ['its contents patterns are not checked (the call cache keeps no written text): an upper bound']
      : []),
  ];
  return notes.length === 0 ? head : `${head} (${notes.join('; ')})`;
}

/**
 * Whether a share of fires and of fires at the mistake is too broad: strictly more than 1% of
 * the calls, and strictly fewer than a third of the fires at the mistake.
 */
export function tooBroad(calls: number, fires: number, atMistake: number): boolean {
  return calls > 0 && fires > calls * BREADTH_MAX_SHARE && atMistake * 3 < fires;
}

/**
 * A check over a set of cached calls, for one trigger or many (`lore import`): each call's event
 * and matcher are made once, on first use. `undefined` calls: no cache, for the reason `why`.
 */
export function createBreadthCheck(
  calls: readonly CachedCall[] | undefined,
  why: NoCache = 'missing',
): (trigger: BreadthTrigger) => Breadth {
  let prepared: { call: CachedCall; matcher: LessonMatcher }[] | undefined;
  const prepare = (all: readonly CachedCall[]) =>
    (prepared ??= all.flatMap((call) => {
      const event = hookEventOf(call);
      return event === undefined
        ? []
        : [{ call, matcher: createMatcher(event, { repoPaths: event.paths ?? [], stack: [] }) }];
    }));
  return (trigger) => {
    const toolOnly = isToolOnly(trigger);
    const contentsUnchecked = list(trigger.contents).length > 0;
    if (calls === undefined) {
      const figures = {
        calls: 0,
        fires: 0,
        atMistake: 0,
        share: 0,
        broad: false,
        toolOnly,
        contentsUnchecked,
      };
      return { ...figures, noCache: true, message: breadthMessage({ ...figures, noCache: true }, why) };
    }
    const lesson = breadthLesson(trigger);
    const expected = mistakeClass(trigger);
    let fires = 0;
    let atMistake = 0;
    for (const { call, matcher } of prepare(calls)) {
      if (matcher(lesson)?.match === undefined) continue;
      fires += 1;
      if (
        call.outcome === 'failed' &&
        call.errorClass !== undefined &&
        sameErrorClass(expected, call.errorClass)
      )
        atMistake += 1;
    }
    const share = calls.length === 0 ? 0 : fires / calls.length;
    // Content patterns unchecked: the figures are an upper bound, so they never block on their own.
    const broad = !contentsUnchecked && tooBroad(calls.length, fires, atMistake);
    const figures = {
      calls: calls.length,
      fires,
      atMistake,
      share,
      broad,
      toolOnly,
      contentsUnchecked,
      noCache: false,
    };
    return { ...figures, message: breadthMessage(figures) };
  };
}

/** The figures of one trigger over the cached calls (`undefined`: no cache, for the reason `why`). */
export function checkBreadth(
  trigger: BreadthTrigger,
  calls: readonly CachedCall[] | undefined,
  why: NoCache = 'missing',
): Breadth {
  return createBreadthCheck(calls, why)(trigger);
}

/**
 * The dry run behind `lore explain` and `GET /api/explain`: one made-up call through the hook's
 * own pipeline (`selectLessons` over this workspace's manifest), with no session state and no log:
 * as the first call of a session (so a checkpoint that matches denies).
 * Returns data; each surface formats it.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { LoreError } from '../../core/errors.js';
import { formatDecision } from '../../core/inject/format-decision.js';
import { manifestReaders } from '../../core/inject/candidate-ordinals.js';
import { boundedOutput, parseHookPayload } from '../../core/inject/parse-hook-input.js';
import { preambleFor, selectLessons } from '../../core/inject/select-lessons.js';
import type { CallPhase, HookEvent, HookEventName, Host, SessionSource } from '../../core/inject/types.js';
import { DISABLED_FILE, repoRelativePaths } from '../fs/paths.js';
import type { Workspace } from '../workspace/workspace.js';

export type ExplainRequest = {
  event?: HookEventName;
  tool?: string;
  command?: string;
  /** Edit/Write: the text the call would write (for lessons' `contents` patterns). */
  content?: string;
  /** Relative to `cwd`, or absolute. */
  paths?: readonly string[];
  prompt?: string;
  source?: SessionSource;
  /** Where relative paths start (the CLI's working directory; the project root for the API). */
  cwd: string;
  /**
   * A tool call's half: on a host that splits it (Gemini, Cursor) `before` denies, `after` advises;
   * `outcome` is Claude Code's and Codex's answer after the call ran (lessons that wait for an error).
   */
  phase?: CallPhase;
  /** The call's result (error or output), for lessons' `errors`: read in the `after` and `outcome` halves. */
  output?: string;
  /** The host's own cap on one answer's context (the hook narrows the configured budget to it). */
  maxChars?: number;
  /** The agent whose hook is explained (`--host`): lessons scoped to other agents are dropped. */
  host?: Host;
};

export type Explanation = {
  event: HookEventName;
  tool: string | null;
  command: string | null;
  /** The written text content patterns were tested against (capped as the hook caps it). */
  content: string | null;
  prompt: string | null;
  paths: string[];
  stack: string[];
  disabled: boolean;
  lessons: number;
  candidates: number;
  matched: number;
  /** `skill`: a pointer to an aggregated tool skill (its id is the skill's name), standing in for `lessons`. */
  included: {
    id: string;
    form: string;
    matched_by: string[];
    chars: number;
    skill?: { name: string; path: string; lessons: string[] };
  }[];
  /**
   * `kind: 'checkpoint'`: a checkpoint lesson, which denies only the first matching call of a
   * session (a dry run has no session: it shows that first call).
   */
  denied: { id: string; matched_by: string[]; kind?: 'checkpoint' }[];
  /** `skill`: for `in-skill`, the aggregated skill that covers the lesson. */
  dropped: { id: string; reason: string; matched_by: string[]; skill?: string }[];
  additionalContext: string | null;
  permissionDecisionReason: string | null;
  /** The one-line summary of every matched lesson, by id (for people; not in the CLI's JSON). */
  summaries: Record<string, string>;
};

/** The hook event a request stands for; usage errors say which flag (or field) is missing. */
export function explainEvent(request: ExplainRequest): HookEvent {
  const { tool, command, prompt } = request;
  const paths = request.paths ?? [];
  const eventName: HookEventName =
    request.event ?? (tool === undefined && prompt !== undefined ? 'UserPromptSubmit' : 'PreToolUse');
  if (eventName === 'PreToolUse' && tool === undefined) {
    throw new LoreError('usage', 'explain needs a tool (with a command or a path), a prompt, or an event', {
      hint: 'e.g. lore explain --tool Bash --command "pytest -v"',
    });
  }
  if (eventName === 'UserPromptSubmit' && prompt === undefined) {
    throw new LoreError('usage', 'the UserPromptSubmit event needs a prompt');
  }
  const cwd = resolve(request.cwd);
  const toolInput: Record<string, unknown> = {};
  if (command !== undefined) toolInput.command = command;
  if (request.content !== undefined) toolInput.content = request.content;
  if (paths.length > 0) toolInput.paths = paths;
  if (prompt !== undefined && eventName === 'PreToolUse') toolInput.prompt = prompt;
  const payload: Record<string, unknown> = {
    session_id: 'lore-explain',
    cwd,
    hook_event_name: eventName,
    ...(eventName === 'PreToolUse' ? { tool_name: tool, tool_input: toolInput } : {}),
    ...(eventName === 'UserPromptSubmit' ? { prompt } : {}),
    ...(eventName === 'SessionStart' ? { source: request.source ?? 'startup' } : {}),
  };
  const parsed = parseHookPayload(payload);
  const event =
    parsed === undefined || request.host === undefined ? parsed : { ...parsed, host: request.host };
  if (event === undefined) {
    throw new LoreError(
      'usage',
      `the hook ignores this call (${tool ?? eventName} without anything to match)`,
      {
        hint:
          tool !== undefined && tool.toLowerCase() === 'bash'
            ? 'pass a command'
            : 'pass a path for file tools, or a tool lore handles (Bash, Read, Edit, Write, NotebookEdit, Glob, Grep, Agent, mcp__*)',
      },
    );
  }
  if (event.event !== 'PreToolUse' || request.phase === undefined) return event;
  // the call's result reaches only the halves after it ran
  const output =
    request.output !== undefined && request.phase !== 'before' ? boundedOutput(request.output) : undefined;
  return { ...event, phase: request.phase, ...(output === undefined ? {} : { output }) };
}

export async function explainCall(
  ws: Workspace,
  request: ExplainRequest,
  nowMs: number,
): Promise<Explanation> {
  const event = explainEvent(request);
  const { workspaceManifest } = await import('../manifest/manifest-build.js');
  const manifest = await workspaceManifest(ws, nowMs);
  const root = ws.projectRoot ?? resolve(request.cwd);
  const repoPaths = repoRelativePaths(event.paths ?? [], root);
  const selection = selectLessons({
    event,
    head: manifest.head,
    ...manifestReaders(manifest),
    words: manifest.words,
    repoPaths,
    state: { seen: new Set(), shownCount: 0, stateAvailable: true },
    settings:
      request.maxChars === undefined
        ? manifest.head.settings
        : {
            ...manifest.head.settings,
            maxChars: Math.min(manifest.head.settings.maxChars, request.maxChars),
          },
    exhaustive: true,
  });
  const decision = formatDecision(event.event, selection.decision.plan, preambleFor(event.event));
  const plan = decision.plan;
  return {
    event: event.event,
    tool: event.tool ?? null,
    command: event.command ?? null,
    content: event.content ?? null,
    prompt: event.prompt ?? null,
    paths: repoPaths,
    stack: manifest.head.stack,
    disabled: existsSync(join(ws.cacheDir, DISABLED_FILE)),
    lessons: manifest.head.lessonCount,
    candidates: selection.candidates,
    matched: selection.matches.length,
    included: plan.included.map((i) => ({
      id: i.id,
      form: i.form,
      matched_by: i.matchedBy,
      chars: i.text.length,
      ...(i.skill === undefined ? {} : { skill: i.skill }),
    })),
    denied: plan.denied.map((d) => ({
      id: d.id,
      matched_by: d.matchedBy,
      ...(d.kind === undefined ? {} : { kind: d.kind }),
    })),
    dropped: plan.skipped.map((s) => ({
      id: s.id,
      reason: s.reason,
      matched_by: s.matchedBy,
      ...(s.skill === undefined ? {} : { skill: s.skill }),
    })),
    additionalContext: decision.context ?? null,
    permissionDecisionReason: decision.deny ?? null,
    summaries: Object.fromEntries([
      ...selection.matches.map((m) => [m.lesson.id, (m.text?.summary ?? '').replace(/^\[lore \w+\] /, '')]),
      ...Object.entries(manifest.head.skills ?? {}).map(([name, skill]) => [
        name,
        `aggregated skill: ${skill.lessons} lessons about ${skill.tool}`,
      ]),
    ]),
  };
}

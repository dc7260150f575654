/**
 * Cursor (agent hooks, `.cursor/hooks.json` version 1): its payloads carry `conversation_id`,
 * `generation_id`, `workspace_roots` (and `cwd` on tool events) instead of Claude's `session_id`
 * and `cwd`, and lower-camel event names. Where context can enter:
 * - `sessionStart` and `postToolUse` answer `{"additional_context": ...}` (postToolUse's reaches the
 *   model beside the result of the call that just ran);
 * - `preToolUse` and `beforeShellExecution` can only allow or deny: `{"permission": "deny",
 *   "agent_message", "user_message"}`; no context enters there, so a call is planned twice, guards
 *   and checkpoints before it and advice after it, as for Gemini;
 * - `beforeSubmitPrompt` cannot add context: lore does not handle it.
 * Tools: `Shell` (a command) and `Read`, `Write`, `Edit`, `Delete`, `Grep`, `Glob` (paths), named as
 * Claude Code's tools for lore's matcher; MCP tools (`MCP:<name>`), `Task` and the rest are not matched.
 */
import type { CallPhase, HookAdapter, HookDecision } from '../../core/inject/types.js';
import { resultText } from '../claude-code/hook-adapter.js';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const str = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

/** The first path-like value of `input` under the keys Cursor's tools use. */
function pathOf(input: Json): unknown {
  return input.file_path ?? input.path ?? input.target_file ?? input.filePath;
}

/** Cursor's tools, as the Claude Code tool and input lore's matcher reads. */
export function toClaudeTool(tool: string, input: Json): { tool: string; input: Json } | undefined {
  switch (tool) {
    case 'Shell':
      return { tool: 'Bash', input: { command: input.command } };
    case 'Read':
      return { tool: 'Read', input: { file_path: pathOf(input) } };
    // the written text goes along for lessons' content patterns (written-content.ts caps it)
    case 'Write':
      return { tool: 'Write', input: { file_path: pathOf(input), content: input.content } };
    case 'Edit':
    case 'StrReplace':
      return { tool: 'Edit', input: { file_path: pathOf(input), new_string: input.new_string } };
    case 'Delete':
      return { tool: 'Edit', input: { file_path: pathOf(input) } };
    case 'Grep':
      return { tool: 'Grep', input: { path: input.path, glob: input.glob } };
    case 'Glob':
      return {
        tool: 'Glob',
        input: {
          pattern: input.glob_pattern ?? input.pattern,
          path: input.target_directory ?? input.path,
        },
      };
    default:
      return undefined;
  }
}

const CURSOR_EVENTS = new Set(['sessionStart', 'preToolUse', 'postToolUse', 'beforeShellExecution']);

/** Whether a payload came from Cursor: its `conversation_id` / `workspace_roots`, or its event names. */
export function isCursorPayload(raw: unknown): boolean {
  if (!isObject(raw)) return false;
  return (
    typeof raw.conversation_id === 'string' ||
    Array.isArray(raw.workspace_roots) ||
    typeof raw.cursor_version === 'string' ||
    (typeof raw.hook_event_name === 'string' && CURSOR_EVENTS.has(raw.hook_event_name))
  );
}

/** Cursor's event name, also when it ran a Claude-format hook (which it names the Claude way). */
function eventName(raw: Json): string | undefined {
  const name = str(raw.hook_event_name);
  if (name === 'PreToolUse') return 'preToolUse';
  if (name === 'PostToolUse') return 'postToolUse';
  if (name === 'SessionStart') return 'sessionStart';
  return name;
}

export function cursorCallPhase(raw: unknown): CallPhase | undefined {
  if (!isObject(raw)) return undefined;
  const name = eventName(raw);
  if (name === 'preToolUse' || name === 'beforeShellExecution') return 'before';
  if (name === 'postToolUse') return 'after';
  return undefined;
}

/** A Cursor payload in the common shape; anything lore does not handle comes back unhandled. */
export function normalizeCursorPayload(raw: unknown): unknown {
  if (!isObject(raw)) return raw;
  const name = eventName(raw);
  const roots = Array.isArray(raw.workspace_roots) ? raw.workspace_roots : [];
  const base: Json = {
    session_id: str(raw.conversation_id) ?? str(raw.session_id),
    // `cwd` may be an empty string on some Cursor versions: the first workspace root stands in
    cwd: str(raw.cwd) ?? str(roots[0]),
    transcript_path: raw.transcript_path,
  };
  if (name === 'sessionStart') return { ...base, hook_event_name: 'SessionStart', source: raw.source };
  if (name === 'beforeShellExecution') {
    return {
      ...base,
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: raw.command },
    };
  }
  if (name !== 'preToolUse' && name !== 'postToolUse') return { ...base, hook_event_name: `cursor:${name}` };
  const input = isObject(raw.tool_input) ? raw.tool_input : {};
  const mapped = typeof raw.tool_name === 'string' ? toClaudeTool(raw.tool_name, input) : undefined;
  if (mapped === undefined) return { ...base, hook_event_name: 'cursor:unknown-tool' };
  const output = name === 'postToolUse' ? resultText(raw.tool_output ?? raw.tool_response) : undefined;
  return {
    ...base,
    hook_event_name: 'PreToolUse',
    tool_name: mapped.tool,
    tool_input: mapped.input,
    ...(typeof raw.tool_use_id === 'string' ? { tool_use_id: raw.tool_use_id } : {}),
    ...(output === undefined ? {} : { tool_output: output }),
  };
}

/** The first line of a guard's or checkpoint's reason, for Cursor's own UI. */
function firstLine(text: string): string {
  const line = text.split('\n', 1)[0] ?? text;
  return line.length > 300 ? `${line.slice(0, 299)}…` : line;
}

export function toCursorOutput(decision: HookDecision): Record<string, unknown> {
  if (decision.deny !== undefined && decision.event === 'PreToolUse') {
    return { permission: 'deny', agent_message: decision.deny, user_message: firstLine(decision.deny) };
  }
  if (decision.context === undefined) return {};
  return { additional_context: decision.context };
}

export const cursorAdapter: HookAdapter = {
  host: 'cursor',
  normalizeInput: normalizeCursorPayload,
  // no documented cap; one call's context stays within what Codex allows
  maxChars: 8_000,
  events: ['PreToolUse', 'SessionStart'],
  toOutput: toCursorOutput,
  callPhase: cursorCallPhase,
};

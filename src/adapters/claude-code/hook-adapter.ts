/**
 * Claude Code (2.1.9 or later): stdin is the hook payload as lore reads it; stdout is
 * `{"hookSpecificOutput": {"hookEventName", "additionalContext"}}`, or for a guard
 * `{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
 * "permissionDecisionReason"}}`. Every hookSpecificOutput names its event, or Claude Code rejects it.
 * A call that failed comes back as `PostToolUseFailure` (its `error` is the result; `PostToolUse`,
 * for a call that succeeded, carries `tool_response`): lore answers it as the `outcome` half of a
 * PreToolUse, where only lessons that wait for their error speak, under the host's event name.
 */
import { toHookSpecificOutput } from '../../core/inject/format-decision.js';
import type { CallPhase, HookAdapter, HookDecision } from '../../core/inject/types.js';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The events that report a call's result. */
export const RESULT_EVENTS = new Set(['PostToolUse', 'PostToolUseFailure']);

/** A tool result as text: a string as it is, anything else as its JSON (the parse stage keeps its ends). */
export function resultText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return undefined;
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}

/**
 * A result event as the PreToolUse lore matches (with the result as `tool_output`); anything else
 * as it came.
 */
export function normalizeResultPayload(raw: unknown): unknown {
  if (!isObject(raw) || typeof raw.hook_event_name !== 'string' || !RESULT_EVENTS.has(raw.hook_event_name))
    return raw;
  const output = raw.hook_event_name === 'PostToolUseFailure' ? raw.error : resultText(raw.tool_response);
  const { tool_response: _response, error: _error, ...rest } = raw;
  return { ...rest, hook_event_name: 'PreToolUse', tool_output: typeof output === 'string' ? output : '' };
}

/** `outcome` for a result event: the host already ran the PreToolUse of this call. */
export function resultCallPhase(raw: unknown): CallPhase | undefined {
  return isObject(raw) && typeof raw.hook_event_name === 'string' && RESULT_EVENTS.has(raw.hook_event_name)
    ? 'outcome'
    : undefined;
}

export function toClaudeOutput(decision: HookDecision): Record<string, unknown> {
  return toHookSpecificOutput(decision);
}

export const claudeCodeAdapter: HookAdapter = {
  host: 'claude-code',
  normalizeInput: normalizeResultPayload,
  maxChars: 10_000,
  events: ['PreToolUse', 'UserPromptSubmit', 'SessionStart', 'SubagentStart'],
  toOutput: toClaudeOutput,
  callPhase: resultCallPhase,
};

/**
 * Claude Code (2.1.9 or later): stdin is the hook payload as lore reads it; stdout is
 * `{"hookSpecificOutput": {"hookEventName", "additionalContext"}}`, or for a guard
 * `{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
 * "permissionDecisionReason"}}`. Every hookSpecificOutput names its event, or Claude Code rejects it.
 */
import { toHookSpecificOutput } from '../../core/inject/format-decision.js';
import type { HookAdapter, HookDecision } from '../../core/inject/types.js';

export function toClaudeOutput(decision: HookDecision): Record<string, unknown> {
  return toHookSpecificOutput(decision);
}

export const claudeCodeAdapter: HookAdapter = {
  host: 'claude-code',
  normalizeInput: (raw) => raw,
  maxChars: 10_000,
  events: ['PreToolUse', 'UserPromptSubmit', 'SessionStart', 'SubagentStart'],
  toOutput: toClaudeOutput,
};

/**
 * Claude Code (2.1.9 or later): stdin is the hook payload as lore reads it; stdout is
 * `{"hookSpecificOutput": {"hookEventName", "additionalContext"}}`, or for a guard
 * `{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
 * "permissionDecisionReason"}}`. Every hookSpecificOutput names its event, or Claude Code rejects it.
 */
import type { HookAdapter, HookDecision } from '../../core/inject/types.js';

export function toClaudeOutput(decision: HookDecision): Record<string, unknown> {
  if (decision.deny !== undefined && decision.event === 'PreToolUse') {
    return {
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: decision.deny,
      },
    };
  }
  if (decision.context === undefined) return {};
  return { hookSpecificOutput: { hookEventName: decision.event, additionalContext: decision.context } };
}

export const claudeCodeAdapter: HookAdapter = {
  host: 'claude-code',
  normalizeInput: (raw) => raw,
  maxChars: 10_000,
  events: ['PreToolUse', 'UserPromptSubmit', 'SessionStart', 'SubagentStart'],
  toOutput: toClaudeOutput,
};

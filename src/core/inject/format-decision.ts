/**
 * Stage 6, format: the plan as text, host-neutral. Adapters wrap it in their host's JSON.
 */
import { SEPARATOR } from './plan-injection.js';
import type { HookDecision, HookEventName, InjectionPlan } from './types.js';

export const CONTEXT_HEADER: Record<HookEventName, string> = {
  PreToolUse: 'lore: lessons from earlier sessions about this kind of call (details: `lore show ID`)',
  UserPromptSubmit: 'lore: lessons from earlier sessions that may apply to this request',
  SessionStart: "lore: this project's most important lessons from earlier sessions",
  SubagentStart: 'lore: lessons from earlier sessions',
};

/** The header when every lesson going out matched the call's error (no longer than PreToolUse's). */
export const ERROR_HEADER = 'lore: earlier sessions met this same error; what they learned (`lore show ID`)';

export function headerOverhead(event: HookEventName): number {
  return CONTEXT_HEADER[event].length + 1;
}

/** `preamble` (the #lesson protocol) comes first and is not part of the lesson budget. */
export function formatDecision(event: HookEventName, plan: InjectionPlan, preamble?: string): HookDecision {
  const parts: string[] = [];
  if (preamble !== undefined && preamble !== '') parts.push(preamble);
  if (plan.included.length > 0) {
    const atError = plan.included.every((item) => item.matchedBy.some((r) => r.startsWith('error:')));
    const header = atError ? ERROR_HEADER : CONTEXT_HEADER[event];
    parts.push(`${header}\n${plan.included.map((item) => item.text).join(SEPARATOR)}`);
  }
  const decision: HookDecision = { event, plan };
  if (plan.denied.length > 0) decision.deny = plan.denied.map((item) => item.text).join(SEPARATOR);
  else if (parts.length > 0) decision.context = parts.join(SEPARATOR);
  return decision;
}

/**
 * The Claude-shaped hook output (Claude Code, and Codex, which reads the same keys): a deny with
 * its reason on PreToolUse, else additional context, else `{}`. Every hookSpecificOutput names
 * its event, or Claude Code rejects it.
 */
export function toHookSpecificOutput(decision: HookDecision): Record<string, unknown> {
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
  return {
    hookSpecificOutput: {
      hookEventName: decision.hostEvent ?? decision.event,
      additionalContext: decision.context,
    },
  };
}

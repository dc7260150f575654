/**
 * `lore explain --host H`: the hook's answer as that host receives it. Claude Code and Codex get one
 * PreToolUse that both denies and advises; Gemini CLI and Cursor split a tool call in two (guards
 * before it, advice after it), so a tool call is explained twice, each half with the host's own
 * event name and JSON, under the host's context cap.
 */
import { claudeCodeAdapter } from '../adapters/claude-code/hook-adapter.js';
import { codexAdapter } from '../adapters/codex/hook-adapter.js';
import { cursorAdapter } from '../adapters/cursor/hook-adapter.js';
import { geminiAdapter } from '../adapters/gemini/hook-adapter.js';
import type { CallPhase, HookAdapter, HookEventName, Host } from '../core/inject/types.js';
import type { Explanation } from '../store/inject/explain-call.js';

export const HOST_ADAPTERS: Record<Host, HookAdapter> = {
  'claude-code': claudeCodeAdapter,
  codex: codexAdapter,
  gemini: geminiAdapter,
  cursor: cursorAdapter,
};

/** What each host calls lore's events, by half of a tool call. */
const HOST_EVENT_NAMES: Record<'gemini' | 'cursor', Record<string, string>> = {
  gemini: {
    before: 'BeforeTool',
    after: 'AfterTool',
    UserPromptSubmit: 'BeforeAgent',
    SessionStart: 'SessionStart',
  },
  cursor: { before: 'preToolUse / beforeShellExecution', after: 'postToolUse', SessionStart: 'sessionStart' },
};

/**
 * The halves a host runs `event` in: one (undefined) or two. With a call's result (`--output`),
 * Claude Code and Codex also answer it after the call ran (`outcome`: PostToolUseFailure, PostToolUse).
 */
export function hostPhases(host: Host, event: HookEventName, withOutput = false): (CallPhase | undefined)[] {
  if (event !== 'PreToolUse') return [undefined];
  if (host === 'gemini' || host === 'cursor') return ['before', 'after'];
  return withOutput ? [undefined, 'outcome'] : [undefined];
}

/** The host's name for the event (and half) explained. */
export function hostEventName(host: Host, event: HookEventName, phase: CallPhase | undefined): string {
  if (phase === 'outcome') return host === 'codex' ? 'PostToolUse' : 'PostToolUseFailure';
  if (host !== 'gemini' && host !== 'cursor') return event;
  return HOST_EVENT_NAMES[host][phase ?? event] ?? event;
}

/** Whether the host receives this event at all (Cursor has no prompt hook that can add context). */
export function hostHandles(host: Host, event: HookEventName): boolean {
  return HOST_ADAPTERS[host].events.includes(event);
}

/** The JSON the hook would print for this explanation, in the host's format. */
export function hostOutput(host: Host, explained: Explanation, phase?: CallPhase): Record<string, unknown> {
  return HOST_ADAPTERS[host].toOutput({
    event: explained.event,
    ...(phase === 'outcome' ? { hostEvent: hostEventName(host, explained.event, phase) } : {}),
    plan: { included: [], denied: [], skipped: [] },
    ...(explained.additionalContext === null ? {} : { context: explained.additionalContext }),
    ...(explained.permissionDecisionReason === null ? {} : { deny: explained.permissionDecisionReason }),
  });
}

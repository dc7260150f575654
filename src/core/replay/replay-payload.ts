/**
 * What each agent's hook would have received for a transcript's tool call, prompt or session
 * start: the raw host payload, before the host adapter normalizes it. Claude Code's tools go as
 * they are; Codex's shell calls (`exec_command`, `shell`, with `cmd` or a `command` argv) become
 * `Bash` with a command string and `apply_patch` keeps its patch in `command` (the Codex adapter
 * turns it into an Edit); Gemini's calls are a `BeforeTool` (guards) and an `AfterTool` (advice)
 * under Gemini's own tool names. Pure.
 */
import { isShellTool } from '../capture/classify-result.js';
import type { Agent } from '../capture/events.js';
import type { ReplayCall } from '../outcome/call-outcome.js';
import { toRepoPath } from '../match/repo-path.js';

type Payload = Record<string, unknown>;

/** The working directory a replayed session's hook runs in (absolute, as hooks require). */
export function sessionCwd(project: string | undefined): string {
  return project !== undefined && project.startsWith('/') ? project : '/';
}

function base(agent: Agent, session: string, cwd: string, agentId: string): Payload {
  return {
    session_id: session,
    cwd,
    ...(agentId === 'main' ? {} : { agent_id: agentId }),
    // Codex payloads carry a turn id: the hook tells its hosts apart by it
    ...(agent === 'codex' ? { turn_id: 'replay' } : {}),
  };
}

/**
 * The hook payload(s) of one tool call: Gemini splits a call into its before and after halves;
 * Claude Code reports a failed call again after it ran (PostToolUseFailure, with its `error`), and
 * Codex every call (PostToolUse, with its output as `tool_response`), where lessons that wait for
 * their error speak.
 */
export function callPayloads(call: ReplayCall, agentId: string): Payload[] {
  const before = beforePayloads(call, agentId);
  const pre = before[0];
  if (pre === undefined || call.output === undefined || call.agent === 'gemini') return before;
  if (call.agent === 'claude-code' && call.outcome === 'failed') {
    return [
      ...before,
      { ...pre, hook_event_name: 'PostToolUseFailure', tool_use_id: call.callId, error: call.output },
    ];
  }
  if (call.agent === 'codex' && (call.outcome === 'ok' || call.outcome === 'failed')) {
    return [...before, { ...pre, hook_event_name: 'PostToolUse', tool_response: call.output }];
  }
  return before;
}

function beforePayloads(call: ReplayCall, agentId: string): Payload[] {
  const cwd = sessionCwd(call.project);
  const head = base(call.agent, call.session, cwd, agentId);
  if (call.agent === 'gemini') {
    return ['BeforeTool', 'AfterTool'].map((name) => ({
      ...head,
      hook_event_name: name,
      tool_name: call.tool,
      tool_input: call.input,
      ...(name === 'AfterTool' && call.output !== undefined
        ? { tool_response: { llmContent: call.output } }
        : {}),
    }));
  }
  if (call.agent === 'codex') {
    if (isShellTool(call.tool) || call.command !== undefined) {
      if (call.tool.toLowerCase() !== 'apply_patch') {
        return [
          {
            ...head,
            hook_event_name: 'PreToolUse',
            tool_name: 'Bash',
            tool_input: { command: call.command ?? '' },
          },
        ];
      }
    }
    if (call.tool.toLowerCase() === 'apply_patch') {
      const patch =
        typeof call.input.input === 'string'
          ? call.input.input
          : typeof call.input.patch === 'string'
            ? call.input.patch
            : (call.command ?? '');
      return [
        { ...head, hook_event_name: 'PreToolUse', tool_name: 'apply_patch', tool_input: { command: patch } },
      ];
    }
  }
  return [{ ...head, hook_event_name: 'PreToolUse', tool_name: call.tool, tool_input: call.input }];
}

export function promptPayload(
  agent: Agent,
  session: string,
  project: string | undefined,
  prompt: string,
): Payload {
  return {
    ...base(agent, session, sessionCwd(project), 'main'),
    hook_event_name: agent === 'gemini' ? 'BeforeAgent' : 'UserPromptSubmit',
    prompt,
  };
}

export function sessionStartPayload(agent: Agent, session: string, project: string | undefined): Payload {
  return {
    ...base(agent, session, sessionCwd(project), 'main'),
    hook_event_name: 'SessionStart',
    source: 'startup',
  };
}

/** The event's absolute paths inside `root`, repository-relative (what the hook matches globs on). */
export function pathsInside(paths: readonly string[], root: string): string[] {
  const base = root.replace(/\/+$/, '');
  if (base === '') return paths.map((path) => toRepoPath(path)).filter((path) => path !== '');
  return paths
    .filter((path) => path.startsWith(`${base}/`))
    .map((path) => toRepoPath(path, base))
    .filter((path) => path !== '');
}

/**
 * Gemini CLI (0.61.0): its hook payloads carry Claude's base fields (`session_id`, `cwd`,
 * `transcript_path`, `hook_event_name`) under other event and tool names, and its answers differ:
 * - SessionStart and BeforeAgent (the prompt) take `hookSpecificOutput.additionalContext`;
 * - BeforeTool cannot add context: it denies (`decision: "deny"`, `reason`, which the model gets as
 *   the tool's error) or says nothing; so a tool call is planned twice, guards and checkpoints only before it
 *   (`phase: 'before'`) and advice only after it (`phase: 'after'`): AfterTool's
 *   `additionalContext` is appended to the tool's output, which the model reads before its next step;
 * - tools are `run_shell_command` (a command) and `read_file`, `write_file`, `replace`,
 *   `read_many_files`, `glob`, `grep_search` (paths), renamed here to the Claude Code tools lore's
 *   matcher knows, with their path parameters (`file_path`, `dir_path`, `include`, ...) moved to
 *   Claude's keys. Anything else (MCP tools, `list_directory`, `web_fetch`, ...) is not matched.
 * AfterAgent (a turn's end) is read like Claude's Stop: its `LEARNING_HELPFUL` markers become feedback.
 * Non-interactive sessions prepend SessionStart's context to the prompt in `<hook_context>` tags:
 * BeforeAgent drops them, so lessons are never matched against lore's own words.
 */
import { toHookSpecificOutput } from '../../core/inject/format-decision.js';
import { resultText } from '../claude-code/hook-adapter.js';
import type { CallPhase, HookAdapter, HookDecision } from '../../core/inject/types.js';

type Json = Record<string, unknown>;

/** Gemini's event names to lore's (the common, Claude-shaped ones). */
const EVENTS: Readonly<Record<string, string>> = {
  SessionStart: 'SessionStart',
  BeforeAgent: 'UserPromptSubmit',
  BeforeTool: 'PreToolUse',
  AfterTool: 'PreToolUse',
};

const HOOK_CONTEXT = /<hook_context>[\s\S]*?<\/hook_context>\s*/g;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Gemini's tools, as the Claude Code tool and input lore's matcher reads. */
export function toClaudeTool(tool: string, input: Json): { tool: string; input: Json } | undefined {
  switch (tool) {
    case 'run_shell_command':
      return { tool: 'Bash', input: { command: input.command } };
    case 'read_file':
      return { tool: 'Read', input: { file_path: input.file_path ?? input.absolute_path } };
    // the written text goes along for lessons' content patterns (written-content.ts caps it)
    case 'write_file':
      return { tool: 'Write', input: { file_path: input.file_path, content: input.content } };
    case 'replace':
      return { tool: 'Edit', input: { file_path: input.file_path, new_string: input.new_string } };
    case 'read_many_files': {
      const include = Array.isArray(input.include)
        ? input.include
        : Array.isArray(input.paths)
          ? input.paths
          : [];
      return { tool: 'Read', input: { paths: include.filter((p): p is string => typeof p === 'string') } };
    }
    case 'glob':
      return { tool: 'Glob', input: { pattern: input.pattern, path: input.dir_path ?? input.path } };
    case 'grep_search':
      return {
        tool: 'Grep',
        input: { path: input.dir_path ?? input.path, glob: input.include_pattern ?? input.include },
      };
    default:
      return undefined;
  }
}

/**
 * Whether a payload came from Gemini CLI: an event only it sends, or the session variable Gemini
 * sets for its hooks naming this very session (a variable inherited from a shell alone is not enough).
 */
export function isGeminiPayload(raw: unknown, env: NodeJS.ProcessEnv = {}): boolean {
  if (!isObject(raw)) return false;
  const name = raw.hook_event_name;
  if (name === 'BeforeTool' || name === 'AfterTool' || name === 'BeforeAgent' || name === 'AfterAgent')
    return true;
  return (
    typeof raw.session_id === 'string' && raw.session_id !== '' && env.GEMINI_SESSION_ID === raw.session_id
  );
}

export function geminiCallPhase(raw: unknown): CallPhase | undefined {
  if (!isObject(raw)) return undefined;
  if (raw.hook_event_name === 'BeforeTool') return 'before';
  if (raw.hook_event_name === 'AfterTool') return 'after';
  return undefined;
}

/** A Gemini payload in the common shape; anything lore does not handle comes back unhandled. */
export function normalizeGeminiPayload(raw: unknown): unknown {
  if (!isObject(raw) || typeof raw.hook_event_name !== 'string') return raw;
  const event = EVENTS[raw.hook_event_name];
  if (event === undefined) return { ...raw, hook_event_name: `gemini:${raw.hook_event_name}` };
  // only the fields lore reads: an AfterTool's tool_response can be megabytes (its text is cut when parsed)
  const base: Json = {
    hook_event_name: event,
    session_id: raw.session_id,
    cwd: raw.cwd,
    transcript_path: raw.transcript_path,
  };
  if (event === 'SessionStart') return { ...base, source: raw.source };
  if (event === 'UserPromptSubmit') {
    const prompt = typeof raw.prompt === 'string' ? raw.prompt.replace(HOOK_CONTEXT, '') : raw.prompt;
    return { ...base, prompt };
  }
  const input = isObject(raw.tool_input) ? raw.tool_input : {};
  const mapped = typeof raw.tool_name === 'string' ? toClaudeTool(raw.tool_name, input) : undefined;
  if (mapped === undefined) return { ...base, hook_event_name: 'gemini:unknown-tool' };
  const output = raw.hook_event_name === 'AfterTool' ? afterToolOutput(raw.tool_response) : undefined;
  return {
    ...base,
    tool_name: mapped.tool,
    tool_input: mapped.input,
    ...(output === undefined ? {} : { tool_output: output }),
  };
}

/** What an AfterTool's call returned, as text: the model's view of it (`llmContent`), else the whole response. */
function afterToolOutput(response: unknown): string | undefined {
  if (isObject(response) && typeof response.llmContent === 'string') {
    const error =
      isObject(response.error) && typeof response.error.message === 'string' ? response.error.message : '';
    return error === '' ? response.llmContent : `${error}\n${response.llmContent}`;
  }
  return resultText(response);
}

/**
 * AfterAgent (the end of a turn) as the Stop payload lore reads feedback markers from: its final
 * text is `prompt_response`. Undefined for anything else.
 */
export function geminiStopPayload(raw: unknown): Record<string, unknown> | undefined {
  if (!isObject(raw) || raw.hook_event_name !== 'AfterAgent') return undefined;
  return {
    hook_event_name: 'Stop',
    session_id: raw.session_id,
    cwd: raw.cwd,
    transcript_path: raw.transcript_path,
    stop_hook_active: raw.stop_hook_active,
    last_assistant_message: typeof raw.prompt_response === 'string' ? raw.prompt_response : '',
  };
}

const GEMINI_EVENT: Readonly<Record<string, string>> = {
  SessionStart: 'SessionStart',
  UserPromptSubmit: 'BeforeAgent',
  PreToolUse: 'AfterTool',
};

export function toGeminiOutput(decision: HookDecision): Record<string, unknown> {
  if (decision.deny !== undefined && decision.event === 'PreToolUse') {
    return { decision: 'deny', reason: decision.deny };
  }
  const output = toHookSpecificOutput({ ...decision, deny: undefined });
  const specific = output.hookSpecificOutput as Json | undefined;
  if (specific === undefined) return {};
  return { hookSpecificOutput: { ...specific, hookEventName: GEMINI_EVENT[decision.event] } };
}

export const geminiAdapter: HookAdapter = {
  host: 'gemini',
  normalizeInput: normalizeGeminiPayload,
  // Gemini documents no cap; lore keeps one call's context to what Codex allows
  maxChars: 8_000,
  events: ['PreToolUse', 'UserPromptSubmit', 'SessionStart'],
  toOutput: toGeminiOutput,
  callPhase: geminiCallPhase,
};

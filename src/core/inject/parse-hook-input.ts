/**
 * Stage 1, parse: a host's stdin JSON (Claude Code and Codex share the shape) to a bounded
 * `HookEvent`, or undefined for anything lore does not handle. Never throws. A call that already
 * ran carries its result as `tool_output` (a string the host adapter took from the host's own
 * field: `error`, `tool_response`, ...).
 */
import { HOOK_EVENTS, SESSION_SOURCES } from './types.js';
import type { HookEvent, HookEventName, SessionSource } from './types.js';
import { writtenContent } from './written-content.js';

/** Hook inputs are cut to these lengths before any matching. */
export const INPUT_LIMITS = {
  stdinChars: 2_000_000,
  command: 16_384,
  prompt: 16_384,
  path: 4_096,
  paths: 32,
  id: 256,
  /** A call's result: its head and its tail, where errors are printed. */
  output: 16_384,
} as const;

/** The head and tail of a call's result, at most `INPUT_LIMITS.output` characters. */
export function boundedOutput(value: unknown): string | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  const half = INPUT_LIMITS.output / 2;
  return value.length <= INPUT_LIMITS.output ? value : `${value.slice(0, half)}\n…\n${value.slice(-half)}`;
}

const PATH_KEYS = ['file_path', 'notebook_path', 'path', 'filePath', 'filename', 'file', 'directory', 'dir'];

function str(value: unknown, max: number): string | undefined {
  return typeof value === 'string' && value !== '' ? value.slice(0, max) : undefined;
}

/** POSIX join of a path onto a base directory (core has no node:path). */
export function resolvePath(base: string, path: string): string {
  const joined = path.startsWith('/') ? path : `${base.replace(/\/+$/, '')}/${path}`;
  const parts: string[] = [];
  for (const part of joined.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  return `/${parts.join('/')}`;
}

/** Paths a tool call touches, absolute. Bash carries none (its command is matched instead). */
export function toolPaths(tool: string, input: Record<string, unknown>, cwd: string): string[] {
  const out: string[] = [];
  const add = (value: unknown) => {
    const path = str(value, INPUT_LIMITS.path);
    if (path !== undefined && out.length < INPUT_LIMITS.paths && !path.includes('\0'))
      out.push(resolvePath(cwd, path));
  };
  const lower = tool.toLowerCase();
  if (lower === 'glob') {
    const pattern = str(input.pattern, INPUT_LIMITS.path);
    const base = str(input.path, INPUT_LIMITS.path);
    if (pattern !== undefined) add(base === undefined ? pattern : `${base.replace(/\/+$/, '')}/${pattern}`);
    else add(base);
    return out;
  }
  if (lower === 'grep') {
    add(input.path);
    const glob = str(input.glob, INPUT_LIMITS.path);
    if (glob !== undefined) add(glob.includes('/') ? glob : `**/${glob}`);
    return out;
  }
  for (const key of PATH_KEYS) add(input[key]);
  if (Array.isArray(input.paths)) for (const path of input.paths) add(path);
  return out;
}

const TOOLS_WITH_PATHS = new Set(['read', 'edit', 'multiedit', 'write', 'notebookedit', 'glob', 'grep']);

/** Parses a payload object (stdin parsed as JSON by the hook, whose size lore-hook.ts caps). */
export function parseHookPayload(raw: unknown): HookEvent | undefined {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return undefined;
  const payload = raw as Record<string, unknown>;
  const name = payload.hook_event_name;
  if (typeof name !== 'string' || !(HOOK_EVENTS as readonly string[]).includes(name)) return undefined;
  const event = name as HookEventName;
  const sessionId = str(payload.session_id, INPUT_LIMITS.id);
  const cwd = str(payload.cwd, INPUT_LIMITS.path);
  if (sessionId === undefined || cwd === undefined || !cwd.startsWith('/')) return undefined;
  const agentId = str(payload.agent_id, INPUT_LIMITS.id) ?? 'main';
  const transcriptPath = str(payload.transcript_path, INPUT_LIMITS.path);
  const base: HookEvent = {
    event,
    sessionId,
    agentId,
    cwd: resolvePath('/', cwd),
    ...(transcriptPath?.startsWith('/') === true ? { transcriptPath } : {}),
  };

  if (event === 'PreToolUse') {
    const tool = str(payload.tool_name, 200);
    const input = payload.tool_input;
    if (tool === undefined || input === null || typeof input !== 'object' || Array.isArray(input))
      return undefined;
    const toolInput = input as Record<string, unknown>;
    const lower = tool.toLowerCase();
    const callId = str(payload.tool_use_id, INPUT_LIMITS.id);
    const output = boundedOutput(payload.tool_output);
    const call = {
      ...base,
      tool,
      ...(callId === undefined ? {} : { callId }),
      ...(output === undefined ? {} : { output }),
    };
    if (lower === 'bash') {
      const command = str(toolInput.command, INPUT_LIMITS.command);
      return command === undefined ? undefined : { ...call, command, paths: [] };
    }
    if (lower === 'agent' || lower === 'task') {
      const prompt = str(toolInput.prompt, INPUT_LIMITS.prompt);
      return { ...call, paths: [], ...(prompt === undefined ? {} : { prompt }) };
    }
    const isMcp = lower.startsWith('mcp__');
    if (!TOOLS_WITH_PATHS.has(lower) && !isMcp) return undefined;
    const paths = toolPaths(tool, toolInput, base.cwd);
    if (isMcp && paths.length === 0) return undefined;
    const content = writtenContent(tool, toolInput);
    return { ...call, paths, ...(content === undefined ? {} : { content }) };
  }
  if (event === 'UserPromptSubmit') {
    const prompt = str(payload.prompt, INPUT_LIMITS.prompt);
    if (prompt === undefined || prompt.trimStart().startsWith('<task-notification>')) return undefined;
    return { ...base, prompt };
  }
  if (event === 'SessionStart') {
    const source = payload.source;
    const known = typeof source === 'string' && (SESSION_SOURCES as readonly string[]).includes(source);
    return { ...base, source: known ? (source as SessionSource) : 'startup' };
  }
  return base;
}

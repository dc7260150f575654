/**
 * Codex CLI rollout lines to events. Each line is `{timestamp, type, payload}`: `session_meta` and
 * `turn_context` name the session and cwd; `response_item` holds messages (user, assistant, and
 * `developer` messages, which are hook and system injections and are skipped), `function_call` /
 * `function_call_output` (arguments and output are JSON strings; the exit code is in
 * `metadata.exit_code` or the text "Process exited with code N"), and `custom_tool_call`
 * (apply_patch). `event_msg` lines duplicate these, except `turn_aborted` (an interruption).
 */
import { classifyResult } from '../../core/capture/classify-result.js';
import { eventAt } from '../../core/capture/events.js';
import type { EventOrigin, TranscriptEvent } from '../../core/capture/events.js';
import { contentText, isObject, resultEvent, str, stripInjected, trimCalls } from '../reader.js';
import type { LineParser, ParserContext } from '../reader.js';

const WANTED = [
  Buffer.from('"response_item"'),
  Buffer.from('"session_meta"'),
  Buffer.from('"turn_context"'),
  Buffer.from('"turn_aborted"'),
  Buffer.from('"compacted"'),
];

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * What Codex writes when its patch tool refuses a patch (stale context, a malformed hunk): a plain
 * string with no exit code and, in older rollouts, no success flag either.
 */
const PATCH_FAILED = /^\s*apply_patch verification failed\b/;

type CodexOutput = { text: string; exitCode: number | undefined; errorFlag: boolean };

/**
 * A tool output in any of the shapes Codex has written: `{"output": "...", "metadata":
 * {"exit_code": 1}}` as JSON text, `Process exited with code N` text, or the payload object itself
 * (`{"content": "...", "success": false}`), whose `success` is the tool's own verdict.
 */
function readOutput(raw: unknown): CodexOutput {
  if (isObject(raw) && !Array.isArray(raw)) {
    const inner = typeof raw.content === 'string' ? raw.content : contentText(raw.content);
    return { ...readOutput(inner), ...(raw.success === false ? { errorFlag: true } : {}) };
  }
  const value = typeof raw === 'string' ? raw : contentText(raw);
  const parsed = value.startsWith('{') ? parseJson(value) : undefined;
  if (isObject(parsed) && typeof parsed.output === 'string') {
    const metadata = isObject(parsed.metadata) ? parsed.metadata : {};
    const code = metadata.exit_code;
    return {
      text: parsed.output,
      exitCode: typeof code === 'number' ? code : undefined,
      errorFlag: PATCH_FAILED.test(parsed.output),
    };
  }
  const exit = /^Process exited with code (\d+)$/m.exec(value.slice(0, 400));
  const output = /\nOutput:\n([\s\S]*)$/.exec(value);
  return {
    text: output?.[1] ?? value,
    exitCode: exit?.[1] === undefined ? undefined : Number(exit[1]),
    errorFlag: PATCH_FAILED.test(value),
  };
}

/** `shell` takes an argv array (`["bash", "-lc", "cmd"]`), `exec_command` a `cmd` string. */
export function codexCommand(input: Record<string, unknown>): string | undefined {
  if (typeof input.cmd === 'string') return input.cmd;
  if (typeof input.command === 'string') return input.command;
  if (Array.isArray(input.command)) {
    const argv = input.command.map(String);
    if (argv.length >= 3 && /(^|\/)(ba|z|)sh$/.test(argv[0] ?? '') && /^-l?c$/.test(argv[1] ?? ''))
      return argv.slice(2).join(' ');
    return argv.join(' ');
  }
  return undefined;
}

const SYNTHETIC_USER = /^(<environment_context>|<user_instructions>|# AGENTS\.md|<permissions instructions>)/;

export function createCodexParser(context: ParserContext): LineParser {
  const calls = new Map(Object.entries(context.carry.calls ?? {}));
  let session = context.carry.session;
  let project = context.carry.project ?? context.project;

  const origin = (record: Record<string, unknown>, line: number): EventOrigin => ({
    agent: 'codex',
    session: session ?? 'unknown',
    project,
    timestamp: str(record.timestamp),
    file: context.file,
    line,
    ...(context.sidechain ? { sidechain: true } : {}),
  });

  const parseItem = (record: Record<string, unknown>, item: Record<string, unknown>, line: number) => {
    const at = origin(record, line);
    const events: TranscriptEvent[] = [];
    switch (item.type) {
      case 'message': {
        const text = contentText(item.content);
        if (item.role === 'assistant' && /\S/.test(text))
          events.push(eventAt(at, { kind: 'assistant-text', text }));
        else if (item.role === 'user' && !SYNTHETIC_USER.test(text.trimStart())) {
          const own = stripInjected(text);
          if (own !== '') events.push(eventAt(at, { kind: 'user-text', text: own }));
        }
        break;
      }
      case 'function_call':
      case 'custom_tool_call':
      case 'local_shell_call': {
        const callId = str(item.call_id) ?? str(item.id) ?? `line${line}`;
        const tool = str(item.name) ?? (item.type === 'local_shell_call' ? 'local_shell' : 'unknown');
        let input: Record<string, unknown>;
        if (item.type === 'custom_tool_call') input = { input: str(item.input) ?? '' };
        else if (isObject(item.action)) input = item.action;
        else {
          const parsed = typeof item.arguments === 'string' ? parseJson(item.arguments) : item.arguments;
          input = isObject(parsed) ? parsed : {};
        }
        const command = codexCommand(input);
        // not `{ ...input, command }`: a key after a spread is slow on Node 20 (see eventAt); and
        // not Object.assign, which would take a parsed `__proto__` key for the prototype
        if (command !== undefined)
          input = Object.fromEntries([...Object.entries(input), ['command', command]]);
        calls.set(callId, tool);
        if (calls.size > 256) calls.delete(calls.keys().next().value as string);
        events.push(eventAt(at, { kind: 'tool-call', callId, tool, input }));
        break;
      }
      case 'function_call_output':
      case 'custom_tool_call_output':
      case 'local_shell_call_output': {
        const callId = str(item.call_id) ?? `line${line}`;
        const tool = calls.get(callId);
        calls.delete(callId);
        const { text, exitCode, errorFlag } = readOutput(item.output);
        const verdict = classifyResult({ tool, text, exitCode, errorFlag });
        events.push(resultEvent(at, callId, tool, text, verdict));
        break;
      }
      default:
        break;
    }
    return events;
  };

  return {
    wants(line) {
      return WANTED.some((marker) => line.includes(marker));
    },
    parse(value, line) {
      if (!isObject(value)) return [];
      const payload = isObject(value.payload) ? value.payload : {};
      switch (value.type) {
        case 'session_meta':
          session = str(payload.id) ?? str(payload.session_id) ?? session;
          project = str(payload.cwd) ?? project;
          return [];
        case 'turn_context':
          project = str(payload.cwd) ?? project;
          return [];
        case 'compacted':
          return [eventAt(origin(value, line), { kind: 'compaction' })];
        case 'event_msg':
          return payload.type === 'turn_aborted'
            ? [eventAt(origin(value, line), { kind: 'interruption', callId: undefined })]
            : [];
        case 'response_item':
          return parseItem(value, payload, line);
        default:
          return [];
      }
    },
    flush: () => [],
    carry: () => ({
      ...(session !== undefined ? { session } : {}),
      ...(project !== undefined ? { project } : {}),
      calls: trimCalls(calls),
    }),
  };
}

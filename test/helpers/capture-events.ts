/**
 * Transcript events of one made-up session, on consecutive transcript lines, and the episodes a
 * detector finds in them: for tests of the capture stages.
 */
import { createEpisodeDetector } from '../../src/core/capture/detect-episodes.js';
import type { Episode } from '../../src/core/capture/episode.js';
import type {
  AssistantText,
  FailureSignal,
  ToolCall,
  ToolResult,
  TranscriptEvent,
  UserText,
} from '../../src/core/capture/events.js';

export type SessionOptions = { agent?: 'claude-code' | 'codex' | 'gemini'; session?: string; file?: string };

export function madeUpSession(options: SessionOptions = {}) {
  let line = 0;
  let id = 0;
  const at = () => ({
    agent: options.agent ?? 'claude-code',
    session: options.session ?? 's1',
    project: '/repo',
    timestamp: undefined,
    file: options.file ?? 't.jsonl',
    line: ++line,
  });
  const call = (tool: string, input: Record<string, unknown>): ToolCall => ({
    ...at(),
    kind: 'tool-call',
    callId: `c${++id}`,
    tool,
    input,
  });
  const result = (of: ToolCall, ok: boolean, text: string, failure: FailureSignal): ToolResult => ({
    ...at(),
    kind: 'tool-result',
    callId: of.callId,
    tool: of.tool,
    ok,
    text,
    exitCode: ok ? 0 : 1,
    failure,
  });
  return {
    call,
    result,
    /** A call and its successful result. */
    ok: (tool: string, input: Record<string, unknown>, text = 'done'): [ToolCall, ToolResult] => {
      const c = call(tool, input);
      return [c, result(c, true, text, 'none')];
    },
    /** A call and its failed result. */
    fail: (
      tool: string,
      input: Record<string, unknown>,
      text = 'Error: it broke',
      failure: FailureSignal = 'exit-code',
    ): [ToolCall, ToolResult] => {
      const c = call(tool, input);
      return [c, result(c, false, text, failure)];
    },
    user: (text: string, sidechain?: boolean): UserText => ({
      ...at(),
      kind: 'user-text',
      text,
      ...(sidechain === undefined ? {} : { sidechain }),
    }),
    say: (text: string): AssistantText => ({ ...at(), kind: 'assistant-text', text }),
    compaction: (): TranscriptEvent => ({ ...at(), kind: 'compaction' }),
    rejection: (of: ToolCall): TranscriptEvent => ({
      ...at(),
      kind: 'rejection',
      callId: of.callId,
      text: 'The user refused',
    }),
  };
}

/** Every episode of a stream: push everything, then flush. */
export function detectAll(events: readonly TranscriptEvent[], window = 40): Episode[] {
  const detector = createEpisodeDetector({ window });
  const out = events.flatMap((event) => detector.push(event));
  return [...out, ...detector.flush()];
}

/**
 * The interface every transcript reader implements (one folder per agent, same file set:
 * `paths.ts` finds the files and is the only place reading the environment, `parser.ts` turns
 * records into events, `index.ts` puts them together). The contract test suite runs against
 * every implementation.
 */
import { eventAt } from '../core/capture/events.js';
import type { Agent, EventOrigin, TranscriptEvent } from '../core/capture/events.js';
import type { ResultVerdict } from '../core/capture/classify-result.js';

/** What a parser carries from one scan of a file to the next (small, JSON-serializable). */
export type ParserCarry = {
  session?: string;
  project?: string;
  /** Tool name by call id, for results that arrive in a later scan (kept short). */
  calls?: Record<string, string>;
  /** Keys of events already emitted (Gemini upsert logs, split Claude messages). */
  seen?: string[];
  /** Gemini upsert logs: the line each of the newest message ids was first read at (a `$rewindTo` names one). */
  messages?: Record<string, number>;
};

export type ParserContext = {
  /** The file as shown in evidence (as given to the scanner). */
  file: string;
  /** The file's subagent status, from its location (Claude `agent-*.jsonl`, `subagents/`). */
  sidechain: boolean;
  /** Session and project known from the path (Gemini project folder, Claude project key). */
  project: string | undefined;
  carry: ParserCarry;
};

export type LineParser = {
  /**
   * A cheap byte test on the raw line: false means the line cannot hold an event, and it is
   * neither decoded nor parsed. `record` lines that fail JSON.parse are counted as malformed.
   */
  wants(line: Buffer): boolean;
  /**
   * The line with what the parser never reads cut out before decoding (a copy of a result the
   * line holds twice), or the line itself. When the slimmed line is not valid JSON, the whole
   * line is decoded instead.
   */
  slim?(line: Buffer): Buffer;
  /** One decoded JSON record at a 1-based line. */
  parse(record: unknown, line: number): TranscriptEvent[];
  /**
   * A line that is not valid JSON (cut short by a redaction pass, say): the events the part
   * before the cut still holds, if the reader can tell (still counted as malformed).
   */
  salvage?(line: Buffer, lineNumber: number): TranscriptEvent[];
  /** Events held back until the chunk ends (upsert logs where the last line wins). */
  flush(): TranscriptEvent[];
  /**
   * After `flush`: the first line of the earliest message this chunk took back (a Gemini
   * `$rewindTo`) that an earlier scan had already read; 0 when it lies before every message
   * remembered. What the last scan kept of the events from that line on is dropped: one scan of
   * the whole file never reads them.
   */
  rewoundTo?(): number | undefined;
  carry(): ParserCarry;
};

export type TranscriptReader = {
  agent: Agent;
  /** Is this path (found below a root) one of this agent's transcripts? */
  isTranscript(path: string): boolean;
  /** Single-document files (Gemini `.json`) are parsed whole; the rest line by line. */
  isDocument(path: string): boolean;
  /** Subagent transcript, by location. */
  isSidechain(path: string): boolean;
  /** The project a file belongs to, when its location says (undefined: from the records). */
  projectOf(path: string): string | undefined;
  createParser(context: ParserContext): LineParser;
  /** Parses a whole single-document transcript; `lineOf` maps a JSON id to its 1-based line. */
  parseDocument?(text: string, context: ParserContext): TranscriptEvent[];
};

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** Keeps the map of call ids bounded: the newest entries win. */
export function trimCalls(calls: Map<string, string>, max = 64): Record<string, string> {
  const entries = [...calls.entries()];
  return Object.fromEntries(entries.slice(Math.max(0, entries.length - max)));
}

/** Text blocks of a content value (a string, or an array of `{type, text}` blocks). */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const parts: string[] = [];
  for (const block of content) {
    if (typeof block === 'string') parts.push(block);
    else if (isObject(block) && typeof block.text === 'string') parts.push(block.text);
  }
  return parts.join('\n');
}

/** Blocks that agents or hooks add to user messages: never the user's own words. */
const INJECTED_BLOCKS =
  /<(system-reminder|hook_context|session_context|environment_context|user_instructions|local-command-stdout|local-command-stderr|local-command-caveat|command-message|command-name|command-args|task-notification|user-prompt-submit-hook)>[\s\S]*?<\/\1>/g;

export function stripInjected(text: string): string {
  return text.replace(INJECTED_BLOCKS, '').trim();
}

/** The event a tool's result is, as classified: an interruption, a rejection, or a tool result. */
export function resultEvent(
  at: EventOrigin,
  callId: string,
  tool: string | undefined,
  text: string,
  verdict: ResultVerdict,
): TranscriptEvent {
  if (verdict.kind === 'interruption') return eventAt(at, { kind: 'interruption', callId });
  if (verdict.kind === 'rejection') return eventAt(at, { kind: 'rejection', callId, text });
  return eventAt(at, {
    kind: 'tool-result',
    callId,
    tool,
    ok: verdict.ok,
    text,
    exitCode: verdict.exitCode,
    failure: verdict.failure,
  });
}

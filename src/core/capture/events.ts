/**
 * The normalized event stream every transcript reader produces, whatever the agent: user and
 * assistant text, tool calls and their results, compactions, interruptions and rejections. Each
 * event says where it came from (session, project, file, 1-based line), so an episode built from
 * events can always point back at the transcript lines that prove it.
 */

export const AGENTS = ['claude-code', 'codex', 'gemini'] as const;
export type Agent = (typeof AGENTS)[number];

export type EventOrigin = {
  agent: Agent;
  session: string;
  /** The working directory of the session (Gemini: the project hash when no path is known). */
  project: string | undefined;
  /** ISO time, when the line has one. */
  timestamp: string | undefined;
  /** The transcript file, as the scanner was given it. */
  file: string;
  /** 1-based line of the file (for a single-document JSON transcript, the line the record starts on). */
  line: number;
  /** True inside a subagent (Claude Code sidechain or a subagent file). */
  sidechain?: boolean;
};

export type UserText = EventOrigin & { kind: 'user-text'; text: string };
export type AssistantText = EventOrigin & { kind: 'assistant-text'; text: string };
export type ToolCall = EventOrigin & {
  kind: 'tool-call';
  callId: string;
  tool: string;
  input: Record<string, unknown>;
  /** Read from a line cut short: `input` holds only the parameters before the cut. */
  inputCut?: true;
};
export type ToolResult = EventOrigin & {
  kind: 'tool-result';
  callId: string;
  /** The tool of the matching call, when the reader saw it. */
  tool: string | undefined;
  ok: boolean;
  text: string;
  exitCode: number | undefined;
  /** Why the result counts as a failure (or `none`). */
  failure: FailureSignal;
  /**
   * The call looked fine and a later look showed it failed (a background launch found dead, a
   * download found to be an error page): `text` says so, the call's own output never did.
   */
  foundLater?: true;
};
export type Compaction = EventOrigin & { kind: 'compaction' };
/** The user stopped the agent (Escape, Ctrl-C): not an agent mistake. */
export type Interruption = EventOrigin & { kind: 'interruption'; callId: string | undefined };
/** The user (or a permission rule or hook) refused a tool call: not an agent mistake. */
export type Rejection = EventOrigin & { kind: 'rejection'; callId: string | undefined; text: string };

export type TranscriptEvent =
  UserText | AssistantText | ToolCall | ToolResult | Compaction | Interruption | Rejection;

export type EventKind = TranscriptEvent['kind'];

/** What marked a tool result as failed. `none`: it succeeded as far as anyone can tell. */
export const FAILURE_SIGNALS = [
  'none',
  'error-flag',
  'error-prefix',
  'tool-use-error',
  'exit-code',
  'status',
  'error-output',
  'timeout',
  'interactive-prompt',
] as const;
export type FailureSignal = (typeof FAILURE_SIGNALS)[number];

/**
 * An event: where it came from, then its own fields, as `{ ...origin, ...own }` would give it.
 * Built as a literal and `Object.assign`, not a spread: on Node 20 (V8 11.3) every key written
 * after a spread in an object literal (`{ ...origin, kind, text }`) costs some 2 µs, 80 times this,
 * and the readers build one event per block they read.
 */
export function eventAt<T extends Omit<TranscriptEvent, keyof EventOrigin>>(
  origin: EventOrigin,
  own: T,
): EventOrigin & T {
  const event: EventOrigin = {
    agent: origin.agent,
    session: origin.session,
    project: origin.project,
    timestamp: origin.timestamp,
    file: origin.file,
    line: origin.line,
  };
  if (origin.sidechain !== undefined) event.sidechain = origin.sidechain;
  return Object.assign(event, own);
}

/**
 * Every tool call of a transcript with what became of it: the calls in order per session, each
 * with its target (command keys, or the file), whether it succeeded, failed (and with which class
 * of error), was refused or interrupted, or never got a result. Replay, outcome feedback and the
 * breadth check all judge calls by this one shape. Pure: events in, calls out.
 *
 * Bad input is counted, never thrown: a result without its call, a call without a result, and a
 * timestamp earlier than the one before it in the same session (the calls keep file order).
 */
import { boundedOutput } from '../inject/parse-hook-input.js';
import { commandOf, targetOf } from '../capture/call-target.js';
import { errorGist } from '../capture/classify-result.js';
import { resultOfCall } from '../capture/masked-failure.js';
import type { Agent, ToolCall, TranscriptEvent } from '../capture/events.js';
import { errorClass } from './error-class.js';
import type { ErrorClass } from './error-class.js';

export const CALL_OUTCOMES = ['ok', 'failed', 'rejected', 'interrupted', 'no-result'] as const;
export type CallOutcomeKind = (typeof CALL_OUTCOMES)[number];

export type ReplayCall = {
  agent: Agent;
  session: string;
  project: string | undefined;
  file: string;
  /** 1-based line of the call in its file. */
  line: number;
  /** ISO time of the call, when the transcript has one. */
  time: string | undefined;
  /** Made inside a subagent (its own context: the hook dedups per agent). */
  sidechain: boolean;
  callId: string;
  /** The tool as the transcript names it (`Bash`, `exec_command`, `run_shell_command`, ...). */
  tool: string;
  input: Record<string, unknown>;
  /** The shell command, for shell tools. */
  command: string | undefined;
  /** `shell`, `edit`, `read`, else the tool (lowercase): calls of one family can repeat each other. */
  family: string;
  /** Command keys (`git push`, `pytest`) for shell calls, the file for file tools, else the tool. */
  keys: string[];
  outcome: CallOutcomeKind;
  /** For a failed call: the class of its error and the line that says what happened. */
  errorClass?: ErrorClass;
  gist?: string;
  /** For a failed call: the exit code its result gave, when it gave one. */
  exitCode?: number;
  /**
   * The result's text as a hook after the call would see it (head and tail, capped as the hook
   * caps it): kept only when asked (`collectCalls(events, { outputs: true })`, the replay).
   */
  output?: string;
  /** 1-based line of the result, when there was one. */
  resultLine?: number;
};

export type SessionCalls = {
  agent: Agent;
  session: string;
  project: string | undefined;
  calls: ReplayCall[];
  /** What the user typed, in order, with the index of the first call after it. */
  prompts: { text: string; line: number; time: string | undefined; beforeCall: number }[];
};

export type CallCounts = {
  calls: number;
  failed: number;
  /** Calls that never got a result (the transcript ends, or the result line is missing). */
  missingResults: number;
  /** Results whose call the reader never saw. */
  orphanResults: number;
  /** Calls whose timestamp is earlier than the call before them in the same session. */
  clockBackwards: number;
};

export type CollectedCalls = { sessions: SessionCalls[]; counts: CallCounts };

function newCall(event: ToolCall): ReplayCall {
  const target = targetOf(event);
  return {
    agent: event.agent,
    session: event.session,
    project: event.project,
    file: event.file,
    line: event.line,
    time: event.timestamp,
    sidechain: event.sidechain === true,
    callId: event.callId,
    tool: event.tool,
    input: event.input,
    command: commandOf(event),
    family: target.family,
    keys: target.keys,
    outcome: 'no-result',
  };
}

/** The programs a shell call ran, for the error gist's choice of line. */
function programsOf(call: ReplayCall): string[] {
  return call.family === 'shell' ? call.keys.map((key) => key.split(' ')[0] ?? key) : [];
}

/**
 * The calls of a stream of events (one file, or several in order), grouped by session in the
 * order they were made. Events of sessions that interleave (subagent files, resumed sessions)
 * are kept apart by their session id.
 */
export function collectCalls(
  events: Iterable<TranscriptEvent>,
  options: { outputs?: boolean } = {},
): CollectedCalls {
  const sessions = new Map<string, SessionCalls>();
  const open = new Map<string, ReplayCall>();
  const counts: CallCounts = { calls: 0, failed: 0, missingResults: 0, orphanResults: 0, clockBackwards: 0 };
  const sessionOf = (event: TranscriptEvent): SessionCalls => {
    let found = sessions.get(event.session);
    if (found === undefined) {
      found = { agent: event.agent, session: event.session, project: event.project, calls: [], prompts: [] };
      sessions.set(event.session, found);
    }
    if (found.project === undefined && event.project !== undefined) found.project = event.project;
    return found;
  };
  const keyOf = (session: string, callId: string | undefined) => `${session}\u0000${callId ?? ''}`;
  for (const event of events) {
    switch (event.kind) {
      case 'tool-call': {
        const session = sessionOf(event);
        const call = newCall(event);
        const last = session.calls.at(-1);
        if (last?.time !== undefined && call.time !== undefined && call.time < last.time)
          counts.clockBackwards += 1;
        session.calls.push(call);
        open.set(keyOf(event.session, event.callId), call);
        counts.calls += 1;
        break;
      }
      case 'tool-result': {
        const call = open.get(keyOf(event.session, event.callId));
        if (call === undefined) {
          counts.orphanResults += 1;
          break;
        }
        open.delete(keyOf(event.session, event.callId));
        call.resultLine = event.line;
        if (options.outputs === true) {
          const output = boundedOutput(event.text);
          // cut long ones are copied flat: a slice would keep the whole result alive
          if (output !== undefined)
            call.output = output === event.text ? output : (JSON.parse(JSON.stringify(output)) as string);
        }
        // A `cd` on its own where the next call starts over failed, whatever its output says; so
        // did a command whose output opens with its own error although a pipe hid its exit code.
        const result = resultOfCall(call, event);
        if (result.ok) {
          call.outcome = 'ok';
          break;
        }
        call.outcome = 'failed';
        if (result.exitCode !== undefined) call.exitCode = result.exitCode;
        call.gist = errorGist(result.text, programsOf(call));
        call.errorClass = errorClass(`${call.gist}\n${result.text.slice(0, 4000)}`);
        counts.failed += 1;
        break;
      }
      case 'rejection':
      case 'interruption': {
        const call = event.callId === undefined ? undefined : open.get(keyOf(event.session, event.callId));
        if (call !== undefined) {
          open.delete(keyOf(event.session, event.callId));
          call.outcome = event.kind === 'rejection' ? 'rejected' : 'interrupted';
          call.resultLine = event.line;
        }
        break;
      }
      case 'user-text': {
        const session = sessionOf(event);
        session.prompts.push({
          text: event.text,
          line: event.line,
          time: event.timestamp,
          beforeCall: session.calls.length,
        });
        break;
      }
      default:
        break;
    }
  }
  counts.missingResults = [...sessions.values()]
    .flatMap((session) => session.calls)
    .filter((call) => call.outcome === 'no-result').length;
  return { sessions: [...sessions.values()], counts };
}

/**
 * Whether `later` is another attempt of the same kind as `earlier`: the same family (shell, edit,
 * read, or the same tool) acting on a shared key (a command key such as `git push`, or the file).
 */
export function sameKind(earlier: ReplayCall, later: ReplayCall): boolean {
  if (earlier.family !== later.family) return false;
  return earlier.keys.some((key) => key !== '?' && later.keys.includes(key));
}

/** The next call of the same kind after index `from` in a session's calls, if any. */
export function nextAttempt(calls: readonly ReplayCall[], from: number): ReplayCall | undefined {
  const call = calls[from];
  if (call === undefined) return undefined;
  for (let i = from + 1; i < calls.length; i += 1) {
    const later = calls[i];
    if (later !== undefined && sameKind(call, later)) return later;
  }
  return undefined;
}

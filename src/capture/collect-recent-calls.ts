/**
 * What one file's scan adds to the call cache (see core/breadth/cached-call.ts): the tool calls
 * read and their outcomes. Per event it only keeps a slim copy of calls (the command and path
 * fields of the input, strings cut short) and of results (the text cut to what the error class
 * reads); at the end of the file `collectCalls` pairs them. The scan redacts the calls the cache
 * keeps before writing them (`redactCall`).
 * A file with more calls than the cache holds keeps only its newest.
 */
import type { TranscriptEvent } from '../core/capture/events.js';
import { redactText } from '../core/capture/redact.js';
import type { RedactOptions } from '../core/capture/redact.js';
import { collectCalls } from '../core/outcome/call-outcome.js';
import {
  CACHED_COMMAND_CHARS,
  CALL_CACHE_LIMIT,
  cachedCallOf,
  mergeCachedCalls,
} from '../core/breadth/cached-call.js';
import type { CachedCall } from '../core/breadth/cached-call.js';

const INPUT_KEYS = [
  'command',
  'cmd',
  'file_path',
  'notebook_path',
  'path',
  'absolute_path',
  'dir_path',
  'filePath',
  'filename',
  'file',
  'directory',
  'dir',
  'pattern',
  'glob',
] as const;
const RESULT_CHARS = 4000;

function slimInput(input: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of INPUT_KEYS) {
    const value = input[key];
    if (typeof value === 'string') out[key] = value.slice(0, CACHED_COMMAND_CHARS + 1);
    else if (Array.isArray(value) && key === 'command')
      out[key] = value.join(' ').slice(0, CACHED_COMMAND_CHARS + 1);
  }
  if (Array.isArray(input.paths)) out.paths = input.paths.filter((p) => typeof p === 'string').slice(0, 8);
  // A Codex patch names its file in its text: keep only those lines.
  if (typeof input.input === 'string')
    out.input = (input.input.match(/\*\*\* (?:Update|Add|Delete) File: .+/g) ?? []).slice(0, 8).join('\n');
  // A fresh copy: a slice of a parsed string would keep the whole (maybe 50 KB) line alive.
  return JSON.parse(JSON.stringify(out)) as Record<string, unknown>;
}

/**
 * Redacts what a call carries from the transcript: its command, paths, keys and folder. The scan
 * does it once the calls the cache keeps are known (the newest of every file read), not per file.
 */
export function redactCall(call: CachedCall, redact: RedactOptions): CachedCall {
  return {
    ...call,
    ...(call.project !== undefined ? { project: redactText(call.project, redact) } : {}),
    ...(call.command !== undefined ? { command: redactText(call.command, redact) } : {}),
    ...(call.paths !== undefined ? { paths: call.paths.map((path) => redactText(path, redact)) } : {}),
    keys: call.keys.map((key) => redactText(key, redact)),
    ...(call.error !== undefined ? { error: redactText(call.error, redact) } : {}),
  };
}

export type CallCollector = {
  push(event: TranscriptEvent): void;
  /** The calls read, newest `CALL_CACHE_LIMIT`, not redacted yet (see `redactCall`). */
  finish(): CachedCall[];
};

/**
 * `since` (an ISO time, see `createCallFloor`): calls made before it are left out, with their
 * results. A call without a time counts as made when the call before it in the file was (kept
 * when no call before it has a time).
 */
export function createCallCollector(limit = CALL_CACHE_LIMIT, since?: string): CallCollector {
  let events: TranscriptEvent[] = [];
  let calls = 0;
  /** The calls left out (session and id), whose results are left out too. */
  const older = new Set<string>();
  let lastTime: string | undefined;
  return {
    push(event) {
      if (
        since !== undefined &&
        event.kind !== 'tool-call' &&
        'callId' in event &&
        event.callId !== undefined
      ) {
        if (older.delete(`${event.session}\u0000${event.callId}`)) return;
      }
      switch (event.kind) {
        case 'tool-call': {
          // a call without a time is as old as the call before it (as the cache would rank it)
          const timestamp = event.timestamp ?? lastTime;
          lastTime = timestamp;
          if (since !== undefined && timestamp !== undefined && timestamp < since) {
            older.add(`${event.session}\u0000${event.callId}`);
            return;
          }
          events.push({ ...event, timestamp, input: slimInput(event.input) });
          calls += 1;
          // Many more calls than the cache keeps: drop the oldest half (their results are dropped too).
          if (calls > limit * 2) {
            events = events.slice(Math.floor(events.length / 2));
            calls = events.filter((e) => e.kind === 'tool-call').length;
          }
          break;
        }
        case 'tool-result':
          // Only a failure's text is read (for its error class); a fresh copy, as above.
          events.push({
            ...event,
            text: event.ok ? '' : (JSON.parse(JSON.stringify(event.text.slice(0, RESULT_CHARS))) as string),
          });
          break;
        case 'rejection':
          events.push({ ...event, text: '' });
          break;
        case 'interruption':
          events.push(event);
          break;
        default:
          break;
      }
    },
    finish() {
      if (events.length === 0) return [];
      const collected = collectCalls(events);
      const all = collected.sessions.flatMap((session) => session.calls.map(cachedCallOf));
      return mergeCachedCalls([], all, limit);
    },
  };
}

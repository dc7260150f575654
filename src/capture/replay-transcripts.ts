/**
 * The transcripts `lore replay` replays: every file under the roots (the agents' default folders,
 * or `--path` folders), read whole with the readers `lore scan` uses, each file's tool calls with
 * what became of them (`collectCalls`), and the parts of one session that live in several files
 * (Claude Code's subagent files, a resumed session) merged into one session in time order, each
 * file's own order kept. Nothing is stored. Broken lines (a truncated last line among them), calls
 * without a result, results without a call and clocks going backwards are counted, never fatal.
 */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Agent } from '../core/capture/events.js';
import { collectCalls } from '../core/outcome/call-outcome.js';
import type { CallCounts, ReplayCall, SessionCalls } from '../core/outcome/call-outcome.js';
import type { ReplaySessionCalls } from '../core/replay/replay-calls.js';
import type { TranscriptEvent } from '../core/capture/events.js';
import { fileEvents } from './file-events.js';
import { READERS, detectAgentOrSkip } from './readers.js';
import { walk } from './walk-files.js';
import type { ScanRoot } from './scan-transcripts.js';

export type ReplayTranscripts = {
  sessions: ReplaySessionCalls[];
  files: number;
  /** Lines that were not valid records. */
  brokenLines: number;
  counts: CallCounts;
};

export type ReplayReadOptions = {
  source?: Agent;
  /** ISO date: files last changed before it are skipped, and calls and prompts before it dropped. */
  since?: string;
  onProgress?: (done: number, total: number) => void;
};

type Found = { path: string; shown: string };

/** The transcripts below `roots`; a folder that cannot be read goes to `onSkipped` and is left out. */
function findTranscripts(
  roots: readonly ScanRoot[],
  options: ReplayReadOptions,
  onSkipped: () => void,
): Found[] {
  const found = new Map<string, Found>();
  const sinceMs = options.since === undefined ? undefined : Date.parse(options.since);
  for (const root of roots) {
    const base = resolve(root.path);
    for (const path of walk(base, onSkipped)) {
      if (found.has(path)) continue;
      const agent = root.agent
        ? READERS[root.agent].isTranscript(path)
          ? root.agent
          : undefined
        : detectAgentOrSkip(path, onSkipped);
      if (agent === undefined || (options.source !== undefined && agent !== options.source)) continue;
      if (sinceMs !== undefined && (statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? 0) < sinceMs)
        continue;
      const shown = root.shownAs === undefined ? path : `${root.shownAs}${path.slice(base.length)}`;
      found.set(path, { path, shown });
    }
  }
  return [...found.values()];
}

/** A session part without the calls and prompts before `since`. */
function after(part: ReplaySessionCalls, since: string | undefined): ReplaySessionCalls {
  if (since === undefined) return part;
  const kept: ReplayCall[] = [];
  const newIndex: number[] = [];
  part.calls.forEach((call) => {
    newIndex.push(kept.length);
    if (call.time === undefined || call.time >= since) kept.push(call);
  });
  newIndex.push(kept.length);
  return {
    ...part,
    calls: kept,
    prompts: part.prompts
      .filter((prompt) => prompt.time === undefined || prompt.time >= since)
      .map((prompt) => ({ ...prompt, beforeCall: newIndex[prompt.beforeCall] ?? kept.length })),
    ...(part.compactions === undefined
      ? {}
      : { compactions: part.compactions.map((at) => newIndex[at] ?? kept.length) }),
  };
}

/** Where each session of a file's events was compacted: the number of its calls before each compaction. */
export function compactionsOf(events: readonly TranscriptEvent[]): Map<string, number[]> {
  const calls = new Map<string, number>();
  const out = new Map<string, number[]>();
  for (const event of events) {
    if (event.kind === 'tool-call') calls.set(event.session, (calls.get(event.session) ?? 0) + 1);
    else if (event.kind === 'compaction') {
      const list = out.get(event.session) ?? [];
      list.push(calls.get(event.session) ?? 0);
      out.set(event.session, list);
    }
  }
  return out;
}

/**
 * The parts of one session merged: calls interleaved by time (a call without one keeps its
 * file's last time), each part's own order kept; prompts stay before the call they preceded.
 */
export function mergeParts(parts: readonly ReplaySessionCalls[]): ReplaySessionCalls {
  const [first] = parts;
  if (first === undefined) throw new Error('mergeParts needs a part');
  if (parts.length === 1) return first;
  const next = parts.map(() => 0);
  const lastTime = parts.map(() => '');
  const globalIndex = parts.map((part) => part.calls.map(() => 0));
  const calls: ReplayCall[] = [];
  for (;;) {
    let pick = -1;
    let pickTime = '';
    parts.forEach((part, k) => {
      const call = part.calls[next[k] as number];
      if (call === undefined) return;
      const time = call.time ?? (lastTime[k] as string);
      if (pick < 0 || time < pickTime) {
        pick = k;
        pickTime = time;
      }
    });
    if (pick < 0) break;
    const part = parts[pick] as ReplaySessionCalls;
    const local = next[pick] as number;
    const call = part.calls[local] as ReplayCall;
    (globalIndex[pick] as number[])[local] = calls.length;
    calls.push(call);
    lastTime[pick] = pickTime;
    next[pick] = local + 1;
  }
  const prompts = parts
    .flatMap((part, k) =>
      part.prompts.map((prompt) => {
        const mine = globalIndex[k] as number[];
        const at =
          prompt.beforeCall < mine.length ? (mine[prompt.beforeCall] as number) : (mine.at(-1) ?? -1) + 1;
        return { ...prompt, beforeCall: Math.max(0, at) };
      }),
    )
    .sort((a, b) => a.beforeCall - b.beforeCall);
  const globalAt = (k: number, local: number) => {
    const mine = globalIndex[k] as number[];
    return local < mine.length ? (mine[local] as number) : (mine.at(-1) ?? -1) + 1;
  };
  const compactions = parts
    .flatMap((part, k) => (part.compactions ?? []).map((at) => globalAt(k, at)))
    .sort((a, b) => a - b);
  return {
    ...(compactions.length > 0 ? { compactions } : {}),
    agent: first.agent,
    session: first.session,
    project: parts.find((part) => part.project !== undefined)?.project,
    calls,
    prompts,
  };
}

export function readReplayTranscripts(
  roots: readonly ScanRoot[],
  options: ReplayReadOptions = {},
): ReplayTranscripts {
  let brokenLines = 0;
  // an unreadable folder, like an unreadable file: counted as one broken line, never fatal
  const files = findTranscripts(roots, options, () => (brokenLines += 1));
  const parts = new Map<string, ReplaySessionCalls[]>();
  const counts: CallCounts = { calls: 0, failed: 0, missingResults: 0, orphanResults: 0, clockBackwards: 0 };
  files.forEach((file, i) => {
    options.onProgress?.(i, files.length);
    let read;
    try {
      read = fileEvents(file.path, file.shown);
    } catch {
      brokenLines += 1; // unreadable file: counted as one broken line, never fatal
      return;
    }
    // a last line the reader left unread (cut short, or still being written) is a broken line
    brokenLines += read.broken + (read.unreadTail ? 1 : 0);
    const collected = collectCalls(read.events, { outputs: true });
    const compactions = compactionsOf(read.events);
    for (const key of Object.keys(counts) as (keyof CallCounts)[]) counts[key] += collected.counts[key];
    for (const session of collected.sessions) {
      const key = `${session.agent}\u0000${session.session}`;
      const list = parts.get(key) ?? [];
      const at = compactions.get(session.session);
      list.push(after(at === undefined ? session : { ...session, compactions: at }, options.since));
      parts.set(key, list);
    }
  });
  options.onProgress?.(files.length, files.length);
  const sessions = [...parts.values()]
    .map(mergeParts)
    .filter((session) => session.calls.length > 0 || session.prompts.length > 0);
  const startOf = (session: SessionCalls) =>
    session.calls.find((call) => call.time !== undefined)?.time ?? '';
  sessions.sort((a, b) => (startOf(a) < startOf(b) ? -1 : startOf(a) > startOf(b) ? 1 : 0));
  return { sessions, files: files.length, brokenLines, counts };
}

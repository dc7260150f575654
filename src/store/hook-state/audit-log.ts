/**
 * The audit log of the hook: one JSON line per injection or denial (guard or checkpoint), appended (O_APPEND) to
 * `<cache>/audit.jsonl` of the project (or of the user tier outside a project). Feedback,
 * confidence and analytics read it later. Node built-ins only: the hook imports this.
 *
 * A tool call's line also says which call it was, so `lore scan` can find it in the transcript and
 * judge what came of the injection (outcome-linked feedback): the host's call id where it sends one
 * (`call_id`), else the command (cut) or paths and the time. Lines from older versions lack them.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { HookDecision, HookEvent, Host } from '../../core/inject/types.js';
import { utcIso } from '../../core/utc-time.js';
import { rotateLog } from '../fs/background-log.js';
import { appendText } from '../fs/fs-atomic.js';
import { readTail } from '../fs/read-tail.js';

export const AUDIT_FILE = 'audit.jsonl';

export type AuditRecord = {
  time: string;
  /** `mcp`: the learnings sidecar of `lore mcp` showed the lessons. */
  host: Host | 'mcp';
  session: string;
  agent: string;
  event: string;
  tool: string | null;
  source: string | null;
  /** On a host that splits a tool call: `after` is advice beside the result, `before` a guard. */
  phase?: 'before' | 'after' | 'outcome';
  /** `covers`: an aggregated tool skill's pointer (`id` is the skill's name) and the lessons it stood in for. */
  lessons: { id: string; matched_by: string[]; form: string; covers?: string[] }[];
  /** `kind: 'checkpoint'`: a checkpoint's once-per-session denial (absent: a guard's). */
  denied: { id: string; matched_by: string[]; kind?: 'checkpoint' }[];
  bytes: number;
  /** The first DROPPED_LISTED of what was dropped, best first; `dropped_count` has them all. */
  dropped: { id: string; reason: string }[];
  dropped_count: number;
  /** The host's id of the tool call (Claude Code and Codex `tool_use_id`; absent in older lines). */
  call_id?: string;
  /** The shell command, cut to AUDIT_COMMAND_CHARS. */
  command?: string;
  /** The paths of a file tool's call (absolute, at most AUDIT_PATHS). */
  paths?: string[];
  /** The session's transcript file, when the host names it. */
  transcript?: string;
};

/** What an audit line keeps of a call: enough to find it again, never the whole command. */
export const AUDIT_COMMAND_CHARS = 300;
export const AUDIT_PATHS = 8;

/** A call over a large store can drop hundreds of matches; the log keeps the best ones. */
export const DROPPED_LISTED = 20;

export function auditRecord(
  event: HookEvent,
  decision: HookDecision,
  host: Host,
  nowMs: number,
  bytes: number,
): AuditRecord {
  return {
    time: utcIso(nowMs),
    host,
    session: event.sessionId,
    agent: event.agentId,
    event: event.event,
    tool: event.tool ?? null,
    source: event.source ?? null,
    ...(event.phase === undefined ? {} : { phase: event.phase }),
    lessons: decision.plan.included.map((item) => ({
      id: item.id,
      matched_by: item.matchedBy,
      form: item.form,
      ...(item.skill === undefined ? {} : { covers: item.skill.lessons }),
    })),
    denied: decision.plan.denied.map((item) => ({
      id: item.id,
      matched_by: item.matchedBy,
      ...(item.kind === undefined ? {} : { kind: item.kind }),
    })),
    bytes,
    dropped: decision.plan.skipped
      .slice(0, DROPPED_LISTED)
      .map((skip) => ({ id: skip.id, reason: skip.reason })),
    dropped_count: decision.plan.skipped.length,
    ...(event.callId === undefined ? {} : { call_id: event.callId }),
    ...(event.command === undefined ? {} : { command: event.command.slice(0, AUDIT_COMMAND_CHARS) }),
    ...(event.paths === undefined || event.paths.length === 0
      ? {}
      : { paths: event.paths.slice(0, AUDIT_PATHS) }),
    ...(event.transcriptPath === undefined ? {} : { transcript: event.transcriptPath }),
  };
}

/**
 * Past this size the log is moved to `audit.jsonl.1` (the one before is dropped) and a fresh one
 * begins: at about 600 bytes an injection, some 100,000 injections a file. Readers read the newest
 * part of both (`readAuditTail`), so the move loses nothing they look at.
 */
export const AUDIT_LIMIT = 64 * 1024 * 1024;

export function appendAudit(cacheDir: string, record: AuditRecord, limit = AUDIT_LIMIT): void {
  const line = `${JSON.stringify(record)}\n`;
  const path = join(cacheDir, AUDIT_FILE);
  try {
    appendText(path, line);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    mkdirSync(cacheDir, { recursive: true });
    appendText(path, line);
  }
  rotateLog(path, limit);
}

/**
 * The newest `maxBytes` of the log: the end of `audit.jsonl.1` (the log before the last move)
 * and then the current one. `truncated`: the bytes begin inside a line.
 */
export function readAuditTail(cacheDir: string, maxBytes: number): { bytes: Buffer; truncated: boolean } {
  const path = join(cacheDir, AUDIT_FILE);
  const current = readTail(path, maxBytes);
  if (current.truncated || current.bytes.length >= maxBytes) return current;
  const before = readTail(`${path}.1`, maxBytes - current.bytes.length);
  if (before.bytes.length === 0) return current;
  const joint = before.bytes[before.bytes.length - 1] === 0x0a ? [] : [Buffer.from('\n')];
  return { bytes: Buffer.concat([before.bytes, ...joint, current.bytes]), truncated: before.truncated };
}

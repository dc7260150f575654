/**
 * The audit log of the hook: one JSON line per injection or denial (guard or checkpoint), appended (O_APPEND) to
 * `<cache>/audit.jsonl` of the project (or of the user tier outside a project). Feedback,
 * confidence and analytics read it later. Node built-ins only: the hook imports this.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { HookDecision, HookEvent, Host } from '../../core/inject/types.js';
import { utcIso } from '../../core/utc-time.js';

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
  phase?: 'before' | 'after';
  /** `covers`: an aggregated tool skill's pointer (`id` is the skill's name) and the lessons it stood in for. */
  lessons: { id: string; matched_by: string[]; form: string; covers?: string[] }[];
  /** `kind: 'checkpoint'`: a checkpoint's once-per-session denial (absent: a guard's). */
  denied: { id: string; matched_by: string[]; kind?: 'checkpoint' }[];
  bytes: number;
  /** The first DROPPED_LISTED of what was dropped, best first; `dropped_count` has them all. */
  dropped: { id: string; reason: string }[];
  dropped_count: number;
};

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
  };
}

export function appendAudit(cacheDir: string, record: AuditRecord): void {
  const line = `${JSON.stringify(record)}\n`;
  try {
    appendFileSync(join(cacheDir, AUDIT_FILE), line);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    mkdirSync(cacheDir, { recursive: true });
    appendFileSync(join(cacheDir, AUDIT_FILE), line);
  }
}

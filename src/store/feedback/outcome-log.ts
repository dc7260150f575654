/**
 * The files of outcome-linked feedback in a tier's cache directory: the hook's audit log read as
 * injections (malformed lines counted and skipped), `outcomes.jsonl` (one judged injection a line,
 * O_APPEND) and `outcome-holds.jsonl` (when outcomes held a lesson for review, and when a person
 * kept it).
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { auditInjections } from '../../core/feedback/audit-injections.js';
import type { Injection } from '../../core/feedback/audit-injections.js';
import { readOutcomesIn } from '../analytics/read-outcomes.js';
import { ownCacheDirs } from '../replay/read-last-replay.js';
import { OUTCOMES_FILE } from '../../core/feedback/outcome-record.js';
import type { OutcomeRecord } from '../../core/feedback/outcome-record.js';
import { appendLine } from '../fs/fs-atomic.js';
import { readAuditTail } from '../hook-state/audit-log.js';
import type { Workspace } from '../workspace/workspace.js';

export const OUTCOME_HOLDS_FILE = 'outcome-holds.jsonl';
/** The lock two scans judging one tier's injections at once take in turn. */
export const OUTCOMES_LOCK = 'outcomes.lock';

/** At most this much of the audit log is read (its newest part). */
const AUDIT_READ_BYTES = 32 * 1024 * 1024;

export type AuditInjections = { injections: Injection[]; malformed: number };

function lines(text: string): string[] {
  return text.split('\n').filter((line) => line.trim() !== '');
}

/** The injections of a tier's audit log, oldest first; malformed lines are counted and skipped. */
export function readAuditInjections(cacheDir: string): AuditInjections {
  const { bytes, truncated } = readAuditTail(cacheDir, AUDIT_READ_BYTES);
  const all = bytes.toString('utf8').split('\n');
  if (truncated) all.shift(); // cut by the read
  const out: AuditInjections = { injections: [], malformed: 0 };
  all.forEach((line, index) => {
    if (line.trim() === '') return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      // the last line may be one the hook is writing right now
      if (index < all.length - 1) out.malformed += 1;
      return;
    }
    const injections = auditInjections(parsed);
    if (injections === undefined) out.malformed += 1;
    else out.injections.push(...injections);
  });
  return out;
}

function readJsonLines<T>(path: string, keep: (value: unknown) => value is T): T[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return [];
  }
  const out: T[] = [];
  for (const line of lines(text)) {
    try {
      const value = JSON.parse(line) as unknown;
      if (keep(value)) out.push(value);
    } catch {
      // a torn line: skip it
    }
  }
  return out;
}

/** Every judged injection of a tier, oldest first (one parser for every reader: `read-outcomes.ts`). */
export function readOutcomes(cacheDir: string): OutcomeRecord[] {
  return readOutcomesIn([cacheDir]).records;
}

export function appendOutcome(cacheDir: string, record: OutcomeRecord): void {
  mkdirSync(cacheDir, { recursive: true });
  appendLine(join(cacheDir, OUTCOMES_FILE), JSON.stringify(record));
}

export type HoldLine = {
  lesson: string;
  action: 'held' | 'kept';
  at: string;
  /** `held`: the automatic verdicts that held it. */
  helpful?: number;
  notHelpful?: number;
};

function isHold(value: unknown): value is HoldLine {
  if (typeof value !== 'object' || value === null) return false;
  const hold = value as Partial<HoldLine>;
  return (
    typeof hold.lesson === 'string' &&
    typeof hold.at === 'string' &&
    (hold.action === 'held' || hold.action === 'kept')
  );
}

export function readHolds(cacheDir: string): HoldLine[] {
  return readJsonLines(join(cacheDir, OUTCOME_HOLDS_FILE), isHold);
}

export function appendHold(cacheDir: string, hold: HoldLine): void {
  mkdirSync(cacheDir, { recursive: true });
  appendLine(join(cacheDir, OUTCOME_HOLDS_FILE), JSON.stringify(hold));
}

/** The last hold line of each lesson. */
export function lastHolds(holds: readonly HoldLine[]): Map<string, HoldLine> {
  const out = new Map<string, HoldLine>();
  for (const hold of holds) out.set(hold.lesson, hold);
  return out;
}

/** Every outcome record of the workspace's own tiers. */
export function workspaceOutcomes(ws: Workspace): OutcomeRecord[] {
  return readOutcomesIn(ownCacheDirs(ws)).records;
}

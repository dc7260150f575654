/**
 * The injection records of channels that have no audit log line of their own (the task
 * pre-prompt): `<cache>/injections.jsonl`, one JSON `InjectionRecord` a line, appended. A lesson
 * is recorded once per task: a second `lore prompt` for the same task adds nothing. Derived
 * local data, like the audit log (never committed); `readInjections` returns every channel's
 * records in the one shape, the hooks' and the MCP sidecar's from the audit log.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { injectionKey } from '../../core/injection-record.js';
import type { InjectionRecord } from '../../core/injection-record.js';
import { appendLine } from '../fs/fs-atomic.js';
import { readAuditLog } from './audit-read.js';

export const INJECTIONS_FILE = 'injections.jsonl';

function readRecorded(cacheDir: string): InjectionRecord[] {
  let text: string;
  try {
    text = readFileSync(join(cacheDir, INJECTIONS_FILE), 'utf8');
  } catch {
    return [];
  }
  const records: InjectionRecord[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const value = JSON.parse(line) as InjectionRecord;
      if (typeof value.lesson === 'string' && typeof value.task === 'string') records.push(value);
    } catch {
      // a torn last line of a killed writer: the others still count
    }
  }
  return records;
}

/** Appends the records not yet there for their lesson and task; returns those it appended. */
export function recordInjections(cacheDir: string, records: readonly InjectionRecord[]): InjectionRecord[] {
  const known = new Set(readRecorded(cacheDir).map(injectionKey));
  const fresh = records.filter((record) => {
    const key = injectionKey(record);
    if (known.has(key)) return false;
    known.add(key);
    return true;
  });
  if (fresh.length > 0) mkdirSync(cacheDir, { recursive: true });
  for (const record of fresh) appendLine(join(cacheDir, INJECTIONS_FILE), JSON.stringify(record));
  return fresh;
}

/** Every channel's records, oldest first: the pre-prompt's, and the audit log's as records. */
export function readInjections(cacheDir: string): InjectionRecord[] {
  const fromAudit: InjectionRecord[] = readAuditLog(cacheDir).flatMap((entry) =>
    // A lesson both injected and denied in one call is one record.
    [...new Map([...entry.lessons, ...(entry.denied ?? [])].map((item) => [item.id, item])).values()].map(
      (item) => ({
        lesson: item.id,
        task: `session:${entry.session}`,
        session: entry.session,
        channel: entry.host === 'mcp' ? ('mcp' as const) : ('hook' as const),
        at: entry.time,
        matchedBy: item.matched_by,
        feedback: null,
      }),
    ),
  );
  return [...readRecorded(cacheDir), ...fromAudit].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
}

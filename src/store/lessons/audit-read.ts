/**
 * Reading the hook's audit log (`<cache>/audit.jsonl`, written by audit-log.ts) for analytics.
 * Only the newest `maxBytes` are read (of it and of the log before its last move); torn lines (a hook killed mid-write) are skipped.
 */
import { readAuditTail } from '../hook-state/audit-log.js';
import type { AuditRecord } from '../hook-state/audit-log.js';

export function readAuditLog(cacheDir: string, maxBytes = 32 * 1024 * 1024): AuditRecord[] {
  const { bytes, truncated } = readAuditTail(cacheDir, maxBytes);
  const lines = bytes.toString('utf8').split('\n');
  if (truncated) lines.shift(); // the first line is cut
  const out: AuditRecord[] = [];
  for (const line of lines) {
    if (line === '') continue;
    try {
      const record = JSON.parse(line) as AuditRecord;
      if (typeof record.time === 'string' && Array.isArray(record.lessons)) out.push(record);
    } catch {
      // a torn line
    }
  }
  return out;
}

/**
 * Reading the hook's audit log (`<cache>/audit.jsonl`, written by audit-log.ts) for analytics.
 * Only the newest `maxBytes` are read; torn lines (a hook killed mid-write) are skipped.
 */
import { join } from 'node:path';
import { readTail } from '../fs/read-tail.js';
import { AUDIT_FILE } from '../hook-state/audit-log.js';
import type { AuditRecord } from '../hook-state/audit-log.js';

export function readAuditLog(cacheDir: string, maxBytes = 32 * 1024 * 1024): AuditRecord[] {
  const path = join(cacheDir, AUDIT_FILE);
  const { bytes, truncated } = readTail(path, maxBytes);
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

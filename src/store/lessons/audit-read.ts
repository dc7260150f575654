/**
 * Reading the hook's audit log (`<cache>/audit.jsonl`, written by audit-log.ts) for analytics.
 * Only the newest `maxBytes` are read; torn lines (a hook killed mid-write) are skipped.
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { AUDIT_FILE } from '../hook-state/audit-log.js';
import type { AuditRecord } from '../hook-state/audit-log.js';

export function readAuditLog(cacheDir: string, maxBytes = 32 * 1024 * 1024): AuditRecord[] {
  const path = join(cacheDir, AUDIT_FILE);
  const size = statSync(path, { throwIfNoEntry: false })?.size ?? 0;
  if (size === 0) return [];
  const length = Math.min(size, maxBytes);
  const buffer = Buffer.alloc(length);
  const fd = openSync(path, 'r');
  try {
    readSync(fd, buffer, 0, length, size - length);
  } finally {
    closeSync(fd);
  }
  const lines = buffer.toString('utf8').split('\n');
  if (length < size) lines.shift(); // the first line is cut
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

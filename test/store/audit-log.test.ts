// The hook's audit log is bounded: past its limit it moves to audit.jsonl.1 and a fresh one begins;
// readers read the newest part of both, so the move loses none of what they look at.
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { appendAudit, AUDIT_FILE, readAuditTail } from '../../src/store/hook-state/audit-log.js';
import type { AuditRecord } from '../../src/store/hook-state/audit-log.js';
import { readAuditLog } from '../../src/store/lessons/audit-read.js';

let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const record = (n: number): AuditRecord => ({
  time: `2026-01-01T00:00:${String(n % 60).padStart(2, '0')}.000Z`,
  host: 'claude-code',
  session: `s${n}`,
  agent: 'main',
  event: 'PreToolUse',
  tool: 'Bash',
  source: null,
  lessons: [{ id: `l${n}`, matched_by: ['command:x'], form: 'full' }],
  denied: [],
  bytes: 100,
  dropped: [],
  dropped_count: 0,
});

describe('the audit log', () => {
  it('moves to audit.jsonl.1 past its limit; readers still see every recent record, in order', () => {
    dir = mkdtempSync(join(tmpdir(), 'lore-audit-'));
    const limit = 2_000;
    for (let n = 0; n < 30; n += 1) appendAudit(dir, record(n), limit);
    const path = join(dir, AUDIT_FILE);
    expect(existsSync(`${path}.1`)).toBe(true);
    expect(statSync(path).size).toBeLessThanOrEqual(limit + 400);
    expect(statSync(`${path}.1`).size).toBeLessThanOrEqual(limit + 400);
    const sessions = readAuditLog(dir).map((r) => r.session);
    // the newest records, in order, across the move: what the two files hold
    const held = [readFileSync(`${path}.1`, 'utf8'), readFileSync(path, 'utf8')]
      .join('')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => (JSON.parse(line) as AuditRecord).session);
    expect(sessions).toEqual(held);
    expect(sessions.at(-1)).toBe('s29');
    expect(sessions.length).toBeGreaterThan(3);
  });

  it('a tail shorter than the current log reads only it; a torn end of the moved log is kept apart', () => {
    dir = mkdtempSync(join(tmpdir(), 'lore-audit-'));
    const path = join(dir, AUDIT_FILE);
    writeFileSync(`${path}.1`, '{"old":1}\n{"cut":');
    writeFileSync(path, '{"new":1}\n');
    expect(readAuditTail(dir, 5).bytes.toString()).toBe('":1}\n');
    const both = readAuditTail(dir, 1_000);
    expect(both.truncated).toBe(false);
    expect(both.bytes.toString()).toBe('{"old":1}\n{"cut":\n{"new":1}\n');
  });
});

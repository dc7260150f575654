/**
 * Writes that must land together (supersede changes two lessons). The full new contents go to a
 * journal entry first; then each file is replaced atomically; then the entry is removed. If the
 * process dies in between, the next lore command finds the entry and finishes the job, so readers
 * see either both changes or, until that recovery, the journal still pending.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isAbandonedTemp, isProcessAlive, isTempName, unlinkQuietly, writeFileAtomic } from './fs-atomic.js';

export type FileWrite = { path: string; content: string };
type Entry = { pid: number; writes: FileWrite[] };

export function commitWrites(journalDir: string, writes: readonly FileWrite[]): void {
  mkdirSync(journalDir, { recursive: true });
  const entryPath = join(journalDir, `${Date.now()}-${randomBytes(4).toString('hex')}.json`);
  const entry: Entry = { pid: process.pid, writes: [...writes] };
  writeFileAtomic(entryPath, JSON.stringify(entry));
  for (const write of writes) writeFileAtomic(write.path, write.content);
  unlinkQuietly(entryPath);
}

/** Finishes the transactions of processes that died mid-way. Returns how many were replayed. */
export function recoverWrites(journalDir: string): number {
  let names: string[];
  try {
    names = readdirSync(journalDir);
  } catch {
    return 0;
  }
  let replayed = 0;
  for (const name of names.sort()) {
    const path = join(journalDir, name);
    if (isTempName(name)) {
      if (isAbandonedTemp(name)) unlinkQuietly(path);
      continue;
    }
    if (!name.endsWith('.json')) continue;
    let entry: Entry;
    try {
      entry = JSON.parse(readFileSync(path, 'utf8')) as Entry;
    } catch {
      unlinkQuietly(path);
      continue;
    }
    if (isProcessAlive(entry.pid)) continue;
    for (const write of entry.writes) writeFileAtomic(write.path, write.content);
    unlinkQuietly(path);
    replayed += 1;
  }
  return replayed;
}

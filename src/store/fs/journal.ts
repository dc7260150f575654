/**
 * Writes that must land together (supersede changes two lessons; promote and demote move a lesson
 * directory to another tier). The full new contents go to a journal entry first; then each file is
 * replaced atomically; then the files the change retires are removed; then the entry is removed. If
 * the process dies in between, the next lore command finds the entry and finishes the job, so
 * readers see either the whole change or, until that recovery, the journal still pending.
 */
import { mkdirSync, readdirSync, readFileSync, rmdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { isAbandonedTemp, isProcessAlive, isTempName, unlinkQuietly, writeFileAtomic } from './fs-atomic.js';

export type FileWrite = { path: string; content: string };
/** What a change retires once its writes have landed: files, then (emptied) directories. */
export type Removals = { files?: readonly string[]; dirs?: readonly string[] };
type Entry = { pid: number; writes: FileWrite[]; removeFiles?: string[]; removeDirs?: string[] };

function applyWrite(write: FileWrite, createDirs: boolean): void {
  if (createDirs) mkdirSync(dirname(write.path), { recursive: true });
  writeFileAtomic(write.path, write.content);
}

function applyRemovals(entry: Pick<Entry, 'removeFiles' | 'removeDirs'>): void {
  for (const file of entry.removeFiles ?? []) unlinkQuietly(file);
  for (const dir of entry.removeDirs ?? []) {
    try {
      rmdirSync(dir);
    } catch {
      // gone already, or something new appeared in it: leave it for a person (lore check shows it)
    }
  }
}

export function commitWrites(
  journalDir: string,
  writes: readonly FileWrite[],
  removals: Removals = {},
  options: { createDirs?: boolean } = {},
): void {
  mkdirSync(journalDir, { recursive: true });
  // node:crypto on first use, as in fs-atomic.ts
  const entryPath = join(
    journalDir,
    `${Date.now()}-${process.getBuiltinModule('node:crypto').randomBytes(4).toString('hex')}.json`,
  );
  const entry: Entry = {
    pid: process.pid,
    writes: [...writes],
    ...(removals.files && removals.files.length > 0 ? { removeFiles: [...removals.files] } : {}),
    ...(removals.dirs && removals.dirs.length > 0 ? { removeDirs: [...removals.dirs] } : {}),
  };
  writeFileAtomic(entryPath, JSON.stringify(entry));
  for (const write of writes) applyWrite(write, options.createDirs === true);
  applyRemovals(entry);
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
    // A move's target directory may not exist yet when its process died.
    for (const write of entry.writes) applyWrite(write, true);
    applyRemovals(entry);
    unlinkQuietly(path);
    replayed += 1;
  }
  return replayed;
}

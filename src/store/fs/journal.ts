/**
 * Writes that must land together (supersede changes two lessons; promote and demote move a lesson
 * directory to another tier). The full new contents go to a journal entry first; then each file is
 * replaced atomically; then the files the change retires are removed; then the entry is removed. If
 * the process dies in between, the next lore command finds the entry and finishes the job, so
 * readers see either the whole change or, until that recovery, the journal still pending.
 * The entry records a hash of each file as it was before (and of each file it retires): recovery
 * leaves alone a file changed since (edited after the crash, before recovery) and reports it,
 * instead of putting the journal's older text over the edit.
 */
import { mkdirSync, readdirSync, readFileSync, rmdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { isAbandonedTemp, isProcessAlive, isTempName, unlinkQuietly, writeFileAtomic } from './fs-atomic.js';

export type FileWrite = { path: string; content: string };
/** What a change retires once its writes have landed: files, then (emptied) directories. */
export type Removals = { files?: readonly string[]; dirs?: readonly string[] };
/** `before`: hash of the file before the change (null: absent); absent in entries of an older lore. */
type JournalWrite = FileWrite & { before?: string | null };
type Entry = {
  pid: number;
  writes: JournalWrite[];
  removeFiles?: string[];
  /** Hash of each file in `removeFiles` when the change began, in the same order. */
  removeHashes?: (string | null)[];
  removeDirs?: string[];
};

/** A file's content hash, or null when it does not exist (or cannot be read). */
function hashOf(path: string): string | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return null;
  }
  return hashText(text);
}

function hashText(text: string): string {
  return process.getBuiltinModule('node:crypto').createHash('sha256').update(text).digest('hex').slice(0, 32);
}

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
    writes: writes.map((write) => ({ ...write, before: hashOf(write.path) })),
    ...(removals.files && removals.files.length > 0
      ? { removeFiles: [...removals.files], removeHashes: removals.files.map(hashOf) }
      : {}),
    ...(removals.dirs && removals.dirs.length > 0 ? { removeDirs: [...removals.dirs] } : {}),
  };
  writeFileAtomic(entryPath, JSON.stringify(entry));
  for (const write of writes) applyWrite(write, options.createDirs === true);
  applyRemovals(entry);
  unlinkQuietly(entryPath);
}

/**
 * The part of a dead process's entry that is still to do: each write whose file is as it was
 * before the change (or already written), each removal of a file unchanged since; a file changed
 * in between is left as it is and named in `kept`.
 */
function pendingPart(entry: Entry): { entry: Entry; kept: string[] } {
  const kept: string[] = [];
  const writes = entry.writes.filter((write) => {
    if (write.before === undefined) return true;
    const now = hashOf(write.path);
    if (now === write.before || now === hashText(write.content)) return true;
    kept.push(write.path);
    return false;
  });
  const files = entry.removeFiles ?? [];
  const removeFiles = files.filter((file, i) => {
    const was = entry.removeHashes?.[i];
    if (was === undefined) return true;
    const now = hashOf(file);
    if (now === null || now === was) return true;
    kept.push(file);
    return false;
  });
  return { entry: { ...entry, writes, removeFiles }, kept };
}

/**
 * Finishes the transactions of processes that died mid-way. Returns how many were replayed;
 * `onKept` hears of each file left as it is because it changed after the crash.
 */
export function recoverWrites(journalDir: string, onKept?: (path: string) => void): number {
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
    const pending = pendingPart(entry);
    // A move's target directory may not exist yet when its process died.
    for (const write of pending.entry.writes) applyWrite(write, true);
    applyRemovals(pending.entry);
    for (const path of pending.kept) onKept?.(path);
    unlinkQuietly(path);
    replayed += 1;
  }
  return replayed;
}

/**
 * The log a detached process (`lore scan --background`, `lore pull --background`) writes to: the
 * hooks may start one at every session start, so the log is kept bounded. Past `LOG_LIMIT` bytes
 * the next run starts a fresh log and the one before is kept as `<name>.1`.
 */
import { openSync, renameSync, statSync } from 'node:fs';

export const LOG_LIMIT = 256 * 1024;

/**
 * Moves a log past `limit` bytes to `<path>.1` (replacing the one before), so the next append
 * begins a fresh one. Never throws: a log that cannot be moved (or that another process moved
 * first) is appended to as it is.
 */
export function rotateLog(path: string, limit: number): void {
  if ((statSync(path, { throwIfNoEntry: false })?.size ?? 0) <= limit) return;
  try {
    renameSync(path, `${path}.1`);
  } catch {
    // another process moved it first, or it cannot be moved
  }
}

/** A descriptor to append to (the caller closes it once the child has it). */
export function openBackgroundLog(path: string, limit = LOG_LIMIT): number {
  rotateLog(path, limit);
  return openSync(path, 'a');
}

/**
 * The log a detached process (`lore scan --background`, `lore pull --background`) writes to: the
 * hooks may start one at every session start, so the log is kept bounded. Past `LOG_LIMIT` bytes
 * the next run starts a fresh log and the one before is kept as `<name>.1`.
 */
import { openSync, renameSync, statSync } from 'node:fs';

export const LOG_LIMIT = 256 * 1024;

/** A descriptor to append to (the caller closes it once the child has it). */
export function openBackgroundLog(path: string, limit = LOG_LIMIT): number {
  if ((statSync(path, { throwIfNoEntry: false })?.size ?? 0) > limit) {
    try {
      renameSync(path, `${path}.1`);
    } catch {
      // another process moved it first, or it cannot be moved: appending still works
    }
  }
  return openSync(path, 'a');
}

/**
 * The last `maxBytes` of a file with one positioned read (the audit log, a transcript's tail):
 * empty when the file is missing or empty. Node built-ins only: the hook's Stop handler uses it.
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';

export function readTail(path: string, maxBytes: number): { bytes: Buffer; truncated: boolean } {
  const size = statSync(path, { throwIfNoEntry: false })?.size ?? 0;
  const length = Math.min(size, maxBytes);
  const bytes = Buffer.alloc(length);
  if (length > 0) {
    const fd = openSync(path, 'r');
    try {
      readSync(fd, bytes, 0, length, size - length);
    } finally {
      closeSync(fd);
    }
  }
  // the read starts inside the file: its first line is cut
  return { bytes, truncated: length < size };
}

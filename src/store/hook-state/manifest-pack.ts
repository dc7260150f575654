/**
 * A pack: many JSON records in one file, each readable alone with two positioned reads, so the
 * hook parses the few lessons an event selects and not the blocks around them.
 *
 *   bytes 0-3    "LPK1"
 *   bytes 4-7    N, the number of records (u32, little endian)
 *   next 4(N+1)  offsets of the records in the data that follows (u32 LE; record i is
 *                [offset i, offset i+1); an empty record is a hole)
 *   then         the records, JSON, UTF-8, one after the other
 *
 * Node built-ins only: the hook imports this.
 */
import { closeSync, openSync, readSync } from 'node:fs';

const MAGIC = 0x314b504c; // "LPK1" read as u32 LE
/** Records whose offsets one read of the offsets table brings (4 KB of it). */
const OFFSETS_PAGE = 1024;

export function encodePack(records: readonly unknown[]): Buffer {
  const bodies = records.map((record) =>
    record === null || record === undefined ? Buffer.alloc(0) : Buffer.from(JSON.stringify(record), 'utf8'),
  );
  const header = Buffer.alloc(8 + 4 * (records.length + 1));
  header.writeUInt32LE(MAGIC, 0);
  header.writeUInt32LE(records.length, 4);
  let offset = 0;
  bodies.forEach((body, i) => {
    header.writeUInt32LE(offset, 8 + 4 * i);
    offset += body.length;
  });
  header.writeUInt32LE(offset, 8 + 4 * records.length);
  return Buffer.concat([header, ...bodies]);
}

export type PackReader = {
  /** Record `i`, parsed; undefined for a hole, past the end, or anything unreadable. */
  read(i: number): unknown;
  /** How many records the pack holds; -1 when it is missing or corrupt. */
  size(): number;
  /** Whether a read met a missing, truncated or garbled pack (a hole is not damage). */
  damaged(): boolean;
  close(): void;
};

/** Opens a pack lazily (nothing happens until the first read); a missing or corrupt pack reads as holes. */
export function openPack(path: string): PackReader {
  let fd: number | undefined;
  let count = -1;
  let damaged = false;
  let dataStart = 0;
  let buffer = Buffer.allocUnsafe(4096);
  // numbers through a DataView: Buffer's readUInt32LE costs a fresh process ~0.05 ms to set up
  let view = new DataView(buffer.buffer, buffer.byteOffset, buffer.length);
  const u32 = (at: number) => view.getUint32(at, true);
  const readAt = (length: number, position: number): boolean => {
    if (buffer.length < length) {
      buffer = Buffer.allocUnsafe(Math.max(length, buffer.length * 2));
      view = new DataView(buffer.buffer, buffer.byteOffset, buffer.length);
    }
    let done = 0;
    while (done < length) {
      const n = readSync(fd as number, buffer, done, length - done, position + done);
      if (n === 0) return false;
      done += n;
    }
    return true;
  };
  // The offsets table is read a page (OFFSETS_PAGE records) at a time and kept: a call that reads
  // twenty lessons makes twenty-one positioned reads instead of forty.
  const pages = new Map<number, DataView>();
  const offsets = (i: number): { start: number; end: number } | undefined => {
    const page = Math.floor(i / OFFSETS_PAGE);
    let table = pages.get(page);
    if (table === undefined) {
      const first = page * OFFSETS_PAGE;
      const entries = Math.min(first + OFFSETS_PAGE, count) - first + 1;
      if (!readAt(4 * entries, 8 + 4 * first)) return undefined;
      table = new DataView(buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + 4 * entries));
      pages.set(page, table);
    }
    const at = 4 * (i - page * OFFSETS_PAGE);
    return { start: table.getUint32(at, true), end: table.getUint32(at + 4, true) };
  };
  const open = (): boolean => {
    if (count >= 0) return true;
    if (fd !== undefined) return false;
    try {
      fd = openSync(path, 'r');
      if (!readAt(8, 0) || u32(0) !== MAGIC) {
        damaged = true;
        return false;
      }
      count = u32(4);
      dataStart = 8 + 4 * (count + 1);
      return true;
    } catch {
      damaged = true;
      return false;
    }
  };
  return {
    read(i) {
      if (!Number.isInteger(i) || i < 0 || !open() || i >= count) return undefined;
      try {
        const bounds = offsets(i);
        if (bounds === undefined) {
          damaged = true;
          return undefined;
        }
        const { start, end } = bounds;
        if (end === start) return undefined; // a hole
        if (end < start || !readAt(end - start, dataStart + start)) {
          damaged = true;
          return undefined;
        }
        return JSON.parse(buffer.toString('utf8', 0, end - start)) as unknown;
      } catch {
        damaged = true;
        return undefined;
      }
    },
    size() {
      return open() ? count : -1;
    },
    damaged: () => damaged,
    close() {
      if (fd !== undefined) {
        try {
          closeSync(fd);
        } catch {
          // already closed
        }
      }
      fd = undefined;
      count = -1;
      pages.clear();
    },
  };
}

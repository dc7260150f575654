/**
 * Reads complete lines from a byte offset without decoding what it does not need: chunks of raw
 * bytes, split on `\n` with `indexOf`, a caller's byte test before any UTF-8 decoding or
 * JSON.parse. A last line without its newline is left for the next scan (the offset stops before
 * it), unless the caller's `takeLast` says it is complete (a finished file's last record): then it
 * is read, the offset is the file's end, and the result is `open`; the next read from there, told
 * so, drops the bytes up to the next newline (the rest of that line, or the newline alone). `.zst`
 * files are decompressed as a stream (fzstd, pure JS: Node 20 has no zstd), skipping the bytes
 * before the offset. Memory stays at one shared chunk plus the longest line.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { Decompress } from 'fzstd';

export const CHUNK_SIZE = 1 << 20;
const NEWLINE = 0x0a;

/** One read buffer for every file: reads are synchronous and never nest. */
let shared: Buffer | undefined;
function chunkBuffer(): Buffer {
  shared ??= Buffer.allocUnsafe(CHUNK_SIZE);
  return shared;
}

export type LineSink = (line: Buffer, lineNumber: number) => void;

export type ReadResult = {
  /** Byte offset after the last complete line (in decompressed bytes for `.zst`). */
  offset: number;
  /** Number of the last complete line read (1-based; 0 before any). */
  line: number;
  /** Bytes read this time (compressed bytes for `.zst`). */
  bytes: number;
  /** The last line read had no newline: `offset` lies inside it, at the file's end. */
  open: boolean;
  /** A last line without its newline was left unread (the offset stops before it). */
  held: boolean;
};

export type ReadOptions = {
  /** The line before `offset` was read without its newline (a last read's `open`). */
  open?: boolean;
  /** Whether a last line without its newline is complete, and read. */
  takeLast?: (line: Buffer) => boolean;
};

type Splitter = {
  push(chunk: Buffer): void;
  /** At the end of the file: the last line without its newline, read if `takeLast` says so. */
  end(takeLast: ((line: Buffer) => boolean) | undefined): { open: boolean; held: boolean };
  offset(): number;
  line(): number;
};

function createSplitter(
  startOffset: number,
  startLine: number,
  startOpen: boolean,
  sink: LineSink,
): Splitter {
  /**
   * The start of a line that goes on in the next chunk: its pieces, joined once its end comes (a
   * line of many chunks, a tool result holding an 80 MB image, copied chunk by chunk into an
   * ever longer buffer took 12 s to read).
   */
  let rest: Buffer[] = [];
  let offset = startOffset;
  let line = startLine;
  /** Still in the line read open: its bytes were read, up to the next newline. */
  let skipping = startOpen;
  return {
    push(chunk) {
      let start = 0;
      let nl = chunk.indexOf(NEWLINE, 0);
      if (skipping) {
        if (nl < 0) {
          offset += chunk.length;
          return;
        }
        skipping = false;
        offset += nl + 1;
        start = nl + 1;
        nl = chunk.indexOf(NEWLINE, start);
      }
      if (rest.length > 0 && nl >= 0) {
        const whole = Buffer.concat([...rest, chunk.subarray(0, nl)]);
        rest = [];
        line += 1;
        offset += whole.length + 1;
        sink(whole, line);
        start = nl + 1;
        nl = chunk.indexOf(NEWLINE, start);
      }
      while (nl >= 0) {
        line += 1;
        offset += nl - start + 1;
        sink(chunk.subarray(start, nl), line);
        start = nl + 1;
        nl = chunk.indexOf(NEWLINE, start);
      }
      // a copy: the chunk's buffer is read into again
      if (start < chunk.length) rest.push(Buffer.from(chunk.subarray(start)));
    },
    end(takeLast) {
      if (skipping) return { open: true, held: false };
      if (rest.length === 0) return { open: false, held: false };
      const last = Buffer.concat(rest);
      rest = [];
      if (takeLast?.(last) !== true) return { open: false, held: true };
      line += 1;
      offset += last.length;
      sink(last, line);
      return { open: true, held: false };
    },
    offset: () => offset,
    line: () => line,
  };
}

/** Complete lines of a plain file from `offset` (which must be a line start) to its end. */
export function readLinesFrom(
  path: string,
  offset: number,
  line: number,
  sink: LineSink,
  options: ReadOptions = {},
): ReadResult {
  const fd = openSync(path, 'r');
  const buffer = chunkBuffer();
  const splitter = createSplitter(offset, line, options.open === true, sink);
  let position = offset;
  try {
    for (;;) {
      const read = readSync(fd, buffer, 0, CHUNK_SIZE, position);
      if (read <= 0) break;
      position += read;
      splitter.push(buffer.subarray(0, read));
    }
  } finally {
    closeSync(fd);
  }
  const end = splitter.end(options.takeLast);
  return { offset: splitter.offset(), line: splitter.line(), bytes: position - offset, ...end };
}

/** Complete lines of a zstd-compressed file, skipping the first `offset` decompressed bytes. */
export function readZstdLinesFrom(
  path: string,
  offset: number,
  line: number,
  sink: LineSink,
  options: ReadOptions = {},
): ReadResult {
  const fd = openSync(path, 'r');
  const buffer = chunkBuffer();
  const splitter = createSplitter(offset, line, options.open === true, sink);
  let skip = offset;
  let compressed = 0;
  const stream = new Decompress((data) => {
    let chunk = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    if (skip > 0) {
      const drop = Math.min(skip, chunk.length);
      skip -= drop;
      chunk = chunk.subarray(drop);
    }
    if (chunk.length > 0) splitter.push(chunk);
  });
  try {
    for (;;) {
      const read = readSync(fd, buffer, 0, CHUNK_SIZE, compressed);
      if (read <= 0) break;
      compressed += read;
      stream.push(new Uint8Array(buffer.subarray(0, read)), false);
    }
    stream.push(new Uint8Array(0), true);
  } finally {
    closeSync(fd);
  }
  const end = splitter.end(options.takeLast);
  return { offset: splitter.offset(), line: splitter.line(), bytes: compressed, ...end };
}

/**
 * The CLI's stdout and stderr, written straight to their file descriptors (fs.writeSync) rather
 * than through the stream Node builds on the first touch of process.stdout or process.stderr: on
 * a pipe (every agent's and script's `lore search`) that stream is a net.Socket, some 20 modules
 * of streams and networking, 2-3 ms of a fast verb. Anything but a complete write (a pipe its
 * reader made non-blocking: EAGAIN) hands the rest, and every later write, to the stream as
 * before, so the output stays in order. A reader that went away (EPIPE: `lore scan --json | head`)
 * gets nothing more: the rest is dropped quietly, as git and the shell's tools do, instead of the
 * stream's unhandled error ending the command with a stack trace. The command itself goes on
 * (a scan still saves what it found) and exits with its own code.
 */
import { writeSync } from 'node:fs';

export type DirectOutput = {
  write(text: string): void;
  /** Whether anything handed to the stream is still waiting to be written. */
  pending(): boolean;
};

type WriteSync = (fd: number, buffer: Uint8Array, offset: number) => number;
type Stream = Pick<NodeJS.WritableStream, 'write'> &
  Partial<Pick<NodeJS.WritableStream, 'on'>> & { writableLength: number };

const gone = (error: unknown): boolean => (error as NodeJS.ErrnoException | undefined)?.code === 'EPIPE';

export function createDirectOutput(
  fd: number,
  stream: () => Stream,
  write: WriteSync = writeSync,
): DirectOutput {
  let direct = true;
  let closed = false;
  let watched: Stream | undefined;
  /** The stream, told once that a reader gone away is not an error. */
  const open = (): Stream => {
    const target = stream();
    if (watched !== target) {
      watched = target;
      target.on?.('error', (error: unknown) => {
        if (!gone(error)) throw error;
        closed = true;
      });
    }
    return target;
  };
  return {
    write(text) {
      if (closed) return;
      if (!direct) {
        open().write(text);
        return;
      }
      const bytes = Buffer.from(text, 'utf8');
      let done = 0;
      try {
        while (done < bytes.length) done += write(fd, bytes, done);
      } catch (error) {
        if (gone(error)) {
          closed = true;
          return;
        }
        direct = false;
        open().write(bytes.subarray(done));
      }
    },
    pending: () => !closed && !direct && open().writableLength > 0,
  };
}

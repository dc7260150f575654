/**
 * The CLI's stdout and stderr, written straight to their file descriptors (fs.writeSync) rather
 * than through the stream Node builds on the first touch of process.stdout or process.stderr: on
 * a pipe (every agent's and script's `lore search`) that stream is a net.Socket, some 20 modules
 * of streams and networking, 2-3 ms of a fast verb. Anything but a complete write (a pipe its
 * reader made non-blocking: EAGAIN; a closed one: EPIPE) hands the rest, and every later write,
 * to the stream as before, so the output stays in order.
 */
import { writeSync } from 'node:fs';

export type DirectOutput = {
  write(text: string): void;
  /** Whether anything handed to the stream is still waiting to be written. */
  pending(): boolean;
};

type WriteSync = (fd: number, buffer: Uint8Array, offset: number) => number;

export function createDirectOutput(
  fd: number,
  stream: () => Pick<NodeJS.WritableStream, 'write'> & { writableLength: number },
  write: WriteSync = writeSync,
): DirectOutput {
  let direct = true;
  return {
    write(text) {
      if (!direct) {
        stream().write(text);
        return;
      }
      const bytes = Buffer.from(text, 'utf8');
      let done = 0;
      try {
        while (done < bytes.length) done += write(fd, bytes, done);
      } catch {
        direct = false;
        stream().write(bytes.subarray(done));
      }
    },
    pending: () => !direct && stream().writableLength > 0,
  };
}

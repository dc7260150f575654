/**
 * The CLI's stdout and stderr (src/cli/direct-output.ts): straight to the file descriptor while
 * every write completes, and through the stream, in order, from the first one that does not.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, readSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createDirectOutput } from '../../src/cli/direct-output.js';

/** A stream that keeps what it is given, `waiting` bytes of it not yet written. */
function fakeStream(waiting = 0) {
  const got: string[] = [];
  return {
    got,
    stream: () => ({
      write: (chunk: string | Uint8Array) => got.push(Buffer.from(chunk).toString('utf8')) > 0,
      writableLength: waiting,
    }),
  };
}

describe('createDirectOutput', () => {
  it('writes to the file descriptor, never touching the stream, while every write completes', () => {
    const written: string[] = [];
    const { got, stream } = fakeStream();
    const out = createDirectOutput(7, stream, (fd, bytes, offset) => {
      written.push(`${fd}:${Buffer.from(bytes.subarray(offset)).toString('utf8')}`);
      return bytes.length - offset;
    });
    out.write('first\n');
    out.write('été\n');
    expect(written).toEqual(['7:first\n', '7:été\n']);
    expect(got).toEqual([]);
    expect(out.pending()).toBe(false);
  });

  it('goes on from where a partial write stopped', () => {
    const written: string[] = [];
    const out = createDirectOutput(1, fakeStream().stream, (_fd, bytes, offset) => {
      const end = Math.min(bytes.length, offset + 3);
      written.push(Buffer.from(bytes.subarray(offset, end)).toString('utf8'));
      return end - offset;
    });
    out.write('abcdefgh');
    expect(written).toEqual(['abc', 'def', 'gh']);
  });

  it('hands the rest of a failed write, and every later one, to the stream, in order', () => {
    const { got, stream } = fakeStream(5);
    const again = Object.assign(new Error('EAGAIN: resource temporarily unavailable'), { code: 'EAGAIN' });
    // the first call takes 4 bytes, the second would block
    const steps: (() => number)[] = [
      () => 4,
      () => {
        throw again;
      },
    ];
    const out = createDirectOutput(1, stream, () => (steps.shift() as () => number)());
    out.write('abcdefgh');
    out.write('next');
    expect(steps).toEqual([]);
    expect(got).toEqual(['efgh', 'next']);
    expect(out.pending()).toBe(true);
  });

  it.runIf(process.platform === 'linux')(
    'a real pipe its reader made non-blocking: what the pipe does not take goes through the stream',
    () => {
      const dir = mkdtempSync(join(tmpdir(), 'lore-direct-output-'));
      onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
      const fifo = join(dir, 'out');
      execFileSync('mkfifo', [fifo]);
      const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
      const writer = openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK);
      onTestFinished(() => [reader, writer].forEach((fd) => closeSync(fd)));
      const { got, stream } = fakeStream();
      const out = createDirectOutput(writer, stream);
      const text = 'x'.repeat(1 << 20);
      out.write(text);
      out.write('end');
      const piped = Buffer.alloc(1 << 20);
      const taken = readSync(reader, piped);
      expect(taken).toBeGreaterThan(0);
      expect(taken).toBeLessThan(text.length);
      expect(piped.subarray(0, taken).toString('utf8') + got.join('')).toBe(`${text}end`);
    },
  );
});

describe('createDirectOutput, when the reader goes away', () => {
  it('drops the rest quietly (EPIPE), never handing it to the stream', () => {
    const { got, stream } = fakeStream();
    const pipe = Object.assign(new Error('EPIPE: broken pipe, write'), { code: 'EPIPE' });
    let calls = 0;
    const out = createDirectOutput(1, stream, () => {
      calls += 1;
      throw pipe;
    });
    out.write('first');
    out.write('second');
    expect(calls).toBe(1);
    expect(got).toEqual([]);
    expect(out.pending()).toBe(false);
  });

  it('a stream that reports EPIPE later stops taking writes; any other error still throws', () => {
    const listeners: ((error: unknown) => void)[] = [];
    const got: string[] = [];
    const stream = {
      write: (chunk: string | Uint8Array) => got.push(Buffer.from(chunk).toString('utf8')) > 0,
      writableLength: 0,
      on: (_event: string, listener: (error: unknown) => void) => {
        listeners.push(listener);
        return stream;
      },
    };
    const again = Object.assign(new Error('EAGAIN'), { code: 'EAGAIN' });
    const out = createDirectOutput(
      1,
      () => stream as never,
      () => {
        throw again;
      },
    );
    out.write('a');
    expect(listeners).toHaveLength(1);
    listeners[0]?.(Object.assign(new Error('EPIPE'), { code: 'EPIPE' }));
    out.write('b');
    expect(got).toEqual(['a']);
    expect(() => listeners[0]?.(Object.assign(new Error('EIO'), { code: 'EIO' }))).toThrow('EIO');
  });

  it.runIf(process.platform === 'linux')(
    'a real `lore` whose reader is gone exits with its own code, and prints no stack trace',
    () => {
      // `true` leaves without reading: by the time lore writes, the pipe has no reader (EPIPE)
      const bin = join(process.cwd(), 'dist', 'cli', 'bin.js');
      const result = spawnSync(
        'bash',
        ['-c', `node "${bin}" --help | true; echo "lore exited \${PIPESTATUS[0]}"`],
        {
          encoding: 'utf8',
          env: { ...process.env, NODE_EXTRA_CA_CERTS: '' },
        },
      );
      expect(result.stdout).toBe('lore exited 0\n');
      expect(result.stderr).toBe('');
    },
  );
});

/**
 * The hook process: `NODE_EXTRA_CA_CERTS= node plugin/bin/lore-hook.cjs [--host codex]` with the
 * host's JSON on stdin. Prints the answer on stdout and always exits 0. With LORE_DEBUG=1 it
 * appends what happened to `<cache>/hook-debug.log` (or `<tmp>/lore-hook-debug.log`).
 */
import { appendFileSync, readSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { INPUT_LIMITS } from '../core/inject/parse-hook-input.js';
import { utcIso } from '../core/utc-time.js';
import {
  createFeedbackStarter,
  createPullStarter,
  createRebuildStarter,
  createScanStarter,
} from './request-rebuild.js';
import { EMPTY_OUTPUT, runHook } from './run-hook.js';
import { tempDirectory } from '../store/fs/paths.js';

/**
 * Reads stdin in chunks, up to the input limit; beyond it the rest is drained (the agent's write
 * must not fail) without being kept, and `undefined` returned. Reading it whole first (one
 * readFileSync) made a 100 MB PostToolUse payload cost 2.5-5 s before the limit was even looked at.
 * The chunks go into one buffer that doubles when full and is decoded once: a payload (a few KB)
 * is one read and one decode, without copying chunks and joining them (Buffer.from and
 * Buffer.concat cost a fresh process ~0.05 ms to set up).
 */
function readStdin(): string | undefined {
  const limit = INPUT_LIMITS.stdinChars;
  let buffer = Buffer.allocUnsafe(1 << 16);
  let total = 0;
  let tooBig = false;
  for (;;) {
    if (total === buffer.length) {
      if (total >= limit) {
        // over the limit: keep reading into the same buffer, only to drain the pipe
        tooBig = true;
        total = 0;
      } else {
        const bigger = Buffer.allocUnsafe(Math.min(buffer.length * 2, limit + 1));
        buffer.copy(bigger, 0, 0, total);
        buffer = bigger;
      }
    }
    let n: number;
    try {
      n = readSync(0, buffer, total, buffer.length - total, null);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EAGAIN') continue;
      if ((error as NodeJS.ErrnoException).code === 'EOF') break;
      throw error;
    }
    if (n === 0) break;
    total += n;
  }
  return tooBig || total > limit ? undefined : buffer.toString('utf8', 0, total);
}

/** Writes all of `text` to stdout synchronously (process.stdout would load the stream modules: ~5 ms). */
function writeStdout(text: string): void {
  const buffer = Buffer.from(text, 'utf8');
  let offset = 0;
  while (offset < buffer.length) {
    try {
      offset += writeSync(1, buffer, offset, buffer.length - offset);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') return;
    }
  }
}

/**
 * The hook's own working directory, which only a Stop payload without a `cwd` needs; undefined
 * when it was deleted under the agent (process.cwd() throws): every payload that names its `cwd`
 * is still answered, guards included.
 */
function workingDirectory(): string | undefined {
  try {
    return process.cwd();
  } catch {
    return undefined;
  }
}

function main(): void {
  // process.hrtime, not performance.now(): the performance global loads perf_hooks (~3 ms).
  const started = process.hrtime.bigint();
  const nowMs = Date.now();
  const env = process.env;
  const argv = process.argv.slice(2);
  const temp = tempDirectory();
  let stdout = EMPTY_OUTPUT;
  let debug: Record<string, unknown>;
  try {
    const stdin = readStdin();
    if (stdin === undefined) debug = { skipped: `stdin over ${INPUT_LIMITS.stdinChars} bytes` };
    else {
      const builder = join(dirname(process.argv[1] ?? '.'), 'lore-manifest.cjs');
      const run = runHook(stdin, {
        argv,
        env,
        nowMs,
        tmpdir: temp,
        uid: process.getuid?.() ?? 'user',
        requestRebuild: createRebuildStarter(builder, env, nowMs),
        startScan: env.LORE_NO_SCAN === '1' ? undefined : createScanStarter(process.argv[1] ?? '.', env),
        startPull: env.LORE_NO_PULL === '1' ? undefined : createPullStarter(process.argv[1] ?? '.', env),
        recordFeedback: createFeedbackStarter(process.argv[1] ?? '.', env),
        cwd: workingDirectory(),
      });
      stdout = run.stdout;
      debug = run.debug;
    }
  } catch (error) {
    stdout = EMPTY_OUTPUT;
    debug = { error: (error as Error)?.stack ?? String(error) };
  }
  writeStdout(`${stdout}\n`);
  if (env.LORE_DEBUG === '1') {
    try {
      const file =
        typeof debug.cacheDir === 'string'
          ? join(debug.cacheDir, 'hook-debug.log')
          : join(temp, 'lore-hook-debug.log');
      const entry = {
        time: utcIso(nowMs),
        ms: Number(process.hrtime.bigint() - started) / 1e6,
        argv,
        ...debug,
        stdout,
      };
      appendFileSync(file, `${JSON.stringify(entry)}\n`);
    } catch {
      // debugging must never break the hook
    }
  }
  process.exitCode = 0;
}

main();

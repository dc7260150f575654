/**
 * Runs a large scan's files on worker threads and on the scanning thread itself, while keeping
 * `scanTranscripts` synchronous: the scanning thread hands each worker files ahead over a
 * MessageChannel (see `AHEAD_BYTES`), takes the answers with receiveMessageOnPort, and passes them
 * on in file order, so candidates come out exactly as from a scan in one thread. When no answer is
 * in and it has nothing to pass on, it scans the next file itself rather than wait; when every
 * file is handed out (or the next is one for a worker), it blocks on a shared counter
 * (Atomics.wait) until a worker answers. One worker per core beside the scanning thread, at most
 * two, each with a small young generation (4 MB): decoding transcript lines allocates fast. On two
 * cores, one worker and the scanning thread scan the capture benchmark's corpus (345 MiB) in
 * 4.5-4.9 s, where two workers beside a scanning thread that only drafted took 5.0-5.8 s in the
 * same runs, and one thread alone takes 5.1 s (load average 2.4-2.8): a second worker is another
 * heap to collect and its results another copy to send, on a core the scanning thread's drafting
 * also needs.
 *
 * Workers are used only when they pay off (at least `PARALLEL_SCAN_MIN_BYTES` to read, unless
 * forced, and a second core) and when the compiled worker script exists (not when running from
 * TypeScript sources). A worker that fails, or stays silent for `STALL_MS`, leaves the rest of the
 * files to this thread.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { fileURLToPath } from 'node:url';
import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';
import type { FileScan } from './scan-file.js';
import { runScanJob } from './scan-job.js';
import type { ScanJob } from './scan-job.js';
import type { ScanReply, ScanRequest, ScanWorkerData } from './scan-worker.js';

export const PARALLEL_SCAN_MIN_BYTES = 32 * 1048576;
export const MAX_SCAN_WORKERS = 2;
const YOUNG_GENERATION_MB = 4;
/**
 * What a worker is handed ahead: at least `IN_FLIGHT` files, and files up to `AHEAD_BYTES`, so it
 * has work while this thread scans a file itself; this thread scans only files no larger than
 * that (a larger one goes to a worker, unless too large for one: `WORKER_MAX_BYTES`), so no
 * worker runs dry waiting for it.
 */
const IN_FLIGHT = 2;
const MB = 1048576;
const AHEAD_BYTES = 4 * MB;
/**
 * A worker's old generation is bounded at 1 GB (or this thread's own bound, when lower): V8 sizes
 * a heap whose bound is that small more tightly, and the worker's heap stayed at 23-29 MB through
 * the capture benchmark's scan where unbounded (4 GB here) it filled to 40-50 MB before each full
 * collection; the scan's peak RSS was 15 MB lower for the same CPU time. A worker that reaches its
 * bound can take the whole process down with it (nodejs/node#47224: an allocation inside
 * JSON.parse is not stopped, it aborts), so no file larger than `WORKER_MAX_BYTES` goes to one.
 */
const OLD_GENERATION_MB = 1024;
/**
 * Files larger than this are scanned by this thread: one line of a file this size decodes to far
 * less than a worker's bound, a larger one might not.
 */
export const WORKER_MAX_BYTES = 64 * MB;

/** Whether this thread scans a file itself, rather than hand it to a worker. */
export function scansHere(bytes: number): boolean {
  return bytes <= AHEAD_BYTES || bytes > WORKER_MAX_BYTES;
}

const MAX_AHEAD = 64;
const STALL_MS = 60_000;

/**
 * How far V8 lets the old generation grow past what survived its last full collection while a scan
 * runs: 50%. By default it lets it grow up to four times that on a machine with much memory (its
 * bound, 4 GB here, decides), and on the capture benchmark's corpus the scanning thread's heap
 * grew to 100-120 MB for 30-40 MB alive: parsing promotes what lives across two young collections
 * (a long line's text while it is parsed, a file's events while it is scanned, the answers of a
 * worker waiting their turn), which dies soon after. At 50% the scan's peak RSS was 172 MB where it
 * was 190, for the same CPU time within the noise (9.08 s and 9.01 s, medians of 4, interleaved,
 * load average 4.7); at 25% it was 155-169 MB, but the more frequent full collections cost 5-8% more
 * CPU time.
 */
const OLD_GENERATION_GROWTH_PERCENT = 50;

/**
 * Holds the heap's growth while a scan runs (`false`: lets it grow again), for every thread: V8's
 * flags are the process's.
 * - The young generation stays at its size. V8 doubles it, up to 32 MB, whenever enough survives
 *   its collections, and a scan's parsing and drafting always make it so, although little of what
 *   they allocate lives long: on the capture benchmark's corpus it held 34 MB of the peak for the
 *   4-8 MB it started with, and held at its size the scan's peak RSS was 19 MB lower for the same
 *   CPU time. V8 reads the factor each time it would grow the space, so setting it takes effect at
 *   once; starting a worker resets it (V8 raises it back to 2 when it configures a heap), so each
 *   worker sets it again as it starts (scan-worker.ts), and the pool once its workers answer.
 * - The old generation grows by `OLD_GENERATION_GROWTH_PERCENT` past what survived its last full
 *   collection (V8 reads it each time it sets the next limit).
 */
export function holdHeapGrowth(hold: boolean): void {
  setFlagsFromString(`--semi-space-growth-factor=${hold ? 1 : 2}`);
  setFlagsFromString(`--heap-growing-percent=${hold ? OLD_GENERATION_GROWTH_PERCENT : 0}`);
}

/**
 * The worker's script: its CommonJS bundle (scripts/bundle-cli.mjs) when built, else the module tsc
 * wrote (none when running from TypeScript sources). As ES modules, a worker read, linked and ran
 * 51 of them through Node's ES module loader, which loads its own code into the worker too: the
 * bundle starts in about half the time and leaves the process 7 MB smaller.
 */
function workerScript(): URL | undefined {
  for (const path of ['../cli-bundle/scan-worker.cjs', './scan-worker.js']) {
    const url = new URL(path, import.meta.url);
    if (existsSync(fileURLToPath(url))) return url;
  }
  return undefined;
}

type PoolWorker = {
  worker: Worker;
  port: MessagePort;
  /** Files handed out and not answered yet, and their bytes. */
  busy: number;
  ahead: number;
};

/**
 * Scans `jobs` on worker threads, calling `consume` for each in order. Returns how many jobs
 * were consumed (all of them, or fewer when workers were not worth it, not available, or failed;
 * the caller scans the rest itself) and how many workers ran.
 */
export function scanInWorkers(
  jobs: readonly ScanJob[],
  consume: (index: number, scan: FileScan) => void,
  minBytes = PARALLEL_SCAN_MIN_BYTES,
  /** The job as handed out now (what the scans consumed so far tell it). */
  prepare: (job: ScanJob) => ScanJob = (job) => job,
): { done: number; workers: number } {
  const script = workerScript();
  const bytes = jobs.reduce((sum, job) => sum + job.bytes, 0);
  if (jobs.length === 0 || bytes < minBytes || script === undefined) return { done: 0, workers: 0 };
  // One core is this thread's: it scans too. Forced (`minBytes` 0), one worker at least.
  const count = Math.max(
    minBytes === 0 ? 1 : 0,
    Math.min(MAX_SCAN_WORKERS, availableParallelism() - 1, jobs.length),
  );
  if (count < 1) return { done: 0, workers: 0 };
  const signal = new Int32Array(new SharedArrayBuffer(4));
  const pool: PoolWorker[] = [];
  const stop = () => {
    for (const member of pool) {
      member.port.close();
      void member.worker.terminate();
    }
  };
  try {
    for (let i = 0; i < count; i += 1) {
      const { port1, port2 } = new MessageChannel();
      const data: ScanWorkerData = { port: port2, signal };
      const worker = new Worker(script, {
        workerData: data,
        transferList: [port2],
        resourceLimits: {
          maxYoungGenerationSizeMb: YOUNG_GENERATION_MB,
          maxOldGenerationSizeMb: Math.min(
            OLD_GENERATION_MB,
            Math.floor(getHeapStatistics().heap_size_limit / MB),
          ),
        },
      });
      worker.unref();
      pool.push({ worker, port: port1, busy: 0, ahead: 0 });
    }
  } catch {
    stop();
    return { done: 0, workers: 0 }; // workers could not start: this thread scans everything
  }
  let done = 0;
  let held = false;
  try {
    const results = new Map<number, FileScan>();
    let next = 0;
    const dispatch = () => {
      for (const member of pool) {
        while (
          next < jobs.length &&
          (jobs[next] as ScanJob).bytes <= WORKER_MAX_BYTES &&
          member.busy < MAX_AHEAD &&
          (member.busy < IN_FLIGHT || member.ahead < AHEAD_BYTES)
        ) {
          const job = prepare(jobs[next] as ScanJob);
          member.port.postMessage({ index: next, job } satisfies ScanRequest);
          member.busy += 1;
          member.ahead += job.bytes;
          next += 1;
        }
      }
    };
    dispatch();
    while (done < jobs.length) {
      const seen = Atomics.load(signal, 0);
      let received = false;
      for (const member of pool) {
        for (
          let message = receiveMessageOnPort(member.port);
          message;
          message = receiveMessageOnPort(member.port)
        ) {
          const reply = message.message as ScanReply;
          if (!held) holdHeapGrowth((held = true));
          member.busy -= 1;
          member.ahead -= (jobs[reply.index] as ScanJob).bytes;
          received = true;
          if ('error' in reply) return { done, workers: count }; // this thread scans the rest, and meets the error itself
          results.set(reply.index, reply.scan);
        }
      }
      // new work first: a worker waits for nothing while this thread consumes
      dispatch();
      for (let scan = results.get(done); scan !== undefined; scan = results.get(done)) {
        results.delete(done);
        consume(done, scan);
        done += 1;
      }
      if (received || done === jobs.length) continue;
      if (next < jobs.length && scansHere((jobs[next] as ScanJob).bytes)) {
        // nothing to pass on and no answer in (or a file too large for a worker): this thread
        // scans the next file itself
        const index = next;
        next += 1;
        results.set(index, runScanJob(prepare(jobs[index] as ScanJob)));
        continue;
      }
      if (Atomics.wait(signal, 0, seen, STALL_MS) === 'timed-out') return { done, workers: count };
    }
    return { done, workers: count };
  } finally {
    stop();
  }
}

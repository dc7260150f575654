/**
 * Runs a large scan's files on worker threads while keeping `scanTranscripts` synchronous: the
 * scanning thread hands each worker up to two files at a time over a MessageChannel, blocks on a
 * shared counter (Atomics.wait) until a worker answers, takes the answers with
 * receiveMessageOnPort, and passes them on in file order, so candidates come out exactly as from
 * a scan in one thread. One worker per core, at most two, each with a small young generation
 * (4 MB): decoding transcript lines allocates fast, and V8 would otherwise grow the young
 * generation of the scanning thread to 48 MB. The scanning thread itself only drafts and merges
 * what the workers found (a fraction of a core), so it parses nothing and its heap stays small.
 *
 * Workers are used only when they pay off (at least `PARALLEL_SCAN_MIN_BYTES` to read, unless
 * forced) and when the compiled worker script exists (not when running from TypeScript sources).
 * A worker that fails, or stays silent for `STALL_MS`, leaves the rest of the files to this thread.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';
import type { FileScan } from './scan-file.js';
import type { ScanJob } from './scan-job.js';
import type { ScanReply, ScanRequest, ScanWorkerData } from './scan-worker.js';

export const PARALLEL_SCAN_MIN_BYTES = 32 * 1048576;
export const MAX_SCAN_WORKERS = 2;
const YOUNG_GENERATION_MB = 4;
const IN_FLIGHT = 2;
const STALL_MS = 60_000;

type PoolWorker = { worker: Worker; port: MessagePort; busy: number };

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
  const script = new URL('./scan-worker.js', import.meta.url);
  const bytes = jobs.reduce((sum, job) => sum + job.bytes, 0);
  if (jobs.length === 0 || bytes < minBytes || !existsSync(fileURLToPath(script)))
    return { done: 0, workers: 0 };
  const count = Math.min(MAX_SCAN_WORKERS, availableParallelism(), jobs.length);
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
        resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
      });
      worker.unref();
      pool.push({ worker, port: port1, busy: 0 });
    }
  } catch {
    stop();
    return { done: 0, workers: 0 }; // workers could not start: this thread scans everything
  }
  let done = 0;
  try {
    const results = new Map<number, FileScan>();
    let next = 0;
    const dispatch = () => {
      for (const member of pool) {
        while (member.busy < IN_FLIGHT && next < jobs.length) {
          const job = prepare(jobs[next] as ScanJob);
          member.port.postMessage({ index: next, job } satisfies ScanRequest);
          member.busy += 1;
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
          member.busy -= 1;
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
      if (!received && done < jobs.length && Atomics.wait(signal, 0, seen, STALL_MS) === 'timed-out')
        return { done, workers: count };
    }
    return { done, workers: count };
  } finally {
    stop();
  }
}

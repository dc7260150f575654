/**
 * A worker thread of a large scan (see scan-in-workers.ts). It receives `{index, job}` on the
 * port it was given, scans that file, answers `{index, scan}` (or `{index, error}`) on the same
 * port, and then bumps the shared counter, which wakes the scanning thread blocked on it. Bundled
 * as CommonJS into dist/cli-bundle/scan-worker.cjs (scripts/bundle-cli.mjs), which the pool starts
 * when it is there.
 */
import { workerData } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';
import { holdHeapGrowth } from './scan-in-workers.js';
import { runScanJob } from './scan-job.js';
import type { ScanJob } from './scan-job.js';
import type { FileScan } from './scan-file.js';

export type ScanRequest = { index: number; job: ScanJob };
export type ScanReply = { index: number; scan: FileScan } | { index: number; error: string };
export type ScanWorkerData = { port: MessagePort; signal: Int32Array };

const { port, signal } = workerData as ScanWorkerData;

// V8's flags are the process's: configuring this thread's heap undid the young generation's hold
// that the scanning thread set for the scan (scan-in-workers.ts holdHeapGrowth), and that
// thread's young generation grew until the first answer came (to 16 MB on the capture
// benchmark's corpus). Set again at once.
holdHeapGrowth(true);

port.on('message', ({ index, job }: ScanRequest) => {
  let reply: ScanReply;
  try {
    reply = { index, scan: runScanJob(job) };
  } catch (error) {
    reply = { index, error: error instanceof Error ? error.message : String(error) };
  }
  port.postMessage(reply);
  Atomics.add(signal, 0, 1);
  Atomics.notify(signal, 0);
});

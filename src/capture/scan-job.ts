/**
 * One file's scan as plain data, so it can run in this thread or on a worker thread
 * (scan-worker.ts) alike: which reader, which file, the state of the last scan, and the options.
 */
import type { Agent } from '../core/capture/events.js';
import type { DetectorOptions } from '../core/capture/detect-episodes.js';
import type { RedactOptions } from '../core/capture/redact.js';
import { keepEvent } from './keep-event.js';
import { READERS } from './readers.js';
import { scanFile } from './scan-file.js';
import type { FileScan, FileState } from './scan-file.js';

export type ScanJob = {
  agent: Agent;
  path: string;
  shown: string;
  previous: FileState | undefined;
  detector: DetectorOptions;
  since?: string;
  redact: RedactOptions;
  /** Also collect the tool calls read, for the call cache. */
  collectCalls?: boolean;
  /** The call cache's floor when the job was handed out: older calls are not collected. */
  callsSince?: string;
  /** Bytes this scan will read, about (for deciding whether workers are worth starting). */
  bytes: number;
};

export function runScanJob(job: ScanJob): FileScan {
  return scanFile({
    reader: READERS[job.agent],
    path: job.path,
    shown: job.shown,
    previous: job.previous,
    detector: job.detector,
    ...(job.since !== undefined ? { since: job.since } : {}),
    keep: (event) => keepEvent(event, job.redact),
    ...(job.collectCalls === true ? { collectCalls: true } : {}),
    ...(job.callsSince !== undefined ? { callsSince: job.callsSince } : {}),
  });
}

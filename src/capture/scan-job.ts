/**
 * One file's scan as plain data, so it can run in this thread or on a worker thread
 * (scan-worker.ts) alike: which reader, which file, the state of the last scan, and the options.
 */
import type { Agent } from '../core/capture/events.js';
import type { DetectorOptions } from '../core/capture/detect-episodes.js';
import type { RedactOptions } from '../core/capture/redact.js';
import { statSync } from 'node:fs';
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
  try {
    return scanJobFile(job);
  } catch (error) {
    return unreadable(job, error);
  }
}

function scanJobFile(job: ScanJob): FileScan {
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

/**
 * A file whose scan failed (a `.zst` that is not zstd, a line nested too deep for the stack, a
 * document too large for one string): reported, and passed over until it changes, so one bad file
 * never stops the scan of the others.
 */
function unreadable(job: ScanJob, error: unknown): FileScan {
  const stat = statSync(job.path, { throwIfNoEntry: false });
  const previous = job.previous;
  const reason = error instanceof Error ? error.message : String(error);
  return {
    state: {
      size: stat?.size ?? 0,
      mtimeMs: stat?.mtimeMs ?? 0,
      ino: stat?.ino ?? 0,
      // what it holds now is not read again: only what is appended to it
      offset: stat?.size ?? 0,
      line: previous?.line ?? 0,
      malformed: (previous?.malformed ?? 0) + 1,
      carry: previous?.carry ?? {},
      recent: previous?.recent ?? [],
    },
    changed: true,
    bytes: 0,
    lines: 0,
    malformed: [
      {
        file: job.shown,
        message: `could not be read (${reason.slice(0, 120)}): skipped until it changes`,
        severity: 'warning',
      },
    ],
    events: 0,
    episodes: [],
    markers: [],
    restarted: false,
  };
}

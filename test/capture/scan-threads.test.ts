// A scan on worker threads must find exactly what a scan in one thread finds, in the same order,
// and leave the same state. The worker script only exists in the build, so this runs the built
// scanner (dist/), forced onto workers whatever the size.
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MessageChannel, Worker } from 'node:worker_threads';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type * as ScanModule from '../../src/capture/scan-transcripts.js';
import { scansHere, WORKER_MAX_BYTES } from '../../src/capture/scan-in-workers.js';
import { runScanJob } from '../../src/capture/scan-job.js';
import type { ScanJob } from '../../src/capture/scan-job.js';
import type { ScanReply } from '../../src/capture/scan-worker.js';

const fixtures = fileURLToPath(new URL('../fixtures/transcripts/', import.meta.url));
const built = new URL('../../dist/capture/scan-transcripts.js', import.meta.url).href;
const dir = mkdtempSync(join(tmpdir(), 'lore-threads-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function scan(threads: 'never' | 'always') {
  const { scanTranscripts, detailPathOf } = (await import(built)) as typeof ScanModule;
  const statePath = join(dir, `${threads}.json`);
  const report = scanTranscripts({
    roots: [{ path: fixtures, shownAs: 'fixtures' }],
    statePath,
    detector: { window: 40 },
    redact: { names: [] },
    threads,
    callCachePath: join(dir, `${threads}-calls.json`),
  });
  const state = JSON.parse(readFileSync(statePath, 'utf8')) as { files: unknown };
  const detail = JSON.parse(readFileSync(detailPathOf(statePath), 'utf8')) as { files: unknown };
  const calls = readFileSync(join(dir, `${threads}-calls.json`), 'utf8');
  return { report, files: state.files, detail: detail.files, calls };
}

describe('scanning on worker threads', () => {
  it('finds the same episodes in the same order and leaves the same state as one thread', async () => {
    const one = await scan('never');
    const workers = await scan('always');
    expect(one.report.episodeCount).toBeGreaterThan(10);
    expect(one.report.workers).toBe(0);
    expect(workers.report.workers).toBeGreaterThan(0);
    expect({ ...workers.report, workers: 0 }).toEqual(one.report);
    expect(workers.files).toEqual(one.files);
    expect(workers.detail).toEqual(one.detail);
    // The call cache, collected per file on the workers, is the same too.
    expect(one.report.callCache?.calls).toBeGreaterThan(1000);
    expect(workers.calls).toBe(one.calls);
  });
});

describe('the bundled worker', () => {
  const bundle = fileURLToPath(new URL('../../dist/cli-bundle/scan-worker.cjs', import.meta.url));
  const job = (agent: ScanJob['agent'], path: string): ScanJob => ({
    agent,
    path: join(fixtures, path),
    shown: path,
    previous: undefined,
    detector: { window: 40 },
    redact: { names: [] },
    collectCalls: true,
    bytes: 0,
  });
  const started: Worker[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((worker) => worker.terminate()));
  });

  it('is built, and answers each scan as this thread makes it (a zstd file too: its packages load)', async () => {
    // the pool starts it whenever it is there (scan-in-workers.ts), and passes over one that fails
    expect(existsSync(bundle)).toBe(true);
    const jobs = [
      job(
        'claude-code',
        'claude-code/M-Thisness__M-Claude__Archives__0eda269a-9c44-481b-958d-23a3c6361259.jsonl',
      ),
      job('codex', 'codex/sessions/2026/11/22/rollout-2026-11-22T06-00-00-compressed-copy.jsonl.zst'),
    ];
    const { port1, port2 } = new MessageChannel();
    const signal = new Int32Array(new SharedArrayBuffer(4));
    started.push(new Worker(bundle, { workerData: { port: port2, signal }, transferList: [port2] }));
    const replies: ScanReply[] = [];
    for (const [index, each] of jobs.entries()) {
      port1.postMessage({ index, job: each });
      const [reply] = (await once(port1, 'message')) as [ScanReply];
      replies.push(reply);
    }
    port1.close();
    expect(replies).toEqual(jobs.map((each, index) => ({ index, scan: runScanJob(each) })));
    expect(replies[1]).toMatchObject({ scan: { changed: true, lines: expect.any(Number) } });
    expect(Atomics.load(signal, 0)).toBe(2);
  });
});

describe('which thread scans a file', () => {
  it('this thread takes the small files and those too large for a worker, workers the rest', () => {
    expect(scansHere(100_000)).toBe(true);
    expect(scansHere(8 * 1048576)).toBe(false);
    expect(scansHere(WORKER_MAX_BYTES)).toBe(false);
    expect(scansHere(WORKER_MAX_BYTES + 1)).toBe(true);
  });
});

// A scan on worker threads must find exactly what a scan in one thread finds, in the same order,
// and leave the same state. The worker script only exists in the build, so this runs the built
// scanner (dist/), forced onto workers whatever the size.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type * as ScanModule from '../../src/capture/scan-transcripts.js';
import { scansHere, WORKER_MAX_BYTES } from '../../src/capture/scan-in-workers.js';

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

describe('which thread scans a file', () => {
  it('this thread takes the small files and those too large for a worker, workers the rest', () => {
    expect(scansHere(100_000)).toBe(true);
    expect(scansHere(8 * 1048576)).toBe(false);
    expect(scansHere(WORKER_MAX_BYTES)).toBe(false);
    expect(scansHere(WORKER_MAX_BYTES + 1)).toBe(true);
  });
});

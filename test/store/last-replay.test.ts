// The last replay kept for the dashboard: written atomically under the cache, read back, and a
// damaged or foreign file read as none.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ReplayReport } from '../../src/core/replay/replay-report.js';
import { lastReplayPath, writeLastReplay } from '../../src/store/replay/last-replay.js';
import { readLastReplayIn } from '../../src/store/replay/read-last-replay.js';

const readLastReplay = (dir: string) => readLastReplayIn([dir]).last?.report;

const cache = mkdtempSync(join(tmpdir(), 'lore-last-replay-'));
afterAll(() => rmSync(cache, { recursive: true, force: true }));

const report: ReplayReport = {
  version: 1,
  at: '2026-11-26T00:00:00.000Z',
  options: { sources: ['codex'], paths: ['/t'], since: null, asOf: false, lessons: [] },
  counts: {
    files: 1,
    sessions: 1,
    brokenLines: 0,
    missingResults: 0,
    orphanResults: 0,
    clockBackwards: 0,
    unknownTools: 0,
    subagentCalls: 0,
  },
  calls: 3,
  callsWithInjection: 1,
  injections: 1,
  bytes: 120,
  injectionsPer100Calls: 33.33,
  bytesPer100Calls: 4000,
  guardDenials: 0,
  checkpointDenials: 0,
  lessons: [],
  suggestions: [],
};

describe('last replay', () => {
  it('is read back as written, under replay/last.json', () => {
    expect(readLastReplay(cache)).toBeUndefined();
    const path = writeLastReplay(cache, report);
    expect(path).toBe(join(cache, 'replay', 'last.json'));
    expect(readLastReplay(cache)).toEqual(report);
  });

  it.each([['{"version": 1, "lessons": [tru'], ['{"version": 2, "lessons": []}'], ['[]']])(
    '%s is no replay',
    (text) => {
      writeFileSync(lastReplayPath(cache), text);
      expect(readLastReplay(cache)).toBeUndefined();
      expect(readLastReplayIn([cache]).problems).toHaveLength(1);
    },
  );
});

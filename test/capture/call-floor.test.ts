// The call cache's floor (createCallFloor in core/breadth/cached-call.ts): a scan leaves out of
// what it collects the calls older than the newest CALL_CACHE_LIMIT it already knows of, and the
// cache it writes is exactly the one collecting every call gives, on one thread or on workers.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createCallCollector, redactCall } from '../../src/capture/collect-recent-calls.js';
import { READERS } from '../../src/capture/readers.js';
import { scanFile } from '../../src/capture/scan-file.js';
import { scanTranscripts } from '../../src/capture/scan-transcripts.js';
import { walk } from '../../src/capture/walk-files.js';
import { CALL_CACHE_LIMIT, createCallFloor, mergeCachedCalls } from '../../src/core/breadth/cached-call.js';
import type { CachedCall } from '../../src/core/breadth/cached-call.js';
import type { TranscriptEvent } from '../../src/core/capture/events.js';
import { readCallCache } from '../../src/store/breadth/call-cache.js';

const dir = mkdtempSync(join(tmpdir(), 'lore-call-floor-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const at = (minute: number) => new Date(Date.UTC(2026, 0, 1) + minute * 60_000).toISOString();
const cached = (id: string, time?: string, session = 's'): CachedCall => ({
  id,
  ...(time !== undefined ? { time } : {}),
  agent: 'claude-code',
  session,
  tool: 'Bash',
  keys: ['ls'],
  outcome: 'ok',
});

describe('createCallFloor', () => {
  it('has no floor until `limit` calls with a time are known, then the limit-th newest time', () => {
    const floor = createCallFloor(3);
    floor.add([cached('a', at(5)), cached('b', at(1)), cached('u')]);
    expect(floor.floor()).toBeUndefined();
    floor.add([cached('c', at(3))]);
    expect(floor.floor()).toBe(at(1));
  });

  it('counts a call read twice once, and only rises', () => {
    const floor = createCallFloor(2);
    floor.add([cached('a', at(1)), cached('a', at(1))]);
    expect(floor.floor()).toBeUndefined();
    floor.add([cached('a', at(1), 'other'), cached('b', at(9)), cached('c', at(8)), cached('d', at(7))]);
    // known: a@1 twice (two sessions), b@9, c@8, d@7: twice the limit, so worked out again
    expect(floor.floor()).toBe(at(8));
    floor.add([cached('e', at(2)), cached('f', at(3))]);
    expect(floor.floor()).toBe(at(8));
  });
});

describe('createCallCollector with a floor', () => {
  it('leaves out calls made before it and their results; a call without a time is as old as the one before', () => {
    const origin = { agent: 'claude-code' as const, session: 's', project: '/p', file: 'f', line: 1 };
    const call = (id: string, time: string | undefined): TranscriptEvent => ({
      ...origin,
      timestamp: time,
      kind: 'tool-call',
      callId: id,
      tool: 'Bash',
      input: { command: 'false' },
    });
    const result = (id: string): TranscriptEvent => ({
      ...origin,
      timestamp: undefined,
      kind: 'tool-result',
      callId: id,
      tool: 'Bash',
      ok: false,
      text: 'Exit code 1',
      exitCode: 1,
      failure: 'exit-code',
    });
    const collector = createCallCollector(100, at(5));
    const events = [
      call('first-untimed', undefined),
      call('old', at(4)),
      result('old'),
      call('untimed-after-old', undefined),
      call('new', at(5)),
      result('new'),
      call('untimed-after-new', undefined),
    ];
    for (const event of events) collector.push(event);
    expect(collector.finish().map((c) => [c.id, c.time, c.outcome])).toEqual([
      ['first-untimed', undefined, 'no-result'],
      ['new', at(5), 'failed'],
      ['untimed-after-new', at(5), 'no-result'],
    ]);
  });
});

const canonical = (calls: readonly CachedCall[]) =>
  [...calls].sort((a, b) => `${a.time} ${a.session} ${a.id}`.localeCompare(`${b.time} ${b.session} ${b.id}`));

/** A Claude Code transcript: Bash calls at the given minutes, every third one failing, a few untimed. */
function transcript(session: string, minutes: number[]): string {
  return minutes
    .map((minute, i) => {
      const id = `${session}-${i}`;
      // some lines without a time (a line cut short keeps its call, not always its time)
      const base = {
        sessionId: session,
        cwd: '/work/app',
        ...(i % 37 === 5 ? {} : { timestamp: at(minute) }),
      };
      const use = { type: 'tool_use', id, name: 'Bash', input: { command: `make step${i % 7}` } };
      const failed = i % 3 === 0;
      const res = {
        type: 'tool_result',
        tool_use_id: id,
        is_error: failed,
        content: failed ? 'make: *** [step] Error 2' : 'ok',
      };
      return `${JSON.stringify({ ...base, type: 'assistant', message: { role: 'assistant', content: [use] } })}\n${JSON.stringify({ ...base, type: 'user', message: { role: 'user', content: [res] } })}\n`;
    })
    .join('');
}

describe('a scan with the floor', () => {
  // 24 files of 500 calls (12,000, more than twice the cache), their times spread and
  // interleaved across files: the floor rises while later files still hold newer calls
  const root = join(dir, 'projects');
  mkdirSync(root, { recursive: true });
  let seed = 7;
  const next = () => (seed = (seed * 48271) % 2147483647);
  for (let f = 0; f < 24; f += 1) {
    const start = next() % 20_000;
    const minutes = Array.from({ length: 500 }, (_, i) => start + i * (1 + (next() % 5)));
    writeFileSync(join(root, `f${String(f).padStart(2, '0')}.jsonl`), transcript(`s${f}`, minutes));
  }

  /** What collecting every call of every file gives, in the scan's file order. */
  function everyCall(): CachedCall[] {
    const all = walk(root).flatMap(
      (path) =>
        scanFile({
          reader: READERS['claude-code'],
          path,
          shown: path,
          previous: undefined,
          detector: { window: 40 },
          keep: (event) => event,
          collectCalls: true,
        }).calls ?? [],
    );
    return mergeCachedCalls([], all).map((call) => redactCall(call, { names: [] }));
  }

  it('writes exactly the cache that collecting every call gives, on one thread and on workers', () => {
    const expected = everyCall();
    expect(expected).toHaveLength(CALL_CACHE_LIMIT);
    for (const threads of ['never', 'always'] as const) {
      const cache = join(dir, `${threads}-calls.json`);
      const report = scanTranscripts({
        roots: [{ path: root, agent: 'claude-code' }],
        statePath: join(dir, `${threads}.json`),
        detector: { window: 40 },
        redact: { names: [] },
        threads,
        callCachePath: cache,
      });
      expect(report.callCache).toEqual({ calls: CALL_CACHE_LIMIT, added: CALL_CACHE_LIMIT, damaged: false });
      // as sets: the cache file groups calls by session, so calls of equal time read back in another order
      expect(canonical(readCallCache(cache).calls), threads).toEqual(canonical(expected));
    }
  });
});

// The call cache a scan keeps (core/breadth/cached-call.ts, store/breadth/call-cache.ts): a call
// whose result is written after a scan gets its outcome at the next scan, a file read again adds
// no second entry, and a damaged cache is read as empty and rewritten.
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { scanTranscripts } from '../../src/capture/scan-transcripts.js';
import { readCallCache } from '../../src/store/breadth/call-cache.js';

const dir = mkdtempSync(join(tmpdir(), 'lore-call-cache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const base = { sessionId: 's1', cwd: '/work/app' };
const call = (id: string, command: string) =>
  `${JSON.stringify({ ...base, timestamp: `2026-11-01T00:00:0${id}Z`, type: 'assistant', message: { role: 'assistant', content: [{ type: 'tool_use', id, name: 'Bash', input: { command } }] } })}\n`;
const result = (id: string, text: string, error: boolean) =>
  `${JSON.stringify({ ...base, timestamp: `2026-11-01T00:00:0${id}Z`, type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, is_error: error, content: text }] } })}\n`;

function scan(name: string) {
  return scanTranscripts({
    roots: [{ path: join(dir, 't'), agent: 'claude-code' }],
    statePath: join(dir, `${name}.json`),
    detector: { window: 40 },
    redact: { names: [] },
    threads: 'never',
    callCachePath: join(dir, `${name}-calls.json`),
  });
}

describe('the call cache', () => {
  it('gives a call its outcome once its result is written, one entry per call', () => {
    const file = join(dir, 't', 'session.jsonl');
    // a folder with one transcript: a working ls, then a pytest whose result is not written yet
    mkdirSync(join(dir, 't'));
    writeFileSync(file, call('1', 'ls') + result('1', 'a b', false) + call('2', 'pytest -q'));
    expect(scan('a').callCache).toEqual({ calls: 2, added: 2, damaged: false });
    const before = readCallCache(join(dir, 'a-calls.json'));
    expect(before.calls.map((c) => [c.id, c.outcome])).toEqual([
      ['1', 'ok'],
      ['2', 'no-result'],
    ]);
    appendFileSync(file, result('2', "ModuleNotFoundError: No module named 'foo'", true));
    scan('a');
    const after = readCallCache(join(dir, 'a-calls.json'));
    expect(after.calls.map((c) => [c.id, c.outcome, c.errorClass])).toEqual([
      ['1', 'ok', undefined],
      ['2', 'failed', 'missing-module'],
    ]);

    // a damaged cache: read as empty (and said so), then written afresh by the next scan that reads something
    writeFileSync(join(dir, 'a-calls.json'), '{"version": 1, "sess');
    expect(readCallCache(join(dir, 'a-calls.json')).status).toBe('damaged');
    appendFileSync(file, call('3', 'git status') + result('3', 'clean', false));
    expect(scan('a').callCache).toMatchObject({ damaged: true });
    expect(readCallCache(join(dir, 'a-calls.json'))).toMatchObject({ status: 'ok', skipped: 0 });
    expect(readCallCache(join(dir, 'missing.json')).status).toBe('missing');
    expect(readFileSync(join(dir, 'a-calls.json'), 'utf8')).toContain('"git status"');
  });
});

describe('a call cache edited or damaged by hand', () => {
  it('skips (and counts) calls whose fields have the wrong type; the others are read', () => {
    const path = join(dir, 'typed', 'call-cache.json');
    mkdirSync(join(dir, 'typed'), { recursive: true });
    const good = { id: 'c1', tool: 'Bash', command: 'pytest -q', outcome: 'ok', keys: ['pytest'] };
    const calls = [
      good,
      { ...good, id: 'c2', command: 5 },
      { ...good, id: 'c3', paths: 'not-a-list' },
      { ...good, id: 'c4', keys: [1, 2] },
      { ...good, id: 'c5', error: { text: 'x' } },
    ];
    writeFileSync(
      path,
      JSON.stringify({ version: 1, sessions: [{ session: 's', agent: 'claude-code', calls }] }),
    );
    const read = readCallCache(path);
    expect(read.status).toBe('ok');
    expect(read.calls.map((c) => c.id)).toEqual(['c1']);
    expect(read.skipped).toBe(4);
  });
});

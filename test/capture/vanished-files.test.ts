// Transcripts deleted under a scan's feet (an agent cleaning up old sessions while a background
// scan runs) or between two scans: the scan goes on, and the state forgets them, but only below
// the roots it scanned and only what is really gone.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { READERS } from '../../src/capture/readers.js';
import { scanFile } from '../../src/capture/scan-file.js';
import { detailPathOf, scanTranscripts } from '../../src/capture/scan-transcripts.js';
import type { ScanRoot } from '../../src/capture/scan-transcripts.js';

const fixture = fileURLToPath(
  new URL(
    '../fixtures/transcripts/claude-code/M-Thisness__M-Claude__CHAT_LOGS__c7d2069e-c561-4759-8adf-b0745be78c29.jsonl',
    import.meta.url,
  ),
);

let base = '';
afterEach(() => rmSync(base, { recursive: true, force: true }));

function folder(name: string, files: string[]): string {
  const dir = join(base, name);
  mkdirSync(dir, { recursive: true });
  for (const file of files) copyFileSync(fixture, join(dir, file));
  return dir;
}

const statePath = () => join(base, 'state', 'scan-state.json');

function scan(roots: string[], onProgress?: (done: number) => void) {
  return scanTranscripts({
    roots: roots.map((path): ScanRoot => ({ path, agent: 'claude-code' })),
    statePath: statePath(),
    detector: { window: 12 },
    redact: { names: [] },
    threads: 'never',
    ...(onProgress ? { onProgress: ({ done }) => onProgress(done) } : {}),
  });
}

/** The files the state keeps, in the signatures and in the details. */
function kept(): { signatures: string[]; details: string[] } {
  const names = (path: string) =>
    Object.keys((JSON.parse(readFileSync(path, 'utf8')) as { files: object }).files)
      .map((file) => file.slice(base.length + 1))
      .sort();
  return { signatures: names(statePath()), details: names(detailPathOf(statePath())) };
}

describe('transcripts that vanish', () => {
  it('a file deleted after the scan listed it is skipped, and the scan reads the rest', () => {
    base = mkdtempSync(join(tmpdir(), 'lore-vanish-'));
    const dir = folder('a', ['s1.jsonl', 's2.jsonl', 's3.jsonl', 's4.jsonl']);
    const whole = scan([folder('ref', ['s1.jsonl', 's2.jsonl'])]);
    rmSync(statePath());
    const report = scan([dir], (done) => {
      if (done === 1) for (const file of ['s3.jsonl', 's4.jsonl']) rmSync(join(dir, file), { force: true });
    });
    expect(report.changedFiles).toBe(2);
    expect(report.episodeCount).toBe(whole.episodeCount);
    expect(kept()).toEqual({
      signatures: ['a/s1.jsonl', 'a/s2.jsonl'],
      details: ['a/s1.jsonl', 'a/s2.jsonl'],
    });
  });

  it('scanFile says a missing file is gone rather than throwing', () => {
    base = mkdtempSync(join(tmpdir(), 'lore-vanish-'));
    const result = scanFile({
      reader: READERS['claude-code'],
      path: join(base, 'never-there.jsonl'),
      shown: 'never-there.jsonl',
      previous: undefined,
      detector: { window: 12 },
      keep: (event) => event,
    });
    expect(result).toMatchObject({ gone: true, changed: false, bytes: 0, episodes: [] });
  });

  it('the state forgets files deleted between scans, below the scanned roots only', () => {
    base = mkdtempSync(join(tmpdir(), 'lore-vanish-'));
    const a = folder('a', ['s1.jsonl', 's2.jsonl']);
    const b = folder('b', ['t1.jsonl']);
    scan([a, b]);
    expect(kept().signatures).toEqual(['a/s1.jsonl', 'a/s2.jsonl', 'b/t1.jsonl']);

    rmSync(join(a, 's2.jsonl'));
    rmSync(join(b, 't1.jsonl'));
    copyFileSync(fixture, join(b, 't2.jsonl'));
    // a scan of b alone: a's deleted file is not its business
    scan([b]);
    expect(kept()).toEqual({
      signatures: ['a/s1.jsonl', 'a/s2.jsonl', 'b/t2.jsonl'],
      details: ['a/s1.jsonl', 'a/s2.jsonl', 'b/t2.jsonl'],
    });

    copyFileSync(fixture, join(a, 's3.jsonl'));
    const report = scan([a, b]);
    expect(report.changedFiles).toBe(1);
    expect(kept()).toEqual({
      signatures: ['a/s1.jsonl', 'a/s3.jsonl', 'b/t2.jsonl'],
      details: ['a/s1.jsonl', 'a/s3.jsonl', 'b/t2.jsonl'],
    });
  });
});

describe('a damaged scan state', () => {
  it.each([
    ['files: null', (state: Record<string, unknown>) => ({ ...state, files: null })],
    [
      'a negative offset',
      (state: Record<string, unknown>) => ({
        ...state,
        files: Object.fromEntries(
          Object.entries(state.files as Record<string, object>).map(([k, v]) => [k, { ...v, offset: -100 }]),
        ),
      }),
    ],
    [
      'an offset that is text',
      (state: Record<string, unknown>) => ({
        ...state,
        files: Object.fromEntries(
          Object.entries(state.files as Record<string, object>).map(([k, v]) => [k, { ...v, offset: 'x' }]),
        ),
      }),
    ],
  ])('%s: the entry is dropped and the file read again from its start', (_name, damage) => {
    base = mkdtempSync(join(tmpdir(), 'lore-vanish-'));
    const dir = folder('a', ['s1.jsonl']);
    const first = scan([dir]);
    expect(first.episodeCount).toBeGreaterThan(0);
    const state = JSON.parse(readFileSync(statePath(), 'utf8')) as Record<string, unknown>;
    writeFileSync(statePath(), JSON.stringify(damage(state)));
    const again = scan([dir]);
    expect([again.changedFiles, again.episodeCount, again.problems]).toEqual([1, first.episodeCount, []]);
  });
});

// The detail file of a scan is written as the files are read (scan-transcripts.ts
// createDetailWriter), to a temporary name renamed into place by the save: until then the old
// one stays whole, a scan that is not saved leaves nothing behind, and what a killed scan left is
// swept by the next one.
import {
  appendFileSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { detailPathOf, scanTranscripts, scanTranscriptsUnsaved } from '../../src/capture/scan-transcripts.js';
import type { ScanOptions } from '../../src/capture/scan-transcripts.js';

const fixture = fileURLToPath(
  new URL(
    '../fixtures/transcripts/claude-code/M-Thisness__M-Claude__CHAT_LOGS__c7d2069e-c561-4759-8adf-b0745be78c29.jsonl',
    import.meta.url,
  ),
);

let base = '';
afterEach(() => rmSync(base, { recursive: true, force: true }));

function setUp(files: string[]) {
  base = mkdtempSync(join(tmpdir(), 'lore-detail-'));
  const dir = join(base, 'projects');
  mkdirSync(dir, { recursive: true });
  for (const file of files) copyFileSync(fixture, join(dir, file));
  const options: ScanOptions = {
    roots: [{ path: dir, agent: 'claude-code' }],
    statePath: join(base, 'state', 'scan-state.json'),
    detector: { window: 12 },
    redact: { names: [] },
    threads: 'never',
  };
  return { dir, options, detailPath: detailPathOf(options.statePath) };
}

const filesOf = (path: string) =>
  JSON.parse(readFileSync(path, 'utf8')) as { generation: string; files: Record<string, unknown> };
const stateDir = () => readdirSync(join(base, 'state')).sort();

describe('the detail file of a scan', () => {
  it('holds every file read and keeps the details of the files a later scan did not read', () => {
    const { dir, options, detailPath } = setUp(['a.jsonl', 'b.jsonl', 'c.jsonl']);
    scanTranscripts(options);
    const first = filesOf(detailPath);
    expect(Object.keys(first.files).sort()).toEqual(['a', 'b', 'c'].map((n) => join(dir, `${n}.jsonl`)));
    expect(filesOf(options.statePath).generation).toBe(first.generation);

    appendFileSync(
      join(dir, 'b.jsonl'),
      readFileSync(fixture, 'utf8').split('\n').slice(0, 3).join('\n') + '\n',
    );
    const report = scanTranscripts(options);
    expect(report.changedFiles).toBe(1);
    const second = filesOf(detailPath);
    expect(second.generation).not.toBe(first.generation);
    expect(filesOf(options.statePath).generation).toBe(second.generation);
    // the files not read keep their details as they were; the one read has new ones
    expect(second.files[join(dir, 'a.jsonl')]).toEqual(first.files[join(dir, 'a.jsonl')]);
    expect(second.files[join(dir, 'c.jsonl')]).toEqual(first.files[join(dir, 'c.jsonl')]);
    expect(second.files[join(dir, 'b.jsonl')]).not.toEqual(first.files[join(dir, 'b.jsonl')]);
    expect(stateDir()).toEqual(['scan-state-detail.json', 'scan-state.json']);
  });

  it('is left as it was, with no temporary file, by a scan that is not saved', () => {
    const { dir, options, detailPath } = setUp(['a.jsonl', 'b.jsonl']);
    scanTranscripts(options);
    const before = readFileSync(detailPath, 'utf8');
    const state = readFileSync(options.statePath, 'utf8');
    appendFileSync(
      join(dir, 'a.jsonl'),
      readFileSync(fixture, 'utf8').split('\n').slice(0, 3).join('\n') + '\n',
    );
    const scan = scanTranscriptsUnsaved(options);
    expect(scan.report.changedFiles).toBe(1);
    // written as it was read, under a temporary name
    expect(stateDir()).toHaveLength(3);
    scan.discard();
    expect(readFileSync(detailPath, 'utf8')).toBe(before);
    expect(readFileSync(options.statePath, 'utf8')).toBe(state);
    expect(stateDir()).toEqual(['scan-state-detail.json', 'scan-state.json']);
    // a discard after the save changes nothing
    const again = scanTranscriptsUnsaved(options);
    again.save();
    again.discard();
    expect(filesOf(detailPath).generation).toBe(filesOf(options.statePath).generation);
    expect(stateDir()).toEqual(['scan-state-detail.json', 'scan-state.json']);
  });

  it('sweeps what a killed scan left (a dead process), never what a live one is writing', () => {
    const { options } = setUp(['a.jsonl']);
    mkdirSync(join(base, 'state'));
    // pid 2^22 + 1 is above Linux's pid_max: no such process
    const dead = '.scan-state-detail.json.4194305.0123abcd.tmp';
    const live = `.scan-state-detail.json.${process.pid}.89abcdef.tmp`;
    writeFileSync(join(base, 'state', dead), '{"version":2,"gener');
    writeFileSync(join(base, 'state', live), '{"version":2,"gener');
    scanTranscripts(options);
    expect(existsSync(join(base, 'state', dead))).toBe(false);
    expect(stateDir()).toEqual([live, 'scan-state-detail.json', 'scan-state.json']);
  });
});

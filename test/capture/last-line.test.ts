// Every line reader with a last record that has no newline after it: read once its file is quiet
// (scan-file.ts QUIET_MS), and when the writer goes on (the newline, then more records) nothing is
// read twice or lost: the scans find what they find when each write ends with its newline. A file scanned while it
// was being written has its last line held back, and read by the first scan once it is quiet,
// though the file did not change since.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Agent } from '../../src/core/capture/events.js';
import { countChanges, scanTranscripts } from '../../src/capture/scan-transcripts.js';
import { QUIET_MS } from '../../src/capture/scan-file.js';

const fixtures = fileURLToPath(new URL('../fixtures/transcripts/', import.meta.url));
const CODEX =
  'codex/sessions/2026/11/26/rollout-2026-11-26T05-40-01-01a2165e-324c-7ee3-bb86-66950026b225.jsonl';
const CODEX_ZST = 'codex/sessions/2026/11/22/rollout-2026-11-22T06-00-00-compressed-copy.jsonl.zst';

let base = '';
afterEach(() => {
  vi.useRealTimers();
  rmSync(base, { recursive: true, force: true });
});

/** A fixture's text (decompressed), ending with one newline. */
function fixtureText(name: string): string {
  const path = join(fixtures, name);
  const text = name.endsWith('.zst')
    ? execFileSync('zstd', ['-dc', path]).toString('utf8')
    : readFileSync(path, 'utf8');
  return text.endsWith('\n') ? text : `${text}\n`;
}

const OLD_MS = Date.UTC(2026, 0, 2, 12);

/** Writes the file as `text` (compressed for `.zst`, in place: same inode), last modified at `mtimeMs`. */
function write(path: string, text: string, mtimeMs = OLD_MS): void {
  writeFileSync(path, path.endsWith('.zst') ? execFileSync('zstd', ['-c', '-q'], { input: text }) : text);
  utimesSync(path, new Date(mtimeMs), new Date(mtimeMs));
}

/** Scans `texts` one after the other into the same file: what each scan found, and the events and lines read in all. */
function scanEach(
  file: string,
  agent: Agent,
  texts: string[],
): { episodes: string[]; events: number; lines: number } {
  const dir = mkdtempSync(join(base, 'run-'));
  const path = join(dir, 'root', file);
  mkdirSync(dirname(path), { recursive: true });
  const episodes: string[] = [];
  let events = 0;
  let lines = 0;
  for (const text of texts) {
    write(path, text);
    const report = scanTranscripts({
      roots: [{ path: join(dir, 'root'), agent }],
      statePath: join(dir, 'state.json'),
      detector: { window: 40 },
      redact: { names: [] },
      threads: 'never',
    });
    events += report.events;
    lines += report.lines;
    for (const e of report.episodes)
      episodes.push(`${e.kind} ${e.evidence.map((ref) => ref.line).join(',')}`);
  }
  return { episodes, events, lines };
}

describe('a last record without its newline, every line reader', () => {
  it.each([
    [
      'Claude Code',
      'claude-code/M-Thisness__M-Claude__Archives__3cfce0ff-0725-47be-a572-f8af8122b71e.jsonl',
      'p/s.jsonl',
      'claude-code',
    ],
    ['Codex', CODEX, 'rollout-2026-11-26T05-40-01-x.jsonl', 'codex'],
    ['Codex compressed', CODEX_ZST, 'rollout-2026-11-22T06-00-00-x.jsonl.zst', 'codex'],
    [
      'Gemini upsert log',
      'gemini/chats/session-2026-11-26T05-30-9b1e4c2a.jsonl',
      'chats/session-x.jsonl',
      'gemini',
    ],
  ] as const)(
    '%s: read once when quiet, nothing twice as the writer goes on',
    (_name, fixture, file, agent) => {
      base = mkdtempSync(join(tmpdir(), 'lore-last-line-'));
      const text = fixtureText(fixture);
      const lines = text.slice(0, -1).split('\n');
      const whole = scanEach(file, agent, [text]);
      expect(whole.events).toBeGreaterThan(0);
      // each write ends with a record and no newline; the next starts with the newline: read as the
      // same writes each ending with its newline are, and every event of the file once
      const cuts = [Math.floor(lines.length / 3), Math.floor((2 * lines.length) / 3), lines.length];
      const texts = cuts.map((cut) => lines.slice(0, cut).join('\n'));
      const steps = scanEach(file, agent, texts);
      expect(steps).toEqual(
        scanEach(
          file,
          agent,
          texts.map((part) => `${part}\n`),
        ),
      );
      expect(steps).toMatchObject({ events: whole.events, lines: whole.lines });
    },
  );

  it('a last line held back while its file was being written is read once the file is quiet', () => {
    base = mkdtempSync(join(tmpdir(), 'lore-last-line-'));
    const text = fixtureText(CODEX);
    const path = join(base, 'root', 'rollout-2026-11-26T05-40-01-x.jsonl');
    mkdirSync(dirname(path), { recursive: true });
    const scan = () =>
      scanTranscripts({
        roots: [{ path: join(base, 'root'), agent: 'codex' }],
        statePath: join(base, 'state.json'),
        detector: { window: 40 },
        redact: { names: [] },
        threads: 'never',
      });
    const lineCount = text.slice(0, -1).split('\n').length;
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(OLD_MS + 1000);
    write(path, text.slice(0, -1));
    // the tree a scan stamp keeps (none while the answer changes with time alone)
    const tree = () =>
      countChanges(
        { roots: [{ path: join(base, 'root'), agent: 'codex' }], statePath: join(base, 'state.json') },
        true,
      ).tree;
    expect(scan()).toMatchObject({ changedFiles: 1, lines: lineCount - 1 });
    expect(scan()).toMatchObject({ changedFiles: 0, lines: 0 });
    expect(tree()).toBeUndefined();
    vi.setSystemTime(OLD_MS + QUIET_MS);
    expect(scan()).toMatchObject({ changedFiles: 1, lines: 1 });
    expect(scan()).toMatchObject({ changedFiles: 0, lines: 0 });
    expect(tree()).toBeDefined();
  });
});

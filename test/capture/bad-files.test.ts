// One bad file never stops a scan: a `.zst` that is not zstd (or is cut short), a line nested too
// deep for the stack; each is reported and passed over until it changes, and the other files are
// read. A root that is a FIFO or a link to /dev/zero is not read at all (it would never end).
import { execFileSync } from 'node:child_process';
import {
  appendFileSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { scanTranscripts } from '../../src/capture/scan-transcripts.js';
import type { ScanRoot } from '../../src/capture/scan-transcripts.js';
import { walk } from '../../src/capture/walk-files.js';

const fixture = fileURLToPath(
  new URL(
    '../fixtures/transcripts/claude-code/M-Thisness__M-Claude__CHAT_LOGS__c7d2069e-c561-4759-8adf-b0745be78c29.jsonl',
    import.meta.url,
  ),
);
const zstFixture = fileURLToPath(
  new URL(
    '../fixtures/transcripts/codex/sessions/2026/11/22/rollout-2026-11-22T06-00-00-compressed-copy.jsonl.zst',
    import.meta.url,
  ),
);

let base = '';
afterEach(() => rmSync(base, { recursive: true, force: true }));

function scan(roots: ScanRoot[]) {
  return scanTranscripts({
    roots,
    statePath: join(base, 'state', 'scan-state.json'),
    detector: { window: 12 },
    redact: { names: [] },
    threads: 'never',
  });
}

/** A tool call whose input is nested `depth` arrays deep, in a Claude Code line. */
function deepLine(depth: number): string {
  const input = `{"command":"ls","x":${'['.repeat(depth)}${']'.repeat(depth)}}`;
  return `{"sessionId":"deep","type":"assistant","message":{"id":"m","content":[{"type":"tool_use","id":"d1","name":"Bash","input":${input}}]}}\n`;
}

describe('bad files', () => {
  it('are reported and passed over, and the other files are read', () => {
    base = mkdtempSync(join(tmpdir(), 'lore-badfiles-'));
    const claude = join(base, 'claude');
    const codex = join(base, 'codex');
    mkdirSync(claude);
    mkdirSync(codex);
    copyFileSync(fixture, join(claude, 'good.jsonl'));
    writeFileSync(join(claude, 'deep.jsonl'), deepLine(20_000));
    writeFileSync(join(codex, 'rollout-2026-01-02T00-00-00-bad.jsonl.zst'), 'not zstd at all\n');
    writeFileSync(
      join(codex, 'rollout-2026-01-02T00-00-01-cut.jsonl.zst'),
      readFileSync(zstFixture).subarray(0, 40),
    );

    const report = scan([
      { path: claude, agent: 'claude-code' },
      { path: codex, agent: 'codex' },
    ]);
    const good = scanTranscripts({
      roots: [{ path: fixture, agent: 'claude-code' }],
      statePath: join(base, 'state-good', 'scan-state.json'),
      detector: { window: 12 },
      redact: { names: [] },
      threads: 'never',
    });
    expect(good.episodeCount).toBeGreaterThan(0);
    expect(report.episodeCount).toBe(good.episodeCount);
    const unreadable = report.problems.filter((p) => /could not be read/.test(p.message)).map((p) => p.file);
    expect(unreadable.sort()).toEqual(
      [
        join(claude, 'deep.jsonl'),
        join(codex, 'rollout-2026-01-02T00-00-00-bad.jsonl.zst'),
        join(codex, 'rollout-2026-01-02T00-00-01-cut.jsonl.zst'),
      ].sort(),
    );

    // passed over until they change: the next scan reads nothing; a change is read again
    const again = scan([
      { path: claude, agent: 'claude-code' },
      { path: codex, agent: 'codex' },
    ]);
    expect(again.changedFiles).toBe(0);
    appendFileSync(join(claude, 'deep.jsonl'), readFileSync(fixture));
    const grown = scan([
      { path: claude, agent: 'claude-code' },
      { path: codex, agent: 'codex' },
    ]);
    expect(grown.changedFiles).toBe(1);
    expect(grown.problems).toEqual([]);
    expect(grown.episodeCount).toBe(good.episodeCount);
  });

  it('a byte order mark before the first line or document is passed over, not taken as bad JSON', () => {
    base = mkdtempSync(join(tmpdir(), 'lore-badfiles-'));
    const gemini = fileURLToPath(new URL('../fixtures/transcripts/gemini/chats/', import.meta.url));
    const copies = (dir: string, bom: string) => {
      mkdirSync(join(dir, 'claude'), { recursive: true });
      mkdirSync(join(dir, 'gemini', 'chats'), { recursive: true });
      writeFileSync(join(dir, 'claude', 'good.jsonl'), bom + readFileSync(fixture, 'utf8'));
      for (const name of readdirSync(gemini).filter((n) => n.endsWith('.json')))
        writeFileSync(join(dir, 'gemini', 'chats', name), bom + readFileSync(join(gemini, name), 'utf8'));
      return [
        { path: join(dir, 'claude'), agent: 'claude-code' as const },
        { path: join(dir, 'gemini'), agent: 'gemini' as const },
      ];
    };
    const plain = scan(copies(join(base, 'plain'), ''));
    const marked = scanTranscripts({
      roots: copies(join(base, 'marked'), '\uFEFF'),
      statePath: join(base, 'state-marked', 'scan-state.json'),
      detector: { window: 12 },
      redact: { names: [] },
      threads: 'never',
    });
    expect(plain.episodeCount).toBeGreaterThan(0);
    expect(marked.problems).toEqual(plain.problems);
    expect(marked.episodeCount).toBe(plain.episodeCount);
    expect(marked.lines).toBe(plain.lines);
  });

  it('a root that is a FIFO or a link to a device is not a transcript', () => {
    base = mkdtempSync(join(tmpdir(), 'lore-badfiles-'));
    const fifo = join(base, 'session.jsonl');
    execFileSync('mkfifo', [fifo]);
    const zero = join(base, 'rollout-2026-01-02T00-00-00-z.jsonl');
    symlinkSync('/dev/zero', zero);
    const linked = join(base, 'linked.jsonl');
    symlinkSync(fixture, linked);
    expect(walk(fifo)).toEqual([]);
    expect(walk(zero)).toEqual([]);
    expect(walk(linked)).toEqual([linked]);
    const report = scan([
      { path: fifo, agent: 'claude-code' },
      { path: zero, agent: 'codex' },
    ]);
    expect(report).toMatchObject({ files: 0, changedFiles: 0, episodeCount: 0 });
  });
});

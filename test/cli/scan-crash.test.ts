// `lore scan` killed with SIGKILL at any moment: the next scan picks up where it stopped, and the
// candidates and the transcript markers' feedback come out as from one scan that was never
// interrupted: nothing lost, nothing counted twice. The scan state (what has been read) must be
// the last thing a scan writes; written before the candidates, a kill in between loses them for
// good (the next scan finds every file as it was read).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createSandbox, exited } from '../helpers/cli.js';
import type { Sandbox } from '../helpers/cli.js';

const fixture = fileURLToPath(
  new URL(
    '../fixtures/transcripts/claude-code/M-Thisness__M-Claude__CHAT_LOGS__c7d2069e-c561-4759-8adf-b0745be78c29.jsonl',
    import.meta.url,
  ),
);
const ORIGINAL = 'c7d2069e-c561-4759-8adf-b0745be78c29';
const COPIES = 4;

type Listed = { summary: string; occurrences: number; evidence: number };
type Outcome = { candidates: Listed[]; helpful: number };

/**
 * A history that repeats one session `COPIES` times (fresh session ids), and a session whose agent
 * reported a lesson helpful (a LEARNING_HELPFUL marker).
 */
function history(sandbox: Sandbox): string {
  const lesson = sandbox.add([
    '--summary',
    'run pytest with -p no:cacheprovider',
    '--command',
    '\\bpytest\\b',
  ]);
  const dir = join(sandbox.home, '.claude', 'projects', '-home-dev-work');
  mkdirSync(dir, { recursive: true });
  const text = readFileSync(fixture, 'utf8');
  for (let n = 1; n <= COPIES; n += 1) {
    const id = `c7d2069e-c561-4759-8adf-${String(n).padStart(12, '0')}`;
    writeFileSync(join(dir, `${id}.jsonl`), text.split(ORIGINAL).join(id));
  }
  const marker = {
    parentUuid: null,
    sessionId: 'marker-session',
    cwd: sandbox.repo,
    uuid: 'u-marker-1',
    timestamp: '2026-11-20T10:00:01.000Z',
    message: {
      role: 'assistant',
      content: [{ type: 'text', text: `That worked. LEARNING_HELPFUL: ${lesson}` }],
    },
    type: 'assistant',
  };
  writeFileSync(join(dir, 'marker-session.jsonl'), `${JSON.stringify(marker)}\n`);
  return lesson;
}

function outcome(sandbox: Sandbox, lesson: string): Outcome {
  const listed = sandbox.run(['candidates', 'list', '--json']);
  expect(listed.code, listed.stderr).toBe(0);
  const candidates = listed
    .json<{ candidates: { summary: string; occurrences: number; evidence?: unknown[] }[] }>()
    .candidates.map((c) => ({
      summary: c.summary,
      occurrences: c.occurrences,
      evidence: c.evidence?.length ?? 0,
    }))
    .sort((a, b) => a.summary.localeCompare(b.summary) || a.occurrences - b.occurrences);
  const shown = sandbox.run(['show', lesson, '--json']);
  expect(shown.code, shown.stderr).toBe(0);
  return { candidates, helpful: shown.json<{ feedback: { helpful: number } }>().feedback.helpful };
}

function scanToEnd(sandbox: Sandbox): void {
  const run = sandbox.run(['scan', '--json']);
  expect(run.code, run.stderr).toBe(0);
}

/** Scans until no episode is left for a later scan (capture.maxCandidatesPerScan); false: never. */
function drain(sandbox: Sandbox): boolean {
  for (let round = 0; round < 30; round += 1) {
    const run = sandbox.run(['scan', '--json']);
    expect(run.code, run.stderr).toBe(0);
    if (run.json<{ capped: number }>().capped === 0) return true;
  }
  return false;
}

/** What one scan that nobody interrupted makes of the history, and how long it took. */
function reference(): { outcome: Outcome; ms: number } {
  const sandbox = createSandbox();
  const lesson = history(sandbox);
  const started = performance.now();
  scanToEnd(sandbox);
  const ms = performance.now() - started;
  const result = outcome(sandbox, lesson);
  expect(result.candidates.length).toBeGreaterThan(3);
  expect(result.candidates.every((c) => c.occurrences % COPIES === 0)).toBe(true);
  expect(result.helpful).toBe(1);
  return { outcome: result, ms };
}

const statePath = (sandbox: Sandbox) => sandbox.inRepo('.lore', 'cache', 'capture', 'scan-state.json');
const backlogPath = (sandbox: Sandbox) =>
  sandbox.inRepo('.lore', 'cache', 'capture', 'scan-state-backlog.json');

describe('lore scan killed part way', () => {
  it('loses nothing when killed the moment it has written its scan state', async () => {
    const { outcome: expected } = reference();
    const sandbox = createSandbox();
    const lesson = history(sandbox);
    const child = sandbox.spawn(['scan', '--json']);
    // Watch for the state file without yielding to the event loop, and kill on sight.
    const deadline = Date.now() + 60_000;
    while (!existsSync(statePath(sandbox)) && Date.now() < deadline);
    child.kill('SIGKILL');
    await exited(child);
    expect(existsSync(statePath(sandbox))).toBe(true);
    scanToEnd(sandbox);
    expect(outcome(sandbox, lesson)).toEqual(expected);
  });

  it('ends with what one scan makes, after kills at staggered moments', async () => {
    const { outcome: expected, ms } = reference();
    const sandbox = createSandbox();
    const lesson = history(sandbox);
    let killed = 0;
    for (let k = 1; k <= 7; k += 1) {
      const child = sandbox.spawn(['scan', '--json']);
      const timer = setTimeout(() => child.kill('SIGKILL'), (ms * k) / 8);
      const { signal } = await exited(child);
      clearTimeout(timer);
      if (signal === 'SIGKILL') killed += 1;
    }
    expect(killed).toBeGreaterThan(0);
    scanToEnd(sandbox);
    expect(outcome(sandbox, lesson)).toEqual(expected);
  });

  // A capped scan keeps what it left out in a backlog written before the scan state.
  it('loses nothing of a capped scan killed around its backlog, and counts nothing twice', async () => {
    const { outcome: expected } = reference();
    const sandbox = createSandbox();
    const lesson = history(sandbox);
    writeFileSync(sandbox.inRepo('.lore', 'config.yaml'), 'capture:\n  maxCandidatesPerScan: 1\n');
    const child = sandbox.spawn(['scan', '--json']);
    const deadline = Date.now() + 60_000;
    while (!existsSync(backlogPath(sandbox)) && Date.now() < deadline);
    child.kill('SIGKILL');
    await exited(child);
    expect(existsSync(backlogPath(sandbox))).toBe(true);
    expect(drain(sandbox)).toBe(true);
    expect(outcome(sandbox, lesson)).toEqual(expected);
    expect(existsSync(backlogPath(sandbox))).toBe(false);
  });
});

/**
 * `lore scan` with nothing new answers from the stamp of the last scan (src/capture/scan-stamp.ts,
 * src/cli/unchanged-scan.ts) exactly what the full scan prints, and any change to what that answer
 * depends on (a transcript added, grown or removed, a config edited, an argument, an injection
 * left to judge) runs the full scan again. LORE_STAGES=1 says which ran: the launcher marks
 * `scan answered from its stamp` when the stamp answered.
 */
import { appendFileSync, copyFileSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../helpers/cli.js';
import type { Run, Sandbox } from '../helpers/cli.js';
import { runHookBundle } from '../helpers/hook.js';
import { payload } from '../helpers/hook-payloads.js';

const fixtures = fileURLToPath(new URL('../fixtures/transcripts/claude-code/', import.meta.url));
const ANSWERED = 'scan answered from its stamp';

/** The three smallest Claude Code fixtures and one more to add later. */
const [first, second, third, extra] = readdirSync(fixtures, { withFileTypes: true })
  .filter((entry) => entry.isFile() && entry.name.endsWith('.jsonl'))
  .map((entry) => entry.name)
  .sort()
  .slice(0, 4) as [string, string, string, string];

type ScanJson = {
  files: number;
  bytes: number;
  episodes: number;
  outcomes: { sessionsWithoutTranscript: number };
};

function projectDir(sandbox: Sandbox): string {
  return join(sandbox.home, '.claude', 'projects', '-home-me-work');
}

/** A sandbox whose Claude Code folder holds three transcripts, scanned once (they are read). */
function scannedSandbox(): Sandbox {
  const sandbox = createSandbox();
  const dir = projectDir(sandbox);
  mkdirSync(dir, { recursive: true });
  for (const name of [first, second, third]) copyFileSync(join(fixtures, name), join(dir, name));
  expect(sandbox.run(['scan']).code).toBe(0);
  return sandbox;
}

/** `lore scan ARGS` with stage marks: the run, and whether the stamp answered it. */
function staged(sandbox: Sandbox, args: readonly string[]): { run: Run; answered: boolean } {
  const run = sandbox.run(['scan', ...args], { env: { LORE_STAGES: '1' } });
  return { run, answered: run.stderr.includes(ANSWERED) };
}

/** A sandbox whose last scan found nothing new and left its stamp (the next scan answers from it). */
function stampedSandbox(): Sandbox {
  const sandbox = scannedSandbox();
  expect(staged(sandbox, ['--json']).answered).toBe(false);
  expect(staged(sandbox, ['--json']).answered).toBe(true);
  return sandbox;
}

const printed = (run: Run) => ({ code: run.code, stdout: run.stdout, stderr: run.stderr });

describe('lore scan with nothing new', () => {
  it('answers from the stamp what the full scan prints, as text and as --json', () => {
    const sandbox = stampedSandbox();
    for (const args of [['--json'], []]) {
      const fast = sandbox.run(['scan', ...args]);
      const full = sandbox.run(['scan', ...args, '--force']);
      expect(printed(fast)).toEqual(printed(full));
    }
    expect(sandbox.run(['scan', '--json']).json<ScanJson>()).toMatchObject({
      files: 3,
      bytes: 0,
      episodes: 0,
    });
    expect(sandbox.run(['scan']).stdout).toContain('scanned 3 transcript file(s) (0 changed)');
    // --force runs the scan in full; the stamp it leaves answers the next plain scan
    expect(staged(sandbox, ['--force']).answered).toBe(false);
    expect(staged(sandbox, []).answered).toBe(true);
  });

  it.each([
    [
      'a new transcript',
      (sandbox: Sandbox) => copyFileSync(join(fixtures, extra), join(projectDir(sandbox), extra)),
      'scanned 4 transcript file(s) (1 changed)',
    ],
    [
      'a line appended to a transcript',
      (sandbox: Sandbox) =>
        appendFileSync(
          join(projectDir(sandbox), first),
          `${JSON.stringify({ type: 'user', sessionId: 's', message: { role: 'user', content: 'again' } })}\n`,
        ),
      'scanned 3 transcript file(s) (1 changed)',
    ],
    [
      'a transcript removed',
      (sandbox: Sandbox) => rmSync(join(projectDir(sandbox), second)),
      'scanned 2 transcript file(s) (0 changed)',
    ],
    [
      'a new folder of transcripts',
      (sandbox: Sandbox) => {
        const dir = join(sandbox.home, '.claude', 'projects', '-home-me-other');
        mkdirSync(dir);
        copyFileSync(join(fixtures, extra), join(dir, extra));
      },
      'scanned 4 transcript file(s) (1 changed)',
    ],
    [
      'an edited config',
      (sandbox: Sandbox) =>
        writeFileSync(sandbox.inRepo('.lore', 'config.yaml'), 'capture:\n  maxCandidatesPerScan: 3\n'),
      'scanned 3 transcript file(s) (0 changed)',
    ],
  ])('runs the full scan after %s', (_change, change, line) => {
    const sandbox = stampedSandbox();
    change(sandbox);
    const { run, answered } = staged(sandbox, []);
    expect(answered).toBe(false);
    expect(run.stdout).toContain(line);
  });

  it.each([[['--source', 'claude-code']], [['--since', '2020-01-01']], [['--json', '--force']]])(
    'runs the full scan with %j',
    (args) => {
      const sandbox = stampedSandbox();
      const { run, answered } = staged(sandbox, args);
      expect(answered).toBe(false);
      expect(run.code).toBe(0);
    },
  );

  it('leaves no stamp while an injection waits for the transcript of its session', () => {
    const sandbox = scannedSandbox();
    const id = sandbox.add(['--summary', 'run the tests with python -m pytest', '--command', '^pytest\\b']);
    const session = '00000000-0000-4000-8000-000000000000';
    const hook = runHookBundle(sandbox, {
      ...payload('claude', 'PreToolUse', 'Bash'),
      session_id: session,
      cwd: sandbox.repo,
      transcript_path: join(projectDir(sandbox), `${session}.jsonl`),
      tool_input: { command: 'pytest -q' },
      tool_use_id: 'toolu_1',
    });
    expect(hook.stdout).toContain(id);
    // no transcript of that session yet: its injection stays open, scan after scan
    for (let i = 0; i < 3; i += 1) {
      const { run, answered } = staged(sandbox, ['--json']);
      expect(answered).toBe(false);
      expect(run.json<ScanJson>().outcomes.sessionsWithoutTranscript).toBe(1);
    }
  });
});

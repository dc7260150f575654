// `lore replay` end to end: lessons added with the CLI, a small hand-made Claude Code transcript
// (a command that fails twice, a guard's call, a tool the hook never sees, a truncated last
// line), the figures in --json, the table and suggestions in the human output, last.json kept.
import { cpSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { ReplayReport } from '../../src/core/replay/replay-report.js';
import { createSandbox } from '../helpers/cli.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/replay/claude-code', import.meta.url));

/** A lesson about running `python` where only python3 is installed. */
const PYTHON = [
  '--summary',
  'Run scripts with python3: python is not installed here',
  '--tool',
  'Bash',
  '--command',
  '(^|\\s)python(\\s|$)',
  '--mistake',
  'bash: python: command not found',
];

/** A repository with lore initialized and the hand-made transcript under transcripts/. */
function withTranscript() {
  const sandbox = createSandbox();
  expect(sandbox.run(['init']).code).toBe(0);
  cpSync(FIXTURE, sandbox.inRepo('transcripts'), { recursive: true });
  return sandbox;
}

describe('lore replay', () => {
  it('a lesson that waits for its error fires after the failed call that printed it, not before any call', () => {
    const sandbox = withTranscript();
    const waits = sandbox.add([...PYTHON, '--error', 'command not found']);
    const report = sandbox.run(['replay', '--path', 'transcripts', '--json']).json<ReplayReport>();
    const line = report.lessons.find((l) => l.id === waits);
    // once per session, after the first `python report.py` failed: a hit, and the repeat after it
    // (`python report.py --all`) is what it could prevent
    expect(line).toMatchObject({ waits: true, fires: 1, hits: 1, noise: 0, prevented: 1, precision: 1 });
    expect(line?.byForm['after-call']).toMatchObject({ fires: 1, hits: 1 });
    // as a checkpoint it would act before the call, on its trigger
    expect(line?.asCheckpoint?.denials).toBe(1);
    const human = sandbox.run(['replay', '--path', 'transcripts']);
    expect(human.stdout).toContain('[waits for error]');
  });

  it('replays a transcript through the hook and judges each lesson', () => {
    const sandbox = withTranscript();
    const python = sandbox.add(PYTHON);
    const guard = sandbox.add([
      '--tier',
      'user',
      '--summary',
      'Never rm -rf',
      '--type',
      'guard',
      '--tool',
      'Bash',
      '--command',
      'rm -rf',
    ]);
    const bash = sandbox.add(['--tier', 'user', '--summary', 'Mind every shell call', '--tool', 'Bash']);
    const yarn = sandbox.add([
      '--tier',
      'user',
      '--summary',
      'Use yarn here',
      '--tool',
      'Bash',
      '--command',
      '^yarn',
    ]);

    const run = sandbox.run(['replay', '--path', 'transcripts', '--json']);
    expect(run.code, run.stderr).toBe(0);
    const report = run.json<ReplayReport>();
    expect(report).toMatchObject({
      calls: 7,
      callsWithInjection: 2,
      injections: 3,
      guardDenials: 1,
      checkpointDenials: 0,
      counts: { files: 1, sessions: 1, brokenLines: 1, missingResults: 1, unknownTools: 1, subagentCalls: 0 },
    });
    expect(report.bytes).toBeGreaterThan(0);
    const byId = Object.fromEntries(report.lessons.map((l) => [l.id, l]));
    // a lesson with a trigger waits for its call (never at session start): after-call context on
    // the first failing call, a hit that can only stop the repeat
    expect(byId[python]).toMatchObject({
      fires: 1,
      hits: 1,
      misses: 0,
      noise: 0,
      prevented: 1,
      precision: 1,
    });
    expect(byId[python]?.byForm['after-call']).toMatchObject({ fires: 1, hits: 1, prevented: 1 });
    // the guard denied a call that went well: noise
    expect(byId[guard]).toMatchObject({ type: 'guard', fires: 1, hits: 0, noise: 1, prevented: 0 });
    // after-call context on the first failing call: a hit that can only stop the repeat
    expect(byId[bash]).toMatchObject({ toolOnly: true, fires: 1, hits: 1, prevented: 1 });
    expect(byId[bash]?.byForm['after-call']).toMatchObject({ fires: 1, hits: 1, prevented: 1 });
    expect(byId[yarn]).toMatchObject({ fires: 0, precision: null });
    expect(report.suggestions).toContainEqual(expect.objectContaining({ lesson: yarn, kind: 'retire' }));

    const last = join(sandbox.repo, '.lore', 'cache', 'replay', 'last.json');
    expect(existsSync(last)).toBe(true);
    expect((JSON.parse(readFileSync(last, 'utf8')) as ReplayReport).calls).toBe(7);

    const human = sandbox.run(['replay', '--path', 'transcripts']);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toContain('replayed 7 tool call(s) in 1 session(s) from 1 file(s)');
    expect(human.stdout).toContain('1 guard and 0 checkpoint denial(s)');
    expect(human.stdout).toMatch(new RegExp(`${python}\\s+1\\s+1\\s+0\\s+0\\s+1\\s+100%`));
    expect(human.stdout).toContain('[guard]');
    expect(human.stdout).toContain('[tool only]');
    expect(human.stdout).toMatch(new RegExp(`retire\\s+${yarn}\\s+never fired in 7 replayed call`));
    expect(human.stderr).toBe('');

    const one = sandbox
      .run(['replay', '--path', 'transcripts', '--lesson', python, '--json'])
      .json<ReplayReport>();
    expect(one.lessons.map((l) => l.id)).toEqual([python]);
    expect(one.options.lessons).toEqual([python]);
  });

  it('--as-of: a lesson created after the transcript never fires, and its recurrences are none', () => {
    const sandbox = createSandbox();
    sandbox.run(['init']);
    cpSync(FIXTURE, sandbox.inRepo('transcripts'), { recursive: true });
    const python = sandbox.add([
      '--summary',
      'Use python3',
      '--tool',
      'Bash',
      '--command',
      '(^|\\s)python(\\s|$)',
    ]);
    const report = sandbox.run(['replay', '--path', 'transcripts', '--as-of', '--json']).json<ReplayReport>();
    expect(report.options.asOf).toBe(true);
    expect(report.lessons.find((l) => l.id === python)).toMatchObject({
      fires: 0,
      misses: 0,
      recurrences: 0,
    });
  });

  it('replays the real Codex and Gemini CLI fixtures through their hosts', () => {
    const sandbox = createSandbox();
    sandbox.run(['init']);
    const real = fileURLToPath(new URL('../fixtures/transcripts/', import.meta.url));
    cpSync(join(real, 'codex'), sandbox.inRepo('codex'), { recursive: true });
    cpSync(join(real, 'gemini'), sandbox.inRepo('gemini'), { recursive: true });
    const ls = sandbox.add([
      '--tier',
      'user',
      '--summary',
      'That folder does not exist here',
      '--tool',
      'Bash',
      '--command',
      '^ls /definitely',
      '--mistake',
      'ls: cannot access: No such file or directory',
    ]);
    const tasklist = sandbox.add([
      '--tier',
      'user',
      '--summary',
      'tasklist is Windows only',
      '--tool',
      'Bash',
      '--command',
      '^tasklist',
    ]);
    const codex = sandbox.run(['replay', '--source', 'codex', '--path', 'codex', '--json']);
    expect(codex.code, codex.stderr).toBe(0);
    const c = codex.json<ReplayReport>();
    expect(c.counts).toMatchObject({ files: 4, sessions: 3 });
    expect(c.calls).toBe(24);
    // exec_command replayed as Bash: the lesson comes with the first failing ls, before its repeat
    expect(c.lessons.find((l) => l.id === ls)).toMatchObject({ fires: 1, hits: 1, prevented: 1, misses: 0 });
    expect(c.lessons.find((l) => l.id === ls)?.byForm['after-call']).toMatchObject({ fires: 1 });

    const gemini = sandbox.run(['replay', '--path', 'gemini', '--json']);
    expect(gemini.code, gemini.stderr).toBe(0);
    const g = gemini.json<ReplayReport>();
    expect(g.counts.sessions).toBeGreaterThan(50);
    expect(g.counts.unknownTools).toBeGreaterThan(0);
    // run_shell_command through the Gemini adapter: advice in the AfterTool half
    const t = g.lessons.find((l) => l.id === tasklist);
    expect(t?.byForm['after-call']?.fires).toBeGreaterThan(0);
    expect(t?.hits).toBeGreaterThan(0);
  });

  it('says how to use it, and refuses bad flags with exit 2', () => {
    const sandbox = createSandbox();
    const help = sandbox.run(['replay', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('lore replay [--source claude-code|codex|gemini|all]');
    expect(sandbox.run(['replay', '--source', 'cursor']).code).toBe(2);
    expect(sandbox.run(['replay', '--since', 'yesterday-ish']).code).toBe(2);
  });

  it('a --since later than every transcript says so, not that the folder holds none', () => {
    const sandbox = withTranscript();
    const run = sandbox.run(['replay', '--path', 'transcripts', '--since', '2099-01-01']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(
      /no transcripts written since 2099-01-01T00:00:00\.000Z found in \S*transcripts: try an earlier --since/,
    );
    expect(sandbox.run(['replay', '--path', 'transcripts']).stdout).not.toContain('no transcripts');
  });

  it('a --path that does not exist is an error naming it, for replay and scan; nothing is written', () => {
    const sandbox = createSandbox();
    sandbox.add(['--summary', 'run pytest with -p no:cacheprovider', '--command', '\\bpytest\\b']);
    for (const verb of ['replay', 'scan']) {
      const run = sandbox.run([verb, '--path', 'transcrpits', '--json']);
      expect([verb, run.code]).toEqual([verb, 1]);
      expect(run.stderr).toContain('--path transcrpits: no such file or folder');
    }
    expect(existsSync(sandbox.inRepo('.lore', 'cache', 'replay', 'last.json'))).toBe(false);
  });
});

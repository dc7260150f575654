// Lessons that wait for their error (`errors`): capture names the error words of a failure, the
// matcher holds such a lesson back before a call and lets it speak after one that printed them,
// each host's result event reaches the pipeline as the `outcome` (or `after`) half with its text,
// and the breadth check and the replay see the same results the hook would.
import { describe, expect, it } from 'vitest';
import { normalizeResultPayload, resultCallPhase } from '../../src/adapters/claude-code/hook-adapter.js';
import { codexAdapter, normalizeCodexPayload } from '../../src/adapters/codex/hook-adapter.js';
import { normalizeCursorPayload } from '../../src/adapters/cursor/hook-adapter.js';
import { normalizeGeminiPayload } from '../../src/adapters/gemini/hook-adapter.js';
import { checkBreadth } from '../../src/core/breadth/check-breadth.js';
import type { CachedCall } from '../../src/core/breadth/cached-call.js';
import { draftCandidate } from '../../src/core/capture/draft-candidate.js';
import { errorPattern, errorWords } from '../../src/core/capture/error-pattern.js';
import { ERROR_HEADER, toHookSpecificOutput } from '../../src/core/inject/format-decision.js';
import { manifestReaders } from '../../src/core/inject/candidate-ordinals.js';
import { boundedOutput, INPUT_LIMITS, parseHookPayload } from '../../src/core/inject/parse-hook-input.js';
import { selectLessons } from '../../src/core/inject/select-lessons.js';
import type { CallPhase, HookEvent, Manifest } from '../../src/core/inject/types.js';
import { lessonKeys, startsSessions } from '../../src/core/manifest/build-manifest.js';
import type { ReplayCall } from '../../src/core/outcome/call-outcome.js';
import { callPayloads } from '../../src/core/replay/replay-payload.js';
import { detectAll, madeUpSession } from '../helpers/capture-events.js';
import { payload } from '../helpers/hook-payloads.js';
import { bashEvent, lesson, manifestOf } from '../helpers/manifest.js';

describe('the error words capture names', () => {
  it.each([
    ["cp: cannot create regular file '/boot/x.bak': Permission denied", 'Permission\\s+denied'],
    [
      'File has not been read yet. Read it first before writing to it.',
      'File\\s+has\\s+not\\s+been\\s+read\\s+yet',
    ],
    ["ModuleNotFoundError: No module named 'foo'", 'ModuleNotFoundError'],
    ['bash: line 1: foo: command not found', 'command\\s+not\\s+found'],
    [
      'File path must be within one of the workspace directories: /home/a, /home/b',
      'File\\s+path\\s+must\\s+be\\s+within\\s+one\\s+of\\s+the\\s+workspace\\s+directories',
    ],
    ['ansible not installed', 'ansible\\s+not\\s+installed'],
    ['error: 12 tests failed', 'tests\\s+failed'],
  ])('%s', (gist, want) => {
    expect(errorPattern(gist, `Exit code 1\n${gist}\n`)).toBe(want);
  });

  it.each([
    ['no gist', '', 'anything'],
    ['no output at all', 'failed without output', 'failed without output'],
    ['numbers and paths only', "/usr/bin/x: 127 '/tmp/y'", "/usr/bin/x: 127 '/tmp/y'"],
    ['words the output does not hold', 'Permission denied', 'the output says something else'],
  ])('none for %s', (_name, gist, output) => {
    expect(errorPattern(gist, output)).toBeUndefined();
  });

  it.each([
    ['Claude Code, a bare exit code', 'claude-code', 'Bash', { command: 'make deploy' }, 'Exit code 2', true],
    [
      'Gemini CLI, nothing printed',
      'gemini',
      'run_shell_command',
      { command: 'make deploy' },
      'Output: (empty)\nExit Code: 1\nProcess Group PGID: 7',
      true,
    ],
    ['a file tool: no exit code to wait for', 'claude-code', 'Read', { file_path: '/a/b' }, '(error)', false],
  ] as const)(
    'a failure with no words to name waits for its command to fail: %s',
    (_name, agent, tool, input, text, waits) => {
      const s = madeUpSession({ agent });
      const episode = detectAll([...s.fail(tool, input, text), ...s.ok(tool, { ...input, extra: 1 })])[0];
      const errors = episode === undefined ? [] : draftCandidate(episode).errors;
      const fails = (output: string) => errors.some((source) => new RegExp(source, 'i').test(output));
      expect([
        errors.length > 0,
        fails('Exit code 1\nmake: *** [deploy] Error 1'),
        fails('Output: ok\nExit Code: 0'),
        fails('Output: (empty)\nExit Code: 2'),
      ]).toEqual(waits ? [true, true, false, true] : [false, false, false, false]);
    },
  );

  it('escapes what a regex would read as syntax, and the words match across any whitespace', () => {
    const words = errorWords('Task failed: the job-runner (v2) is not-ready yet now');
    // the first run of three plain words: quotes, versions and punctuation split runs
    expect(words).toEqual(['is', 'not-ready', 'yet', 'now']);
    const source = errorPattern(
      'the step re-run is not allowed here',
      'THE STEP\n  RE-RUN IS NOT ALLOWED HERE',
    );
    expect(source).toBe('the\\s+step\\s+re\\-run\\s+is\\s+not\\s+allowed\\s+here');
  });
});

const ls = lesson({
  summary: 'ls of a path that may not exist: test -e it first',
  tools: ['Bash'],
  commands: ['(^|\\s)ls(\\s|$)'],
  errors: ['No such file or directory'],
});
const lsAlways = lesson({ summary: 'ls prints hidden files with -a', commands: ['(^|\\s)ls(\\s|$)'] });
const readFirst = lesson({
  summary: 'Read a file before you Edit it',
  tools: ['Edit'],
  errors: ['has not been read yet'],
});
const anyTool = lesson({
  summary: 'a disk that is full stops every tool',
  errors: ['No space left on device'],
});
const manifest = manifestOf([ls, lsAlways, readFirst, anyTool]);

function select(m: Manifest, event: HookEvent) {
  const { readLesson, readText, literals } = manifestReaders(m);
  return selectLessons({
    event,
    head: m.head,
    readLesson,
    readText,
    literals,
    words: m.words,
    repoPaths: (event.paths ?? []).map((p) => p.replace(/^\/repo\//, '')),
    state: { seen: new Set(), shownCount: 0, stateAvailable: true },
    settings: m.head.settings,
  });
}

const bash = (command: string, phase?: CallPhase, output?: string): HookEvent =>
  bashEvent(command, {
    ...(phase === undefined ? {} : { phase }),
    ...(output === undefined ? {} : { output }),
  });

describe('a lesson that waits for its error', () => {
  it('is held back before the call (awaits-error) while a lesson without errors speaks', () => {
    const { decision } = select(manifest, bash('ls build'));
    expect(decision.plan.included.map((i) => i.id)).toEqual([lsAlways.id]);
    expect(decision.plan.skipped).toContainEqual(
      expect.objectContaining({ id: ls.id, reason: 'awaits-error' }),
    );
  });

  it('speaks after a call its command matches printed its error, and only then', () => {
    const failed = select(
      manifest,
      bash('ls build', 'outcome', "ls: cannot access 'build': no such FILE or directory"),
    );
    expect(failed.decision.plan.included.map((i) => [i.id, i.matchedBy])).toEqual([
      [ls.id, ['error:No such file or directory', 'command:(^|\\s)ls(\\s|$)']],
    ]);
    expect(failed.decision.context?.startsWith(ERROR_HEADER)).toBe(true);
    expect(select(manifest, bash('ls build', 'outcome', 'Permission denied')).decision.plan.included).toEqual(
      [],
    );
    expect(
      select(manifest, bash('cat x', 'outcome', 'No such file or directory')).decision.plan.included,
    ).toEqual([]);
  });

  it('in the outcome half, lessons without errors stay quiet: they spoke before the call', () => {
    const { decision } = select(manifest, bash('ls build', 'outcome', 'total 0'));
    expect(decision.plan.included).toEqual([]);
    expect(decision.plan.denied).toEqual([]);
  });

  it("in a host's after half (Gemini, Cursor) both kinds speak, the waiting one only with its error", () => {
    const { decision } = select(manifest, bash('ls build', 'after', 'ls: build: No such file or directory'));
    expect(decision.plan.included.map((i) => i.id).sort()).toEqual([ls.id, lsAlways.id].sort());
    const ok = select(manifest, bash('ls build', 'after', 'a b c'));
    expect(ok.decision.plan.included.map((i) => i.id)).toEqual([lsAlways.id]);
  });

  it('scoped by a tool and its error, or by its error alone', () => {
    const edit: HookEvent = {
      event: 'PreToolUse',
      sessionId: 's',
      agentId: 'main',
      cwd: '/repo',
      tool: 'Edit',
      paths: ['/repo/a.ts'],
      phase: 'outcome',
      output:
        '<tool_use_error>File has not been read yet. Read it first before writing to it.</tool_use_error>',
    };
    expect(select(manifest, edit).decision.plan.included.map((i) => i.id)).toEqual([readFirst.id]);
    const full = select(manifest, bash('make', 'outcome', 'write error: No space left on device'));
    expect(full.decision.plan.included.map((i) => i.id)).toEqual([anyTool.id]);
    expect(lessonKeys(anyTool)).toEqual({ literals: [], keys: [], always: true });
  });

  it('never comes with a prompt, nor opens a session', () => {
    const prompt: HookEvent = {
      event: 'UserPromptSubmit',
      sessionId: 's',
      agentId: 'main',
      cwd: '/repo',
      prompt: 'run `ls build` and fix: No such file or directory',
    };
    expect(select(manifest, prompt).decision.plan.included.map((i) => i.id)).not.toContain(ls.id);
    const entries = manifest.blocks.flat().filter((l) => l !== null);
    expect(entries.filter(startsSessions).map((l) => l.id)).not.toContain(anyTool.id);
  });

  it('a guard or checkpoint that waits for its error never denies', () => {
    const guard = lesson({ summary: 'no rm here', type: 'guard', commands: ['^rm '], errors: ['denied'] });
    const m = manifestOf([guard]);
    expect(select(m, bash('rm -rf x')).decision.plan.denied).toEqual([]);
    const after = select(m, bash('rm -rf x', 'outcome', 'rm: x: Permission denied'));
    expect(after.decision.plan.denied).toEqual([]);
    expect(after.decision.plan.included.map((i) => i.id)).toEqual([guard.id]);
  });
});

describe("each host's result event", () => {
  it('Claude Code PostToolUseFailure: the error is the output, outcome half, answered under its own name', () => {
    const pre = payload('claude', 'PreToolUse');
    const raw = {
      ...pre,
      hook_event_name: 'PostToolUseFailure',
      error: 'Exit code 2\nls: x: No such file or directory',
      is_interrupt: false,
    };
    expect(resultCallPhase(raw)).toBe('outcome');
    expect(resultCallPhase(pre)).toBeUndefined();
    const event = parseHookPayload(normalizeResultPayload(raw));
    expect(event).toMatchObject({
      event: 'PreToolUse',
      output: 'Exit code 2\nls: x: No such file or directory',
    });
    const out = toHookSpecificOutput({
      event: 'PreToolUse',
      hostEvent: 'PostToolUseFailure',
      context: 'lore: x',
      plan: { included: [], denied: [], skipped: [] },
    });
    expect(out).toEqual({
      hookSpecificOutput: { hookEventName: 'PostToolUseFailure', additionalContext: 'lore: x' },
    });
  });

  it('Claude Code PostToolUse: a structured tool_response is read as its JSON', () => {
    const raw = {
      ...payload('claude', 'PreToolUse'),
      hook_event_name: 'PostToolUse',
      tool_response: { stdout: 'warning: deprecated', stderr: '' },
    };
    expect(parseHookPayload(normalizeResultPayload(raw))?.output).toContain('warning: deprecated');
  });

  it('Codex PostToolUse (recorded): its tool_response string', () => {
    const raw = payload('codex', 'PostToolUse');
    expect(codexAdapter.callPhase?.(raw)).toBe('outcome');
    const event = parseHookPayload(normalizeCodexPayload(raw));
    expect(event?.output).toBe(raw.tool_response);
    expect(event?.command).toBe((raw.tool_input as { command: string }).command);
  });

  it("Gemini AfterTool (recorded): the model's view of the result", () => {
    const event = parseHookPayload(normalizeGeminiPayload(payload('gemini', 'AfterTool')));
    expect(event?.output).toContain('hi-gemini');
    expect(parseHookPayload(normalizeGeminiPayload(payload('gemini', 'BeforeTool')))?.output).toBeUndefined();
  });

  it('Cursor postToolUse: tool_output', () => {
    const raw = {
      ...payload('cursor', 'postToolUse'),
      tool_output: '{"exitCode":1,"stderr":"npm ERR! missing script: lint"}',
    };
    expect(parseHookPayload(normalizeCursorPayload(raw))?.output).toContain('missing script');
  });

  it('a long result is cut to its head and tail, where errors are printed', () => {
    const long = `${'a'.repeat(20_000)}FATAL: disk full`;
    const cut = boundedOutput(long) ?? '';
    expect(cut.length).toBeLessThanOrEqual(INPUT_LIMITS.output + 3);
    expect(cut.endsWith('FATAL: disk full')).toBe(true);
    expect(boundedOutput('')).toBeUndefined();
    expect(boundedOutput(42)).toBeUndefined();
  });
});

describe('breadth and replay see the results the hook sees', () => {
  const call = (command: string, error?: string): CachedCall => ({
    id: command,
    agent: 'claude-code',
    session: 's',
    tool: 'Bash',
    command,
    keys: ['ls'],
    outcome: error === undefined ? 'ok' : 'failed',
    ...(error === undefined ? {} : { errorClass: 'missing-file' as const, error }),
  });
  it('the same trigger is broad before calls and narrow when it waits for its error', () => {
    const calls = [
      ...Array.from({ length: 97 }, (_, i) => call(`ls dir${i}`)),
      call('ls a', "ls: cannot access 'a': No such file or directory"),
      call('ls b', "ls: cannot access 'b': No such file or directory"),
      call('ls c', 'ls: c: Permission denied'),
    ];
    const trigger = { tools: ['Bash'], commands: ['(^|\\s)ls(\\s|$)'], mistake: 'No such file or directory' };
    expect(checkBreadth(trigger, calls)).toMatchObject({ fires: 100, broad: true });
    expect(checkBreadth({ ...trigger, errors: ['No such file or directory'] }, calls)).toMatchObject({
      fires: 2,
      atMistake: 2,
      broad: false,
      toolOnly: false,
    });
  });

  it('a lesson waiting for its command to fail counts the cached failures, not the successes', () => {
    const s = madeUpSession();
    const [episode] = detectAll([
      ...s.fail('Bash', { command: 'make deploy' }, 'Exit code 2'),
      ...s.ok('Bash', { command: 'make deploy', extra: 1 }),
    ]);
    const errors = episode === undefined ? [] : draftCandidate(episode).errors;
    const calls = [
      ...Array.from({ length: 50 }, () => call('make deploy')),
      call('make deploy', 'Exit code 2\nfailed without output'),
    ];
    const trigger = { tools: ['Bash'], commands: ['(^|\\s)make(\\s|$)'] };
    expect(checkBreadth({ ...trigger, errors }, calls)).toMatchObject({ fires: 1, broad: false });
  });

  const replayCall = (agent: ReplayCall['agent'], outcome: ReplayCall['outcome']): ReplayCall => ({
    agent,
    session: 's',
    project: '/repo',
    file: 'f.jsonl',
    line: 3,
    time: undefined,
    sidechain: false,
    callId: 'toolu_1',
    tool: agent === 'gemini' ? 'run_shell_command' : 'Bash',
    input: { command: 'ls x' },
    command: 'ls x',
    family: 'shell',
    keys: ['ls'],
    outcome,
    output: 'ls: x: No such file or directory',
  });
  it.each([
    ['claude-code', 'failed', ['PreToolUse', 'PostToolUseFailure']],
    ['claude-code', 'ok', ['PreToolUse']],
    ['codex', 'ok', ['PreToolUse', 'PostToolUse']],
    ['codex', 'failed', ['PreToolUse', 'PostToolUse']],
    ['gemini', 'failed', ['BeforeTool', 'AfterTool']],
  ] as const)('a replayed %s call that %s reaches the hook as %j', (agent, outcome, events) => {
    const payloads = callPayloads(replayCall(agent, outcome), 'main');
    expect(payloads.map((p) => p.hook_event_name)).toEqual(events);
    const last = payloads.at(-1) as Record<string, unknown>;
    if ((events.length > 1 && agent !== 'gemini') || agent === 'gemini')
      expect(JSON.stringify(last)).toContain('No such file or directory');
  });
});

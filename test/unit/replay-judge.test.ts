// The replay's judge, suggestions and session replay, on hand-made sessions: each figure per
// delivery form as issue #17 defines it, --as-of, and the hook's dedup and denials replayed.
import { commandTrigger } from '../../src/core/capture/shell-command.js';
import { describe, expect, it } from 'vitest';
import { claudeCodeAdapter } from '../../src/adapters/claude-code/hook-adapter.js';
import { codexAdapter } from '../../src/adapters/codex/hook-adapter.js';
import { geminiAdapter } from '../../src/adapters/gemini/hook-adapter.js';
import type { Agent, TranscriptEvent } from '../../src/core/capture/events.js';
import { manifestReaders } from '../../src/core/inject/candidate-ordinals.js';
import { collectCalls } from '../../src/core/outcome/call-outcome.js';
import type { ReplayCall, SessionCalls } from '../../src/core/outcome/call-outcome.js';
import type { ErrorClass } from '../../src/core/outcome/error-class.js';
import { judgeReplay } from '../../src/core/replay/judge-replay.js';
import type { JudgedLesson, LessonEvidence } from '../../src/core/replay/judge-replay.js';
import { existsFromIndex, lessonBirths } from '../../src/core/replay/lesson-existence.js';
import { replaySession } from '../../src/core/replay/replay-calls.js';
import type { Injection, SessionReplay } from '../../src/core/replay/replay-calls.js';
import type { DeliveryForm, LessonReplay } from '../../src/core/replay/replay-report.js';
import { suggestReplay } from '../../src/core/replay/suggest-replay.js';
import { lesson, manifestOf } from '../helpers/manifest.js';

type CallSpec = { key: string; fail?: ErrorClass; matched?: boolean };

function callsOf(specs: readonly CallSpec[]): ReplayCall[] {
  return specs.map((spec, i) => ({
    agent: 'claude-code',
    session: 's1',
    project: '/repo',
    file: 'f.jsonl',
    line: i + 1,
    time: `2026-01-01T00:00:${String(i).padStart(2, '0')}Z`,
    sidechain: false,
    callId: `c${i}`,
    tool: 'Bash',
    input: { command: spec.key },
    command: spec.key,
    family: 'shell',
    keys: [spec.key],
    outcome: spec.fail === undefined ? 'ok' : 'failed',
    ...(spec.fail === undefined ? {} : { errorClass: spec.fail, gist: spec.fail }),
  }));
}

const L: JudgedLesson = {
  id: 'lesson0001',
  summary: 'use python3',
  type: 'hint',
  toolOnly: false,
  mistakeClass: 'missing-program',
};

function sessionOf(specs: readonly CallSpec[], fires: [DeliveryForm, number, number?][]): SessionReplay {
  const calls = callsOf(specs);
  const matched = new Map<number, Set<string>>();
  specs.forEach((spec, i) => {
    if (spec.matched !== false) matched.set(i, new Set([L.id]));
  });
  const injections: Injection[] = fires.map(([form, at, until]) => ({
    lesson: L.id,
    form,
    at,
    until: until ?? at + 1,
    file: 'f.jsonl',
    line: at + 1,
    bytes: 10,
  }));
  return {
    session: { agent: 'claude-code', session: 's1', project: '/repo', calls, prompts: [] },
    injections,
    matched,
    callsWithInjection: 0,
    bytes: 0,
    guardDenials: 0,
    checkpointDenials: 0,
    unknownTools: 0,
    subagentCalls: 0,
  };
}

const fail: CallSpec = { key: 'python', fail: 'missing-program' };
const ok: CallSpec = { key: 'python' };
const otherFail: CallSpec = { key: 'python', fail: 'test-failure' };
const unrelated: CallSpec = { key: 'ls', matched: false };

describe('judgeReplay', () => {
  it.each<{
    name: string;
    calls: CallSpec[];
    fires: [DeliveryForm, number, number?][];
    type?: string;
    want: Partial<LessonReplay>;
    form?: DeliveryForm;
    formWant?: Record<string, number>;
  }>([
    {
      name: 'after-call on the failing call: a hit; only the repeat after it is prevented',
      calls: [fail, unrelated, fail],
      fires: [['after-call', 0]],
      want: { fires: 1, hits: 1, noise: 0, misses: 0, prevented: 1, precision: 1 },
    },
    {
      name: 'after-call on a good call whose next attempt fails: neither hit nor noise, the attempt prevented',
      calls: [ok, unrelated, fail],
      fires: [['after-call', 0]],
      want: { fires: 1, hits: 0, noise: 0, misses: 0, prevented: 1 },
    },
    {
      name: 'after-call where nothing of the kind went wrong: noise',
      calls: [ok, unrelated, ok],
      fires: [['after-call', 0]],
      want: { fires: 1, hits: 0, noise: 1, prevented: 0, precision: 0 },
    },
    {
      name: 'a failure of another class is not its mistake',
      calls: [otherFail, ok],
      fires: [['after-call', 0]],
      want: { fires: 1, hits: 0, noise: 1, misses: 0 },
    },
    {
      name: 'a failure before the lesson fired is a miss, the one it fired on is not',
      calls: [fail, fail],
      fires: [['after-call', 1]],
      want: { fires: 1, hits: 1, misses: 1, prevented: 0 },
      form: 'after-call',
      formWant: { misses: 1 },
    },
    {
      name: 'a guard prevents the call it denied, and only that one',
      calls: [fail, fail],
      fires: [
        ['guard', 0],
        ['guard', 1],
      ],
      type: 'guard',
      want: { fires: 2, hits: 2, prevented: 2, noise: 0 },
    },
    {
      name: 'a guard on a call that would have worked is noise',
      calls: [ok, unrelated],
      fires: [['guard', 0]],
      type: 'guard',
      want: { fires: 1, hits: 0, noise: 1, prevented: 0 },
    },
    {
      name: 'a checkpoint prevents the denied call and the repeats after it',
      calls: [fail, ok, fail],
      fires: [['checkpoint', 0]],
      type: 'checkpoint',
      want: { fires: 1, hits: 1, prevented: 2, misses: 0 },
    },
    {
      name: 'before-call context hits when its turn fails so, and reaches every later repeat',
      calls: [ok, fail, ok, fail],
      fires: [['before-call', 0, 2]],
      want: { fires: 1, hits: 1, noise: 0, prevented: 2, misses: 0 },
    },
    {
      name: 'before-call context with a quiet turn is noise',
      calls: [ok, ok, fail],
      fires: [['before-call', 0, 2]],
      want: { fires: 1, hits: 0, noise: 1, prevented: 1 },
    },
    {
      name: 'never fired: every failure of its mistake is a miss',
      calls: [fail, ok, fail],
      fires: [],
      want: { fires: 0, misses: 2, precision: null, byForm: {} },
    },
  ])('$name', ({ calls, fires, type, want, form, formWant }) => {
    const lessonInfo = { ...L, type: type ?? 'hint' };
    const judged = judgeReplay([sessionOf(calls, fires)], [lessonInfo], { asOf: false });
    const got = judged.lessons[0] as LessonReplay;
    expect(got).toMatchObject(want);
    if (form !== undefined) expect(got.byForm[form]).toMatchObject(formWant ?? {});
  });

  it('what an advisory lesson would have prevented as a checkpoint', () => {
    const judged = judgeReplay([sessionOf([ok, fail, ok, fail], [['after-call', 1]])], [L], { asOf: false });
    const got = judged.lessons[0] as LessonReplay;
    expect(got.prevented).toBe(1);
    expect(got.asCheckpoint).toEqual({ denials: 1, prevented: 2 });
    const guard = judgeReplay([sessionOf([fail], [['guard', 0]])], [{ ...L, type: 'guard' }], {
      asOf: false,
    });
    expect(guard.lessons[0]?.asCheckpoint).toBeUndefined();
  });

  it('--as-of: misses and recurrences count only the failures after the lesson existed', () => {
    const replay = sessionOf([fail, fail, ok, fail, fail], [['after-call', 3]]);
    const judged = judgeReplay([replay], [L], { asOf: true, existsFrom: () => 2 });
    expect(judged.lessons[0]).toMatchObject({ recurrences: 2, misses: 0, hits: 1, prevented: 1 });
    expect(judged.lessons[0]?.asCheckpoint).toEqual({ denials: 1, prevented: 2 });
  });
});

describe('lesson existence (--as-of)', () => {
  const session: SessionCalls = {
    agent: 'claude-code',
    session: 's1',
    project: '/repo',
    calls: callsOf([ok, fail, ok, fail]),
    prompts: [],
  };
  const other: SessionCalls = {
    ...session,
    session: 's2',
    calls: callsOf([ok, fail]).map((c) => ({ ...c, session: 's2', time: `2026-02-01T00:00:0${c.line}Z` })),
  };
  const matches = (s: SessionCalls) => new Map(s.calls.map((_, i) => [i, new Set([L.id])]));
  const born = {
    id: L.id,
    createdAt: '2026-06-01T00:00:00.000Z',
    sourceSessions: ['s1'],
    mistakeClass: L.mistakeClass,
  };

  it('is born after the failure it was captured from, when that is earlier than its createdAt', () => {
    const births = lessonBirths([born], [session, other], matches);
    expect(births.get(L.id)).toEqual({ time: '2026-01-01T00:00:01Z', session: 's1', index: 2 });
    expect(existsFromIndex(session, births.get(L.id))).toBe(2);
    expect(existsFromIndex(other, births.get(L.id))).toBe(0);
  });

  it('exists from its createdAt otherwise, and never in a session without times', () => {
    const births = lessonBirths([{ ...born, sourceSessions: [] }], [session], matches);
    expect(existsFromIndex(other, births.get(L.id))).toBe(Number.POSITIVE_INFINITY);
    const untimed = { ...other, calls: other.calls.map((c) => ({ ...c, time: undefined })) };
    expect(existsFromIndex(untimed, { time: '2020-01-01T00:00:00Z' })).toBe(Number.POSITIVE_INFINITY);
    expect(existsFromIndex(other, { time: '2026-02-01T00:00:01Z' })).toBe(1);
  });
});

describe('suggestReplay', () => {
  it('says a trigger cannot narrow what goes out at session start', () => {
    const early: LessonReplay = {
      id: 'lesson0001',
      summary: 's',
      type: 'hint',
      toolOnly: false,
      fires: 6,
      hits: 1,
      misses: 0,
      noise: 5,
      prevented: 1,
      precision: 0.17,
      byForm: { 'before-call': { fires: 5, hits: 0, misses: 0, noise: 5, prevented: 0 } },
      recurrences: 0,
    };
    const [suggestion] = suggestReplay([early], new Map(), 10);
    expect(suggestion?.kind).toBe('narrow');
    expect(suggestion?.text).toContain('context at session start or with a prompt');
    const [late] = suggestReplay([{ ...early, byForm: {} }], new Map(), 10);
    expect(late?.text).not.toContain('session start');
  });

  const figures = (over: Partial<LessonReplay>): LessonReplay => ({
    id: 'lesson0001',
    summary: 's',
    type: 'hint',
    toolOnly: false,
    fires: 0,
    hits: 0,
    misses: 0,
    noise: 0,
    prevented: 0,
    precision: null,
    byForm: {},
    recurrences: 0,
    asCheckpoint: { denials: 0, prevented: 0 },
    ...over,
  });
  const calls = callsOf([
    { key: 'python', fail: 'missing-program' },
    { key: 'git push' },
    { key: 'npm test' },
    { key: 'git status' },
  ]);
  const evidence = (e: Partial<LessonEvidence>): Map<string, LessonEvidence> =>
    new Map([['lesson0001', { hits: [], noise: [], repeatsAfterAdvice: 0, ...e }]]);

  it.each<[string, Partial<LessonReplay>, Partial<LessonEvidence>, string | undefined, unknown?]>([
    [
      'a noisy lesson gets the keys of its hits that its noise lacks',
      { fires: 6, hits: 1, noise: 5, precision: 0.17, toolOnly: true },
      { hits: [calls[0] as ReplayCall], noise: [calls[1], calls[2], calls[3]] as ReplayCall[] },
      'narrow',
      { commands: [commandTrigger('python', undefined)] },
    ],
    [
      'a noisy lesson that never hit has nothing to narrow to',
      { fires: 5, noise: 5, precision: 0 },
      {},
      'narrow',
      undefined,
    ],
    ['a lesson that never fired is named for retirement', { misses: 3 }, {}, 'retire'],
    [
      'a precise advisory lesson whose mistake repeats after the advice: a guard',
      { fires: 3, hits: 3, precision: 1 },
      { repeatsAfterAdvice: 2 },
      'guard',
    ],
    [
      'an advisory lesson a checkpoint would have served clearly better',
      {
        fires: 3,
        hits: 1,
        noise: 1,
        precision: 0.33,
        prevented: 1,
        asCheckpoint: { denials: 2, prevented: 3 },
      },
      {},
      'checkpoint',
    ],
    [
      'a lesson doing its job gets nothing',
      {
        fires: 4,
        hits: 3,
        noise: 1,
        precision: 0.75,
        prevented: 2,
        asCheckpoint: { denials: 1, prevented: 3 },
      },
      {},
      undefined,
    ],
  ])('%s', (_name, over, found, kind, trigger) => {
    const suggestions = suggestReplay([figures(over)], evidence(found), 100);
    expect(suggestions.map((s) => s.kind)).toEqual(kind === undefined ? [] : [kind]);
    if (kind === 'narrow') expect(suggestions[0]?.trigger).toEqual(trigger);
    if (over.toolOnly === true) expect(suggestions[0]?.text).toContain('scoped by tool alone');
  });

  const printed = (key: string, output: string | undefined): ReplayCall => ({
    ...(callsOf([
      { key, ...(output === undefined ? {} : { fail: 'missing-file' as const }) },
    ])[0] as ReplayCall),
    ...(output === undefined ? { output: 'a b c' } : { gist: output, output: `Exit code 2\n${output}` }),
  });
  it('a noisy lesson that fires before calls is told to wait for the error its hits printed', () => {
    const hits = [
      printed('ls', "ls: cannot access 'a': No such file or directory"),
      printed('ls', "ls: cannot access 'b': No such file or directory"),
    ];
    const noise = [printed('ls', undefined), printed('ls', undefined), printed('ls', undefined)];
    const [suggestion] = suggestReplay(
      [figures({ fires: 8, hits: 2, noise: 6, precision: 0.25 })],
      evidence({ hits, noise }),
      100,
    );
    expect(suggestion?.trigger).toEqual({ errors: ['cannot\\s+access'] });
    expect(suggestion?.text).toContain("lore update lesson0001 --error 'cannot\\s+access'");
    // one that already waits is not told to
    const [waiting] = suggestReplay(
      [figures({ fires: 8, hits: 2, noise: 6, precision: 0.25, waits: true })],
      evidence({ hits, noise }),
      100,
    );
    expect(waiting?.trigger).toBeUndefined();
  });

  it('a guard or checkpoint proposal for a lesson that waits for its error drops the errors', () => {
    const [guard] = suggestReplay(
      [figures({ fires: 3, hits: 3, precision: 1, waits: true })],
      evidence({ repeatsAfterAdvice: 2 }),
      100,
    );
    expect(guard?.text).toContain('--type guard --unset errors');
    const [checkpoint] = suggestReplay(
      [
        figures({
          fires: 3,
          hits: 1,
          precision: 0.33,
          prevented: 0,
          waits: true,
          asCheckpoint: { denials: 2, prevented: 3 },
        }),
      ],
      evidence({}),
      100,
    );
    expect(checkpoint?.text).toContain('--type checkpoint --unset errors');
  });
});

// --- the hook's pipeline replayed over a session ---

let line = 0;
function events(
  agent: Agent,
  list: [string, Record<string, unknown>, boolean | undefined, boolean?][],
): TranscriptEvent[] {
  line = 0;
  const out: TranscriptEvent[] = [];
  const origin = (i: number, sidechain = false) => ({
    agent,
    session: 'sess',
    project: '/repo',
    file: sidechain ? 'sub.jsonl' : 'main.jsonl',
    timestamp: `2026-01-01T00:00:${String(i).padStart(2, '0')}Z`,
    sidechain,
  });
  list.forEach(([tool, input, ok, sidechain], i) => {
    if (tool === 'prompt') {
      out.push({ ...origin(i), line: ++line, kind: 'user-text', text: String(input.text) });
      return;
    }
    out.push({ ...origin(i, sidechain), line: ++line, kind: 'tool-call', callId: `c${i}`, tool, input });
    if (ok !== undefined)
      out.push({
        ...origin(i, sidechain),
        line: ++line,
        kind: 'tool-result',
        callId: `c${i}`,
        tool,
        ok,
        text: ok ? 'done' : 'bash: python: command not found',
        exitCode: ok ? 0 : 127,
        failure: ok ? 'none' : 'exit-code',
      });
  });
  return out;
}

const HOSTS = { 'claude-code': claudeCodeAdapter, codex: codexAdapter, gemini: geminiAdapter };

function replay(agent: Agent, list: Parameters<typeof events>[1], lessons: ReturnType<typeof lesson>[]) {
  const manifest = manifestOf(lessons, { settings: { startupLessons: 0 } });
  const session = collectCalls(events(agent, list)).sessions[0] as SessionCalls;
  return replaySession(session, { manifest, ...manifestReaders(manifest), hosts: HOSTS });
}

describe('replaySession', () => {
  const python = lesson({
    summary: 'Use python3, not python',
    tools: ['Bash'],
    commands: ['(^|\\s)python(\\s|$)'],
    mistake: 'python: command not found',
  });
  const forms = (r: SessionReplay) =>
    r.injections.map((i) => [i.lesson === python.id ? 'python' : i.lesson, i.form, i.at]);

  it('injects once per session as after-call context, and says which calls its trigger matches', () => {
    const r = replay(
      'claude-code',
      [
        ['Bash', { command: 'python a.py' }, false],
        ['Bash', { command: 'python a.py' }, false],
        ['TodoWrite', { todos: [] }, true],
      ],
      [python],
    );
    expect(forms(r)).toEqual([['python', 'after-call', 0]]);
    expect([...r.matched.keys()]).toEqual([0, 1]);
    expect(r).toMatchObject({ callsWithInjection: 1, unknownTools: 1, guardDenials: 0 });
    expect(r.bytes).toBeGreaterThan(python.summary.length);
  });

  it('a guard denies every matching call; a checkpoint only the first of the session', () => {
    const guard = lesson({
      summary: 'Never python',
      type: 'guard',
      tools: ['Bash'],
      commands: ['(^|\\s)python(\\s|$)'],
    });
    const calls: Parameters<typeof events>[1] = [
      ['Bash', { command: 'python a.py' }, false],
      ['Bash', { command: 'python a.py' }, false],
    ];
    const g = replay('claude-code', calls, [guard]);
    expect(g.injections.map((i) => [i.form, i.at])).toEqual([
      ['guard', 0],
      ['guard', 1],
    ]);
    expect(g.guardDenials).toBe(2);
    const checkpoint = { ...python, type: 'checkpoint' as const };
    const c = replay('claude-code', calls, [checkpoint]);
    expect(forms(c)).toEqual([['python', 'checkpoint', 0]]);
    expect(c.checkpointDenials).toBe(1);
  });

  it('prompts are before-call context for the calls of their turn', () => {
    const r = replay(
      'claude-code',
      [
        ['prompt', { text: 'run it with python please' }, undefined],
        ['Bash', { command: 'ls' }, true],
        ['prompt', { text: 'thanks' }, undefined],
        ['Bash', { command: 'python a.py' }, false],
      ],
      [python],
    );
    expect(r.injections.map((i) => [i.form, i.at, i.until])).toEqual([['before-call', 0, 1]]);
  });

  it('Codex shell calls are replayed as Bash, and apply_patch as an Edit of its files', () => {
    const edit = lesson({ summary: 'Mind the lockfile', paths: ['package-lock.json'] });
    const r = replay(
      'codex',
      [
        ['exec_command', { cmd: 'python a.py' }, false],
        [
          'apply_patch',
          { input: '*** Begin Patch\n*** Update File: package-lock.json\n+x\n*** End Patch' },
          true,
        ],
      ],
      [python, edit],
    );
    expect(r.injections.map((i) => [i.lesson, i.form, i.at])).toEqual([
      [python.id, 'after-call', 0],
      [edit.id, 'after-call', 1],
    ]);
  });

  it('Gemini: the before half only denies, the after half advises', () => {
    const guard = lesson({ summary: 'Never rm -rf', type: 'guard', tools: ['Bash'], commands: ['rm -rf'] });
    const r = replay(
      'gemini',
      [
        ['run_shell_command', { command: 'python a.py' }, false],
        ['run_shell_command', { command: 'rm -rf /tmp/x' }, true],
        ['list_directory', { path: '.' }, true],
      ],
      [python, guard],
    );
    expect(r.injections.map((i) => [i.lesson, i.form, i.at])).toEqual([
      [python.id, 'after-call', 0],
      [guard.id, 'guard', 1],
    ]);
    expect(r.unknownTools).toBe(1);
  });

  it('after a compaction an important lesson may go out again, as the hook forgets it', () => {
    const important = lesson({ ...python, id: undefined, priority: 8 });
    const manifest = manifestOf([important, python], { settings: { startupLessons: 0 } });
    const list: Parameters<typeof events>[1] = [
      ['Bash', { command: 'python a.py' }, false],
      ['Bash', { command: 'python b.py' }, false],
    ];
    const session = collectCalls(events('claude-code', list)).sessions[0] as SessionCalls;
    const input = { manifest, ...manifestReaders(manifest), hosts: HOSTS };
    const plain = replaySession(session, input);
    expect(plain.injections.map((i) => i.at)).toEqual([0, 0]);
    const compacted = replaySession({ ...session, compactions: [1] }, input);
    expect(compacted.injections.map((i) => [i.lesson, i.at])).toEqual([
      [important.id, 0],
      [python.id, 0],
      [important.id, 1],
    ]);
  });

  it('a subagent has its own context, but what one agent was shown is not shown to another', () => {
    const r = replay(
      'claude-code',
      [
        ['Bash', { command: 'python a.py' }, false, true],
        ['Bash', { command: 'python b.py' }, false],
      ],
      [python],
    );
    expect(forms(r)).toEqual([['python', 'after-call', 0]]);
    expect(r.subagentCalls).toBe(1);
  });
});

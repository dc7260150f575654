import { describe, expect, it } from 'vitest';
import type { TranscriptEvent } from '../../src/core/capture/events.js';
import {
  CONFIDENCE_STEP,
  OUTCOME_CONFIDENCE_STEP,
  adjustConfidence,
} from '../../src/core/feedback/adjust-confidence.js';
import { auditInjections } from '../../src/core/feedback/audit-injections.js';
import type { Injection } from '../../src/core/feedback/audit-injections.js';
import { judgeSession } from '../../src/core/feedback/judge-injections.js';
import type { LessonFacts } from '../../src/core/feedback/judge-injections.js';
import { linkInjection } from '../../src/core/feedback/link-injection.js';
import { belowOutcomeFloor, guardProposals, tallyOutcomes } from '../../src/core/feedback/outcome-floor.js';
import { injectionId } from '../../src/core/feedback/outcome-record.js';
import { collectCalls } from '../../src/core/outcome/call-outcome.js';
import type { ReplayCall } from '../../src/core/outcome/call-outcome.js';
import { claudeCodeAdapter } from '../../src/adapters/claude-code/hook-adapter.js';
import { codexAdapter } from '../../src/adapters/codex/hook-adapter.js';
import { cursorAdapter } from '../../src/adapters/cursor/hook-adapter.js';
import { geminiAdapter } from '../../src/adapters/gemini/hook-adapter.js';
import { auditRecord } from '../../src/store/hook-state/audit-log.js';
import { parseHookPayload } from '../../src/core/inject/parse-hook-input.js';
import type { HookDecision } from '../../src/core/inject/types.js';
import { payload } from '../helpers/hook-payloads.js';

/** One step of a session: a shell command and its result (`ok`, or the error text), a second apart. */
type Step = [id: string, command: string, result: string];

const T0 = Date.parse('2026-11-20T10:00:00.000Z');
const iso = (seconds: number) => new Date(T0 + seconds * 1000).toISOString();

function session(steps: readonly Step[]): ReplayCall[] {
  const events: TranscriptEvent[] = [];
  const origin = { agent: 'claude-code', session: 's1', project: '/p', file: 't.jsonl' } as const;
  steps.forEach(([id, command, result], i) => {
    events.push({
      ...origin,
      kind: 'tool-call',
      line: i * 2 + 1,
      timestamp: iso(10 * (i + 1)),
      callId: id,
      tool: 'Bash',
      input: { command },
    });
    events.push({
      ...origin,
      kind: 'tool-result',
      line: i * 2 + 2,
      timestamp: iso(10 * (i + 1) + 1),
      callId: id,
      tool: 'Bash',
      ok: result === 'ok',
      text: result === 'ok' ? 'done' : result,
      exitCode: result === 'ok' ? 0 : 127,
      failure: result === 'ok' ? 'none' : 'exit-code',
    });
  });
  return collectCalls(events).sessions[0]?.calls ?? [];
}

/** The lesson: "pytest is not installed here: use python -m pytest" (a missing-program mistake). */
const facts: LessonFacts = {
  mistake: 'missing-program',
  triggers: (call) => /(^|\s)pytest\b/.test(call.command ?? '') && !call.command?.includes('python -m'),
};

const MISSING = 'bash: pytest: command not found';

function injection(form: Injection['form'], seconds: number, extra: Partial<Injection> = {}): Injection {
  const time = iso(seconds);
  return {
    id: injectionId('s1', time, 'L1'),
    lesson: 'L1',
    session: 's1',
    time,
    form,
    event: form === 'before-call' ? 'UserPromptSubmit' : 'PreToolUse',
    ...(form === 'before-call' ? {} : { tool: 'Bash' }),
    ...extra,
  };
}

describe('judgeSession, by delivery form', () => {
  it.each([
    // after-call context: judged by the next attempts of the same kind
    [
      'after-call: the mistake comes back on the next attempt',
      'after-call',
      { callId: 'a' },
      [
        ['a', 'pytest -x', MISSING],
        ['b', 'pytest -x', MISSING],
      ],
      true,
      { verdict: 'repeated', line: 3 },
    ],
    [
      'after-call: the attached call failed with the mistake, the next attempt succeeds',
      'after-call',
      { callId: 'a' },
      [
        ['a', 'pytest -x', MISSING],
        ['b', 'pytest -x', 'ok'],
      ],
      true,
      { verdict: 'prevented', line: 3 },
    ],
    [
      'after-call is never judged by the call it was attached to (the mistake there, nothing after)',
      'after-call',
      { callId: 'a' },
      [
        ['a', 'pytest -x', MISSING],
        ['b', 'ls', 'ok'],
      ],
      true,
      { verdict: 'noise' },
    ],
    [
      'after-call: nothing of its kind went wrong',
      'after-call',
      { callId: 'a' },
      [
        ['a', 'pytest -x', 'ok'],
        ['b', 'pytest -k api', 'ok'],
      ],
      true,
      { verdict: 'noise', line: 3 },
    ],
    [
      'after-call: another kind of failure on the next attempt is passed over',
      'after-call',
      { callId: 'a' },
      [
        ['a', 'pytest -x', MISSING],
        ['b', 'pytest -x', 'FAILED tests/test_a.py::test_x - AssertionError'],
        ['c', 'pytest -x', 'ok'],
      ],
      true,
      { verdict: 'prevented', line: 5 },
    ],
    // guards: the denied call, then the corrected attempt
    [
      'guard: the corrected call succeeds',
      'guard',
      { callId: 'a' },
      [
        ['a', 'pytest -x', 'lore guard: use python -m pytest'],
        ['b', 'pytest -x --no-header', 'ok'],
      ],
      true,
      { verdict: 'prevented', line: 3 },
    ],
    [
      'guard: the mistake comes back after the denial',
      'guard',
      { callId: 'a' },
      [
        ['a', 'pytest -x', 'lore guard: use python -m pytest'],
        ['b', 'pytest', MISSING],
      ],
      true,
      { verdict: 'repeated', line: 3 },
    ],
    // before-call context: the calls that followed
    [
      'before-call: the mistake happens after the prompt',
      'before-call',
      {},
      [
        ['a', 'ls', 'ok'],
        ['b', 'pytest', MISSING],
      ],
      true,
      { verdict: 'repeated', line: 3 },
    ],
    [
      'before-call: nothing of its kind followed',
      'before-call',
      {},
      [['a', 'ls', 'ok']],
      true,
      { verdict: 'noise' },
    ],
  ] as const)('%s', (_name, form, extra, steps, settled, expected) => {
    const calls = session(steps as unknown as Step[]);
    const inj = injection(form, form === 'before-call' ? 5 : 10, extra);
    const result = judgeSession([inj], { calls, settled }, () => facts);
    expect(result.judged).toEqual([
      expect.objectContaining({
        verdict: expected.verdict,
        ...('line' in expected ? { evidence: { file: 't.jsonl', line: expected.line } } : {}),
      }),
    ]);
  });

  it('waits while the session is still going and nothing followed yet', () => {
    const calls = session([['a', 'pytest -x', MISSING]]);
    const inj = injection('after-call', 10, { callId: 'a' });
    const result = judgeSession([inj], { calls, settled: false }, () => facts);
    expect([result.judged, result.pending]).toEqual([[], [inj]]);
  });

  it('before-call counts as prevented when its mistake happened before the prompt and not after it', () => {
    const calls = session([
      ['a', 'pytest', MISSING],
      ['b', 'ls', 'ok'],
      ['c', 'pytest -q', 'ok'],
    ]);
    const prompt = injection('before-call', 15);
    expect(judgeSession([prompt], { calls, settled: true }, () => facts).judged).toEqual([
      expect.objectContaining({
        verdict: 'prevented',
        linkedBy: 'call-match',
        evidence: { file: 't.jsonl', line: 5 },
      }),
    ]);
  });

  it('a guard that denies the retry too is not charged with it', () => {
    const calls = session([
      ['a', 'pytest', 'lore guard: use python -m pytest'],
      ['b', 'pytest', 'lore guard: use python -m pytest'],
      ['c', 'pytest -q', 'ok'],
    ]);
    // the denial reason reads as an unknown error: any failure would meet a mistake of class `other`
    const any: LessonFacts = { mistake: undefined, triggers: facts.triggers };
    const first = injection('guard', 10, { callId: 'a' });
    const second = injection('guard', 20, { callId: 'b' });
    expect(
      judgeSession([first, second], { calls, settled: true }, () => any).judged.map((j) => j.verdict),
    ).toEqual(['prevented', 'prevented']);
  });

  it('a call that is not in the transcript is unlinked once the session is over, and waits before', () => {
    const calls = session([['a', 'ls', 'ok']]);
    const lost = injection('after-call', 10, { callId: 'zz', command: 'pytest -x' });
    expect(judgeSession([lost], { calls, settled: true }, () => facts).judged).toEqual([
      expect.objectContaining({ verdict: 'unlinked', linkedBy: 'none' }),
    ]);
    expect(judgeSession([lost], { calls, settled: false }, () => facts).pending).toEqual([lost]);
  });

  it('leaves the injections of a lesson no longer in the store unjudged', () => {
    const calls = session([['a', 'pytest', MISSING]]);
    const result = judgeSession(
      [injection('after-call', 10, { callId: 'a' })],
      { calls, settled: true },
      () => undefined,
    );
    expect([result.judged.length, result.unknownLessons.length]).toEqual([0, 1]);
  });
});

describe('linkInjection', () => {
  const calls = session([
    ['a', 'pytest -x', MISSING], // 10 s
    ['b', 'npm test', 'ok'], // 20 s
    ['c', 'pytest -x', 'ok'], // 30 s
  ]);
  it.each([
    ['by call id', injection('after-call', 29, { callId: 'a' }), { index: 0, by: 'call-id' }],
    [
      'an older audit line: by command and the nearest time at or after it',
      injection('after-call', 25, { command: 'pytest -x' }),
      { index: 2, by: 'call-match' },
    ],
    [
      'a call written a moment before its hook ran',
      injection('after-call', 11, { command: 'pytest -x' }),
      { index: 0, by: 'call-match' },
    ],
    [
      'an unknown call id falls back to the command',
      injection('after-call', 19, { callId: 'nope', command: 'npm test' }),
      { index: 1, by: 'call-match' },
    ],
    [
      'a tool alone (no command kept) and the time',
      injection('after-call', 19),
      { index: 1, by: 'call-match' },
    ],
    [
      'a command no call ran',
      injection('after-call', 5, { command: 'make' }),
      { index: undefined, by: 'none' },
    ],
    ['a prompt: the first call after it', injection('before-call', 15), { index: 1, by: 'call-match' }],
    [
      'a line written after the call ran (Gemini AfterTool): the latest such call before it',
      injection('after-call', 300, { command: 'pytest -x', phase: 'after' }),
      { index: 2, by: 'call-match' },
    ],
    [
      'after the call, never the attempt that follows it',
      injection('after-call', 15, { command: 'pytest -x', phase: 'after' }),
      { index: 0, by: 'call-match' },
    ],
    ['a prompt after the last call', injection('before-call', 99), { index: undefined, by: 'none' }],
  ] as const)('%s', (_name, inj, expected) => {
    expect(linkInjection(inj, calls)).toEqual(expected);
  });

  it('links a file tool by its path', () => {
    const edit: ReplayCall = {
      ...calls[1]!,
      tool: 'Edit',
      family: 'edit',
      keys: ['src/a.ts'],
      command: undefined,
    };
    const inj = injection('after-call', 19, { tool: 'Edit', paths: ['/p/src/a.ts'] });
    expect(linkInjection(inj, [calls[0]!, edit])).toEqual({ index: 1, by: 'call-match' });
    expect(linkInjection({ ...inj, paths: ['/p/src/b.ts'] }, [calls[0]!, edit])).toEqual({
      index: undefined,
      by: 'none',
    });
  });
});

describe('auditInjections', () => {
  const base = {
    time: '2026-11-20T10:00:00.000Z',
    host: 'claude-code',
    session: 's1',
    agent: 'main',
    tool: 'Bash',
    source: null,
    bytes: 10,
    dropped: [],
    dropped_count: 0,
  };
  it.each([
    [
      'a tool call with the new fields: after-call context',
      {
        ...base,
        event: 'PreToolUse',
        lessons: [{ id: 'L1', matched_by: [], form: 'full' }],
        denied: [],
        call_id: 'toolu_1',
        command: 'pytest',
      },
      [{ lesson: 'L1', form: 'after-call', callId: 'toolu_1', command: 'pytest', tool: 'Bash' }],
    ],
    [
      'an older line without them still gives the injection',
      { ...base, event: 'PreToolUse', lessons: [{ id: 'L1', matched_by: [], form: 'full' }], denied: [] },
      [{ lesson: 'L1', form: 'after-call', tool: 'Bash' }],
    ],
    [
      "the answer to a call's result (PostToolUseFailure) was written after the call ran",
      {
        ...base,
        event: 'PreToolUse',
        phase: 'outcome',
        lessons: [{ id: 'L1', matched_by: ['error:denied'], form: 'full' }],
        denied: [],
        call_id: 'toolu_2',
      },
      [{ lesson: 'L1', form: 'after-call', callId: 'toolu_2', phase: 'after' }],
    ],
    [
      'a denial is a guard',
      { ...base, event: 'PreToolUse', lessons: [], denied: [{ id: 'G1', matched_by: [] }] },
      [{ lesson: 'G1', form: 'guard' }],
    ],
    [
      'a prompt is before-call context; a skill pointer is no lesson',
      {
        ...base,
        tool: null,
        event: 'UserPromptSubmit',
        lessons: [
          { id: 'L2', matched_by: [], form: 'full' },
          { id: 'pytest-skill', matched_by: [], form: 'skill', covers: ['L1'] },
        ],
        denied: [],
      },
      [{ lesson: 'L2', form: 'before-call' }],
    ],
  ])('%s', (_name, line, expected) => {
    expect(auditInjections(line)).toEqual(expected.map((e) => expect.objectContaining(e)));
    expect(auditInjections(line)?.[0]?.id).toBe(injectionId('s1', base.time, expected[0]!.lesson));
  });

  it.each([
    ['not an object', 'hello'],
    ['no time', { ...base, time: undefined, event: 'PreToolUse', lessons: [], denied: [] }],
    ['a bad time', { ...base, time: 'yesterday', event: 'PreToolUse', lessons: [], denied: [] }],
    ['lessons not a list', { ...base, event: 'PreToolUse', lessons: 'L1', denied: [] }],
    ['a lesson without an id', { ...base, event: 'PreToolUse', lessons: [{}], denied: [] }],
  ])('%s is malformed', (_name, line) => {
    expect(auditInjections(line)).toBeUndefined();
  });
});

describe('confidence steps', () => {
  it.each([
    ['explicit helpful', true, CONFIDENCE_STEP, 0.7, 0.75],
    ['explicit not helpful', false, CONFIDENCE_STEP, 0.7, 0.6],
    ['outcome helpful', true, OUTCOME_CONFIDENCE_STEP, 0.7, 0.72],
    ['outcome not helpful', false, OUTCOME_CONFIDENCE_STEP, 0.7, 0.65],
    ['outcome helpful at the ceiling', true, OUTCOME_CONFIDENCE_STEP, 0.99, 1],
    ['outcome not helpful at the floor', false, OUTCOME_CONFIDENCE_STEP, 0.12, 0.1],
  ] as const)('%s: %s -> %s', (_name, helpful, step, before, after) => {
    expect(adjustConfidence(before, helpful, step)).toBe(after);
  });

  it('explicit feedback keeps its steps by default', () => {
    expect([adjustConfidence(0.5, true), adjustConfidence(0.5, false)]).toEqual([0.55, 0.4]);
  });
});

describe('the outcome floor', () => {
  const lines = (helpful: number, notHelpful: number, at = '2026-11-20T00:00:00.000Z') => [
    ...Array.from({ length: helpful }, () => ({ helpful: true, at })),
    ...Array.from({ length: notHelpful }, () => ({ helpful: false, at })),
  ];
  it.each([
    [0, 3, true],
    [1, 3, true],
    [2, 4, false], // a third helpful is not fewer than a third
    [0, 2, false],
    [1, 5, true],
    [5, 5, false],
  ])('%i helpful, %i not helpful: held %s', (helpful, notHelpful, held) => {
    expect(belowOutcomeFloor(tallyOutcomes(lines(helpful, notHelpful)))).toBe(held);
  });

  it('counts only the verdicts after a person kept the lesson', () => {
    const verdicts = [...lines(0, 3, '2026-11-01T00:00:00.000Z'), ...lines(0, 1, '2026-11-10T00:00:00.000Z')];
    expect(tallyOutcomes(verdicts, '2026-11-05T00:00:00.000Z')).toEqual({ helpful: 0, notHelpful: 1 });
    expect(belowOutcomeFloor(tallyOutcomes(verdicts, '2026-11-05T00:00:00.000Z'))).toBe(false);
  });
});

describe('guardProposals', () => {
  it('proposes advisory lessons whose mistake came back twice after advisory delivery', () => {
    const records = [
      { lesson: 'A', form: 'after-call', verdict: 'repeated' },
      { lesson: 'A', form: 'before-call', verdict: 'repeated' },
      { lesson: 'B', form: 'after-call', verdict: 'repeated' },
      { lesson: 'B', form: 'after-call', verdict: 'prevented' },
      { lesson: 'C', form: 'guard', verdict: 'repeated' },
      { lesson: 'C', form: 'guard', verdict: 'repeated' },
      { lesson: 'D', form: 'after-call', verdict: 'repeated' },
      { lesson: 'D', form: 'after-call', verdict: 'repeated' },
      { lesson: 'D', form: 'after-call', verdict: 'repeated' },
      { lesson: 'G', form: 'after-call', verdict: 'repeated' },
      { lesson: 'G', form: 'after-call', verdict: 'repeated' },
    ] as const;
    expect(guardProposals(records, (id) => id === 'G')).toEqual([
      { lesson: 'D', repeats: 3 },
      { lesson: 'A', repeats: 2 },
    ]);
  });
});

describe('the audit line of a recorded tool call keeps what finds the call again', () => {
  const decision: HookDecision = {
    event: 'PreToolUse',
    plan: {
      included: [],
      denied: [],
      skipped: [],
    },
  } as unknown as HookDecision;
  it.each([
    ['Claude Code', claudeCodeAdapter, payload('claude', 'PreToolUse', 'Bash'), 'toolu_d1'],
    ['Codex', codexAdapter, payload('codex', 'PreToolUse', 'Bash'), 'call_1'],
    ['Cursor', cursorAdapter, payload('cursor', 'preToolUse', 'Shell'), 'call_1'],
    [
      'Gemini CLI (no call id: tool, command and time)',
      geminiAdapter,
      payload('gemini', 'BeforeTool'),
      undefined,
    ],
  ] as const)('%s', (_host, adapter, raw, callId) => {
    const event = parseHookPayload(adapter.normalizeInput(raw));
    const line = auditRecord(event!, decision, adapter.host, T0, 0);
    expect(line.call_id).toBe(callId);
    expect(line.command).toEqual(expect.any(String));
    expect(line.transcript).toBe(raw.transcript_path);
  });

  it('cuts the command it keeps', () => {
    const raw = {
      ...payload('claude', 'PreToolUse', 'Bash'),
      tool_input: { command: `echo ${'x'.repeat(5000)}` },
    };
    const line = auditRecord(parseHookPayload(raw)!, decision, 'claude-code', T0, 0);
    expect(line.command).toHaveLength(300);
  });
});

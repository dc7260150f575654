// Checkpoint lessons through the hook's own pipeline (selectLessons → applyClaims → format) with the
// real session state in a temporary directory: the first matching call of a session is denied with
// the lesson as the reason, everything after it is let through, and nothing is ever denied twice.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { manifestReaders } from '../../src/core/inject/candidate-ordinals.js';
import { formatDecision } from '../../src/core/inject/format-decision.js';
import { applyClaims, selectLessons } from '../../src/core/inject/select-lessons.js';
import type { CallPhase, HookDecision, HookEvent, InjectSettings } from '../../src/core/inject/types.js';
import type { Lesson } from '../../src/core/lesson/schema.js';
import { auditRecord } from '../../src/store/hook-state/audit-log.js';
import { openSessionState } from '../../src/store/hook-state/session-state.js';
import { lesson, manifestOf } from '../helpers/manifest.js';

const tmp = mkdtempSync(join(tmpdir(), 'lore-checkpoint-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
/** A plain file where the state directory should be: the session state cannot be read or written. */
const broken = join(tmp, 'not-a-directory');
writeFileSync(broken, '');
let sessions = 0;

const checkpoint = lesson({
  summary: 'the tests need the fake database: start it with make db first',
  type: 'checkpoint',
  tools: ['Bash'],
  commands: ['(^|\\s)pytest\\b'],
  mistake: 'ran pytest without the database',
  priority: 9,
});
const toolOnly = lesson({
  summary: 'a checkpoint scoped by tool alone',
  type: 'checkpoint',
  tools: ['Bash'],
});
const guard = lesson({
  summary: 'never rm -rf build',
  type: 'guard',
  tools: ['Bash'],
  commands: ['rm\\s+-rf\\s+build\\b'],
});
const hint = lesson({
  summary: 'npm ci, not npm install, in CI',
  tools: ['Bash'],
  commands: ['npm install'],
});
/** Weightier advice on the same command: with it the per-call count fills before the checkpoint. */
const louder = [1, 2, 3, 4].map((i) =>
  lesson({ summary: `pytest advice number ${i}`, tools: ['Bash'], commands: ['pytest'], priority: 10 }),
);

type Call = { command: string; phase?: CallPhase; agent?: string; prompt?: boolean };

/** One session: each call runs as the hook runs it, over the same claims file. */
function session(
  lessons: readonly Lesson[],
  options: { settings?: Partial<InjectSettings>; stateDir?: string } = {},
) {
  sessions += 1;
  const id = `s${sessions}`;
  const manifest = manifestOf(lessons, { settings: options.settings });
  return (call: Call | string): HookDecision => {
    const { command, phase, agent, prompt } = typeof call === 'string' ? { command: call } : call;
    const event: HookEvent =
      prompt === true
        ? { event: 'UserPromptSubmit', sessionId: id, agentId: 'main', cwd: '/repo', prompt: command }
        : {
            event: 'PreToolUse',
            sessionId: id,
            agentId: agent ?? 'main',
            cwd: '/repo',
            tool: 'Bash',
            command,
            ...(phase === undefined ? {} : { phase }),
          };
    const state = openSessionState(options.stateDir ?? tmp, id, event.agentId, 'test');
    const selection = selectLessons({
      event,
      head: manifest.head,
      ...manifestReaders(manifest),
      words: manifest.words,
      repoPaths: [],
      state: {
        seen: state.seen,
        seenElsewhere: state.seenElsewhere,
        shownCount: state.seen.size,
        stateAvailable: state.available,
      },
      settings: manifest.head.settings,
    });
    const plan = applyClaims(selection.decision.plan, (wanted) => state.claimAll(wanted));
    return formatDecision(event.event, plan);
  };
}

/** What a decision did with each lesson: `deny`, `inject`, or the skip reason. */
function outcome(decision: HookDecision): Record<string, string> {
  return Object.fromEntries([
    ...decision.plan.denied.map((d) => [d.id, d.kind === 'checkpoint' ? 'deny-once' : 'deny']),
    ...decision.plan.included.map((i) => [i.id, 'inject']),
    ...decision.plan.skipped.map((s) => [s.id, s.reason]),
  ]);
}

describe('checkpoint lessons', () => {
  const cp = checkpoint.id;
  it.each<[string, readonly Lesson[], (Call | string)[], Record<string, string>[], Partial<InjectSettings>?]>(
    [
      [
        'the first call is denied; the unchanged retry and every call after it run',
        [checkpoint],
        ['pytest -q', 'pytest -q', 'pytest -x'],
        [{ [cp]: 'deny-once' }, { [cp]: 'already-shown' }, { [cp]: 'already-shown' }],
      ],
      [
        'a call the trigger does not match is not affected, and does not spend the checkpoint',
        [checkpoint, hint],
        ['npm install', 'pytest -q'],
        [{ [hint.id]: 'inject' }, { [cp]: 'deny-once' }],
      ],
      [
        'a call changed so the trigger no longer matches runs',
        [checkpoint],
        ['pytest -q', 'make db && python -m unittest'],
        [{ [cp]: 'deny-once' }, {}],
      ],
      [
        'scoped by tool alone it never denies: it is advice, shown once',
        [toolOnly],
        ['pytest -q', 'pytest -q'],
        [{ [toolOnly.id]: 'inject' }, { [toolOnly.id]: 'already-shown' }],
      ],
      [
        'a denied call gets no advice; the advice comes with the retry',
        [checkpoint, hint],
        ['pytest -q && npm install', 'pytest -q && npm install'],
        [{ [cp]: 'deny-once' }, { [cp]: 'already-shown', [hint.id]: 'inject' }],
      ],
      [
        'with a guard on the same call both deny; the retry is denied by the guard alone',
        [checkpoint, guard],
        ['pytest -q; rm -rf build', 'pytest -q; rm -rf build'],
        [
          { [cp]: 'deny-once', [guard.id]: 'deny' },
          { [cp]: 'already-shown', [guard.id]: 'deny' },
        ],
      ],
      [
        'inject.guards: false turns guards into advice, not checkpoints',
        [checkpoint, guard],
        ['rm -rf build', 'pytest -q'],
        [{ [guard.id]: 'inject' }, { [cp]: 'deny-once' }],
        { guards: false },
      ],
      [
        'found past weightier advice that fills the call (the hook stops reading once a plan is settled)',
        [checkpoint, ...louder],
        ['pytest -q'],
        [{ [cp]: 'deny-once' }],
      ],
      [
        'a spent checkpoint does not settle a call: a guard ranked after it still denies',
        [checkpoint, guard],
        [
          { command: 'pytest -q', phase: 'before' },
          { command: 'pytest -q; rm -rf build', phase: 'before' },
          'pytest -q; rm -rf build',
        ],
        [
          { [cp]: 'deny-once' },
          { [cp]: 'already-shown', [guard.id]: 'deny' },
          { [cp]: 'already-shown', [guard.id]: 'deny' },
        ],
      ],
      [
        'a prompt that mentions the command brings it before the model acts; then it does not deny',
        [checkpoint],
        [{ command: 'please run `pytest -q`', prompt: true }, 'pytest -q'],
        [{ [cp]: 'inject' }, { [cp]: 'already-shown' }],
      ],
      [
        'a checkpoint shown to another agent of the session does not deny this one',
        [checkpoint],
        [{ command: 'pytest -q', agent: 'sub-1' }, 'pytest -q'],
        [{ [cp]: 'deny-once' }, { [cp]: 'shown-to-other-agent' }],
      ],
      [
        'Gemini / Cursor: the before half denies; the retry passes both halves, nothing shown twice',
        [checkpoint],
        [
          { command: 'pytest -q', phase: 'before' },
          { command: 'pytest -q', phase: 'before' },
          { command: 'pytest -q', phase: 'after' },
        ],
        [{ [cp]: 'deny-once' }, { [cp]: 'already-shown' }, { [cp]: 'already-shown' }],
      ],
      [
        'guards off on a split host: the checkpoint still denies in the before half',
        [checkpoint],
        [
          { command: 'pytest -q', phase: 'before' },
          { command: 'pytest -q', phase: 'after' },
        ],
        [{ [cp]: 'deny-once' }, { [cp]: 'already-shown' }],
        { guards: false },
      ],
    ],
  )('%s', (_name, lessons, calls, expected, settings) => {
    const call = session(lessons, settings === undefined ? {} : { settings });
    expect(calls.map((c) => outcome(call(c)))).toEqual(expected);
  });

  it('the denial reason is the lesson, and says the unchanged call may follow', () => {
    const deny = session([checkpoint])('pytest -q').deny;
    expect(deny).toContain(`lore checkpoint ${cp}`);
    expect(deny).toContain(checkpoint.summary);
    expect(deny).toContain('Mistake: ran pytest without the database');
    expect(deny).toContain('run it again unchanged');
  });

  it.each<[string, Call[]]>([
    ['one call', [{ command: 'pytest -q' }]],
    ['the before half', [{ command: 'pytest -q', phase: 'before' }]],
    [
      'both halves',
      [
        { command: 'pytest -q', phase: 'before' },
        { command: 'pytest -q', phase: 'after' },
      ],
    ],
  ])('session state unavailable (%s): never denies, never injects', (_name, calls) => {
    const call = session([checkpoint], { stateDir: broken });
    for (const c of calls) {
      const decision = call(c);
      expect([decision.deny, decision.context, outcome(decision)]).toEqual([
        undefined,
        undefined,
        { [cp]: 'state-unavailable' },
      ]);
    }
  });

  it('two hook processes of one session planning at once: only the first claim denies', () => {
    const manifest = manifestOf([checkpoint]);
    const event: HookEvent = {
      event: 'PreToolUse',
      sessionId: 'parallel',
      agentId: 'main',
      cwd: '/repo',
      tool: 'Bash',
      command: 'pytest -q',
    };
    const states = [1, 2].map(() => openSessionState(tmp, 'parallel', 'main', 'test'));
    // both read the state before either claims
    const plans = states.map(
      (state) =>
        selectLessons({
          event,
          head: manifest.head,
          ...manifestReaders(manifest),
          repoPaths: [],
          state: { seen: state.seen, shownCount: 0, stateAvailable: state.available },
          settings: manifest.head.settings,
        }).decision.plan,
    );
    expect(plans.map((plan) => plan.denied.map((d) => d.id))).toEqual([[cp], [cp]]);
    const claimed = plans.map((plan, i) => applyClaims(plan, (wanted) => states[i]!.claimAll(wanted)));
    expect(claimed.map((plan) => outcome(formatDecision('PreToolUse', plan)))).toEqual([
      { [cp]: 'deny-once' },
      { [cp]: 'already-shown' },
    ]);
    expect(formatDecision('PreToolUse', claimed[1]!).deny).toBeUndefined();
  });

  it('a compaction does not bring a checkpoint back: it denies once per session', () => {
    const call = session([checkpoint]);
    expect(outcome(call('pytest -q'))).toEqual({ [cp]: 'deny-once' });
    const state = openSessionState(tmp, `s${sessions}`, 'main', 'test');
    // what the SessionStart hook forgets after a compaction: priority >= compactForgetPriority
    const forget = [...state.entries].filter(([, priority]) => priority >= 7).map(([id]) => id);
    expect(forget).toEqual([]);
    expect(outcome(call('pytest -q'))).toEqual({ [cp]: 'already-shown' });
  });

  it('the audit record marks the denial as a checkpoint, a guard denial stays unmarked', () => {
    const decision = session([checkpoint, guard])('pytest -q; rm -rf build');
    const event: HookEvent = {
      event: 'PreToolUse',
      sessionId: 'a',
      agentId: 'main',
      cwd: '/repo',
      tool: 'Bash',
    };
    expect(auditRecord(event, decision, 'claude-code', 0, 10).denied).toEqual([
      { id: cp, matched_by: ['command:(^|\\s)pytest\\b'], kind: 'checkpoint' },
      { id: guard.id, matched_by: ['command:rm\\s+-rf\\s+build\\b'] },
    ]);
  });

  it('a checkpoint does not open sessions: shown at the start it would be spent before its call', () => {
    const general = lesson({ summary: 'this repository formats with prettier', tags: ['tool:prettier'] });
    const trigger = { ...checkpoint, tools: [], commands: [], paths: [], tags: ['tool:pytest'] };
    const manifest = manifestOf([checkpoint, hint, general, trigger]);
    const opening = manifest.head.startup.map((n) => manifest.blocks.flat().find((l) => l?.n === n)?.id);
    // the hint waits for its call; a checkpoint never opens a session, even one with no trigger
    expect(opening).toEqual([general.id]);
  });
});

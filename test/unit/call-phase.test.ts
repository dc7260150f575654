// Hosts that split a tool call (Gemini BeforeTool/AfterTool, Cursor preToolUse/postToolUse): the
// before half only denies, the after half only advises; together they act like one PreToolUse.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { manifestReaders } from '../../src/core/inject/candidate-ordinals.js';
import { selectLessons } from '../../src/core/inject/select-lessons.js';
import type { CallPhase, HookEvent } from '../../src/core/inject/types.js';
import { bashEvent, lesson, manifestOf } from '../helpers/manifest.js';

const pytest = lesson({ summary: 'pytest needs --no-header here', tools: ['Bash'], commands: ['pytest'] });
const make = lesson({ summary: 'make needs -j1 in this repo', commands: ['\\bmake\\b'], priority: 8 });
const guard = lesson({
  summary: 'never rm -rf build',
  type: 'guard',
  tools: ['Bash'],
  commands: ['rm\\s+-rf\\s+build'],
  remediation: 'run make clean',
});
const unreviewed = lesson({
  summary: 'never chmod -R 777',
  type: 'guard',
  commands: ['chmod\\s+-R\\s+777'],
  needsReview: true,
});
const manifest = manifestOf([pytest, make, guard, unreviewed]);

function select(command: string, phase: CallPhase | undefined, exhaustive: boolean, guards = true) {
  const event: HookEvent = bashEvent(command, phase === undefined ? {} : { phase });
  const settings = { ...manifest.head.settings, guards };
  return selectLessons({
    event,
    head: { ...manifest.head, settings },
    ...manifestReaders(manifest),
    repoPaths: [],
    state: { seen: new Set<string>(), shownCount: 0, stateAvailable: true },
    settings,
    exhaustive,
  }).decision;
}

const ids = (items: readonly { id: string }[]) => items.map((item) => item.id).sort();

describe('a tool call split into two halves', () => {
  it.each([
    ['pytest -v', undefined, [pytest.id], []],
    ['pytest -v', 'before', [], []],
    ['pytest -v', 'after', [pytest.id], []],
    ['rm -rf build && make', undefined, [], [guard.id]],
    ['rm -rf build && make', 'before', [], [guard.id]],
    ['rm -rf build && make', 'after', [make.id], []],
  ] as const)('%s, phase %s: advice %o, denied %o', (command, phase, advice, denied) => {
    for (const exhaustive of [true, false]) {
      const decision = select(command, phase, exhaustive);
      expect([ids(decision.plan.included), ids(decision.plan.denied)]).toEqual([
        [...advice].sort(),
        [...denied].sort(),
      ]);
      expect(decision.context === undefined).toBe(advice.length === 0);
    }
  });

  it('the before half says why advice waits, the after half why a guard is quiet', () => {
    const before = select('pytest', 'before', true).plan.skipped;
    expect(before).toEqual([expect.objectContaining({ id: pytest.id, reason: 'after-call' })]);
    const after = select('rm -rf build', 'after', true).plan.skipped;
    expect(after).toEqual([expect.objectContaining({ id: guard.id, reason: 'call-denied' })]);
  });

  it('a guard that needs review denies in neither half and says so in both', () => {
    for (const phase of ['before', 'after'] as const) {
      const plan = select('chmod -R 777 .', phase, true).plan;
      expect([plan.denied, plan.skipped.map((s) => [s.id, s.reason])]).toEqual([
        [],
        [[unreviewed.id, 'needs-review']],
      ]);
    }
  });

  it('with guards off, a guard is advice after the call and nothing before it', () => {
    expect(ids(select('rm -rf build', 'after', true, false).plan.included)).toEqual([guard.id]);
    expect(select('rm -rf build', 'before', true, false).plan.denied).toEqual([]);
  });

  const command = (words: string[]) =>
    fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 6 }).map((parts) => parts.join(' '));

  it('for any command, the before half denies what one PreToolUse denies, and advises nothing', () => {
    fc.assert(
      fc.property(command(['pytest', 'make', 'rm -rf build', 'echo', '-v', '&&']), (text) => {
        const before = select(text, 'before', false).plan;
        expect([ids(before.denied), before.included]).toEqual([
          ids(select(text, undefined, false).plan.denied),
          [],
        ]);
      }),
      { numRuns: 200 },
    );
  });

  // a denied call gets no advice in one PreToolUse; split, its after half never runs: so compare
  // the advice on calls no guard denies
  it('for any command no guard denies, the after half advises what one PreToolUse does', () => {
    fc.assert(
      fc.property(command(['pytest', 'make', 'rm -rf dist', 'echo', '-v', '&&']), (text) => {
        const after = select(text, 'after', false).plan;
        expect([ids(after.included), after.denied]).toEqual([
          ids(select(text, undefined, false).plan.included),
          [],
        ]);
      }),
      { numRuns: 200 },
    );
  });
});

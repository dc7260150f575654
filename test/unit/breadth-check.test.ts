import { describe, expect, it } from 'vitest';
import {
  BREADTH_MAX_SHARE,
  checkBreadth,
  createBreadthCheck,
  hookEventOf,
  isToolOnly,
  tooBroad,
} from '../../src/core/breadth/check-breadth.js';
import type { BreadthTrigger } from '../../src/core/breadth/check-breadth.js';
import { cachedCallOf, mergeCachedCalls } from '../../src/core/breadth/cached-call.js';
import type { CachedCall } from '../../src/core/breadth/cached-call.js';
import { collectCalls } from '../../src/core/outcome/call-outcome.js';
import type { TranscriptEvent } from '../../src/core/capture/events.js';

let n = 0;
function call(fields: Partial<CachedCall> & Pick<CachedCall, 'tool'>): CachedCall {
  n += 1;
  return {
    id: `c${n}`,
    time: `2026-11-01T00:00:${String(n % 60).padStart(2, '0')}.${String(n).padStart(4, '0')}Z`,
    agent: 'claude-code',
    session: 's1',
    project: '/repo',
    keys: [fields.tool.toLowerCase()],
    outcome: 'ok',
    ...fields,
  };
}

const ok = (command: string) => call({ tool: 'Bash', command, keys: [command.split(' ')[0] ?? ''] });
const failed = (command: string, errorClass: CachedCall['errorClass']) =>
  call({ tool: 'Bash', command, keys: [command.split(' ')[0] ?? ''], outcome: 'failed', errorClass });

/** `total` calls: `fires` of them `pytest` (the first `atMistake` failing with a missing module), the rest `ls`. */
function history(total: number, fires: number, atMistake: number): CachedCall[] {
  return [
    ...Array.from({ length: atMistake }, () => failed('pytest -q', 'missing-module')),
    ...Array.from({ length: fires - atMistake }, () => ok('pytest -q')),
    ...Array.from({ length: total - fires }, () => ok('ls -la')),
  ];
}

const pytest: BreadthTrigger = {
  commands: ['^pytest\\b'],
  mistake: 'ModuleNotFoundError: No module named x',
};

describe('the breadth thresholds', () => {
  it.each([
    // calls, fires, atMistake, broad: more than 1% of the calls and fewer than a third at the mistake
    [1000, 10, 0, false], // exactly 1%: not more than 1%
    [1000, 11, 0, true], // just over 1%
    [1000, 11, 3, true], // 3 of 11 < a third
    [1000, 12, 4, false], // exactly a third: not fewer
    [1000, 12, 3, true],
    [1000, 300, 100, false],
    [1000, 300, 99, true],
    [0, 0, 0, false], // no calls: nothing to say
  ])('%i calls, %i fires, %i at the mistake -> broad %s', (calls, fires, atMistake, broad) => {
    expect(tooBroad(calls, fires, atMistake)).toBe(broad);
    expect(checkBreadth(pytest, history(calls, fires, atMistake))).toMatchObject({
      calls,
      fires,
      atMistake,
      broad,
    });
  });

  it('says the figures in one line', () => {
    const b = checkBreadth(pytest, history(5000, 212, 3));
    expect(b.message).toBe('would have fired on 212 of your last 5,000 calls, 3 of them at this mistake');
    expect(b.share).toBeCloseTo(212 / 5000);
    expect(BREADTH_MAX_SHARE).toBe(0.01);
  });

  it('counts only failures of the mistake class at the mistake; any failure when the mistake says nothing', () => {
    const calls = [failed('pytest -q', 'missing-module'), failed('pytest -q', 'test-failure'), ok('pytest')];
    expect(checkBreadth(pytest, calls).atMistake).toBe(1);
    expect(checkBreadth({ commands: ['^pytest'] }, calls).atMistake).toBe(2);
  });
});

describe('tool-only triggers', () => {
  it.each([
    [{ tools: ['Bash'] }, true],
    [{ tools: ['Bash'], tags: ['topic:ci'] }, true],
    [{ tools: ['Bash'], tags: ['tool:pytest'] }, false],
    [{ tools: ['Bash'], commands: ['^git'] }, false],
    [{ tools: ['Edit'], paths: ['src/**'] }, false],
    [{ tools: ['Write'], contents: ['TODO'] }, false],
    [{ commands: ['^git'] }, false],
    [{}, false],
  ] as [BreadthTrigger, boolean][])('%j -> %s', (trigger, toolOnly) => {
    expect(isToolOnly(trigger)).toBe(toolOnly);
  });

  it('fires on every call of its tool and says so', () => {
    const calls = [ok('ls'), ok('git status'), call({ tool: 'Read', paths: ['a.ts'], keys: ['/repo/a.ts'] })];
    const b = checkBreadth({ tools: ['Bash'] }, calls);
    expect(b).toMatchObject({ fires: 2, toolOnly: true, broad: true });
    expect(b.message).toContain('scoped by tool alone');
  });
});

describe('the matcher over cached calls', () => {
  const calls = [
    call({ tool: 'Edit', paths: ['src/gen/a.ts'], keys: ['/repo/src/gen/a.ts'] }),
    call({ tool: 'Read', paths: ['src/app.ts'], keys: ['/repo/src/app.ts'] }),
    call({ tool: 'write_file', agent: 'gemini', paths: ['src/gen/b.ts'], keys: ['/repo/src/gen/b.ts'] }),
    call({ tool: 'exec_command', agent: 'codex', command: 'git push origin main', keys: ['git push'] }),
    call({ tool: 'TodoWrite' }),
    call({ tool: 'Edit', paths: ['/elsewhere/src/gen/c.ts'], keys: ['/elsewhere/src/gen/c.ts'] }),
  ];
  it.each([
    [{ paths: ['src/gen/**'] }, 2], // Edit and Gemini's write_file; not the path outside the project
    [{ paths: ['src/gen/**'], tools: ['Edit'] }, 1],
    [{ commands: ['^git push'] }, 1], // a Codex shell call is a Bash call to the hook
    [{ tags: ['lang:typescript'] }, 3],
    [{ tools: ['TodoWrite'] }, 0], // the hook never sees such calls
    [{ contents: ['TODO'] }, 3], // content patterns unchecked: every writing call it could reach
  ] as [BreadthTrigger, number][])('%j fires on %i', (trigger, fires) => {
    expect(checkBreadth(trigger, calls).fires).toBe(fires);
  });

  it('never blocks on content patterns it could not check, and says so', () => {
    const b = checkBreadth({ contents: ['TODO'] }, calls);
    expect(b).toMatchObject({ contentsUnchecked: true, broad: false });
    expect(b.message).toContain('contents patterns are not checked');
  });

  it('skips calls the hook would ignore', () => {
    expect(hookEventOf(call({ tool: 'WebFetch' }))).toBeUndefined();
    expect(hookEventOf(call({ tool: 'Bash' }))).toBeUndefined();
    expect(hookEventOf(call({ tool: 'run_shell_command', command: 'ls' }))).toMatchObject({
      tool: 'Bash',
      command: 'ls',
    });
  });

  it('checks many triggers over one prepared set of calls alike', () => {
    const check = createBreadthCheck(calls);
    expect(check({ commands: ['^git push'] }).fires).toBe(1);
    expect(check({ paths: ['src/**'] }).fires).toBe(3);
  });
});

describe('no call cache', () => {
  it.each([
    ['missing', 'no call cache yet'],
    ['damaged', 'could not be read'],
  ] as const)('%s: says so in one line and never blocks', (why, words) => {
    const b = checkBreadth({ tools: ['Bash'] }, undefined, why);
    expect(b).toMatchObject({ noCache: true, broad: false, calls: 0, fires: 0, toolOnly: true });
    expect(b.message).toContain(words);
    expect(b.message).toContain('scoped by tool alone');
    expect(b.message).not.toContain('\n');
    expect(checkBreadth({ commands: ['^git'] }, undefined, why).message).not.toContain('tool alone');
  });
});

describe('the cached calls', () => {
  const origin = { agent: 'claude-code', session: 's', project: '/repo', file: 't.jsonl' } as const;
  const events: TranscriptEvent[] = [
    {
      ...origin,
      kind: 'tool-call',
      line: 1,
      timestamp: '2026-11-01T00:00:01Z',
      callId: 'a',
      tool: 'Bash',
      input: { command: `pytest ${'x'.repeat(3000)}` },
    },
    {
      ...origin,
      kind: 'tool-result',
      line: 2,
      timestamp: '2026-11-01T00:00:02Z',
      callId: 'a',
      tool: 'Bash',
      ok: false,
      text: "ModuleNotFoundError: No module named 'foo'",
      exitCode: 1,
      failure: 'exit-code',
    },
    {
      ...origin,
      kind: 'tool-call',
      line: 3,
      timestamp: '2026-11-01T00:00:03Z',
      callId: 'b',
      tool: 'Edit',
      input: { file_path: '/repo/src/a.ts', new_string: 'x' },
    },
  ];
  const calls = collectCalls(events).sessions.flatMap((s) => s.calls.map(cachedCallOf));

  it('keep the outcome, the error class, the command cut short and repo-relative paths', () => {
    expect(calls[0]).toMatchObject({
      tool: 'Bash',
      outcome: 'failed',
      errorClass: 'missing-module',
      // the exit code leads, as in the result a hook sees: a lesson waiting for a failure counts it
      error: "Exit code 1\nModuleNotFoundError: No module named 'foo'",
    });
    expect(calls[0]?.command).toHaveLength(1000);
    expect(calls[1]).toMatchObject({ tool: 'Edit', paths: ['src/a.ts'], outcome: 'no-result' });
  });

  it('merge: one entry per call (the newer wins), in time order, the newest kept', () => {
    const older = { ...(calls[1] as CachedCall), outcome: 'no-result' as const };
    const newer = { ...(calls[1] as CachedCall), outcome: 'ok' as const };
    const merged = mergeCachedCalls([older, calls[0] as CachedCall], [newer]);
    expect(merged.map((c) => [c.id, c.outcome])).toEqual([
      ['a', 'failed'],
      ['b', 'ok'],
    ]);
    expect(mergeCachedCalls(calls, [], 1).map((c) => c.id)).toEqual(['b']);
  });
});

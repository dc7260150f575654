import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lessonKeys } from '../../src/core/manifest/build-manifest.js';
import { renderLesson } from '../../src/core/manifest/render-lesson.js';
import { detectStack, stackAllows } from '../../src/core/inject/detect-stack.js';
import { candidateOrdinals, manifestReaders } from '../../src/core/inject/candidate-ordinals.js';
import { commandPrograms } from '../../src/core/inject/create-matcher.js';
import { promptPaths } from '../../src/core/inject/prompt-tokens.js';
import { parseHookPayload } from '../../src/core/inject/parse-hook-input.js';
import { planInjection, SEPARATOR } from '../../src/core/inject/plan-injection.js';
import { rankMatches } from '../../src/core/inject/rank-matches.js';
import { applyClaims, selectLessons } from '../../src/core/inject/select-lessons.js';
import type { Selection } from '../../src/core/inject/select-lessons.js';
import { DEFAULT_INJECT_SETTINGS } from '../../src/core/inject/types.js';
import type { HookEvent, ManifestLesson, ManifestText, Match } from '../../src/core/inject/types.js';
import { normalizeCodexPayload } from '../../src/adapters/codex/hook-adapter.js';
import { payload } from '../helpers/hook-payloads.js';
import { lesson, manifestOf } from '../helpers/manifest.js';

describe('parse: recorded payloads to events', () => {
  it.each([
    [
      'claude SessionStart',
      payload('claude', 'SessionStart'),
      { event: 'SessionStart', source: 'startup', agentId: 'main' },
    ],
    [
      'claude PreToolUse Bash',
      payload('claude', 'PreToolUse', 'Bash'),
      { event: 'PreToolUse', tool: 'Bash', command: 'rm -rf /home/dev/work/zzz', paths: [] },
    ],
    ['codex SessionStart', payload('codex', 'SessionStart'), { event: 'SessionStart', source: 'startup' }],
    [
      'codex UserPromptSubmit',
      payload('codex', 'UserPromptSubmit'),
      { event: 'UserPromptSubmit', prompt: 'LESSONS_TEST run echo' },
    ],
    [
      'codex PreToolUse Bash',
      payload('codex', 'PreToolUse', 'Bash'),
      { event: 'PreToolUse', command: 'echo hi-codex' },
    ],
  ])('%s', (_name, raw, expected) => {
    expect(parseHookPayload(raw)).toMatchObject({
      sessionId: raw.session_id,
      cwd: '/home/dev/work/proj',
      ...expected,
    });
  });

  const base = payload('claude', 'PreToolUse', 'Bash');
  it.each([
    ['PostToolUse is not handled', payload('codex', 'PostToolUse')],
    ['Stop is not handled', payload('codex', 'Stop')],
    ['no session id', { ...base, session_id: undefined }],
    ['a relative cwd', { ...base, cwd: 'proj' }],
    ['no tool input', { ...base, tool_input: undefined }],
    ['Bash without a command', { ...base, tool_input: { description: 'x' } }],
    ['an unknown tool', { ...base, tool_name: 'WebFetch', tool_input: { url: 'https://x' } }],
    ['an MCP tool without a path', { ...base, tool_name: 'mcp__github__search', tool_input: { q: 'x' } }],
    [
      'a task notification',
      { ...payload('codex', 'UserPromptSubmit'), prompt: '<task-notification>done</task-notification>' },
    ],
    ['an array', []],
    ['null', null],
  ])('%s: ignored', (_name, raw) => {
    expect(parseHookPayload(raw)).toBeUndefined();
  });

  it.each([
    ['Read', { file_path: 'src/a.ts' }, ['/home/dev/work/proj/src/a.ts']],
    ['Edit', { file_path: '/home/dev/work/proj/x/../y.py' }, ['/home/dev/work/proj/y.py']],
    ['NotebookEdit', { notebook_path: 'n.ipynb' }, ['/home/dev/work/proj/n.ipynb']],
    ['Glob', { pattern: '**/*.ts', path: 'src' }, ['/home/dev/work/proj/src/**/*.ts']],
    [
      'Grep',
      { pattern: 'TODO', path: 'lib', glob: '*.py' },
      ['/home/dev/work/proj/lib', '/home/dev/work/proj/**/*.py'],
    ],
    ['mcp__fs__read_file', { path: '/etc/hosts' }, ['/etc/hosts']],
  ])('%s paths', (tool, input, paths) => {
    expect(parseHookPayload({ ...base, tool_name: tool, tool_input: input })?.paths).toEqual(paths);
  });

  it('bounds a huge command before matching', () => {
    const event = parseHookPayload({ ...base, tool_input: { command: 'x'.repeat(1_000_000) } });
    expect(event?.command?.length).toBe(16_384);
  });

  it('Codex apply_patch becomes an Edit of the patched files', () => {
    const patch =
      '*** Begin Patch\n*** Update File: src/app.py\n@@\n-a\n+b\n*** Add File: tests/test_x.py\n+x\n*** End Patch';
    const raw = {
      ...payload('codex', 'PreToolUse', 'Bash'),
      tool_name: 'apply_patch',
      tool_input: { command: patch },
    };
    expect(parseHookPayload(normalizeCodexPayload(raw))).toMatchObject({
      tool: 'Edit',
      paths: ['/home/dev/work/proj/src/app.py', '/home/dev/work/proj/tests/test_x.py'],
    });
  });
});

describe('manifest keys', () => {
  const AND = '\u0001';
  it.each([
    [
      { commands: ['^pytest\\b'], paths: [], tags: [], tools: ['Bash'] },
      { literals: ['bash|c\u0002pytest'], keys: [], always: false },
    ],
    [
      { commands: ['\\bterraform\\s+(apply|destroy)\\b'], paths: [], tags: [], tools: ['Bash'] },
      { literals: [`bash|capply${AND}terraform`, `bash|cdestroy${AND}terraform`], keys: [], always: false },
    ],
    [
      { commands: [], paths: ['tests/**', '*.py'], tags: [], tools: [] },
      { literals: ['*|ptests', '*|p.py'], keys: [], always: false },
    ],
    [
      { commands: [], paths: ['src/**/*.ts'], tags: [], tools: ['Write', 'Edit', 'MultiEdit'] },
      { literals: [`edit,write|p.ts${AND}src`], keys: [], always: false },
    ],
    [
      { commands: ['.*'], paths: ['tests/**'], tags: [], tools: [] },
      { literals: [], keys: [], always: true },
    ],
    [
      { commands: [], paths: [], tags: ['tool:pytest', 'topic:x'], tools: ['Bash'] },
      { literals: ['bash|cpytest'], keys: [], always: false },
    ],
    [
      { commands: [], paths: [], tags: ['lang:python'], tools: ['mcp__fs__*'] },
      { literals: ['*|p.py'], keys: [], always: false },
    ],
    [
      { commands: [], paths: [], tags: ['topic:x'], tools: ['WebFetch', 'Task'] },
      { literals: [], keys: ['tool:webfetch', 'tool:agent'], always: false },
    ],
    [
      { commands: [], paths: [], tags: [], tools: ['mcp__github__*'] },
      { literals: [], keys: [], always: true },
    ],
  ])('%j', (scope, expected) => {
    expect(lessonKeys(scope)).toEqual(expected);
  });
});

function event(fields: Partial<HookEvent>): HookEvent {
  return { event: 'PreToolUse', sessionId: 's', agentId: 'main', cwd: '/repo', ...fields };
}

/** The whole selection over a manifest, as `lore explain` runs it, in a session that has shown nothing. */
function selectFresh(manifest: ReturnType<typeof manifestOf>, ev: HookEvent): Selection {
  return selectLessons({
    event: ev,
    head: manifest.head,
    ...manifestReaders(manifest),
    words: manifest.words,
    repoPaths: [],
    state: { seen: new Set<string>(), shownCount: 0, stateAvailable: true },
    settings: manifest.head.settings,
    exhaustive: true,
  });
}

describe('load and match: the stages selectLessons runs', () => {
  const pytest = lesson({
    summary: 'pytest hangs on a TTY',
    tools: ['Bash'],
    commands: ['(^|\\s)pytest\\b'],
    tags: ['lang:python'],
  });
  const guard = lesson({
    summary: 'never rm -rf build',
    type: 'guard',
    tools: ['Bash'],
    commands: ['rm\\s+-rf\\s+build(?!/cache)'],
    remediation: 'run make clean',
  });
  const tests = lesson({
    summary: 'tests dir uses fixtures from conftest',
    tools: ['Edit', 'Write'],
    paths: ['tests/**'],
  });
  const py = lesson({ summary: 'python files need type hints', tags: ['lang:python'], tools: ['Edit'] });
  const npmTag = lesson({ summary: 'npm ci not npm install in CI', tags: ['tool:npm'], tools: ['Bash'] });
  const webfetch = lesson({ summary: 'webfetch is cached for 15 minutes', tools: ['WebFetch', 'Read'] });
  const subagent = lesson({ summary: 'name the subagent type without its plugin prefix', tools: ['Task'] });
  const rust = lesson({
    summary: 'cargo build in release for benches',
    commands: ['cargo\\s+bench'],
    stack: ['rust'],
  });
  const anything = lesson({ summary: 'any command with a dot', commands: ['\\w\\.\\w'] });
  const all = [pytest, guard, tests, py, npmTag, webfetch, subagent, rust, anything];
  const manifest = manifestOf(all, { stack: ['python', 'node'] });
  const readers = manifestReaders(manifest);
  /** The pipeline over the manifest; exhaustive is what `lore explain` runs, streaming the hook. */
  const select = (
    ev: HookEvent,
    repoPaths: readonly string[],
    { exhaustive = true, stack = manifest.head.stack }: { exhaustive?: boolean; stack?: string[] } = {},
  ) =>
    selectLessons({
      event: ev,
      head: { ...manifest.head, stack },
      ...readers,
      words: manifest.words,
      repoPaths,
      state: { seen: new Set<string>(), shownCount: 0, stateAvailable: true },
      settings: manifest.head.settings,
      exhaustive,
    });
  const matchedBy = (selection: Selection) =>
    selection.matches.map((m) => [m.lesson.id, m.matchedBy[0]]).sort();

  const cases: [string, HookEvent, string[], string[][]][] = [
    [
      'pytest command',
      event({ tool: 'Bash', command: 'cd x && pytest -v tests/' }),
      [],
      [[pytest.id, 'command:(^|\\s)pytest\\b']],
    ],
    [
      'guard',
      event({ tool: 'Bash', command: 'rm -rf build' }),
      [],
      [[guard.id, 'command:rm\\s+-rf\\s+build(?!/cache)']],
    ],
    [
      'the corrected command passes the guard',
      event({ tool: 'Bash', command: 'rm -rf build/cache' }),
      [],
      [],
    ],
    [
      'path glob',
      event({ tool: 'Edit' }),
      ['tests/unit/test_a.py'],
      [
        [tests.id, 'path:tests/**'],
        [py.id, 'tag:lang:python'],
      ],
    ],
    [
      'tool filter keeps Edit lessons off Read',
      event({ tool: 'Read' }),
      ['tests/unit/test_a.py'],
      [[webfetch.id, 'tool:Read']],
    ],
    [
      'tool tag on the program run',
      event({ tool: 'Bash', command: 'NODE_ENV=x npm install' }),
      [],
      [[npmTag.id, 'tag:tool:npm']],
    ],
    ['tool-only lesson', event({ tool: 'Read' }), ['README.md'], [[webfetch.id, 'tool:Read']]],
    [
      'tool-only lesson on a subagent call, whose prompt is read as a prompt',
      event({ tool: 'Agent', prompt: 'refactor the parser' }),
      [],
      [[subagent.id, 'tool:Agent']],
    ],
    [
      'always-checked lesson',
      event({ tool: 'Bash', command: 'ls a.b' }),
      [],
      [[anything.id, 'command:\\w\\.\\w']],
    ],
    ['no match', event({ tool: 'Bash', command: 'echo hi' }), [], []],
  ];

  it.each(cases)('%s', (_name, ev, repoPaths, expected) => {
    const { matches } = select(ev, repoPaths);
    expect(matches.map((m) => [m.lesson.id, m.matchedBy[0]])).toEqual(expect.arrayContaining(expected));
    expect(matches).toHaveLength(expected.length);
  });

  // The hook streams candidates in rank order and stops once the plan is settled; with a plan this
  // far from full it must look at exactly what `lore explain` matches.
  it.each(cases)('%s: the streaming path matches the same', (_name, ev, repoPaths) => {
    expect(matchedBy(select(ev, repoPaths, { exhaustive: false }))).toEqual(matchedBy(select(ev, repoPaths)));
  });

  it('reads only the blocks of lessons whose literals occur', () => {
    const ordinals = candidateOrdinals(
      event({ tool: 'Bash', command: 'pytest' }),
      manifest.head,
      [],
      readers.literals,
    );
    const ids = ordinals.map((n) => readers.readLesson(n)?.id);
    expect(ids).toEqual(expect.arrayContaining([pytest.id, anything.id]));
    expect(ids).not.toContain(guard.id);
    expect(select(event({ tool: 'Bash', command: 'pytest' }), []).read).toBe(ordinals.length);
  });

  it('a stack the repository does not use gates the lesson', () => {
    const selection = select(event({ tool: 'Bash', command: 'cargo bench' }), [], { stack: ['python'] });
    expect(selection.matches).toEqual([]);
    expect(selection.decision.plan.skipped).toEqual([
      { id: rust.id, reason: 'stack-mismatch', matchedBy: ['command:cargo\\s+bench'] },
    ]);
  });

  it.each([
    ['gemini', 'match'],
    ['codex', 'match'],
    ['claude-code', 'agent-mismatch'],
    [undefined, 'match'],
  ] as const)("a lesson scoped to agents, in %s's hook: %s", (host, outcome) => {
    const cd = lesson({
      summary: 'run no cd on its own: each call starts in a new shell',
      tools: ['Bash'],
      commands: ['^\\s*cd\\s+\\S+\\s*$'],
      agents: ['gemini', 'codex'],
    });
    const selection = selectFresh(
      manifestOf([cd], { stack: [] }),
      event({ tool: 'Bash', command: 'cd app', ...(host === undefined ? {} : { host }) }),
    );
    if (outcome === 'match') expect(selection.matches.map((m) => m.lesson.id)).toEqual([cd.id]);
    else {
      expect(selection.matches).toEqual([]);
      expect(selection.decision.plan.skipped).toEqual([
        { id: cd.id, reason: 'agent-mismatch', matchedBy: ['command:^\\s*cd\\s+\\S+\\s*$'] },
      ]);
    }
  });

  it('prompts match commands, paths, tags and summary words they mention', () => {
    const ev = event({
      event: 'UserPromptSubmit',
      prompt: 'why does `pytest -x` hang when I edit tests/unit/a.py? the webfetch cached?',
    });
    const { matches } = select(ev, [], { stack: [] });
    const byId = Object.fromEntries(matches.map((m) => [m.lesson.id, m.matchedBy]));
    expect(byId[pytest.id]).toContain('command:(^|\\s)pytest\\b');
    expect(byId[tests.id]).toContain('path:tests/**');
    expect(byId[webfetch.id]).toEqual(['words:webfetch,cached']);
  });

  it.each([
    ['pytest -q', ['pytest']],
    ['CI=1 python -m pytest && sudo npm ci | tee x', ['python', 'pytest', 'npm', 'tee']],
    ['/usr/bin/git push', ['/usr/bin/git', 'git']],
  ])('programs of %s', (command, programs) => {
    expect([...commandPrograms(command)]).toEqual(expect.arrayContaining(programs));
  });

  it('path tokens of a prompt', () => {
    expect(promptPaths('see ./src/app.ts and pyproject.toml, not https://x.io/a')).toEqual([
      'src/app.ts',
      'pyproject.toml',
    ]);
  });
});

describe('stack', () => {
  it.each([
    [
      { 'package.json': '{"dependencies":{"react":"18"},"devDependencies":{"typescript":"5"}}' },
      ['javascript', 'node', 'react', 'typescript'],
    ],
    [{ 'pyproject.toml': 'dependencies = ["django>=4"]', 'manage.py': undefined }, ['django', 'python']],
    [{ 'go.mod': undefined, Dockerfile: undefined }, ['docker', 'go']],
    [{ 'Cargo.toml': undefined }, ['rust']],
    [{ 'README.md': undefined }, []],
  ])('%j', (files, stack) => {
    expect(detectStack(new Map(Object.entries(files)))).toEqual(stack);
  });

  it.each([
    [['python'], ['python'], true],
    [['python'], ['go'], false],
    [['python', 'django'], ['go'], false],
    [['postgres'], ['go'], true],
    [['rust'], [], true],
    [[], ['go'], true],
  ])('lesson stack %j in a %j repository: %s', (lessonStack, detected, allowed) => {
    expect(stackAllows(lessonStack, detected)).toBe(allowed);
  });
});

type Fake = ManifestLesson & { text: ManifestText };

/** A matchable lesson with its texts (summary defaults to the start of the text). */
function fakeLesson(
  id: string,
  text: string,
  extra: Partial<ManifestLesson> & { summary?: string; reason?: string } = {},
): Fake {
  const { summary, reason, ...rest } = extra;
  return {
    id,
    n: 0,
    tier: 'project',
    priority: 5,
    confidence: 0.9,
    needsReview: false,
    guard: false,
    tools: [],
    commands: [],
    paths: [],
    pathRegexes: [],
    tags: [],
    stack: [],
    words: [],
    score: 50,
    strength: 3,
    ...rest,
    text: {
      slug: id,
      text,
      summary: summary ?? text.slice(0, 60),
      ...(reason ? { reason } : {}),
      sig: '',
      file: '',
    },
  };
}

describe('plan', () => {
  const m = ({ text, ...l }: Fake, reason = 'command:x'): Match => ({
    text,
    lesson: l,
    matchedBy: [reason],
    strength: 3,
  });
  const state = { seen: new Set<string>(), shownCount: 0, stateAvailable: true };
  const options = { settings: DEFAULT_INJECT_SETTINGS, overhead: 50, allowDeny: true };

  it.each([
    ['needs review', fakeLesson('a', 'x', { needsReview: true }), 'needs-review'],
    ['low confidence', fakeLesson('a', 'x', { confidence: 0.2 }), 'low-confidence'],
  ])('%s never injects', (_name, l, reason) => {
    expect(planInjection([m(l)], state, options).skipped).toEqual([
      { id: 'a', reason, matchedBy: ['command:x'] },
    ]);
  });

  // lessons-learned's minPriority: below it, never injected; an old manifest without it filters nothing.
  it.each([
    [3, 2, 'low-priority'],
    [3, 3, undefined],
    [undefined, 1, undefined],
  ])('minPriority %s and a priority-%s lesson: %s', (minPriority, priority, reason) => {
    const settings = { ...DEFAULT_INJECT_SETTINGS, minPriority };
    const plan = planInjection([m(fakeLesson('a', 'x', { priority }))], state, { ...options, settings });
    expect(plan.skipped.map((skip) => skip.reason)).toEqual(reason === undefined ? [] : [reason]);
    expect(plan.included.map((item) => item.id)).toEqual(reason === undefined ? ['a'] : []);
  });

  it('a guard denies when its command matched, every time, and advises when guards are off', () => {
    const g = fakeLesson('g', 'guard text', { guard: true, reason: 'do y instead' });
    const seen = { ...state, seen: new Set(['g']) };
    expect(planInjection([m(g)], seen, options).denied.map((d) => d.text)).toEqual(['do y instead']);
    const off = planInjection([m(g)], state, {
      ...options,
      settings: { ...DEFAULT_INJECT_SETTINGS, guards: false },
    });
    expect([off.denied, off.included.map((i) => i.id)]).toEqual([[], ['g']]);
    expect(planInjection([m(g, 'tool:Bash')], state, options).denied).toEqual([]);
  });

  it('already shown, over the session cap, over the count, over the budget', () => {
    const ls = ['a', 'b', 'c', 'd', 'e'].map((id) => fakeLesson(id, `${id} `.repeat(10)));
    const plan = planInjection(
      ls.map((l) => m(l)),
      { seen: new Set(['a']), shownCount: 0, stateAvailable: true },
      options,
    );
    expect(plan.included.map((i) => i.id)).toEqual(['b', 'c', 'd']);
    expect(plan.skipped.map((s) => [s.id, s.reason])).toEqual([
      ['a', 'already-shown'],
      ['e', 'over-count'],
    ]);
    const capped = planInjection(
      ls.map((l) => m(l)),
      { seen: new Set(), shownCount: 19, stateAvailable: true },
      options,
    );
    expect(capped.included.map((i) => i.id)).toEqual(['a']);
    const big = fakeLesson('big', 'x'.repeat(5000));
    const tight = planInjection(
      [m(big), m(fakeLesson('small', 'y'.repeat(4000), { summary: 'z'.repeat(4000) }))],
      state,
      options,
    );
    expect(tight.included.map((i) => [i.id, i.form])).toEqual([['big', 'summary']]);
    expect(tight.skipped.map((s) => s.reason)).toEqual(['over-budget']);
  });

  it('one failure, one lesson: a second lesson waiting for the error waits for the next attempt', () => {
    const [a, b, c] = ['a', 'b', 'c'].map((id) => fakeLesson(id, `${id} text`, { errors: ['denied'] }));
    const before = fakeLesson('p', 'p text');
    const ranked = [
      m(a!, 'error:denied'),
      m(b!, 'error:denied'),
      m(before, 'command:x'),
      m(c!, 'error:denied'),
    ];
    const plan = planInjection(ranked, state, options);
    expect(plan.included.map((i) => i.id)).toEqual(['a', 'p']);
    expect(plan.skipped.map((s) => [s.id, s.reason])).toEqual([
      ['b', 'same-failure'],
      ['c', 'same-failure'],
    ]);
    // b was not shown: the next failure of the session gets it
    const next = planInjection(
      [m(a!, 'error:denied'), m(b!, 'error:denied')],
      { ...state, seen: new Set(['a', 'p']), shownCount: 2 },
      options,
    );
    expect(next.included.map((i) => i.id)).toEqual(['b']);
  });

  it('the first lesson always fits: its summary is cut when even that is too long', () => {
    const huge = fakeLesson('h', 'x'.repeat(20_000), { summary: 's'.repeat(20_000) });
    const plan = planInjection([m(huge)], state, { ...options, maxChars: 300 });
    expect(plan.included.map((i) => [i.form, i.text.length])).toEqual([['truncated', 250]]);
  });

  const lessonsArb = fc.array(
    fc.record({
      text: fc.string({ maxLength: 6000 }),
      summary: fc.string({ minLength: 1, maxLength: 400 }),
      confidence: fc.double({ min: 0, max: 1, noNaN: true }),
      guard: fc.boolean(),
      needsReview: fc.boolean(),
    }),
    { maxLength: 12 },
  );

  it('never exceeds the count or the character budget; never shows a seen lesson; no lesson twice', () => {
    fc.assert(
      fc.property(
        lessonsArb,
        fc.integer({ min: 200, max: 20_000 }),
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 0, max: 25 }),
        fc.subarray(['l0', 'l1', 'l2', 'l3']),
        (specs, maxChars, maxLessons, shownCount, seen) => {
          const settings = { ...DEFAULT_INJECT_SETTINGS, maxChars, maxLessons };
          const ranked = specs.map((spec, i) => m(fakeLesson(`l${i}`, spec.text, spec)));
          const plan = planInjection(
            ranked,
            { seen: new Set(seen), shownCount, stateAvailable: true },
            {
              settings,
              overhead: 80,
              allowDeny: true,
            },
          );
          const chars =
            plan.included.reduce((sum, item) => sum + item.text.length, 0) +
            SEPARATOR.length * Math.max(0, plan.included.length - 1);
          expect(chars).toBeLessThanOrEqual(Math.min(maxChars, 10_000) - 80);
          expect(plan.included.length).toBeLessThanOrEqual(maxLessons);
          expect(shownCount + plan.included.length).toBeLessThanOrEqual(Math.max(20, shownCount));
          expect(plan.included.filter((item) => seen.includes(item.id))).toEqual([]);
          const ids = [...plan.included, ...plan.denied, ...plan.skipped].map((x) => x.id);
          expect(new Set(ids).size).toBe(ids.length);
          expect(ids.length).toBe(ranked.length);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('a claim lost to a parallel hook becomes already-shown', () => {
    const plan = planInjection([m(fakeLesson('a', 'x')), m(fakeLesson('b', 'y'))], state, options);
    const claimed = applyClaims(
      plan,
      (wanted) => new Set(wanted.map((w) => w.id).filter((id) => id === 'b')),
    );
    expect([claimed.included.map((i) => i.id), claimed.skipped.map((s) => [s.id, s.reason])]).toEqual([
      ['b'],
      [['a', 'already-shown']],
    ]);
  });

  it('ranks by evidence first, then the precomputed score', () => {
    const weak = { ...m(fakeLesson('w', 'w', { score: 99 }), 'tool:Bash'), strength: 1 };
    const strong = m(fakeLesson('s', 's', { score: 10 }));
    const better = m(fakeLesson('b', 'b', { score: 20 }), 'path:x');
    expect(rankMatches([weak, strong, better]).map((x) => x.lesson.id)).toEqual(['b', 's', 'w']);
  });
});

describe('select: the whole pipeline', () => {
  const top = lesson({ summary: 'the most important lesson', priority: 9, paths: ['src/**'] });
  const user = lesson({ summary: 'a user lesson', priority: 10, tier: 'user', paths: ['src/**'] });
  const review = lesson({ summary: 'unreviewed', priority: 10, needsReview: true, paths: ['src/**'] });
  const general = lesson({ summary: 'a lesson no call brings', priority: 5, tags: ['lang:python'] });
  const manifest = manifestOf([top, user, review, general]);
  const state = { seen: new Set<string>(), shownCount: 0, stateAvailable: true };
  const run = (ev: HookEvent) =>
    selectLessons({
      event: ev,
      head: manifest.head,
      ...manifestReaders(manifest),
      words: manifest.words,
      repoPaths: ['src/a.ts'],
      state,
      settings: manifest.head.settings,
    }).decision;

  it('SessionStart: the protocol and the top project lessons no call brings (a triggered one waits for its call)', () => {
    const decision = run(event({ event: 'SessionStart', source: 'startup' }));
    expect(decision.context).toContain('#lesson\ntool: Bash\ntrigger:');
    expect(decision.context).toContain('#/lesson');
    expect(decision.plan.included.map((i) => i.id)).toEqual([general.id]);
  });

  it("SessionStart: a lesson scoped to other agents is not among them in this agent's session", () => {
    const gemini = lesson({ summary: 'a gemini habit no call brings', priority: 9, agents: ['gemini'] });
    const scoped = manifestOf([general, gemini]);
    const start = (host: 'gemini' | 'claude-code') =>
      selectFresh(scoped, event({ event: 'SessionStart', source: 'startup', host })).decision.plan;
    expect(start('gemini').included.map((i) => i.id)).toEqual([gemini.id, general.id]);
    const claude = start('claude-code');
    expect(claude.included.map((i) => i.id)).toEqual([general.id]);
    expect(claude.skipped).toContainEqual({
      id: gemini.id,
      reason: 'agent-mismatch',
      matchedBy: ['startup'],
    });
  });

  it('SubagentStart: the protocol only', () => {
    const decision = run(event({ event: 'SubagentStart', agentId: 'a1' }));
    expect([
      decision.context?.startsWith('lore: this project keeps lessons'),
      decision.plan.included,
    ]).toEqual([true, []]);
  });

  it('PreToolUse: user-tier lessons too, needs-review dropped with its reason', () => {
    const decision = run(event({ tool: 'Edit', paths: ['/repo/src/a.ts'] }));
    expect(decision.plan.included.map((i) => i.id)).toEqual([user.id, top.id]);
    expect(decision.plan.skipped).toEqual([
      { id: review.id, reason: 'needs-review', matchedBy: ['path:src/**'] },
    ]);
  });

  it('project wins over the user tier on an id or slug conflict', () => {
    const project = lesson({ id: 'a000000001', slug: 'same', summary: 'project copy', paths: ['x/**'] });
    const copy = lesson({
      id: 'a000000001',
      slug: 'other',
      summary: 'user copy',
      tier: 'user',
      paths: ['x/**'],
    });
    const sameSlug = lesson({ slug: 'same', summary: 'user same slug', tier: 'user', paths: ['x/**'] });
    const sameTier = lesson({ slug: 'same', summary: 'project same slug', paths: ['x/**'] });
    const merged = manifestOf([project, sameTier, copy, sameSlug]);
    expect(merged.texts.flat().map((t) => (t?.summary ?? '').replace(/^\[lore \w+\] /, ''))).toEqual([
      'project copy',
      'project same slug',
    ]);
  });
});

describe('the injected form of a lesson', () => {
  const body = 'What failed:\n\n```\npytest -x\n```\n\nError: a long log the agent does not need.';
  it.each([
    [
      'a captured lesson: summary, mistake and fix; its evidence stays for lore show',
      { mistake: 'pytest: not found', remediation: 'run python -m pytest' },
      false,
    ],
    ['a lesson whose advice lives in its body', {}, true],
  ])('%s', (_name, fields, withBody) => {
    const rendered = renderLesson(lesson({ summary: 'run pytest through python', body, ...fields }));
    expect(rendered.text.startsWith('[lore ')).toBe(true);
    expect(rendered.text.includes('a long log')).toBe(withBody);
    if ('mistake' in fields) expect(rendered.text).toContain('Fix: run python -m pytest');
  });
});

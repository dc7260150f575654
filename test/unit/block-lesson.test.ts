// #lesson blocks as lessons that fire: triggers from `tool:` and `trigger:`, tags as written, and
// one candidate for a block and the heuristic find of the same episode.
import { describe, expect, it } from 'vitest';
import {
  blockToolKind,
  blockTriggers,
  joinLessonBlocks,
  triggerText,
} from '../../src/core/capture/block-lesson.js';
import { commandOf } from '../../src/core/capture/call-target.js';
import { draftCandidate } from '../../src/core/capture/draft-candidate.js';
import { blockTags } from '../../src/core/capture/draft-tags.js';
import type { Episode } from '../../src/core/capture/episode.js';
import { parseLessonBlocks, splitTags } from '../../src/core/capture/lesson-block.js';
import { mergeCandidate } from '../../src/core/capture/merge-candidate.js';
import type { CandidateRecord } from '../../src/core/capture/merge-candidate.js';
import { DEFAULT_CONFIDENCE_WEIGHTS, DEFAULT_PRIORITY_WEIGHTS } from '../../src/core/capture/score.js';
import { LessonSchema } from '../../src/core/lesson/schema.js';
import { compileGlob } from '../../src/core/match/glob.js';
import { detectAll, madeUpSession } from '../helpers/capture-events.js';

const CARGO_BLOCK =
  'It failed.\n#lesson\ntool: Bash\ntrigger: cargo test\nmistake: cargo test at the root fails (virtual manifest)\nfix: run cargo test --workspace\ntags: lang:rust, tool:cargo\n#/lesson';
const bash = (command: string) => ({ command });
const VIRTUAL = 'error: manifest path `/repo/Cargo.toml` is a virtual manifest';

describe('a block tool', () => {
  it.each([
    ['Bash', 'shell'],
    ['exec_command', 'shell'],
    ['run_shell_command', 'shell'],
    ['Edit', 'file'],
    ['write_file', 'file'],
    ['WebFetch', 'agent'],
    ['mcp__github__create_issue', 'agent'],
    ['google_web_search', 'agent'],
    ['cargo', 'program'],
    ['docker-compose', 'program'],
    [undefined, 'none'],
  ])('%s is a %s', (tool, kind) => {
    expect(blockToolKind(tool)).toBe(kind);
  });

  it.each([
    ['cargo test', 'cargo test'],
    ['`cargo test`', 'cargo test'],
    ['when running `npm run build` in CI', 'npm run build'],
    ['when running pytest tests/', 'pytest tests/'],
    ['e.g. go test ./...', 'go test ./...'],
    ['$ make check', 'make check'],
    ['  ', undefined],
  ])('trigger %j reads as %j', (trigger, text) => {
    expect(triggerText(trigger)).toBe(text);
  });
});

describe('block triggers, as the heuristics derive them from commands', () => {
  it.each([
    {
      name: 'a shell command: its regex also fires with more arguments',
      block: { tool: 'Bash', trigger: 'cargo test' },
      key: 'cargo test',
      fires: ['cargo test', 'cargo test --all', 'cd crates && cargo test -p x', 'RUST_LOG=1 cargo  test'],
      silent: ['cargo build', 'echo cargo-test', 'cargo testing'],
    },
    {
      name: 'a flag written in the trigger is required',
      block: { tool: 'Bash', trigger: 'git push --force' },
      key: 'git push',
      fires: ['git push --force origin main', 'git push origin main --force'],
      silent: ['git push origin main'],
    },
    {
      name: 'the script of a runner',
      block: { tool: 'Bash', trigger: 'when running `npm run build`' },
      key: 'npm run build',
      fires: ['npm run build', 'npm run build -- --watch'],
      silent: ['npm run test'],
    },
    {
      name: 'a path argument is no part of the command',
      block: { tool: 'Bash', trigger: 'pytest tests/' },
      key: 'pytest',
      fires: ['pytest -x tests/unit', 'python -m pytest'],
      silent: ['pip install pytest-cov'],
    },
    {
      name: 'a program as the tool: the trigger is its arguments',
      block: { tool: 'cargo', trigger: 'test' },
      key: 'cargo test',
      fires: ['cargo test --all'],
      silent: ['cargo build'],
    },
    {
      name: 'a program as the tool and no trigger',
      block: { tool: 'terraform', trigger: undefined },
      key: 'terraform',
      fires: ['terraform apply'],
      silent: ['tf apply'],
    },
    {
      name: 'no tool: a command',
      block: { tool: undefined, trigger: 'docker compose up' },
      key: 'docker compose up',
      fires: ['docker compose up -d'],
      silent: ['docker compose down'],
    },
  ])('$name', ({ block, key, fires, silent }) => {
    const triggers = blockTriggers(block, '/repo');
    const regex = new RegExp(triggers.commands[0] ?? '$^');
    expect([triggers.key, triggers.tools, triggers.paths, triggers.commands.length]).toEqual([
      key,
      [],
      [],
      1,
    ]);
    expect(fires.filter((command) => !regex.test(command))).toEqual([]);
    expect(silent.filter((command) => regex.test(command))).toEqual([]);
    expect(LessonSchema.shape.commands.safeParse(triggers.commands).success).toBe(true);
  });

  it.each([
    [
      'a file tool: a glob',
      { tool: 'Edit', trigger: 'src/**/*.rs' },
      'src/**/*.rs',
      ['src/a/b.rs'],
      ['src/a.ts'],
    ],
    [
      'an absolute path in the project',
      { tool: 'Edit', trigger: '/repo/src/app.ts' },
      'src/app.ts',
      ['src/app.ts'],
      ['app.ts'],
    ],
    [
      'a path outside it',
      { tool: 'write_file', trigger: '/etc/hosts.conf' },
      '**/hosts.conf',
      ['conf/hosts.conf'],
      [],
    ],
    [
      'a path in prose',
      { tool: 'Edit', trigger: 'editing ./migrations/001.sql' },
      'migrations/001.sql',
      ['migrations/001.sql'],
      [],
    ],
    ['no tool: a wildcard is a glob', { tool: undefined, trigger: '*.py' }, '*.py', ['a/b/c.py'], ['c.pyc']],
    ['a shell tool and a wildcard', { tool: 'Bash', trigger: 'db/*.sql' }, 'db/*.sql', ['db/1.sql'], []],
  ])('%s', (_name, block, glob, fires, silent) => {
    const triggers = blockTriggers(block, '/repo');
    const regex = new RegExp(compileGlob(triggers.paths[0] ?? ''));
    expect([triggers.paths, triggers.commands, triggers.tools]).toEqual([[glob], [], []]);
    expect(fires.filter((path) => !regex.test(path))).toEqual([]);
    expect(silent.filter((path) => regex.test(path))).toEqual([]);
  });

  it.each([
    ['prose for a shell', { tool: 'Bash', trigger: 'the tests hang' }, ['Bash']],
    ['an agent tool', { tool: 'WebFetch', trigger: 'when the docs site is down' }, ['WebFetch']],
    ['a path outside the repository by ..', { tool: 'Edit', trigger: '../other/x.ts' }, ['Edit']],
    ['a list of tools: the first', { tool: 'Read, Edit', trigger: undefined }, ['Read']],
    ['nothing at all', { tool: undefined, trigger: undefined }, []],
  ])('otherwise the tool name: %s', (_name, block, tools) => {
    expect(blockTriggers(block, '/repo')).toEqual({ tools, commands: [], paths: [], key: undefined });
  });
});

describe('block tags', () => {
  it.each([
    ['lang:rust, tool:cargo', ['lang:rust', 'tool:cargo']],
    ['lang: rust, tool: cargo', ['lang:rust', 'tool:cargo']],
    ['[lang:go tool:go]', ['lang:go', 'tool:go']],
    ['`lang:python`, "tool:pytest"', ['lang:python', 'tool:pytest']],
    ['Lang:TypeScript', ['Lang:TypeScript']],
  ])('%j splits into %j', (value, tags) => {
    expect(splitTags(value)).toEqual(tags);
  });

  it('keeps what the schema takes as written, drops the rest with the reason', () => {
    const long = `topic:${'x'.repeat(80)}`;
    expect(blockTags(['lang:rust', 'tool:cargo', long, 'lang:rust'])).toEqual({
      tags: ['lang:rust', 'tool:cargo'],
      dropped: [{ tag: long, reason: 'must be at most 80 characters' }],
    });
  });

  it('a draft keeps the block tags with their category; a dropped one is named in the body', () => {
    const long = `topic:${'y'.repeat(80)}`;
    const s = madeUpSession();
    const [episode] = detectAll([
      s.say(
        `#lesson\ntool: Bash\ntrigger: cargo test\nfix: --workspace\ntags: lang:rust, tool:cargo, ${long}\n#/lesson`,
      ),
    ]);
    const draft = draftCandidate(episode!);
    expect(draft.tags.filter((tag) => /rust|cargo/.test(tag))).toEqual(['lang:rust', 'tool:cargo']);
    expect(draft.tags).not.toContain(long);
    expect(draft.body).toContain(`Tags of the block not kept: \`${long}\` (must be at most 80 characters)`);
  });
});

describe('a block and the heuristic find of its episode', () => {
  const shape = (episodes: Episode[]) =>
    episodes.map((e) => ({
      kind: e.kind,
      tier: e.tier,
      failed: e.failures.map((a) => commandOf(a.call)),
      fix: e.fix === undefined ? undefined : commandOf(e.fix),
      lines: e.evidence.map((ref) => ref.line),
      block: e.block?.trigger,
    }));

  it.each([
    {
      name: 'the block between the failure and the fix',
      events: (s: ReturnType<typeof madeUpSession>) => [
        ...s.fail('Bash', bash('cargo test'), VIRTUAL),
        s.say(CARGO_BLOCK),
        ...s.ok('Bash', bash('cargo test --workspace')),
      ],
      expected: [
        {
          kind: 'lesson-block',
          tier: 1,
          failed: ['cargo test'],
          fix: 'cargo test --workspace',
          lines: [1, 2, 3, 4, 5],
          block: 'cargo test',
        },
      ],
    },
    {
      name: 'the block after the fix',
      events: (s: ReturnType<typeof madeUpSession>) => [
        ...s.fail('Bash', bash('cargo test'), VIRTUAL),
        ...s.ok('Bash', bash('cargo test --workspace')),
        s.say('Fixed.'),
        s.say(CARGO_BLOCK),
      ],
      expected: [
        {
          kind: 'lesson-block',
          tier: 1,
          failed: ['cargo test'],
          fix: 'cargo test --workspace',
          lines: [1, 2, 3, 4, 6],
          block: 'cargo test',
        },
      ],
    },
    {
      name: 'a block about another command stays apart',
      events: (s: ReturnType<typeof madeUpSession>) => [
        ...s.fail('Bash', bash('npm test'), 'Error: no test specified'),
        s.say(CARGO_BLOCK),
        ...s.ok('Bash', bash('npm test -- --passWithNoTests')),
      ],
      expected: [
        { kind: 'lesson-block', tier: 1, failed: [], fix: undefined, lines: [3], block: 'cargo test' },
        {
          kind: 'error-fix',
          tier: 2,
          failed: ['npm test'],
          fix: 'npm test -- --passWithNoTests',
          lines: [1, 2, 4, 5],
          block: undefined,
        },
      ],
    },
    {
      name: 'a block before the failure is not about it',
      events: (s: ReturnType<typeof madeUpSession>) => [
        s.say(CARGO_BLOCK),
        ...s.fail('Bash', bash('cargo test'), VIRTUAL),
        ...s.ok('Bash', bash('cargo test --workspace')),
      ],
      expected: [
        { kind: 'lesson-block', tier: 1, failed: [], fix: undefined, lines: [1], block: 'cargo test' },
        {
          kind: 'error-fix',
          tier: 2,
          failed: ['cargo test'],
          fix: 'cargo test --workspace',
          lines: [2, 3, 4, 5],
          block: undefined,
        },
      ],
    },
    {
      name: 'a path trigger joins a failed command that names that file',
      events: (s: ReturnType<typeof madeUpSession>) => [
        ...s.fail(
          'Bash',
          bash('pip install -r /repo/requirements.txt'),
          'ERROR: No matching distribution found for reqests',
        ),
        ...s.ok('Bash', bash('pip install -r /repo/requirements.txt --no-deps')),
        s.say(
          '#lesson\ntrigger: requirements.txt\nmistake: a typo in a requirement name\nfix: check names on PyPI\n#/lesson',
        ),
      ],
      expected: [
        {
          kind: 'lesson-block',
          tier: 1,
          failed: ['pip install -r /repo/requirements.txt'],
          fix: 'pip install -r /repo/requirements.txt --no-deps',
          lines: [1, 2, 3, 4, 5],
          block: 'requirements.txt',
        },
      ],
    },
    {
      name: 'a path trigger stays apart from a failed command about other files',
      events: (s: ReturnType<typeof madeUpSession>) => [
        ...s.fail(
          'Bash',
          bash('pip install -r /repo/dev.txt'),
          'ERROR: No matching distribution found for reqests',
        ),
        ...s.ok('Bash', bash('pip install -r /repo/dev.txt --no-deps')),
        s.say(
          '#lesson\ntrigger: requirements.txt\nmistake: a typo in a requirement name\nfix: check names on PyPI\n#/lesson',
        ),
      ],
      expected: [
        {
          kind: 'error-fix',
          tier: 2,
          failed: ['pip install -r /repo/dev.txt'],
          fix: 'pip install -r /repo/dev.txt --no-deps',
          lines: [1, 2, 3, 4],
          block: undefined,
        },
        { kind: 'lesson-block', tier: 1, failed: [], fix: undefined, lines: [5], block: 'requirements.txt' },
      ],
    },
    {
      name: 'a block with neither tool nor trigger joins the failure just before it',
      events: (s: ReturnType<typeof madeUpSession>) => [
        ...s.fail('Bash', bash('cargo test'), VIRTUAL),
        ...s.ok('Bash', bash('cargo test --workspace')),
        s.say('#lesson\nmistake: forgot the workspace flag\nfix: add --workspace\n#/lesson'),
      ],
      expected: [
        {
          kind: 'lesson-block',
          tier: 1,
          failed: ['cargo test'],
          fix: 'cargo test --workspace',
          lines: [1, 2, 3, 4, 5],
          block: undefined,
        },
      ],
    },
  ])('$name', ({ events, expected }) => {
    expect(shape(joinLessonBlocks(detectAll(events(madeUpSession()))))).toEqual(expected);
  });

  it('a block written long after the failure stays apart', () => {
    const s = madeUpSession();
    const events = [
      ...s.fail('Bash', bash('cargo test'), VIRTUAL),
      ...s.ok('Bash', bash('cargo test --workspace')),
      ...Array.from({ length: 70 }, (_, i) => s.say(`note ${i}`)),
      s.say(CARGO_BLOCK),
    ];
    expect(joinLessonBlocks(detectAll(events, 200)).map((e) => e.kind)).toEqual([
      'error-fix',
      'lesson-block',
    ]);
  });

  it('a block in another transcript file stays apart', () => {
    const failed = madeUpSession({ file: 'a.jsonl' });
    const other = madeUpSession({ file: 'b.jsonl' });
    const episodes = [
      ...detectAll([
        ...failed.fail('Bash', bash('cargo test'), VIRTUAL),
        ...failed.ok('Bash', bash('cargo test --all')),
      ]),
      ...detectAll([other.say(''), other.say(''), other.say(''), other.say(CARGO_BLOCK)]),
    ];
    expect(joinLessonBlocks(episodes).map((e) => e.kind)).toEqual(['error-fix', 'lesson-block']);
  });
});

describe('one candidate for a block and its find', () => {
  const scoring = { floor: 0.5, confidence: DEFAULT_CONFIDENCE_WEIGHTS, priority: DEFAULT_PRIORITY_WEIGHTS };
  const context = (id: string) => ({
    id,
    nowIso: '2026-11-26T00:00:00.000Z',
    tier: 'project' as const,
    scoring,
  });
  const episodes = (session = 's1') => {
    const s = madeUpSession({ session, file: `${session}.jsonl` });
    return detectAll([
      ...s.fail('Bash', bash('cargo test'), VIRTUAL),
      s.say(CARGO_BLOCK),
      ...s.ok('Bash', bash('cargo test --workspace')),
    ]);
  };

  it("the joined draft has the block's words and triggers, both evidence lists, and the find's hash", () => {
    const [block, found] = episodes();
    const [joined] = joinLessonBlocks([block!, found!]);
    const draft = draftCandidate(joined!);
    const heuristic = draftCandidate(found!);
    expect({
      kind: draft.kind,
      tier: draft.tier,
      mistake: draft.mistake,
      remediation: draft.remediation,
      fires: new RegExp(draft.commands[0] ?? '$^').test('cargo test --all'),
      tools: draft.tools,
      paths: draft.paths,
      evidence: draft.evidence.map((ref) => ref.line),
      joined: draft.joined,
    }).toEqual({
      kind: 'lesson-block',
      tier: 1,
      mistake: 'cargo test at the root fails (virtual manifest)',
      remediation: 'run cargo test --workspace',
      fires: true,
      tools: [],
      paths: [],
      evidence: [1, 2, 3, 4, 5],
      joined: { hashes: [heuristic.contentHash], anchors: ['s1.jsonl:1', 's1.jsonl:3'] },
    });
    expect(draft.tags).toEqual(expect.arrayContaining(['lang:rust', 'tool:cargo']));
    expect(draft.contentHash).toBe(draftCandidate(block!).contentHash);
  });

  it('a candidate found again from another failure waits for either error; a before-call one stays so', () => {
    const s = madeUpSession({ session: 's1' });
    const first = draftCandidate(
      detectAll([
        ...s.fail('Bash', { command: 'pnpm test' }, 'Error: Cannot find module vitest'),
        ...s.ok('Bash', { command: 'pnpm install' }),
        ...s.ok('Bash', { command: 'pnpm test' }),
      ])[0]!,
    );
    const again = { ...first, session: 's2', anchor: 's2.jsonl:1', errors: ['ERR_MODULE_NOT_FOUND'] };
    const stored = mergeCandidate(first, undefined, context('c1')).record;
    const merged = mergeCandidate(again, stored, context('c1')).record;
    const before = mergeCandidate(again, { ...stored, errors: [] }, context('c1')).record;
    expect([first.errors, merged['errors'], before['errors']]).toEqual([
      ['Cannot\\s+find\\s+module'],
      ['Cannot\\s+find\\s+module', 'ERR_MODULE_NOT_FOUND'],
      [],
    ]);
  });

  it('takes over the candidate of its find: same episode no repeat, another session one', () => {
    const [block, found] = episodes();
    const heuristic = mergeCandidate(draftCandidate(found!), undefined, context('c1')).record;
    const joined = draftCandidate(joinLessonBlocks([block!, found!])[0]!);
    const taken = mergeCandidate(joined, heuristic, context('c1'));
    const [otherBlock, otherFound] = episodes('s2');
    const again = mergeCandidate(
      draftCandidate(joinLessonBlocks([otherBlock!, otherFound!])[0]!),
      taken.record,
      context('c1'),
    );
    const view = (record: CandidateRecord) => ({
      summary: record.summary,
      contentHash: record.contentHash,
      hashes: record.capture.hashes,
      kind: record.capture.kind,
      tier: record.capture.tier,
      occurrences: record.occurrences,
      lines: record.capture.evidence.map((ref) => ref.line),
      commands: record.commands,
    });
    expect([taken.change, view(taken.record)]).toEqual([
      'merged',
      {
        summary: joined.summary,
        contentHash: joined.contentHash,
        hashes: [heuristic.contentHash],
        kind: 'lesson-block',
        tier: 1,
        occurrences: 1,
        lines: [1, 2, 4, 5, 3],
        commands: joined.commands,
      },
    ]);
    expect([again.change, again.record.occurrences, again.record.sourceSessions]).toEqual([
      'merged',
      2,
      ['s1', 's2'],
    ]);
  });

  it('the same joined episode scanned twice changes nothing', () => {
    const joined = draftCandidate(joinLessonBlocks(episodes())[0]!);
    const first = mergeCandidate(joined, undefined, context('c1')).record;
    expect(mergeCandidate(joined, first, context('c1')).change).toBe('unchanged');
  });

  it('parses the recorded block text as the agent wrote it', () => {
    expect(parseLessonBlocks(CARGO_BLOCK)[0]?.tags).toEqual(['lang:rust', 'tool:cargo']);
  });
});

// The lesson verbs end to end: init, add, list, show, update, archive, supersede, upvote, search.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSandbox, lessonDirs, listIds, seedLessons } from '../helpers/cli.js';
import type { CheckJson, ErrorJson, ListJson, Sandbox, SearchJson, ShowJson } from '../helpers/cli.js';

function show(sandbox: Sandbox, ref: string): ShowJson {
  const run = sandbox.run(['show', ref, '--json']);
  expect(run.code, run.stderr).toBe(0);
  return run.json<ShowJson>();
}

/** Adds lessons until two ids share their first character (at most 33: the alphabet has 32). */
function addUntilSharedFirstChar(sandbox: Sandbox): { prefix: string; ids: string[] } {
  const ids: string[] = [];
  for (;;) {
    ids.push(sandbox.add(['--summary', `numbered lesson ${ids.length}`]));
    const firsts = ids.map((id) => id[0]);
    const shared = firsts.find((c, i) => firsts.indexOf(c) !== i);
    if (shared !== undefined) return { prefix: shared, ids: ids.filter((id) => id.startsWith(shared)) };
  }
}

describe('lore init', () => {
  it('creates .lore/ and says what it made; a second run changes nothing', () => {
    const sandbox = createSandbox({ init: false });
    const first = sandbox.run(['init']);
    expect(first.code).toBe(0);
    for (const made of ['.lore/lessons', '.lore/config.yaml', '.lore/.gitignore']) {
      expect(first.stdout).toContain(`created ${made}`);
      expect(existsSync(sandbox.inRepo(made))).toBe(true);
    }
    const config = sandbox.inRepo('.lore/config.yaml');
    writeFileSync(config, `${readFileSync(config, 'utf8')}# my own note\n`);
    const second = sandbox.run(['init']);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('is already set up; nothing changed');
    expect(readFileSync(config, 'utf8')).toContain('# my own note');
    expect(sandbox.run(['init', '--json']).json<{ created: string[] }>().created).toEqual([]);
  });

  it('from a subdirectory, creates .lore/ at the repository root (the directory with .git)', () => {
    const sandbox = createSandbox({ init: false });
    const deep = sandbox.inRepo('src', 'deep');
    mkdirSync(deep, { recursive: true });
    const run = sandbox.run(['init', '--json'], { cwd: deep });
    expect(run.code).toBe(0);
    expect(run.json<{ dir: string }>().dir).toBe(sandbox.inRepo('.lore'));
    expect(existsSync(join(deep, '.lore'))).toBe(false);
    const id = sandbox.add(['--summary', 'added from deep inside'], { cwd: deep });
    expect(existsSync(sandbox.lessonFile(id))).toBe(true);
  });
});

describe('lore add', () => {
  it('prints the new id first and writes .lore/lessons/<id>/lesson.yaml', () => {
    const sandbox = createSandbox();
    const run = sandbox.run(['add', '--summary', 'Run pytest with -p no:cacheprovider in CI']);
    expect(run.code).toBe(0);
    const id = run.stdout.split('\n')[0] ?? '';
    expect(id).toMatch(/^[0-9a-hjkmnp-tv-z]{10}$/);
    expect(run.stdout).toContain(`lore show ${id}`);
    expect(lessonDirs(sandbox.inRepo('.lore'))).toEqual([id]);
    expect(readFileSync(sandbox.lessonFile(id), 'utf8')).toContain(
      'summary: Run pytest with -p no:cacheprovider in CI',
    );
  });

  it('a guard says which fix it lets through, or how to check that it does not deny its fix', () => {
    const sandbox = createSandbox();
    const guard = (command: string, more: string[] = []) =>
      sandbox.run([
        'add',
        '--summary',
        `guard on ${command}`,
        '--type',
        'guard',
        '--command',
        command,
        ...more,
      ]);
    expect(guard('git stash( |$)', ['--remediation', 'run `git stash -u`']).stdout).toContain(
      'guard: denies every call its commands match but its fix, let through: `git stash -u`',
    );
    expect(guard('git push.*--force').stdout).toContain(
      'if the corrected command is one of them, name it in backticks in --remediation',
    );
    const hint = sandbox.run(['add', '--summary', 'a hint', '--command', 'git stash( |$)']);
    expect(hint.stdout).not.toContain('guard:');
  });

  it('--json prints {"id": ...} and -q only the id', () => {
    const sandbox = createSandbox();
    const json = sandbox.run(['add', '--summary', 'first', '--json']);
    expect(json.code).toBe(0);
    const { id } = json.json<{ id: string }>();
    const quiet = sandbox.run(['add', '--summary', 'second', '-q']);
    expect(quiet.stdout).toMatch(/^[0-9a-z]{10}\n$/);
    expect(listIds(sandbox)).toEqual([id, quiet.stdout.trim()].sort());
  });

  it('every flag lands in the record', () => {
    const sandbox = createSandbox();
    const id = sandbox.add([
      '--summary',
      'Never edit generated files',
      '--body',
      'They are rebuilt by make gen.\nEdit the templates instead.',
      '--tool',
      'Edit',
      '--tool',
      'Write',
      '--command',
      '^make\\s+gen\\b',
      '--path',
      'src/gen/**',
      '--tag',
      'area:codegen',
      '--tag',
      'Lang:Go,kind:generated',
      '--stack',
      'go',
      '--category',
      'process',
      '--severity',
      'high',
      '--priority',
      '8',
      '--confidence',
      '0.75',
      '--type',
      'guard',
      '--evidence',
      'task=PROJ-42',
      '--evidence',
      'commit=3f2a9c1',
      '--slug',
      'no-generated-edits',
    ]);
    const { lesson } = show(sandbox, id);
    expect(lesson).toMatchObject({
      id,
      slug: 'no-generated-edits',
      summary: 'Never edit generated files',
      body: 'They are rebuilt by make gen.\nEdit the templates instead.',
      tools: ['Edit', 'Write'],
      commands: ['^make\\s+gen\\b'],
      paths: ['src/gen/**'],
      tags: ['area:codegen', 'lang:go', 'kind:generated'],
      stack: ['go'],
      category: 'process',
      severity: 'high',
      priority: 8,
      confidence: 0.75,
      type: 'guard',
      tier: 'project',
      status: 'active',
      evidence: [
        { kind: 'task', ref: 'PROJ-42' },
        { kind: 'commit', ref: '3f2a9c1' },
      ],
    });
    expect(lesson.createdAt).toBe(lesson.updatedAt);
  });

  it('takes defaults for what is not given, and a slug from the summary', () => {
    const sandbox = createSandbox();
    const { lesson } = show(sandbox, sandbox.add(['--summary', 'The pytest run hangs on a TTY']));
    expect(lesson).toMatchObject({
      slug: 'pytest-run-hangs-tty',
      category: 'technical',
      severity: 'medium',
      priority: 5,
      confidence: 0.9,
      type: 'hint',
      tags: [],
      supersedes: [],
    });
  });

  it('reads the body from --body-file F and from --body-file - (stdin)', () => {
    const sandbox = createSandbox();
    writeFileSync(sandbox.inRepo('notes.md'), '# Why\n\nBecause.\n');
    const fromFile = sandbox.add(['--summary', 'from a file', '--body-file', 'notes.md']);
    const fromStdin = sandbox.add(['--summary', 'from stdin', '--body-file', '-'], {
      input: 'piped *body*\n',
    });
    expect(show(sandbox, fromFile).lesson.body).toBe('# Why\n\nBecause.\n');
    expect(show(sandbox, fromStdin).lesson.body).toBe('piped *body*\n');
  });
});

describe('lore list', () => {
  const fixture = [
    {
      id: 'aaaaaaaaa1',
      summary: 'pytest needs no cacheprovider',
      tags: ['lang:python'],
      tools: ['Bash'],
      paths: ['tests/**'],
    },
    {
      id: 'aaaaaaaaa2',
      summary: 'handlers must validate input',
      tags: ['lang:python', 'area:api'],
      paths: ['src/api/**/*.py'],
    },
    {
      id: 'aaaaaaaaa3',
      summary: 'run go vet before commit',
      tags: ['lang:go'],
      tools: ['Bash'],
      paths: ['**/*.go'],
    },
    {
      id: 'aaaaaaaaa4',
      summary: 'an archived python lesson',
      tags: ['lang:python'],
      status: 'archived' as const,
    },
    {
      id: 'aaaaaaaaa5',
      summary: 'my personal editor habit',
      tags: ['me:habit'],
      tools: ['Edit'],
      tier: 'user' as const,
    },
  ];
  const cases: { args: string[]; cwd?: string; ids: string[] }[] = [
    { args: [], ids: ['aaaaaaaaa1', 'aaaaaaaaa2', 'aaaaaaaaa3', 'aaaaaaaaa5'] },
    {
      args: ['--status', 'any'],
      ids: ['aaaaaaaaa1', 'aaaaaaaaa2', 'aaaaaaaaa3', 'aaaaaaaaa4', 'aaaaaaaaa5'],
    },
    { args: ['--status', 'archived'], ids: ['aaaaaaaaa4'] },
    { args: ['--tag', 'lang:python'], ids: ['aaaaaaaaa1', 'aaaaaaaaa2'] },
    { args: ['--tag', 'python'], ids: ['aaaaaaaaa1', 'aaaaaaaaa2'] },
    { args: ['--tag', 'lang:python', '--tag', 'area:api'], ids: ['aaaaaaaaa2'] },
    { args: ['--tag', 'lang:rust'], ids: [] },
    { args: ['--tool', 'Bash'], ids: ['aaaaaaaaa1', 'aaaaaaaaa3'] },
    { args: ['--tool', 'bash', '--tag', 'lang:go'], ids: ['aaaaaaaaa3'] },
    { args: ['--path', 'src/api/v1/handlers.py'], ids: ['aaaaaaaaa2'] },
    { args: ['--path', 'tests/unit/test_x.py'], ids: ['aaaaaaaaa1'] },
    { args: ['--path', 'cmd/main.go'], ids: ['aaaaaaaaa3'] },
    { args: ['--path', 'README.md'], ids: [] },
    { args: ['--path', 'api/v1/handlers.py'], cwd: 'src', ids: ['aaaaaaaaa2'] },
    // A glob lists by containment (Orbit's `--path GLOB`): lessons within it, and lessons around it.
    { args: ['--path', 'src/**'], ids: ['aaaaaaaaa2'] },
    { args: ['--path', 'src/api/v1/*.py'], ids: ['aaaaaaaaa2'] },
    { args: ['--path', 'tests/unit/*.py'], ids: ['aaaaaaaaa1'] },
    { args: ['--path', 'docs/**'], ids: [] },
    { args: ['--tier', 'user'], ids: ['aaaaaaaaa5'] },
    { args: ['--tier', 'project', '--tool', 'Bash'], ids: ['aaaaaaaaa1', 'aaaaaaaaa3'] },
  ];

  it('filters by status, tag, tool, path and tier (ANDed)', () => {
    const sandbox = createSandbox();
    seedLessons(sandbox, fixture);
    mkdirSync(sandbox.inRepo('src'));
    const results = cases.map(({ args, cwd }) => {
      const run = sandbox.run(['list', '--json', ...args], {
        cwd: cwd === undefined ? sandbox.repo : sandbox.inRepo(cwd),
      });
      return {
        args,
        code: run.code,
        ids: run
          .json<ListJson>()
          .lessons.map((lesson) => lesson.id)
          .sort(),
      };
    });
    expect(results).toEqual(cases.map(({ args, ids }) => ({ args, code: 0, ids })));
  });

  it('--path says which glob matched and reports the repo-relative path', () => {
    const sandbox = createSandbox();
    seedLessons(sandbox, fixture);
    const data = sandbox.run(['list', '--path', './src/api/v1/handlers.py', '--json']).json<ListJson>();
    expect(data.path).toBe('src/api/v1/handlers.py');
    expect(data.lessons.map((lesson) => [lesson.id, lesson.matchedBy])).toEqual([
      ['aaaaaaaaa2', ['path:src/api/**/*.py']],
    ]);
    const text = sandbox.run(['list', '--path', 'src/api/v1/handlers.py']);
    expect(text.stdout).toContain('<- path:src/api/**/*.py');
  });

  it('says so when nothing matches, and exits 0', () => {
    const run = createSandbox().run(['list']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('no lessons match');
  });
});

describe('lore show and id resolution', () => {
  it('accepts the full id, any unique prefix and the slug', () => {
    const sandbox = createSandbox();
    const id = sandbox.add(['--summary', 'Quote globs in find -name', '--slug', 'quote-find-globs']);
    sandbox.add(['--summary', 'another lesson']);
    for (const ref of [id, id.slice(0, 6), id.slice(0, 3), 'quote-find-globs', id.toUpperCase()]) {
      expect(show(sandbox, ref).lesson.id, ref).toBe(id);
    }
  });

  it('prints the full record and a vote summary', () => {
    const sandbox = createSandbox();
    const id = sandbox.add([
      '--summary',
      'Use rg, not grep -r',
      '--body',
      'rg is faster.',
      '--tag',
      'tool:rg',
    ]);
    expect(sandbox.run(['upvote', id, '--model', 'claude', '--task', 'PROJ-1']).code).toBe(0);
    const text = sandbox.run(['show', id]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`${id}  use-rg-not-grep-r`);
    expect(text.stdout).toContain('status: active');
    expect(text.stdout).toContain('tags: tool:rg');
    expect(text.stdout).toMatch(/^votes: 1 \(last \d{4}-\d\d-\d\dT/m);
    expect(text.stdout).toContain(`file: .lore/lessons/${id}/lesson.yaml`);
    expect(text.stdout).toContain('rg is faster.');
    const json = show(sandbox, id);
    expect(json.file).toBe(`.lore/lessons/${id}/lesson.yaml`);
    expect(json.votes.count).toBe(1);
    expect(json.votes.lastVotedAt).toBe(json.votes.votes[0]?.at);
  });

  it('an ambiguous one-character prefix is refused with every candidate listed', () => {
    const sandbox = createSandbox();
    const { prefix, ids } = addUntilSharedFirstChar(sandbox);
    const run = sandbox.run(['show', prefix]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`"${prefix}" matches ${ids.length} lessons`);
    for (const id of ids) expect(run.stderr).toContain(id);
    const json = sandbox.run(['update', prefix, '--severity', 'high', '--json']);
    expect(json.code).toBe(1);
    const error = json.json<ErrorJson>().error;
    expect(error.code).toBe('ambiguous');
    expect((error.details as { id: string }[]).map((entry) => entry.id).sort()).toEqual([...ids].sort());
  });

  it('an unknown reference suggests lessons whose slug contains it', () => {
    const sandbox = createSandbox();
    const id = sandbox.add(['--summary', 'docker compose needs the v2 plugin']);
    const run = sandbox.run(['show', 'compose']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('no lesson matches "compose"');
    expect(run.stderr).toContain(id);
  });
});

describe('lore update', () => {
  it('changes only the given fields; a list flag replaces the list; --unset removes', () => {
    const sandbox = createSandbox();
    const id = sandbox.add([
      '--summary',
      'old summary',
      '--body',
      'a body',
      '--tag',
      'a',
      '--tag',
      'b',
      '--tool',
      'Bash',
    ]);
    const { body: _body, ...before } = show(sandbox, id).lesson;
    const run = sandbox.run([
      'update',
      id.slice(0, 5),
      '--severity',
      'critical',
      '--tag',
      'c',
      '--unset',
      'body',
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`updated ${id}`);
    const after = show(sandbox, id).lesson;
    expect(after).toMatchObject({
      ...before,
      severity: 'critical',
      tags: ['c'],
      updatedAt: expect.any(String),
    });
    expect(after.body).toBeUndefined();
    expect(after.createdAt).toBe(before.createdAt);
    expect(Date.parse(after.updatedAt)).toBeGreaterThanOrEqual(Date.parse(before.updatedAt));
  });

  it('accepts the slug', () => {
    const sandbox = createSandbox();
    const id = sandbox.add(['--summary', 'slug addressed lesson']);
    expect(sandbox.run(['update', 'slug-addressed-lesson', '--priority', '9']).code).toBe(0);
    expect(show(sandbox, id).lesson.priority).toBe(9);
  });

  it('refuses an invalid value and leaves the file as it was', () => {
    const sandbox = createSandbox();
    const id = sandbox.add(['--summary', 'stays valid']);
    const before = readFileSync(sandbox.lessonFile(id), 'utf8');
    const run = sandbox.run(['update', id, '--path', '/etc/passwd']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/--path #1: must be relative to the repository root/);
    expect(readFileSync(sandbox.lessonFile(id), 'utf8')).toBe(before);
  });
});

describe('lore archive and unarchive', () => {
  it('archive hides a lesson from list and search; unarchive brings it back', () => {
    const sandbox = createSandbox();
    const id = sandbox.add(['--summary', 'terraform plan before apply']);
    const archived = sandbox.run(['archive', id]);
    expect(archived.code).toBe(0);
    expect(archived.stdout).toContain(`archived ${id}`);
    expect(sandbox.run(['archive', id]).stdout).toContain('was already archived');
    expect(show(sandbox, id).lesson.status).toBe('archived');
    expect(listIds(sandbox, ['--status', 'active'])).toEqual([]);
    expect(listIds(sandbox, ['--status', 'archived'])).toEqual([id]);
    expect(sandbox.run(['search', 'terraform', '--json']).json<SearchJson>().results).toEqual([]);
    expect(
      sandbox
        .run(['search', 'terraform', '--status', 'any', '--json'])
        .json<SearchJson>()
        .results.map((r) => r.id),
    ).toEqual([id]);
    expect(sandbox.run(['unarchive', id]).code).toBe(0);
    expect(listIds(sandbox, ['--status', 'active'])).toEqual([id]);
  });

  it('unarchive gives a superseded lesson that was archived back its superseded state, not active', () => {
    const sandbox = createSandbox();
    const old = sandbox.add(['--summary', 'use npm ci in CI']);
    const replacement = sandbox.add(['--summary', 'use pnpm install --frozen-lockfile in CI']);
    expect(sandbox.run(['supersede', old, '--with', replacement]).code).toBe(0);
    expect(sandbox.run(['archive', old]).code).toBe(0);
    expect(show(sandbox, old).lesson).toMatchObject({ status: 'archived', supersededBy: replacement });
    const back = sandbox.run(['unarchive', old, '--json']);
    expect(back.code, back.stderr).toBe(0);
    expect(back.json<{ status: string; changed: boolean }>()).toMatchObject({
      status: 'superseded',
      changed: true,
    });
    const text = sandbox.run(['unarchive', old]);
    expect(text.code).toBe(1);
    expect(text.stderr).toContain(`superseded by ${replacement}, not archived`);
    expect(show(sandbox, old).lesson).toMatchObject({ status: 'superseded', supersededBy: replacement });
    expect(listIds(sandbox, ['--status', 'active'])).toEqual([replacement]);
  });
});

describe('lore supersede', () => {
  it('changes both records: OLD superseded with supersededBy, NEW with supersedes', () => {
    const sandbox = createSandbox();
    const old = sandbox.add(['--summary', 'use npm ci in CI']);
    const replacement = sandbox.add(['--summary', 'use pnpm install --frozen-lockfile in CI']);
    const run = sandbox.run(['supersede', old.slice(0, 4), '--with', 'use-pnpm-install-frozen-lockfile-ci']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`${old} is now superseded by ${replacement}`);
    expect(show(sandbox, old).lesson).toMatchObject({ status: 'superseded', supersededBy: replacement });
    expect(show(sandbox, replacement).lesson).toMatchObject({ status: 'active', supersedes: [old] });
    expect(listIds(sandbox, ['--status', 'active'])).toEqual([replacement]);
    expect(listIds(sandbox, ['--status', 'superseded'])).toEqual([old]);
    expect(sandbox.run(['show', old]).stdout).toContain(`status: superseded (superseded by ${replacement})`);
    expect(sandbox.run(['check']).code).toBe(0);
  });

  it('supersedes across tiers (a project lesson replaced by a user lesson)', () => {
    const sandbox = createSandbox();
    const old = sandbox.add(['--summary', 'project lesson']);
    const replacement = sandbox.add(['--summary', 'user lesson', '--tier', 'user']);
    expect(sandbox.run(['supersede', old, '--with', replacement]).code).toBe(0);
    expect(show(sandbox, old).lesson.supersededBy).toBe(replacement);
    expect(show(sandbox, replacement).lesson.supersedes).toEqual([old]);
  });

  it('refuses a user lesson superseded by a project lesson, which would retire it in every other repository', () => {
    const sandbox = createSandbox();
    const old = sandbox.add(['--summary', 'user lesson', '--tier', 'user']);
    const replacement = sandbox.add(['--summary', 'project lesson']);
    const before = [
      readFileSync(sandbox.lessonFile(old, 'user'), 'utf8'),
      readFileSync(sandbox.lessonFile(replacement), 'utf8'),
    ];
    const run = sandbox.run(['supersede', old, '--with', replacement]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`lore promote ${replacement}`);
    expect([
      readFileSync(sandbox.lessonFile(old, 'user'), 'utf8'),
      readFileSync(sandbox.lessonFile(replacement), 'utf8'),
    ]).toEqual(before);
    expect(show(sandbox, old).lesson.status).toBe('active');
    // once promoted, the replacement is seen wherever the old lesson was
    expect(sandbox.run(['promote', replacement]).code).toBe(0);
    expect(sandbox.run(['supersede', old, '--with', replacement]).code).toBe(0);
    expect(show(sandbox, old).lesson.supersededBy).toBe(replacement);
  });

  it('refuses a lesson superseding itself, a second replacement and an inactive replacement', () => {
    const sandbox = createSandbox();
    const a = sandbox.add(['--summary', 'lesson a']);
    const b = sandbox.add(['--summary', 'lesson b']);
    const c = sandbox.add(['--summary', 'lesson c']);
    const self = sandbox.run(['supersede', a, '--with', a]);
    expect(self.code).toBe(2);
    expect(self.stderr).toContain('cannot supersede itself');
    expect(sandbox.run(['supersede', a, '--with', b]).code).toBe(0);
    const again = sandbox.run(['supersede', a, '--with', c]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`${a} is already superseded by ${b}`);
    expect(again.stderr).toContain(`lore supersede ${b} --with ${c}`);
    const inactive = sandbox.run(['supersede', c, '--with', a]);
    expect(inactive.code).toBe(1);
    expect(inactive.stderr).toContain(`${a} is superseded; only an active lesson can replace another`);
    const unarchive = sandbox.run(['unarchive', a]);
    expect(unarchive.code).toBe(1);
    expect(unarchive.stderr).toContain(`superseded by ${b}, not archived`);
    expect(show(sandbox, c).lesson.status).toBe('active');
  });
});

describe('lore upvote', () => {
  it('counts once per (lesson, model, task)', () => {
    const sandbox = createSandbox();
    const id = sandbox.add(['--summary', 'votable']);
    const first = sandbox.run(['upvote', id, '--model', 'claude-sonnet-4', '--task', 'PROJ-1', '--json']);
    expect(first.json<{ recorded: boolean; votes: { count: number } }>()).toMatchObject({
      recorded: true,
      votes: { count: 1 },
    });
    const again = sandbox.run(['upvote', id, '--model', 'claude-sonnet-4', '--task', 'PROJ-1']);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('nothing changed (1 vote(s))');
    expect(sandbox.run(['upvote', id, '--model', 'claude-sonnet-4', '--task', 'PROJ-2']).code).toBe(0);
    expect(sandbox.run(['upvote', id, '--model', 'codex', '--task', 'PROJ-1']).code).toBe(0);
    const votes = show(sandbox, id).votes;
    expect(votes.count).toBe(3);
    expect(votes.votes.map((vote) => `${vote.model}/${vote.task}`).sort()).toEqual([
      'claude-sonnet-4/PROJ-1',
      'claude-sonnet-4/PROJ-2',
      'codex/PROJ-1',
    ]);
    const lines = readFileSync(join(sandbox.inRepo('.lore/lessons', id), 'votes.jsonl'), 'utf8')
      .trim()
      .split('\n');
    expect(lines).toHaveLength(3);
  });

  it('keeps the earliest time of a (model, task) pair, whatever the file holds', () => {
    const sandbox = createSandbox();
    const id = sandbox.add(['--summary', 'votable']);
    const votesFile = join(sandbox.inRepo('.lore/lessons', id), 'votes.jsonl');
    writeFileSync(
      votesFile,
      [
        '{"model":"m","task":"t","at":"2025-03-01T00:00:00.000Z"}',
        '{"model":"m","task":"t","at":"2025-01-01T00:00:00.000Z"}',
        '',
      ].join('\n'),
    );
    expect(sandbox.run(['upvote', id, '--model', 'm', '--task', 't']).stdout).toContain('nothing changed');
    const votes = show(sandbox, id).votes;
    expect(votes.count).toBe(1);
    expect(votes.votes).toEqual([{ model: 'm', task: 't', at: '2025-01-01T00:00:00.000Z' }]);
    expect(votes.lastVotedAt).toBe('2025-01-01T00:00:00.000Z');
  });

  it('refuses a vote without a task and records nothing', () => {
    const sandbox = createSandbox();
    const id = sandbox.add(['--summary', 'votable']);
    const run = sandbox.run(['upvote', id, '--model', 'm']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('a vote without a task is refused');
    expect(existsSync(join(sandbox.inRepo('.lore/lessons', id), 'votes.jsonl'))).toBe(false);
    expect(show(sandbox, id).votes.count).toBe(0);
  });
});

describe('lore search', () => {
  it('ranks summary hits over body hits and says which fields matched', () => {
    const sandbox = createSandbox();
    const inSummary = sandbox.add(['--summary', 'pytest hangs when stdin is a TTY']);
    const inBody = sandbox.add([
      '--summary',
      'CI needs a timeout',
      '--body',
      'otherwise pytest can hang forever',
    ]);
    sandbox.add(['--summary', 'unrelated lesson about go vet']);
    const run = sandbox.run(['search', 'pytest', '--json']);
    expect(run.code).toBe(0);
    const data = run.json<SearchJson>();
    expect(data.query).toBe('pytest');
    expect(data.results.map((r) => r.id)).toEqual([inSummary, inBody]);
    expect(data.results[0]?.matchedBy).toContain('text:summary');
    expect(data.results[1]?.matchedBy).toEqual(['text:body']);
    expect(data.results[0]?.score).toBeGreaterThan(data.results[1]?.score ?? Infinity);
    const text = sandbox.run(['search', 'pytest']);
    expect(text.stdout).toContain('<- text:body');
  });

  it('--limit, --tag and --status narrow the results; no match exits 0', () => {
    const sandbox = createSandbox();
    seedLessons(sandbox, [
      { id: 'bbbbbbbbb1', summary: 'docker build cache busts', tags: ['tool:docker'] },
      { id: 'bbbbbbbbb2', summary: 'docker compose v2 syntax', tags: ['tool:compose'] },
      { id: 'bbbbbbbbb3', summary: 'docker login in CI', status: 'archived' },
    ]);
    const ids = (args: string[]) =>
      sandbox
        .run(['search', ...args, '--json'])
        .json<SearchJson>()
        .results.map((r) => r.id)
        .sort();
    expect(ids(['docker'])).toEqual(['bbbbbbbbb1', 'bbbbbbbbb2']);
    expect(ids(['docker', '--limit', '1'])).toHaveLength(1);
    expect(ids(['docker', '--tag', 'tool:compose'])).toEqual(['bbbbbbbbb2']);
    expect(ids(['docker', '--status', 'any'])).toEqual(['bbbbbbbbb1', 'bbbbbbbbb2', 'bbbbbbbbb3']);
    const both = sandbox.run(['search', 'docker', 'compose', '--json']).json<SearchJson>().results;
    expect(both[0]?.id).toBe('bbbbbbbbb2');
    const none = sandbox.run(['search', 'kubernetes']);
    expect(none.code).toBe(0);
    expect(none.stdout).toContain('no lessons match "kubernetes"');
  });

  it('a query with FTS syntax characters does not break the search', () => {
    const sandbox = createSandbox();
    const id = sandbox.add(['--summary', 'mock.patch the import path, not the definition']);
    const run = sandbox.run(['search', 'mock.patch', '"unbalanced', 'OR', '*', '--json']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.json<SearchJson>().results.map((r) => r.id)).toContain(id);
  });
});

describe('lore sync and lore check on a healthy store', () => {
  it('check exits 0 and sync reports the lesson count', () => {
    const sandbox = createSandbox();
    sandbox.add(['--summary', 'one']);
    sandbox.add(['--summary', 'two', '--tier', 'user']);
    const check = sandbox.run(['check']);
    expect(check.code).toBe(0);
    expect(check.stdout).toContain('ok: 2 lesson(s) checked');
    const sync = sandbox.run(['sync', '--json']);
    expect(sync.code).toBe(0);
    expect(sync.json<{ lessons: number; errors: number }>()).toMatchObject({ lessons: 2, errors: 0 });
  });

  it('check accepts a checkpoint, and warns about one that has nothing to deny on', () => {
    const sandbox = createSandbox();
    sandbox.add([
      '--summary',
      'publish needs the changelog',
      '--type',
      'checkpoint',
      '--command',
      'npm publish',
    ]);
    const loose = sandbox.add(['--summary', 'every Bash call', '--type', 'checkpoint', '--tool', 'Bash']);
    const check = sandbox.run(['check', '--json']);
    expect(check.code).toBe(0);
    const data = check.json<CheckJson>();
    expect([data.ok, data.lessons, data.errors, data.warnings]).toEqual([true, 2, 0, 1]);
    expect(data.problems).toEqual([
      expect.objectContaining({
        file: expect.stringContaining(loose),
        field: 'type',
        message: expect.stringContaining('a checkpoint without commands, paths or contents never denies'),
      }),
    ]);
  });
});

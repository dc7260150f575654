// Bad data on disk: one broken lesson never hides the others, every problem names its file and
// line, the legacy flat layout is refused with the command that migrates it, and the index is
// derived data that rebuilds itself.
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSandbox, lessonDirs, lineOf, listIds, seedLessons } from '../helpers/cli.js';
import type { CheckJson, ListJson, Sandbox, SearchJson, ShowJson } from '../helpers/cli.js';

type Broken = { name: string; breakIt: (file: string) => { line: number; field?: string; message: RegExp } };

const BROKEN: Broken[] = [
  {
    name: 'an alias bomb ("billion laughs")',
    breakIt: (file) => {
      const levels = ['a: &a [l,l,l,l,l,l,l,l,l]'];
      for (const [name, below] of [
        ['b', 'a'],
        ['c', 'b'],
        ['d', 'c'],
      ])
        levels.push(`${name}: &${name} [${Array(9).fill(`*${below}`).join(',')}]`);
      writeFileSync(file, `${levels.join('\n')}\n`);
      return { line: 1, message: /invalid YAML: Excessive alias count/ };
    },
  },
  {
    name: 'broken YAML (a tab-indented line)',
    breakIt: (file) => {
      const line = lineOf(file, 'type:') + 1;
      writeFileSync(
        file,
        readFileSync(file, 'utf8').replace(/^type: hint$/m, 'type: hint\n\tindented: with a tab'),
      );
      return { line, message: /invalid YAML/ };
    },
  },
  {
    name: 'broken YAML (a duplicate key)',
    breakIt: (file) => {
      writeFileSync(file, `${readFileSync(file, 'utf8')}severity: low\n`);
      return {
        line: readFileSync(file, 'utf8').trimEnd().split('\n').length,
        message: /invalid YAML: Map keys must be unique/,
      };
    },
  },
  {
    name: 'a schema violation (priority 42)',
    breakIt: (file) => {
      writeFileSync(file, readFileSync(file, 'utf8').replace(/^priority: 5$/m, 'priority: 42'));
      return { line: lineOf(file, 'priority:'), field: 'priority', message: /must be from 1 to 10/ };
    },
  },
  {
    name: 'a schema violation (unknown severity)',
    breakIt: (file) => {
      writeFileSync(
        file,
        readFileSync(file, 'utf8').replace(/^severity: medium$/m, 'severity: catastrophic'),
      );
      return { line: lineOf(file, 'severity:'), field: 'severity', message: /./ };
    },
  },
  {
    name: 'a NUL character in a field (captured binary output)',
    breakIt: (file) => {
      writeFileSync(file, `${readFileSync(file, 'utf8')}body: "The build printed: bad byte \\0 here"\n`);
      return { line: lineOf(file, 'body:'), field: 'body', message: /holds a NUL character/ };
    },
  },
  {
    name: 'a terminal bell in the summary (an invisible control character)',
    breakIt: (file) => {
      writeFileSync(
        file,
        readFileSync(file, 'utf8').replace(/^summary: .*$/m, 'summary: "run the tests \\a quietly"'),
      );
      return {
        line: lineOf(file, 'summary:'),
        field: 'summary',
        message: /invisible control character \(U\+0007\)/,
      };
    },
  },
  {
    name: 'a bidirectional override in the body (text that reads otherwise than it shows)',
    breakIt: (file) => {
      writeFileSync(file, `${readFileSync(file, 'utf8')}body: "Safe to run: \u202e;fr- mr\u202c"\n`);
      return { line: lineOf(file, 'body:'), field: 'body', message: /bidirectional control character/ };
    },
  },
  {
    name: 'a schema violation (missing summary)',
    breakIt: (file) => {
      writeFileSync(file, readFileSync(file, 'utf8').replace(/^summary: .*\n/m, ''));
      return { line: 1, field: 'summary', message: /missing required field "summary"/ };
    },
  },
];

function threeLessons(sandbox: Sandbox) {
  const [good1, broken, good2] = ['ffffffff01', 'ffffffff02', 'ffffffff03'] as const;
  seedLessons(sandbox, [
    { id: good1, summary: 'pytest needs -p no:cacheprovider', tags: ['lang:python'] },
    { id: broken, summary: 'this lesson gets broken by hand', tags: ['lang:python'] },
    { id: good2, summary: 'pytest fixtures live in conftest.py', tags: ['lang:python'] },
  ]);
  return { good1, broken, good2 };
}

describe('a broken lesson file', () => {
  it.each(BROKEN)(
    '$name: reported with path and line by list and check; the others still work',
    ({ breakIt }) => {
      const sandbox = createSandbox();
      const { good1, broken, good2 } = threeLessons(sandbox);
      const where = breakIt(sandbox.lessonFile(broken));
      const shown = `.lore/lessons/${broken}/lesson.yaml`;

      const list = sandbox.run(['list']);
      expect(list.code).toBe(0);
      expect(list.stdout).toContain(good1);
      expect(list.stdout).toContain(good2);
      expect(list.stdout).not.toContain(broken);
      expect(list.stderr).toContain('1 lesson file(s) could not be loaded and were skipped');
      expect(list.stderr).toContain(`${shown}:${where.line}: error`);
      expect(list.stderr).toContain('lore check');

      const check = sandbox.run(['check']);
      expect(check.code).toBe(1);
      expect(check.stdout).toContain(`${shown}:${where.line}: error`);
      expect(check.stdout).toMatch(/2 lesson\(s\) load fine/);
      const data = sandbox.run(['check', '--json']).json<CheckJson>();
      expect(data.ok).toBe(false);
      expect(data.lessons).toBe(2);
      expect(data.problems).toContainEqual(
        expect.objectContaining({
          file: shown,
          line: where.line,
          severity: 'error',
          message: expect.stringMatching(where.message),
          ...(where.field === undefined ? {} : { field: where.field }),
        }),
      );

      const listed = sandbox.run(['list', '--json']).json<ListJson>();
      expect(listed.lessons.map((l) => l.id).sort()).toEqual([good1, good2].sort());
      expect(listed.problems.filter((p) => p.severity === 'error').map((p) => p.file)).toContain(shown);
      const search = sandbox.run(['search', 'pytest', '--json']);
      expect(search.code).toBe(0);
      expect(
        search
          .json<SearchJson>()
          .results.map((r) => r.id)
          .sort(),
      ).toEqual([good1, good2].sort());
      expect(sandbox.run(['show', good1, '--json']).json<ShowJson>().lesson.id).toBe(good1);
      expect(sandbox.run(['update', good1, '--severity', 'high']).code).toBe(0);
      expect(sandbox.run(['upvote', good2, '--model', 'm', '--task', 't']).code).toBe(0);

      const showBroken = sandbox.run(['show', broken]);
      expect(showBroken.code).toBe(1);
      expect(showBroken.stderr).toContain(`${shown}:${where.line}`);
      expect(showBroken.stderr).toContain('lore check');
    },
  );

  it('export and sync keep working and skip only the broken file', () => {
    const sandbox = createSandbox();
    const { good1, broken, good2 } = threeLessons(sandbox);
    BROKEN[0]?.breakIt(sandbox.lessonFile(broken));
    const exported = sandbox.run(['export']);
    expect(exported.code).toBe(0);
    expect(
      exported
        .json<{ lessons: { id: string }[] }>()
        .lessons.map((l) => l.id)
        .sort(),
    ).toEqual([good1, good2].sort());
    const sync = sandbox.run(['sync', '--json']);
    expect(sync.code).toBe(0);
    expect(sync.json<{ lessons: number; errors: number }>()).toMatchObject({ lessons: 2, errors: 1 });
  });

  it.each(['maintain', 'maintain --dry-run', 'aggregate', 'aggregate --dry-run'])(
    'lore %s names the file it skipped (stderr and --json), as list does',
    (line) => {
      const sandbox = createSandbox();
      const { broken } = threeLessons(sandbox);
      BROKEN[1]?.breakIt(sandbox.lessonFile(broken));
      const shown = `.lore/lessons/${broken}/lesson.yaml`;
      const args = line.split(' ');
      const run = sandbox.run(args);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toContain('1 lesson file(s) could not be loaded and were skipped');
      expect(run.stderr).toContain(shown);
      const json = sandbox.run([...args, '--json']);
      expect(json.code).toBe(0);
      const problems = json.json<{ problems?: { file: string; severity: string }[] }>().problems ?? [];
      expect(problems.filter((p) => p.severity === 'error').map((p) => p.file)).toContain(shown);
    },
  );
});

describe('a lesson.yaml that is not a readable file', () => {
  it.each([
    ['a directory', (file: string) => mkdirSync(file), /EISDIR/],
    ['a symbolic link to itself', (file: string) => symlinkSync('lesson.yaml', file), /ELOOP/],
  ])('%s: reported with its file; every verb still works with the other lessons', (_name, make, code) => {
    const sandbox = createSandbox();
    const { good1, broken, good2 } = threeLessons(sandbox);
    const file = sandbox.lessonFile(broken);
    rmSync(file);
    make(file);
    const list = sandbox.run(['list']);
    expect(list.code).toBe(0);
    expect(list.stderr).toContain(`.lore/lessons/${broken}/lesson.yaml`);
    expect(listIds(sandbox)).toEqual([good1, good2].sort());
    const check = sandbox.run(['check', '--json']);
    expect(check.code).toBe(1);
    const problem = check.json<CheckJson>().problems.find((p) => p.file.includes(broken));
    expect(problem?.message).toMatch(/lesson\.yaml cannot be read/);
    expect(problem?.message).toMatch(code);
    const sync = sandbox.run(['sync', '--json']);
    expect(sync.code).toBe(0);
    expect(sync.json<{ lessons: number; errors: number }>()).toMatchObject({ lessons: 2, errors: 1 });
    expect(sandbox.run(['search', 'lesson', '--json']).code).toBe(0);
  });
});

describe('a lesson.yaml that is not UTF-8', () => {
  it('is reported at the line of its first such byte, left byte for byte, and every other lesson loads', () => {
    const sandbox = createSandbox();
    const { good1, broken, good2 } = threeLessons(sandbox);
    const file = sandbox.lessonFile(broken);
    // an editor saved it as Latin-1: "café" with é as the single byte 0xE9
    const text = readFileSync(file, 'utf8');
    const line = lineOf(file, 'summary:');
    const bytes = Buffer.from(text.replace(/^summary: .*$/m, 'summary: caf\u0000'), 'latin1');
    bytes[bytes.indexOf(0)] = 0xe9;
    writeFileSync(file, bytes);
    const check = sandbox.run(['check', '--json']);
    expect(check.code).toBe(1);
    const problem = check.json<CheckJson>().problems.find((p) => p.file.includes(broken));
    expect(problem).toMatchObject({ line, severity: 'error' });
    expect(problem?.message).toMatch(/not UTF-8/);
    expect(listIds(sandbox)).toEqual([good1, good2].sort());
    // a write would save U+FFFD where the byte was: refused, the file untouched
    const update = sandbox.run(['update', broken, '--priority', '7']);
    expect(update.code).toBe(1);
    expect(update.stderr).toContain(
      `lesson.yaml:${line}: lesson.yaml cannot be read (line ${line} holds a byte that is not UTF-8`,
    );
    expect(readFileSync(file).equals(bytes)).toBe(true);
    const show = sandbox.run(['show', broken]);
    expect(show.stdout).not.toContain('\ufffd');
  });
});

describe('other broken files', () => {
  it('a malformed votes.jsonl line is a warning: the other votes still count', () => {
    const sandbox = createSandbox();
    const id = sandbox.add(['--summary', 'votes get damaged']);
    writeFileSync(
      join(sandbox.inRepo('.lore/lessons', id), 'votes.jsonl'),
      '{"model":"m","task":"t1","at":"2025-01-01T00:00:00.000Z"}\n{"model":"m","ta\n{"model":"m","task":"t2","at":"2025-01-02T00:00:00.000Z"}\n',
    );
    const check = sandbox.run(['check', '--json']);
    expect(check.code).toBe(0);
    expect(check.json<CheckJson>().problems).toContainEqual(
      expect.objectContaining({ file: `.lore/lessons/${id}/votes.jsonl`, line: 2, severity: 'warning' }),
    );
    expect(sandbox.run(['show', id, '--json']).json<ShowJson>().votes.count).toBe(2);
    expect(sandbox.run(['upvote', id, '--model', 'm', '--task', 't3']).code).toBe(0);
    expect(sandbox.run(['show', id, '--json']).json<ShowJson>().votes.count).toBe(3);
  });

  it('a damaged feedback.jsonl line is a warning naming file and line: the other reports still count', () => {
    const sandbox = createSandbox();
    const id = sandbox.add(['--summary', 'feedback gets damaged']);
    expect(sandbox.run(['feedback', id, '--helpful', '--task', 't1']).code).toBe(0);
    const file = join(sandbox.inRepo('.lore/lessons', id), 'feedback.jsonl');
    // not JSON, JSON of another shape, a line a killed writer cut short; then a good report again
    appendFileSync(
      file,
      'garbage\n42\n{"helpful":"yes","at":"2026-01-01T00:00:00.000Z"}\n{"helpful":false,"at":"20',
    );
    appendFileSync(file, '\n');
    expect(sandbox.run(['feedback', id, '--not-helpful', '--task', 't2']).code).toBe(0);
    const check = sandbox.run(['check', '--json']);
    expect(check.code, check.stderr).toBe(0);
    const warned = check
      .json<CheckJson>()
      .problems.filter((p) => p.file === `.lore/lessons/${id}/feedback.jsonl`)
      .map((p) => [p.line, p.severity]);
    expect(warned).toEqual([
      [2, 'warning'],
      [3, 'warning'],
      [4, 'warning'],
      [5, 'warning'],
    ]);
    const text = sandbox.run(['check']);
    expect(text.stdout).toContain(`.lore/lessons/${id}/feedback.jsonl:2`);
    const shown = sandbox
      .run(['show', id, '--json'])
      .json<{ feedback: { helpful: number; notHelpful: number } }>();
    expect(shown.feedback).toMatchObject({ helpful: 1, notHelpful: 1 });
  });

  // Orbit: "sync still walks every per-learning votes.jsonl and fails on invalid JSONL, so cache
  // rebuilds do not silently ignore corrupted vote files" (check only warns).
  it('lore sync rebuilds but exits 1 on an invalid votes.jsonl line, naming file and line', () => {
    const sandbox = createSandbox();
    const id = sandbox.add(['--summary', 'votes get damaged']);
    const votes = join(sandbox.inRepo('.lore/lessons', id), 'votes.jsonl');
    writeFileSync(votes, '{"model":"m","task":"t1","at":"2025-01-01T00:00:00.000Z"}\n{not json\n');
    const sync = sandbox.run(['sync', '--json']);
    expect(sync.code).toBe(1);
    expect(sync.json<{ lessons: number; invalidVotes: number }>()).toMatchObject({
      lessons: 1,
      invalidVotes: 1,
    });
    expect(sync.stderr).toContain(`.lore/lessons/${id}/votes.jsonl:2`);
    expect(readFileSync(votes, 'utf8')).toContain('{not json');
    writeFileSync(votes, '{"model":"m","task":"t1","at":"2025-01-01T00:00:00.000Z"}\n');
    expect(sandbox.run(['sync']).code).toBe(0);
  });

  it('a 30 MB --body-file is refused before it is read, pointing at evidence links; nothing is written', () => {
    const sandbox = createSandbox();
    const log = sandbox.inRepo('build.log');
    writeFileSync(log, 'x'.repeat(30_000_000));
    const add = sandbox.run(['add', '--summary', 'the build log explains it', '--body-file', 'build.log']);
    expect(add.code).toBe(1);
    expect(add.stderr).toContain('--body-file build.log is 30,000,000 bytes');
    expect(add.stderr).toContain('--evidence file=');
    expect(lessonDirs(sandbox.inRepo('.lore'))).toEqual([]);
    // Just over the cap in characters: refused by the store, so the MCP and HTTP surfaces too.
    writeFileSync(log, 'é'.repeat(65_537));
    expect(sandbox.run(['add', '--summary', 'still too long', '--body-file', 'build.log']).stderr).toContain(
      '--body is 65,537 characters',
    );
    writeFileSync(log, 'é'.repeat(65_536));
    expect(sandbox.run(['add', '--summary', 'exactly at the cap', '--body-file', 'build.log']).code).toBe(0);
  });

  it('a --body-file holding a NUL character is refused naming the field; nothing is written', () => {
    const sandbox = createSandbox();
    writeFileSync(join(sandbox.base, 'body.md'), 'The build printed:\nerror: bad byte \u0000 in stream\n');
    const added = sandbox.run([
      'add',
      '--summary',
      'Lesson whose body has a NUL',
      '--body-file',
      join(sandbox.base, 'body.md'),
    ]);
    expect(added.code).toBe(1);
    expect(added.stderr).toMatch(/body: holds a NUL character/);
    expect(listIds(sandbox)).toEqual([]);
  });

  it('a glob with an unclosed bracket is refused, not stored as a literal that never matches', () => {
    const sandbox = createSandbox();
    const add = sandbox.run(['add', '--summary', 'guard the fixtures', '--path', 'test/[unclosed']);
    expect(add.code).toBe(1);
    expect(add.stderr).toContain('--path #1: has an unclosed "["');
    expect(lessonDirs(sandbox.inRepo('.lore'))).toEqual([]);
    expect(sandbox.run(['add', '--summary', 'guard the fixtures', '--path', 'test/\\[literal']).code).toBe(0);
  });

  it.each(['path', 'command', 'tool', 'content', 'error', 'tag', 'stack'])(
    'an empty --%s (an unset shell variable) is refused naming the flag, not dropped in silence; nothing is written',
    (flag) => {
      const sandbox = createSandbox();
      const add = sandbox.run(['add', '--summary', 'guard the fixtures', `--${flag}`, '', '--force']);
      expect(add.code, add.stdout).toBe(2);
      expect(add.stderr).toContain(`--${flag} needs a value, got an empty one`);
      expect(lessonDirs(sandbox.inRepo('.lore'))).toEqual([]);
    },
  );

  it('a lesson whose id differs from its directory name is an error naming both', () => {
    const sandbox = createSandbox();
    const id = sandbox.add(['--summary', 'moved by hand']);
    const other = 'zzzzzzzzzz';
    renameSync(sandbox.inRepo('.lore/lessons', id), sandbox.inRepo('.lore/lessons', other));
    const check = sandbox.run(['check']);
    expect(check.code).toBe(1);
    expect(check.stdout).toContain(`.lore/lessons/${other}/lesson.yaml:1: error (id)`);
    expect(check.stdout).toContain(`"${id}" does not match its directory name "${other}"`);
  });

  it('a broken config.yaml is reported and the defaults are used', () => {
    const sandbox = createSandbox();
    const id = sandbox.add(['--summary', 'still listed']);
    writeFileSync(sandbox.inRepo('.lore/config.yaml'), 'search:\n  limit: [oops\n');
    const list = sandbox.run(['list']);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain(id);
    expect(list.stderr).toContain('.lore/config.yaml');
    expect(sandbox.run(['check']).code).toBe(1);
    expect(list.stderr).toContain('these settings of the file fell back: search.limit (now 10)');
  });

  it('one invalid setting in config.yaml falls back alone; the other settings still apply', () => {
    const sandbox = createSandbox();
    sandbox.add(['--summary', 'pytest hangs on a TTY']);
    sandbox.add(['--summary', 'pytest needs CI=1 in agent shells']);
    writeFileSync(sandbox.inRepo('.lore/config.yaml'), 'votes:\n  halfLifeDays: -1\nsearch:\n  limit: 1\n');
    const search = sandbox.run(['search', 'pytest', '--json']);
    expect(search.code).toBe(0);
    expect(search.json<SearchJson>().results).toHaveLength(1);
    expect(search.stderr).toContain('.lore/config.yaml:2');
    expect(search.stderr).toContain('votes.halfLifeDays falls back to 180');
  });
});

describe('the legacy flat layout (.lore/lessons/<id>.yaml)', () => {
  function legacySandbox() {
    const sandbox = createSandbox();
    const kept = sandbox.add(['--summary', 'already in the new layout']);
    const moved = sandbox.add(['--summary', 'written in the old layout', '--tag', 'legacy']);
    expect(sandbox.run(['upvote', moved, '--model', 'm', '--task', 't']).code).toBe(0);
    const dir = sandbox.inRepo('.lore/lessons', moved);
    renameSync(join(dir, 'lesson.yaml'), sandbox.inRepo('.lore/lessons', `${moved}.yaml`));
    renameSync(join(dir, 'votes.jsonl'), sandbox.inRepo('.lore/lessons', `${moved}.votes.jsonl`));
    rmSync(dir, { recursive: true });
    return { sandbox, kept, moved };
  }

  it('list, search, show, add and upvote are refused with the command that migrates it', () => {
    const { sandbox, moved } = legacySandbox();
    const commands = [
      ['list'],
      ['search', 'layout'],
      ['show', moved],
      ['add', '--summary', 'new'],
      ['upvote', moved, '--model', 'm', '--task', 't'],
    ];
    const runs = commands.map((args) => sandbox.run(args));
    expect(runs.map((run) => run.code)).toEqual(commands.map(() => 1));
    for (const run of runs) {
      expect(run.stderr, run.args.join(' ')).toContain(`.lore/lessons/${moved}.yaml`);
      expect(run.stderr, run.args.join(' ')).toContain('lore migrate-layout');
    }
    expect(lessonDirs(sandbox.inRepo('.lore'))).toHaveLength(1);
  });

  it('lore check reports it as an error with the command that migrates it', () => {
    const { sandbox, moved } = legacySandbox();
    const check = sandbox.run(['check']);
    expect(check.code).toBe(1);
    expect(check.stdout).toContain(`.lore/lessons/${moved}.yaml: error: old flat layout`);
    expect(check.stdout).toContain('lore migrate-layout');
  });

  it('lore migrate-layout moves the file and its votes, and every command works again', () => {
    const { sandbox, kept, moved } = legacySandbox();
    const dryRun = sandbox.run(['migrate-layout', '--dry-run']);
    expect(dryRun.code).toBe(0);
    expect(dryRun.stdout).toContain(
      `would move .lore/lessons/${moved}.yaml -> .lore/lessons/${moved}/lesson.yaml`,
    );
    expect(existsSync(sandbox.inRepo('.lore/lessons', `${moved}.yaml`))).toBe(true);

    const run = sandbox.run(['migrate-layout']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`moved .lore/lessons/${moved}.yaml -> .lore/lessons/${moved}/lesson.yaml`);
    expect(lessonDirs(sandbox.inRepo('.lore'))).toEqual([kept, moved].sort());
    expect(existsSync(sandbox.inRepo('.lore/lessons', `${moved}.yaml`))).toBe(false);
    expect(listIds(sandbox)).toEqual([kept, moved].sort());
    const shown = sandbox.run(['show', moved, '--json']).json<ShowJson>();
    expect(shown.lesson.tags).toEqual(['legacy']);
    expect(shown.votes.count).toBe(1);
    expect(sandbox.run(['check']).code).toBe(0);
    expect(sandbox.run(['migrate-layout']).stdout).toContain('nothing to migrate');
  });

  it('a legacy file named by slug gets a fresh id and keeps the name as its slug', () => {
    const sandbox = createSandbox();
    const id = sandbox.add(['--summary', 'to be flattened']);
    const text = readFileSync(sandbox.lessonFile(id), 'utf8')
      .replace(/^id: .*\n/m, '')
      .replace(/^slug: .*\n/m, '');
    rmSync(sandbox.inRepo('.lore/lessons', id), { recursive: true });
    writeFileSync(sandbox.inRepo('.lore/lessons', 'my-old-lesson.yaml'), text);
    expect(sandbox.run(['migrate-layout']).code).toBe(0);
    const listed = sandbox.run(['list', '--json']).json<ListJson>().lessons;
    expect(listed.map((lesson) => lesson.slug)).toEqual(['my-old-lesson']);
    expect(listed[0]?.id).toMatch(/^[0-9a-z]{10}$/);
    expect(sandbox.run(['show', 'my-old-lesson']).code).toBe(0);
    expect(sandbox.run(['check']).code).toBe(0);
  });
});

describe('the index is derived data', () => {
  it.each([
    ['deleted', (db: string) => rmSync(db)],
    ['replaced by text', (db: string) => writeFileSync(db, 'this is not a database\n')],
    ['overwritten with garbage', (db: string) => writeFileSync(db, Buffer.alloc(64 * 1024, 0xa5))],
    ['truncated', (db: string) => writeFileSync(db, readFileSync(db).subarray(0, 4096))],
  ])('lore still lists, searches and shows everything after index.db is %s', (_how, damage) => {
    const sandbox = createSandbox();
    const a = sandbox.add(['--summary', 'alpha lesson about bazel', '--tag', 'tool:bazel']);
    const b = sandbox.add(['--summary', 'beta lesson about gradle', '--tier', 'user']);
    expect(sandbox.run(['upvote', a, '--model', 'm', '--task', 't']).code).toBe(0);
    damage(sandbox.inRepo('.lore/cache/index.db'));
    expect(listIds(sandbox)).toEqual([a, b].sort());
    expect(
      sandbox
        .run(['search', 'bazel', '--json'])
        .json<SearchJson>()
        .results.map((r) => r.id),
    ).toEqual([a]);
    expect(
      sandbox.run(['list', '--tag', 'tool:bazel', '--json']).json<ListJson>().lessons[0]?.votes.count,
    ).toBe(1);
    expect(sandbox.run(['check']).code).toBe(0);
  });

  it('a damaged index is rebuilt with a note on stderr', () => {
    const sandbox = createSandbox();
    sandbox.add(['--summary', 'alpha']);
    writeFileSync(sandbox.inRepo('.lore/cache/index.db'), Buffer.alloc(64 * 1024, 0xa5));
    const run = sandbox.run(['list']);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('rebuilt it from the lesson files');
    expect(sandbox.run(['list']).stderr).toBe('');
  });

  it('a directory where index.db goes: a clear error naming it (exit 1), nothing deleted; fine once it is moved', () => {
    const sandbox = createSandbox();
    const a = sandbox.add(['--summary', 'alpha']);
    const db = sandbox.inRepo('.lore/cache/index.db');
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${db}${suffix}`, { force: true });
    mkdirSync(db);
    writeFileSync(join(db, 'notes.txt'), 'mine\n');
    const run = sandbox.run(['list']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`${db} is a directory, where lore keeps a cache database`);
    expect(run.stderr).toContain('move or delete it');
    expect(readFileSync(join(db, 'notes.txt'), 'utf8')).toBe('mine\n');
    renameSync(db, `${db}.moved`);
    expect(listIds(sandbox)).toEqual([a]);
  });

  it('the whole cache directory can be deleted', () => {
    const sandbox = createSandbox();
    const a = sandbox.add(['--summary', 'alpha']);
    rmSync(sandbox.inRepo('.lore/cache'), { recursive: true });
    expect(listIds(sandbox)).toEqual([a]);
    expect(sandbox.run(['sync']).code).toBe(0);
  });
});

describe('hand edits', () => {
  it('an edited lesson.yaml is seen by the next list, search and show', () => {
    const sandbox = createSandbox();
    const id = sandbox.add(['--summary', 'original summary', '--slug', 'fixed-handle', '--tag', 'old-tag']);
    expect(listIds(sandbox, ['--tag', 'old-tag'])).toEqual([id]);
    const file = sandbox.lessonFile(id);
    writeFileSync(
      file,
      readFileSync(file, 'utf8')
        .replace('summary: original summary', 'summary: summary rewritten by hand')
        .replace('  - old-tag', '  - new-tag'),
    );
    const list = sandbox.run(['list', '--json']).json<ListJson>();
    expect(list.lessons.map((lesson) => [lesson.id, lesson.summary, lesson.tags])).toEqual([
      [id, 'summary rewritten by hand', ['new-tag']],
    ]);
    expect(listIds(sandbox, ['--tag', 'old-tag'])).toEqual([]);
    expect(listIds(sandbox, ['--tag', 'new-tag'])).toEqual([id]);
    expect(
      sandbox
        .run(['search', 'rewritten', '--json'])
        .json<SearchJson>()
        .results.map((r) => r.id),
    ).toEqual([id]);
    expect(sandbox.run(['search', 'original', '--json']).json<SearchJson>().results).toEqual([]);
  });

  it('a lesson directory deleted by hand disappears from the next list', () => {
    const sandbox = createSandbox();
    const a = sandbox.add(['--summary', 'alpha']);
    const b = sandbox.add(['--summary', 'beta']);
    expect(listIds(sandbox)).toEqual([a, b].sort());
    rmSync(sandbox.inRepo('.lore/lessons', a), { recursive: true });
    expect(listIds(sandbox)).toEqual([b]);
    expect(sandbox.run(['show', a]).code).toBe(1);
  });

  it('lore update keeps comments and unknown fields the user added', () => {
    const sandbox = createSandbox();
    const id = sandbox.add(['--summary', 'keep my comments', '--tag', 'a']);
    const file = sandbox.lessonFile(id);
    writeFileSync(
      file,
      readFileSync(file, 'utf8')
        .replace(/^category: /m, '# Why this matters: we lost a day to it in March.\ncategory: ')
        .replace(/^priority: 5$/m, 'priority: 5 # agreed in the retro')
        .concat('reviewer: alice # our own field\n'),
    );
    const run = sandbox.run(['update', id, '--severity', 'high', '--tag', 'b']);
    expect(run.code).toBe(0);
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('# Why this matters: we lost a day to it in March.\ncategory: technical');
    expect(text).toContain('priority: 5 # agreed in the retro');
    expect(text).toContain('reviewer: alice # our own field');
    expect(text).toMatch(/^severity: high$/m);
    expect(text).toMatch(/^tags:\n {2}- b$/m);
    expect(sandbox.run(['check']).code).toBe(0);
  });

  it('lore update keeps an inline comment on the field it changes', () => {
    const sandbox = createSandbox();
    const id = sandbox.add(['--summary', 'keep my inline comment']);
    const file = sandbox.lessonFile(id);
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replace(/^severity: medium$/m, 'severity: medium # raised after INC-7'),
    );
    expect(sandbox.run(['update', id, '--severity', 'high']).code).toBe(0);
    expect(readFileSync(file, 'utf8')).toMatch(/^severity: high # raised after INC-7$/m);
  });
});

describe('a large store, parsed on worker threads', () => {
  it('sync and check still name each broken file and line, and every other lesson loads', () => {
    const sandbox = createSandbox();
    const ids = Array.from({ length: 450 }, (_, i) => `eeee${i.toString().padStart(6, '0')}`);
    seedLessons(
      sandbox,
      ids.map((id, i) => ({ id, summary: `lesson number ${i} about pytest`, tags: ['lang:python'] })),
    );
    const [first, second] = [ids[10]!, ids[400]!];
    writeFileSync(
      sandbox.lessonFile(first),
      readFileSync(sandbox.lessonFile(first), 'utf8').replace(/^priority: 5$/m, 'priority: 42'),
    );
    writeFileSync(
      sandbox.lessonFile(second),
      `${readFileSync(sandbox.lessonFile(second), 'utf8')}severity: low\n`,
    );

    const sync = sandbox.run(['sync', '--json']);
    expect(sync.code).toBe(0);
    expect(sync.json<{ lessons: number; errors: number }>()).toMatchObject({ lessons: 448, errors: 2 });
    const check = sandbox.run(['check', '--json']).json<CheckJson>();
    expect(check.lessons).toBe(448);
    expect(check.problems).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          file: `.lore/lessons/${first}/lesson.yaml`,
          line: lineOf(sandbox.lessonFile(first), 'priority:'),
          field: 'priority',
        }),
        expect.objectContaining({
          file: `.lore/lessons/${second}/lesson.yaml`,
          message: expect.stringMatching(/Map keys must be unique/),
        }),
      ]),
    );
    expect(listIds(sandbox)).toHaveLength(448);
  });
});

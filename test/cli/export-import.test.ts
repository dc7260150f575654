// lore export and lore import of lore's own JSON: a round trip into a fresh repository and HOME
// gives back the same lessons and votes.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSandbox, lessonDirs, listIds } from '../helpers/cli.js';
import type { ExportJson, Sandbox, ShowJson } from '../helpers/cli.js';

/** A store with a bit of everything: body, evidence, votes, both tiers, every status. */
function richStore(sandbox: Sandbox) {
  const a = sandbox.add([
    '--summary',
    'pytest needs -p no:cacheprovider on read-only checkouts',
    '--body',
    'Otherwise it writes .pytest_cache.\n\nSee the CI logs.',
    '--tool',
    'Bash',
    '--command',
    '^pytest\\b',
    '--path',
    'tests/**',
    '--tag',
    'lang:python',
    '--stack',
    'python',
    '--evidence',
    'task=PROJ-42',
    '--evidence',
    'url=https://example.com/ci/1',
    '--severity',
    'high',
    '--priority',
    '8',
    '--confidence',
    '0.6',
    '--type',
    'guard',
  ]);
  const b = sandbox.add(['--summary', 'use the new runner', '--category', 'tooling']);
  const c = sandbox.add(['--summary', 'an archived lesson']);
  const u = sandbox.add(['--summary', 'a personal lesson', '--tier', 'user', '--tag', 'me:habit']);
  for (const [id, model, task] of [
    [a, 'claude', 'PROJ-1'],
    [a, 'codex', 'PROJ-1'],
    [u, 'claude', 'PROJ-9'],
  ] as const) {
    expect(sandbox.run(['upvote', id, '--model', model, '--task', task]).code).toBe(0);
  }
  expect(sandbox.run(['supersede', b, '--with', a]).code).toBe(0);
  expect(sandbox.run(['archive', c]).code).toBe(0);
  return { a, b, c, u };
}

function exportLessons(sandbox: Sandbox): ExportJson['lessons'] {
  const run = sandbox.run(['export', '--json']);
  expect(run.code, run.stderr).toBe(0);
  return run.json<ExportJson>().lessons;
}

describe('lore export', () => {
  it("writes lore's JSON with every lesson, every status and the votes", () => {
    const sandbox = createSandbox();
    const { a, b, c, u } = richStore(sandbox);
    const stdout = sandbox.run(['export']);
    expect(stdout.code).toBe(0);
    const document = stdout.json<ExportJson>();
    expect(document).toMatchObject({ format: 'lore', version: 1 });
    expect(Date.parse(document.exportedAt)).not.toBeNaN();
    expect(document.lessons.map((lesson) => [lesson.id, lesson.tier, lesson.status])).toEqual(
      expect.arrayContaining([
        [a, 'project', 'active'],
        [b, 'project', 'superseded'],
        [c, 'project', 'archived'],
        [u, 'user', 'active'],
      ]),
    );
    expect(document.lessons).toHaveLength(4);
    expect(
      document.lessons
        .find((lesson) => lesson.id === a)
        ?.votes.map((vote) => vote.model)
        .sort(),
    ).toEqual(['claude', 'codex']);

    const written = sandbox.run(['export', '--out', 'lore.json']);
    expect(written.code).toBe(0);
    expect(written.stdout).toContain('exported 4 lesson(s) to lore.json');
    const file = JSON.parse(readFileSync(sandbox.inRepo('lore.json'), 'utf8')) as ExportJson;
    expect(file.lessons).toEqual(document.lessons);
    expect(
      sandbox
        .run(['export', '--status', 'active', '--tier', 'project', '--json'])
        .json<ExportJson>()
        .lessons.map((l) => l.id),
    ).toEqual([a]);
  });

  it('--out into a directory that does not exist is a user error, not an internal one', () => {
    const sandbox = createSandbox();
    sandbox.add(['--summary', 'anything']);
    const run = sandbox.run(['export', '--out', 'backup/lore.json']);
    expect(run.stderr).not.toContain('internal error');
    expect(run.stderr).toContain('backup/lore.json');
    expect(run.code).toBe(1);
  });
});

describe('lore import', () => {
  it('export then import into a fresh repository and HOME gives the same lessons and votes', () => {
    const source = createSandbox();
    richStore(source);
    expect(source.run(['export', '--out', join(source.base, 'lore.json')]).code).toBe(0);
    const before = exportLessons(source);

    const target = createSandbox();
    const run = target.run(['import', join(source.base, 'lore.json'), '--json']);
    expect(run.code).toBe(0);
    expect(run.json<{ added: string[]; votesAdded: number; invalid: number }>()).toMatchObject({
      added: expect.arrayContaining(before.map((lesson) => lesson.id)),
      votesAdded: 3,
      invalid: 0,
    });
    expect(exportLessons(target)).toEqual(before);
    expect(lessonDirs(target.userTier)).toEqual(before.filter((l) => l.tier === 'user').map((l) => l.id));
    expect(target.run(['check']).code).toBe(0);

    const again = target.run(['import', join(source.base, 'lore.json')]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(
      'imported 0 new, 0 replaced, 4 unchanged, 0 conflict(s), 0 invalid; 0 vote(s) added',
    );
    expect(exportLessons(target)).toEqual(before);
  });

  it('reads the export from stdin with -', () => {
    const source = createSandbox();
    const id = source.add(['--summary', 'piped lesson']);
    const target = createSandbox();
    const run = target.run(['import', '-'], { input: source.run(['export']).stdout });
    expect(run.code).toBe(0);
    expect(listIds(target)).toEqual([id]);
  });

  it('--tier user puts every lesson in the user tier', () => {
    const source = createSandbox();
    const id = source.add(['--summary', 'moves to the user tier']);
    const target = createSandbox();
    const run = target.run(['import', '-', '--tier', 'user'], { input: source.run(['export']).stdout });
    expect(run.code).toBe(0);
    expect(listIds(target, ['--tier', 'user'])).toEqual([id]);
    expect(lessonDirs(target.inRepo('.lore'))).toEqual([]);
  });

  it('a different lesson under an existing id is a conflict, kept unless --replace', () => {
    const sandbox = createSandbox();
    const id = sandbox.add(['--summary', 'the original']);
    const document = sandbox.run(['export']).json<ExportJson>();
    const changed = {
      ...document,
      lessons: document.lessons.map((lesson) => ({ ...lesson, summary: 'a rewrite' })),
    };
    const file = join(sandbox.base, 'changed.json');
    writeFileSync(file, JSON.stringify(changed));
    const run = sandbox.run(['import', file]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`conflicts (kept as they are; --replace overwrites): ${id}`);
    expect(sandbox.run(['show', id, '--json']).json<ShowJson>().lesson.summary).toBe('the original');
    expect(sandbox.run(['import', file, '--replace']).code).toBe(0);
    expect(sandbox.run(['show', id, '--json']).json<ShowJson>().lesson.summary).toBe('a rewrite');
  });

  it('a lesson whose evidence differs under an existing id is a conflict too', () => {
    const sandbox = createSandbox();
    const id = sandbox.add(['--summary', 'with evidence', '--evidence', 'task=PROJ-1']);
    const document = sandbox.run(['export']).json<ExportJson>();
    const changed = {
      ...document,
      lessons: document.lessons.map((lesson) => ({
        ...lesson,
        evidence: [{ kind: 'task', ref: 'PROJ-999' }],
      })),
    };
    const file = join(sandbox.base, 'changed.json');
    writeFileSync(file, JSON.stringify(changed));
    const run = sandbox.run(['import', file, '--json']);
    expect(run.code).toBe(0);
    expect(run.json<{ conflicts: string[]; unchanged: string[] }>()).toMatchObject({
      conflicts: [id],
      unchanged: [],
    });
  });

  it('--dry-run reports and writes nothing', () => {
    const source = createSandbox();
    const id = source.add(['--summary', 'not yet']);
    const target = createSandbox();
    const run = target.run(['import', '-', '--dry-run'], { input: source.run(['export']).stdout });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('would import 1 new');
    expect(lessonDirs(target.inRepo('.lore'))).toEqual([]);
    expect(listIds(target)).not.toContain(id);
  });

  it('invalid entries are reported and skipped, the valid ones imported, exit 1', () => {
    const source = createSandbox();
    const id = source.add(['--summary', 'a valid lesson']);
    const document = source.run(['export']).json<ExportJson>();
    const broken = { ...document.lessons[0], id: 'not-an-id!', priority: 99 };
    const file = join(source.base, 'mixed.json');
    writeFileSync(file, JSON.stringify({ ...document, lessons: [...document.lessons, broken, 42] }));
    const target = createSandbox();
    const run = target.run(['import', file]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('imported 1 new');
    expect(run.stdout).toContain('2 invalid');
    expect(run.stdout).toMatch(/lessons\[1\]\.id/);
    expect(run.stdout).toMatch(/lessons\[1\]\.priority/);
    expect(run.stdout).toMatch(/lessons\[2\].*expected a lesson object/);
    expect(listIds(target)).toEqual([id]);
  });

  it('re-running an import killed before lesson.yaml landed writes the lesson, once, with its votes', () => {
    const source = createSandbox();
    const id = source.add(['--summary', 'Run pytest with CI=1 or it hangs', '--command', '^pytest']);
    expect(source.run(['upvote', id, '--model', 'claude', '--task', 'T-1']).code).toBe(0);
    const file = join(source.base, 'lore.json');
    expect(source.run(['export', '--out', file]).code).toBe(0);
    const target = createSandbox();
    // kill -9 at the rename onto lesson.yaml: the directory and a temporary file stay behind
    const kill = join(target.base, 'kill.cjs');
    writeFileSync(
      kill,
      `const fs = require('node:fs'); const rename = fs.renameSync;
fs.renameSync = function (from, to, ...rest) {
  if (String(to).endsWith('lesson.yaml')) process.kill(process.pid, 'SIGKILL');
  return rename.call(this, from, to, ...rest);
};`,
    );
    expect(target.run(['import', file], { env: { NODE_OPTIONS: `--require ${kill}` } }).signal).toBe(
      'SIGKILL',
    );
    expect(readdirSync(join(target.inRepo('.lore', 'lessons'), id))).not.toContain('lesson.yaml');

    const rerun = target.run(['import', file, '--json']);
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.json<{ added: string[]; votesAdded: number }>()).toMatchObject({
      added: [id],
      votesAdded: 1,
    });
    expect(readdirSync(join(target.inRepo('.lore', 'lessons'), id)).sort()).toEqual([
      'lesson.yaml',
      'votes.jsonl',
    ]);
    expect(target.run(['show', id, '--json']).json<ShowJson>().lesson.summary).toBe(
      'Run pytest with CI=1 or it hangs',
    );
    expect(target.run(['import', file]).stdout).toContain('imported 0 new, 0 replaced, 1 unchanged');
  });

  it('an id whose folder another writer has just claimed is a conflict naming it, not an add that wrote nothing', () => {
    const source = createSandbox();
    const id = source.add(['--summary', 'claimed elsewhere']);
    const target = createSandbox();
    mkdirSync(join(target.inRepo('.lore', 'lessons'), id), { recursive: true });
    const run = target.run(['import', '-', '--json'], { input: source.run(['export']).stdout });
    expect(run.code).toBe(0);
    const report = run.json<{
      added: string[];
      conflicts: string[];
      votesAdded: number;
      problems: { message: string }[];
    }>();
    expect(report).toMatchObject({ added: [], conflicts: [id], votesAdded: 0 });
    expect(report.problems[0]?.message).toContain(`${id} exists without lesson.yaml`);
    expect(readdirSync(join(target.inRepo('.lore', 'lessons'), id))).toEqual([]);
  });

  it('a file that is not a lore export is refused with exit 1', () => {
    const sandbox = createSandbox();
    writeFileSync(join(sandbox.base, 'not.json'), '{"hello": "world"}');
    writeFileSync(join(sandbox.base, 'garbage.json'), 'not json at all');
    const notLore = sandbox.run(['import', join(sandbox.base, 'not.json')]);
    expect(notLore.code).toBe(1);
    expect(notLore.stderr).toContain('is not a lore export');
    const garbage = sandbox.run(['import', join(sandbox.base, 'garbage.json')]);
    expect(garbage.code).toBe(1);
    expect(garbage.stderr).toContain('is not JSON');
  });
});

// The two tiers: the project's .lore/ found upward from the working directory (or --root), and the
// user's $LORE_HOME (default ~/.lore). Outside any project only the user tier exists.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSandbox, lessonDirs, listIds } from '../helpers/cli.js';
import type { ListJson, SearchJson, ShowJson } from '../helpers/cli.js';

function outside(base: string): string {
  const dir = join(base, 'elsewhere', 'deeper');
  mkdirSync(dir, { recursive: true });
  return dir;
}

describe('the user tier', () => {
  it('add --tier user writes to ~/.lore by default, and list --tier filters by tier', () => {
    const sandbox = createSandbox();
    const project = sandbox.add(['--summary', 'project lesson']);
    const run = sandbox.run(['add', '--summary', 'personal lesson', '--tier', 'user']);
    expect(run.code).toBe(0);
    const user = run.stdout.split('\n')[0] ?? '';
    expect(run.stdout).toContain(`(user) in ~/.lore/lessons/${user}/lesson.yaml`);
    expect(lessonDirs(join(sandbox.home, '.lore'))).toEqual([user]);
    expect(lessonDirs(sandbox.inRepo('.lore'))).toEqual([project]);
    expect(listIds(sandbox)).toEqual([project, user].sort());
    expect(listIds(sandbox, ['--tier', 'user'])).toEqual([user]);
    expect(listIds(sandbox, ['--tier', 'project'])).toEqual([project]);
    const shown = sandbox.run(['show', user.slice(0, 5), '--json']).json<ShowJson>();
    expect(shown.lesson.tier).toBe('user');
    expect(shown.file).toBe(`~/.lore/lessons/${user}/lesson.yaml`);
  });

  it('LORE_HOME moves the user tier', () => {
    const sandbox = createSandbox({ loreHome: true });
    const user = sandbox.add(['--summary', 'personal lesson', '--tier', 'user']);
    expect(lessonDirs(sandbox.userTier)).toEqual([user]);
    expect(existsSync(join(sandbox.home, '.lore'))).toBe(false);
    expect(listIds(sandbox, ['--tier', 'user'])).toEqual([user]);
    const other = join(sandbox.base, 'other-home');
    expect(listIds(sandbox, ['--tier', 'user'], { env: { LORE_HOME: other } })).toEqual([]);
  });

  it('update, upvote, archive and supersede work on user lessons and write only there', () => {
    const sandbox = createSandbox({ loreHome: true });
    const a = sandbox.add(['--summary', 'first personal', '--tier', 'user']);
    const b = sandbox.add(['--summary', 'second personal', '--tier', 'user']);
    expect(sandbox.run(['update', a, '--tag', 'mine']).code).toBe(0);
    expect(sandbox.run(['upvote', a, '--model', 'm', '--task', 't']).code).toBe(0);
    expect(sandbox.run(['supersede', a, '--with', b]).code).toBe(0);
    expect(existsSync(join(sandbox.userTier, 'lessons', a, 'votes.jsonl'))).toBe(true);
    expect(lessonDirs(sandbox.inRepo('.lore'))).toEqual([]);
    const old = sandbox.run(['show', a, '--json']).json<ShowJson>();
    expect(old.lesson).toMatchObject({ tags: ['mine'], status: 'superseded', supersededBy: b });
    expect(old.votes.count).toBe(1);
    expect(sandbox.run(['archive', b]).code).toBe(0);
    expect(listIds(sandbox, ['--status', 'archived', '--tier', 'user'])).toEqual([b]);
  });
});

describe('outside any project', () => {
  it('list, search and show see the user tier only', () => {
    const sandbox = createSandbox();
    const project = sandbox.add(['--summary', 'project lesson about make']);
    const user = sandbox.add(['--summary', 'user lesson about make', '--tier', 'user']);
    const cwd = outside(sandbox.base);
    expect(listIds(sandbox, [], { cwd })).toEqual([user]);
    const search = sandbox.run(['search', 'make', '--json'], { cwd }).json<SearchJson>();
    expect(search.results.map((r) => r.id)).toEqual([user]);
    expect(sandbox.run(['show', user], { cwd }).code).toBe(0);
    const missing = sandbox.run(['show', project], { cwd });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`no lesson matches "${project}"`);
    expect(sandbox.run(['check'], { cwd }).code).toBe(0);
  });

  it('add without --tier user fails with a hint to run lore init; --tier user works', () => {
    const sandbox = createSandbox({ init: false });
    const cwd = outside(sandbox.base);
    const refused = sandbox.run(['add', '--summary', 'where does this go'], { cwd });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('no .lore/ directory found');
    expect(refused.stderr).toContain('lore init');
    expect(refused.stderr).toContain('--tier user');
    expect(existsSync(join(cwd, '.lore'))).toBe(false);
    const id = sandbox.add(['--summary', 'where does this go', '--tier', 'user'], { cwd });
    expect(lessonDirs(join(sandbox.home, '.lore'))).toEqual([id]);
    expect(listIds(sandbox, [], { cwd })).toEqual([id]);
  });

  it('the home directory holding ~/.lore is not mistaken for a project', () => {
    const sandbox = createSandbox({ init: false });
    const id = sandbox.add(['--summary', 'personal', '--tier', 'user'], { cwd: sandbox.home });
    const list = sandbox.run(['list', '--json'], { cwd: sandbox.home }).json<ListJson>();
    expect(list.lessons.map((lesson) => [lesson.id, lesson.tier])).toEqual([[id, 'user']]);
    const refused = sandbox.run(['add', '--summary', 'project?'], { cwd: sandbox.home });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('lore init');
  });
});

describe('finding the project', () => {
  it('is found from any subdirectory, upward like git', () => {
    const sandbox = createSandbox();
    const id = sandbox.add(['--summary', 'found from below']);
    const deep = sandbox.inRepo('a', 'b', 'c');
    mkdirSync(deep, { recursive: true });
    expect(listIds(sandbox, [], { cwd: deep })).toEqual([id]);
    const added = sandbox.add(['--summary', 'added from below'], { cwd: deep });
    expect(lessonDirs(sandbox.inRepo('.lore'))).toEqual([id, added].sort());
  });

  it('--root DIR overrides the search', () => {
    const sandbox = createSandbox();
    const id = sandbox.add(['--summary', 'reached with --root']);
    const cwd = outside(sandbox.base);
    expect(listIds(sandbox, ['--root', sandbox.repo], { cwd })).toEqual([id]);
    const added = sandbox.add(['--summary', 'added with --root', '--root', sandbox.repo], { cwd });
    expect(lessonDirs(sandbox.inRepo('.lore'))).toEqual([id, added].sort());
  });

  it('--root to a directory without .lore/ fails with the init command for it', () => {
    const sandbox = createSandbox({ init: false });
    const run = sandbox.run(['list', '--root', sandbox.repo]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`${sandbox.repo}/.lore does not exist`);
    expect(run.stderr).toContain(`lore init --root ${sandbox.repo}`);
    expect(sandbox.run(['init', '--root', sandbox.repo], { cwd: sandbox.base }).code).toBe(0);
    expect(sandbox.run(['list', '--root', sandbox.repo], { cwd: sandbox.base }).code).toBe(0);
  });

  it('a nested project wins over the outer one', () => {
    const sandbox = createSandbox();
    const outer = sandbox.add(['--summary', 'outer lesson']);
    const inner = sandbox.inRepo('packages', 'inner');
    mkdirSync(join(inner, '.git'), { recursive: true });
    expect(sandbox.run(['init', '--root', inner]).code).toBe(0);
    const nested = sandbox.add(['--summary', 'inner lesson'], { cwd: inner });
    expect(listIds(sandbox, [], { cwd: inner })).toEqual([nested]);
    expect(listIds(sandbox)).toEqual([outer]);
  });
});

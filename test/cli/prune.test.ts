// lore prune in a real temporary git repository: commits made and then dropped (reset), files
// that exist, are untracked or ignored, tasks on disk; outside git a walk honouring .gitignore;
// the age rule; archiving never deletes.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSandbox, seedLessons } from '../helpers/cli.js';
import type { Sandbox, ShowJson } from '../helpers/cli.js';

type Item = { id: string; tier: string; reasons: { rule: string; refs?: string[]; message: string }[] };
type PruneJson = {
  stale: Item[];
  aged: Item[];
  archived: string[];
  dryRun: boolean;
  checks: {
    staleChecked: number;
    files: { count: number; source: 'git' | 'walk' } | null;
    git: boolean;
    commits: { known: number; unknown: number };
    tasks: { configured: boolean; known: number; unknown: number };
  };
};

function git(sandbox: Sandbox, ...args: string[]): string {
  const result = spawnSync(
    'git',
    ['-c', 'user.name=Lore Test', '-c', 'user.email=test@example.com', ...args],
    {
      cwd: sandbox.repo,
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: sandbox.home, GIT_CONFIG_NOSYSTEM: '1' },
    },
  );
  if (result.status !== 0) throw new Error(`git ${args.join(' ')} failed:\n${result.stderr}`);
  return result.stdout.trim();
}

function write(sandbox: Sandbox, path: string, text = 'x\n'): void {
  mkdirSync(dirname(sandbox.inRepo(path)), { recursive: true });
  writeFileSync(sandbox.inRepo(path), text);
}

/** A real repository: the sandbox's placeholder .git replaced by `git init`. */
function gitSandbox(): Sandbox {
  const sandbox = createSandbox();
  rmSync(sandbox.inRepo('.git'), { recursive: true, force: true });
  git(sandbox, 'init', '-q', '-b', 'main');
  return sandbox;
}

function commit(sandbox: Sandbox, path: string, message: string): string {
  write(sandbox, path, `${message}\n`);
  git(sandbox, 'add', path);
  git(sandbox, 'commit', '-q', '-m', message);
  return git(sandbox, 'rev-parse', 'HEAD');
}

const byId = (items: readonly Item[]) =>
  Object.fromEntries(items.map((item) => [item.id, item.reasons.map((r) => r.rule)]));

describe('lore prune: staleness in a git repository', () => {
  it('paths, commits made and dropped, tasks; --json says why; --archive archives and deletes nothing', () => {
    const sandbox = gitSandbox();
    const kept = commit(sandbox, 'src/api/handlers.ts', 'handlers');
    const shortKept = kept.slice(0, 10);
    const dropped = commit(sandbox, 'src/legacy/old.ts', 'legacy code');
    const droppedToo = commit(sandbox, 'src/legacy/older.ts', 'more legacy');
    git(sandbox, 'reset', '-q', '--hard', kept);
    write(sandbox, 'notes/untracked.md');
    write(sandbox, '.gitignore', 'build/\n');
    write(sandbox, 'build/out.js');
    write(sandbox, 'docs/tasks/T-1.md');

    seedLessons(sandbox, [
      { id: 'p0000000a1', summary: 'handlers live in src/api', paths: ['src/api/**'] },
      { id: 'p0000000a2', summary: 'legacy modules are frozen', paths: ['src/legacy/**'] },
      { id: 'p0000000a3', summary: 'untracked notes count as files', paths: ['notes/*.md'] },
      { id: 'p0000000a4', summary: 'build output is ignored by git', paths: ['build/**'] },
      {
        id: 'p0000000a5',
        summary: 'from a dropped commit',
        evidence: [
          { kind: 'commit', ref: dropped },
          { kind: 'commit', ref: droppedToo.slice(0, 7) },
        ],
      },
      {
        id: 'p0000000a6',
        summary: 'one commit dropped, one kept',
        evidence: [
          { kind: 'commit', ref: dropped },
          { kind: 'commit', ref: shortKept },
        ],
      },
      {
        id: 'p0000000a7',
        summary: 'a commit that never existed',
        evidence: [{ kind: 'commit', ref: 'deadbeefdeadbeef' }],
      },
      { id: 'p0000000a8', summary: 'a task', evidence: [{ kind: 'task', ref: 'T-1' }] },
      { id: 'p0000000a9', summary: 'a gone task', evidence: [{ kind: 'task', ref: 'T-2' }] },
      { id: 'p0000000b1', summary: 'no anchors at all' },
    ]);

    const report = sandbox.run(['prune', '--stale-only', '--json']);
    expect(report.code, report.stderr).toBe(0);
    const data = report.json<PruneJson>();
    expect(byId(data.stale)).toEqual({
      p0000000a2: ['paths'],
      p0000000a4: ['paths'],
      p0000000a5: ['commits'],
      p0000000a7: ['commits'],
    });
    expect(data.stale.find((item) => item.id === 'p0000000a5')?.reasons[0]?.refs).toEqual([
      dropped,
      droppedToo.slice(0, 7),
    ]);
    expect(data).toMatchObject({ aged: [], archived: [], dryRun: true });
    expect(data.checks).toMatchObject({
      staleChecked: 10,
      git: true,
      files: { source: 'git' },
      commits: { known: 4, unknown: 0 },
      tasks: { configured: false, known: 0, unknown: 2 },
    });

    const text = sandbox.run(['prune', '--stale-only']);
    expect(text.stdout).toContain('stale (4):');
    expect(text.stdout).toContain('paths: no file matches its path glob src/legacy/**');
    expect(text.stdout).toContain(
      `commits: all 2 evidence commits ${dropped}, ${droppedToo.slice(0, 7)} are gone from the current branch`,
    );
    expect(text.stdout).toContain('dry run: nothing changed');
    expect(text.stdout).toContain('set prune.taskPaths');

    // Tasks: once config says where they live, a missing one is stale.
    writeFileSync(sandbox.inRepo('.lore', 'config.yaml'), "prune:\n  taskPaths: ['docs/tasks/{task}.md']\n");
    const withTasks = sandbox.run(['prune', '--stale-only', '--json']).json<PruneJson>();
    expect(byId(withTasks.stale)).toMatchObject({ p0000000a9: ['tasks'] });
    expect(byId(withTasks.stale)).not.toHaveProperty('p0000000a8');
    expect(withTasks.checks.tasks).toEqual({ configured: true, known: 2, unknown: 0 });

    const archived = sandbox.run(['prune', '--stale-only', '--archive', '--json']).json<PruneJson>();
    expect(archived.archived.sort()).toEqual([
      'p0000000a2',
      'p0000000a4',
      'p0000000a5',
      'p0000000a7',
      'p0000000a9',
    ]);
    expect(archived.dryRun).toBe(false);
    for (const id of archived.archived) {
      expect(existsSync(sandbox.lessonFile(id))).toBe(true);
      expect(sandbox.run(['show', id, '--json']).json<ShowJson>().lesson.status).toBe('archived');
    }
    expect(sandbox.run(['show', 'p0000000a1', '--json']).json<ShowJson>().lesson.status).toBe('active');
    expect(sandbox.run(['prune', '--stale-only', '--json']).json<PruneJson>().stale).toEqual([]);
    expect(sandbox.run(['prune', '--stale-only']).stdout).toContain('no stale lessons');
  });

  it('a commit made again on the branch (cherry-picked back) is no longer gone', () => {
    const sandbox = gitSandbox();
    const base = commit(sandbox, 'a.txt', 'base');
    const feature = commit(sandbox, 'b.txt', 'feature');
    seedLessons(sandbox, [
      { id: 'p0000000c1', summary: 'from the feature', evidence: [{ kind: 'commit', ref: feature }] },
    ]);
    expect(sandbox.run(['prune', '--stale-only', '--json']).json<PruneJson>().stale).toEqual([]);
    git(sandbox, 'reset', '-q', '--hard', base);
    expect(byId(sandbox.run(['prune', '--stale-only', '--json']).json<PruneJson>().stale)).toEqual({
      p0000000c1: ['commits'],
    });
    git(sandbox, 'merge', '-q', '--ff-only', feature);
    expect(sandbox.run(['prune', '--stale-only', '--json']).json<PruneJson>().stale).toEqual([]);
  });
});

describe('lore prune outside git', () => {
  it('walks the directory, honouring every .gitignore; commit evidence cannot be checked', () => {
    const sandbox = createSandbox();
    write(sandbox, 'src/app.py');
    write(sandbox, '.gitignore', 'dist/\n*.log\n');
    write(sandbox, 'dist/bundle.js');
    write(sandbox, 'logs/run.log');
    write(sandbox, 'pkg/.gitignore', 'generated/\n');
    write(sandbox, 'pkg/generated/api.py');
    write(sandbox, 'pkg/mod.py');
    seedLessons(sandbox, [
      { id: 'w0000000a1', summary: 'python sources', paths: ['src/*.py'] },
      { id: 'w0000000a2', summary: 'the bundle', paths: ['dist/**'] },
      { id: 'w0000000a3', summary: 'logs', paths: ['**/*.log'] },
      { id: 'w0000000a4', summary: 'generated api', paths: ['pkg/generated/**'] },
      { id: 'w0000000a5', summary: 'the package', paths: ['pkg/*.py'] },
      { id: 'w0000000a6', summary: 'a commit', evidence: [{ kind: 'commit', ref: 'abc1234' }] },
    ]);
    const data = sandbox.run(['prune', '--stale-only', '--json']).json<PruneJson>();
    expect(byId(data.stale)).toEqual({ w0000000a2: ['paths'], w0000000a3: ['paths'], w0000000a4: ['paths'] });
    expect(data.checks).toMatchObject({
      git: false,
      files: { source: 'walk' },
      commits: { known: 0, unknown: 1 },
    });
    expect(sandbox.run(['prune', '--stale-only']).stdout).toContain('not a git repository');
  });
});

describe('lore prune: the age rule', () => {
  const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();

  it('reports old minor lessons (dry run by default), never high or critical, never young; --archive archives them', () => {
    const sandbox = createSandbox({ loreHome: true });
    const old = { createdAt: daysAgo(400), updatedAt: daysAgo(400) };
    seedLessons(sandbox, [
      { id: 'a0000000a1', summary: 'old and low', severity: 'low', ...old },
      { id: 'a0000000a2', summary: 'old and medium', severity: 'medium', ...old },
      { id: 'a0000000a3', summary: 'old and high', severity: 'high', ...old },
      { id: 'a0000000a4', summary: 'old and critical', severity: 'critical', ...old },
      {
        id: 'a0000000a5',
        summary: 'young and low',
        severity: 'low',
        createdAt: daysAgo(10),
        updatedAt: daysAgo(10),
      },
      {
        id: 'a0000000a6',
        summary: 'old, low, upvoted last week',
        severity: 'low',
        ...old,
        votes: [{ model: 'm', task: 't', at: daysAgo(7) }],
      },
    ]);
    const report = sandbox.run(['prune', '--json']).json<PruneJson>();
    expect(report.aged.map((item) => item.id)).toEqual(['a0000000a1']);
    expect(report.dryRun).toBe(true);
    expect(sandbox.run(['show', 'a0000000a1', '--json']).json<ShowJson>().lesson.status).toBe('active');
    expect(sandbox.run(['prune', '--stale-only', '--json']).json<PruneJson>().aged).toEqual([]);

    writeFileSync(
      sandbox.inRepo('.lore', 'config.yaml'),
      'prune:\n  maxAgeDays: 30\n  maxSeverity: medium\n',
    );
    const wider = sandbox.run(['prune', '--json']).json<PruneJson>();
    expect(wider.aged.map((item) => item.id).sort()).toEqual(['a0000000a1', 'a0000000a2']);

    writeFileSync(sandbox.inRepo('.lore', 'config.yaml'), 'prune:\n  maxAgeDays: 5\n  maxSeverity: high\n');
    const refused = sandbox.run(['prune']);
    expect(refused.code).toBe(0);
    expect(refused.stderr).toContain('maxAgeDays');
    expect(refused.stderr).toContain('at least 30');

    writeFileSync(
      sandbox.inRepo('.lore', 'config.yaml'),
      'prune:\n  maxAgeDays: 30\n  maxSeverity: medium\n',
    );
    const text = sandbox.run(['prune', '--archive']);
    expect(text.stdout).toContain('old (age rule) (2):');
    expect(text.stdout).toContain('archived 2 lesson(s)');
    expect(sandbox.run(['show', 'a0000000a2', '--json']).json<ShowJson>().lesson.status).toBe('archived');
    expect(sandbox.run(['show', 'a0000000a3', '--json']).json<ShowJson>().lesson.status).toBe('active');
    expect(sandbox.run(['unarchive', 'a0000000a2']).code).toBe(0);
  });

  it('--help names the flags and that nothing changes without --archive', () => {
    const help = createSandbox({ init: false }).run(['prune', '--help']).stdout;
    for (const text of [
      '--stale-only',
      '--archive',
      '--json',
      'Nothing changes without',
      'nothing is ever deleted',
      'prune.maxAgeDays',
      'prune.taskPaths',
    ])
      expect(help).toContain(text);
  });
});

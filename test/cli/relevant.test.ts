// lore relevant and lore list --operation/--stack: user-tier lessons filtered by the repository's
// stack (detected from its manifest files, or given), operations mapped to categories, most
// severe first, at most 10, silent when nothing matches.
import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createSandbox, seedLessons } from '../helpers/cli.js';
import type { ListJson, Sandbox } from '../helpers/cli.js';

type RelevantJson = {
  operation: string | null;
  stack: string[];
  stackSource: 'detected' | 'given';
  lessons: { id: string; tier: string; severity: string; file: string }[];
};

/** A TypeScript repository, with lessons in both tiers. */
function typescriptRepo(): Sandbox {
  const sandbox = createSandbox({ loreHome: true });
  writeFileSync(sandbox.inRepo('package.json'), JSON.stringify({ devDependencies: { typescript: '^5' } }));
  writeFileSync(sandbox.inRepo('tsconfig.json'), '{}');
  seedLessons(sandbox, [
    {
      id: 'p000000001',
      summary: 'project: the API schema is generated',
      category: 'architecture',
      severity: 'high',
    },
    {
      id: 'p000000002',
      summary: 'project: run vitest with --pool forks',
      category: 'testing',
      severity: 'low',
      stack: ['rust'],
    },
  ]);
  const user = (args: string[]) => {
    const run = sandbox.run(['add', '--tier', 'user', '-q', ...args]);
    expect(run.code, run.stderr).toBe(0);
    return run.stdout.trim();
  };
  user([
    '--summary',
    'python: pin numpy below 2',
    '--stack',
    'python',
    '--severity',
    'critical',
    '--category',
    'testing',
  ]);
  user([
    '--summary',
    'typescript: const enums slow the build down',
    '--stack',
    'typescript',
    '--category',
    'performance',
    '--severity',
    'medium',
  ]);
  user([
    '--summary',
    'any stack: write the failing test first',
    '--category',
    'testing',
    '--severity',
    'medium',
  ]);
  user([
    '--summary',
    'react: keys on list items',
    '--stack',
    'react',
    '--category',
    'technical',
    '--severity',
    'high',
  ]);
  return sandbox;
}

const summaries = (sandbox: Sandbox, args: string[]) =>
  sandbox
    .run(['relevant', ...args, '--json'])
    .json<RelevantJson>()
    .lessons.map((lesson) => (lesson as unknown as { summary: string }).summary);

describe('lore relevant', () => {
  it('keeps user lessons whose stack overlaps the detected one, most severe first', () => {
    const sandbox = typescriptRepo();
    const data = sandbox.run(['relevant', '--json']).json<RelevantJson>();
    expect(data.stack).toEqual(['javascript', 'node', 'typescript']);
    expect(data.stackSource).toBe('detected');
    expect(summaries(sandbox, [])).toEqual([
      'project: the API schema is generated',
      'any stack: write the failing test first',
      'typescript: const enums slow the build down',
      'project: run vitest with --pool forks',
    ]);
    const text = sandbox.run(['relevant']).stdout;
    expect(text.split('\n')[0]).toContain('p000000001  project  high');
    expect(text).not.toContain('python');
  });

  it('--operation keeps the categories it maps to; --stack replaces the detected stack', () => {
    const sandbox = typescriptRepo();
    expect(summaries(sandbox, ['--operation', 'test'])).toEqual([
      'any stack: write the failing test first',
      'typescript: const enums slow the build down',
      'project: run vitest with --pool forks',
    ]);
    expect(summaries(sandbox, ['--operation', 'test', '--stack', 'python'])).toEqual([
      'python: pin numpy below 2',
      'any stack: write the failing test first',
      'project: run vitest with --pool forks',
    ]);
    expect(summaries(sandbox, ['--stack', 'react,python', '--tier', 'user'])).toEqual([
      'python: pin numpy below 2',
      'react: keys on list items',
      'any stack: write the failing test first',
    ]);
    expect(summaries(sandbox, ['--limit', '1'])).toEqual(['project: the API schema is generated']);
  });

  it('prints nothing and exits 0 when nothing matches', () => {
    const sandbox = typescriptRepo();
    const run = sandbox.run(['relevant', '--operation', 'plan', '--tier', 'user']);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe('');
    expect(
      sandbox.run(['relevant', '--operation', 'plan', '--tier', 'user', '--json']).json<RelevantJson>()
        .lessons,
    ).toEqual([]);
  });

  // ADD maps /add:deploy to performance, technical, process: a deploy must not hide technical
  // lessons (it once mapped to process, tooling, security, collaboration only).
  it('--operation deploy keeps the technical and performance lessons ADD shows for a deploy', () => {
    const sandbox = typescriptRepo();
    expect(
      summaries(sandbox, ['--operation', 'deploy', '--stack', 'react,typescript', '--tier', 'user']),
    ).toEqual(['react: keys on list items', 'typescript: const enums slow the build down']);
  });

  it('the project lesson wins over a user lesson with the same slug', () => {
    const sandbox = createSandbox({ loreHome: true });
    const project = sandbox.add([
      '--summary',
      'use pnpm here',
      '--slug',
      'package-manager',
      '--severity',
      'low',
    ]);
    sandbox.add([
      '--summary',
      'use npm everywhere',
      '--slug',
      'package-manager',
      '--tier',
      'user',
      '--severity',
      'critical',
    ]);
    expect(
      sandbox
        .run(['relevant', '--json'])
        .json<RelevantJson>()
        .lessons.map((l) => l.id),
    ).toEqual([project]);
  });

  it('keeps at most 10', () => {
    const sandbox = createSandbox();
    seedLessons(
      sandbox,
      Array.from({ length: 14 }, (_, i) => ({
        id: `r00000000${i.toString(32)}`.replace(/[ilou]/g, 'x'),
        summary: `lesson number ${i}`,
        updatedAt: new Date(Date.UTC(2026, 0, 1 + i)).toISOString(),
      })),
    );
    const ids = sandbox.run(['relevant', '--json']).json<RelevantJson>().lessons;
    expect(ids).toHaveLength(10);
    expect((ids[0] as unknown as { summary: string }).summary).toBe('lesson number 13');
  });

  it('rejects an unknown operation and a bad limit', () => {
    const sandbox = createSandbox();
    const bad = sandbox.run(['relevant', '--operation', 'ship']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('plan, implement, test, review, deploy, verify, optimize');
    expect(sandbox.run(['relevant', '--limit', '11']).code).toBe(2);
    expect(sandbox.run(['relevant', '--stack', 'auto', '--stack', 'python']).code).toBe(2);
  });
});

describe('lore list --operation --stack', () => {
  it('filters like relevant, keeps list order and lists everything that passes', () => {
    const sandbox = typescriptRepo();
    const ids = (args: string[]) =>
      sandbox
        .run(['list', ...args, '--json'])
        .json<ListJson>()
        .lessons.map((lesson) => lesson.summary)
        .sort();
    expect(ids(['--operation', 'test', '--stack', 'auto'])).toEqual([
      'any stack: write the failing test first',
      'project: run vitest with --pool forks',
      'typescript: const enums slow the build down',
    ]);
    expect(ids(['--operation', 'test'])).toEqual([
      'any stack: write the failing test first',
      'project: run vitest with --pool forks',
      'python: pin numpy below 2',
      'react: keys on list items',
      'typescript: const enums slow the build down',
    ]);
    expect(
      sandbox.run(['list', '--stack', 'auto', '--json']).json<ListJson & { stack: string[] }>().stack,
    ).toEqual(['javascript', 'node', 'typescript']);
  });
});

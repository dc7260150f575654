/** `lore prompt` and the `taskPrompt` library export, against the built package. */
import { mkdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../helpers/cli.js';
import type { Sandbox } from '../helpers/cli.js';
import type * as LoreLibrary from '../../src/index.js';

function seed(sandbox: Sandbox) {
  return {
    migration: sandbox.add([
      '--summary',
      'never edit an applied migration; add a new one',
      '--path',
      'db/migrations/**',
      '--category',
      'process',
      '--priority',
      '8',
    ]),
    index: sandbox.add([
      '--summary',
      'create indexes concurrently on the users table',
      '--category',
      'performance',
      '--tag',
      'area:db',
    ]),
    flaky: sandbox.add(['--summary', 'the payment tests are flaky under load', '--category', 'testing']),
    unsure: sandbox.add(['--summary', 'users table index advice nobody trusts', '--confidence', '0.3']),
  };
}

describe('lore prompt', () => {
  it('renders the lessons for the files, tags and text of a task, scope first', () => {
    const sandbox = createSandbox();
    const ids = seed(sandbox);
    const run = sandbox.run([
      'prompt',
      '--files',
      'db/migrations/0042_users.sql',
      '--tags',
      'area:db',
      '--title',
      'add an index on users',
    ]);
    expect(run.code).toBe(0);
    const lines = run.stdout.split('\n');
    expect(lines[0]).toBe('<system-reminder>');
    expect(lines[2]).toContain(`[${ids.migration}]`);
    expect(lines[2]).toContain('(path:db/migrations/**, text:summary)');
    expect(run.stdout).toContain(`[${ids.index}]`);
    expect(run.stdout).not.toContain(ids.unsure);
    expect(run.stdout).toContain('lore show <id>');
  });

  it('takes --files relative to where it runs, as lore list --path does; JSON even when none match', () => {
    const sandbox = createSandbox();
    const ids = seed(sandbox);
    mkdirSync(sandbox.inRepo('db', 'migrations'), { recursive: true });
    const cwd = sandbox.inRepo('db', 'migrations');
    const listed = sandbox
      .run(['list', '--path', '0042.sql', '--json'], { cwd })
      .json<{ lessons: { id: string }[] }>();
    expect(listed.lessons.map((l) => l.id)).toEqual([ids.migration]);
    for (const file of ['0042.sql', './0042.sql']) {
      const run = sandbox.run(['prompt', '--files', file, '--format', 'json'], { cwd });
      expect(run.code, run.stderr).toBe(0);
      expect(JSON.parse(run.stdout).lessons.map((l: { id: string }) => l.id)).toEqual([ids.migration]);
    }
    const none = sandbox.run(['prompt', '--files', 'README.md', '--format', 'json']);
    expect([none.code, JSON.parse(none.stdout).lessons]).toEqual([0, []]);
    expect(sandbox.run(['prompt', '--files', 'README.md']).stdout).toBe('');
  });

  it('maps the operation to categories', () => {
    const sandbox = createSandbox();
    const ids = seed(sandbox);
    const data = sandbox
      .run(['prompt', '--operation', 'test', '--json'])
      .json<{ lessons: { id: string }[] }>();
    // ADD's /add:tdd-cycle wants performance lessons too, so the index advice comes along.
    expect(data.lessons.map((l) => l.id)).toEqual([ids.flaky, ids.index]);
    const plan = sandbox.run(['prompt', '--title', 'users index', '--operation', 'plan']);
    expect(plan.stdout).toBe('');
    const deploy = sandbox.run(['prompt', '--title', 'users index', '--operation', 'deploy', '--json']);
    expect(deploy.json<{ lessons: { id: string }[] }>().lessons.map((l) => l.id)).toEqual([ids.index]);
  });

  // The Persistent Learnings Layer's injected form: `### Title [confidence: X.XX, used N×]` and
  // the four parts; mistake / remediation stand in for observation / action.
  it('--format coia renders each lesson as a COIA block with its confidence and use count', () => {
    const sandbox = createSandbox();
    const oauth = sandbox.add([
      '--summary',
      'Stripe OAuth needs the platform account id',
      '--tag',
      'area:billing',
      '--confidence',
      '0.95',
      '--mistake',
      'connect calls failed with account_invalid',
      '--remediation',
      'pass stripe_account on every connect call',
    ]);
    const first = sandbox.run(['prompt', '--tags', 'area:billing', '--format', 'coia', '--task', 'T-1']);
    expect(first.stdout).toBe(
      [
        '### Stripe OAuth needs the platform account id [confidence: 0.95, used 0×]',
        '',
        '**Observation**: connect calls failed with account_invalid',
        '**Action**: pass stripe_account on every connect call',
        '',
        `_ID: ${oauth} | matched by tag:area:billing_`,
        '',
        'Read a lesson in full with `lore show <id>` (or the MCP tool lore_show). After using one, say LEARNING_HELPFUL: <id> or LEARNING_NOT_HELPFUL: <id>.',
        '',
      ].join('\n'),
    );
    const second = sandbox.run(['prompt', '--tags', 'area:billing', '--format', 'coia', '--task', 'T-2']);
    expect(second.stdout.split('\n')[0]).toBe(
      '### Stripe OAuth needs the platform account id [confidence: 0.95, used 1×]',
    );
  });

  it('prints nothing at all when nothing matches', () => {
    const sandbox = createSandbox();
    seed(sandbox);
    const run = sandbox.run(['prompt', '--files', 'README.md', '--title', 'typo']);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('');
  });

  it('renders markdown and json, and limits', () => {
    const sandbox = createSandbox();
    const ids = seed(sandbox);
    const markdown = sandbox.run([
      'prompt',
      '--title',
      'users index migration',
      '--format',
      'markdown',
      '--limit',
      '1',
    ]);
    expect(markdown.stdout.startsWith('## Lessons for this task\n')).toBe(true);
    expect(markdown.stdout.match(/^- \*\*/gm)).toHaveLength(1);
    const json = JSON.parse(
      sandbox.run(['prompt', '--files', 'db/migrations/1.sql', '--format', 'json']).stdout,
    ) as {
      lessons: { id: string; matched_by: string[] }[];
    };
    expect(json.lessons).toEqual([
      expect.objectContaining({ id: ids.migration, matched_by: ['path:db/migrations/**'] }),
    ]);
  });

  it('refuses an unknown operation with the choices', () => {
    const sandbox = createSandbox();
    const run = sandbox.run(['prompt', '--operation', 'ship']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('plan, implement, test, review, deploy');
  });

  it('is a library function for orchestrators', async () => {
    const sandbox = createSandbox();
    const ids = seed(sandbox);
    const lore = (await import(new URL('../../dist/index.js', import.meta.url).href)) as typeof LoreLibrary;
    const text = await lore.taskPrompt({
      cwd: sandbox.repo,
      env: sandbox.env,
      files: ['db/migrations/7.sql'],
    });
    const cli = sandbox.run(['prompt', '--files', 'db/migrations/7.sql']).stdout;
    expect(text).toBe(cli);
    expect(text).toContain(ids.migration);
    expect(await lore.taskPrompt({ cwd: sandbox.repo, env: sandbox.env, files: ['nothing.txt'] })).toBe('');
  });
});

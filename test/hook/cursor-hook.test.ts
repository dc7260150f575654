// The committed hook bundle on Cursor's documented hook payloads (transcribed, see
// test/fixtures/hook-payloads/SOURCES.md: no Cursor binary runs here), as `--host cursor` runs it
// from .cursor/hooks.json and as Cursor runs lore's Claude-format hooks from .claude/settings.json.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../helpers/cli.js';
import type { Sandbox } from '../helpers/cli.js';
import { payload } from '../helpers/hook-payloads.js';
import { runHookBundle } from '../helpers/hook.js';
import type { HookOptions } from '../helpers/hook.js';

const CURSOR = { args: ['--host', 'cursor'] } as const;
const PYTEST = 'pytest prints a header that floods agent logs: run pytest --no-header -q';

function lessonSandbox() {
  const sandbox = createSandbox();
  const pytest = sandbox.add([
    '--summary',
    PYTEST,
    '--tool',
    'Bash',
    '--command',
    '(^|\\s)pytest\\b(?!.*--no-header)',
  ]);
  const guard = sandbox.add([
    '--summary',
    'rm -rf build deletes the cached toolchain: use make clean',
    '--type',
    'guard',
    '--command',
    'rm\\s+-rf\\s+build(?!/cache)',
    '--remediation',
    'run `make clean`, which keeps build/cache',
  ]);
  const migrations = sandbox.add([
    '--summary',
    'migrations are generated: never edit them by hand',
    '--path',
    'db/migrations/',
  ]);
  const migrationGuard = sandbox.add([
    '--summary',
    'the applied migration 0001 is frozen',
    '--type',
    'guard',
    '--tool',
    'Read',
    '--path',
    'db/migrations/0001.sql',
    '--remediation',
    'add a new migration instead',
  ]);
  // no call brings it: the kind of lesson a session opens with
  const general = sandbox.add(['--summary', 'this project formats with black', '--tag', 'lang:python']);
  return { sandbox, pytest, guard, migrations, migrationGuard, general };
}

type Out = {
  permission?: string;
  agent_message?: string;
  user_message?: string;
  additional_context?: string;
};

/** A documented payload moved into the sandbox's repository (workspace root, cwd and paths). */
function cursor(
  sandbox: Sandbox,
  event: string,
  tool: string | undefined,
  fields: Record<string, unknown> = {},
) {
  const text = JSON.stringify(payload('cursor', event, tool)).replaceAll('/home/dev/work/proj', sandbox.repo);
  return { ...(JSON.parse(text) as Record<string, unknown>), ...fields };
}

function run(sandbox: Sandbox, stdin: object | string, options: HookOptions = CURSOR) {
  const result = runHookBundle(sandbox, stdin, options);
  return { code: result.code, out: JSON.parse(result.stdout) as Out, stdout: result.stdout.trim() };
}

describe('Cursor hooks (--host cursor)', () => {
  it('sessionStart: the #lesson protocol and the top lessons no call brings as additional_context', () => {
    const { sandbox, pytest, general } = lessonSandbox();
    const result = run(sandbox, cursor(sandbox, 'sessionStart', undefined));
    expect(result.code).toBe(0);
    expect(result.out.additional_context).toContain('#lesson');
    expect(result.out.additional_context).toContain(general);
    expect(result.out.additional_context).not.toContain(pytest);
  });

  it('preToolUse and beforeShellExecution say nothing for advice; postToolUse carries it, once per conversation', () => {
    const { sandbox, pytest } = lessonSandbox();
    expect(run(sandbox, cursor(sandbox, 'beforeShellExecution', undefined)).stdout).toBe('{}');
    expect(run(sandbox, cursor(sandbox, 'preToolUse', 'Shell')).stdout).toBe('{}');
    const after = run(sandbox, cursor(sandbox, 'postToolUse', 'Shell'));
    expect(after.out).toEqual({ additional_context: expect.stringContaining(`[lore ${pytest}] ${PYTEST}`) });
    expect(run(sandbox, cursor(sandbox, 'postToolUse', 'Shell')).stdout).toBe('{}');
    const other = cursor(sandbox, 'postToolUse', 'Shell', { conversation_id: 'another-conversation' });
    expect(run(sandbox, other).out.additional_context).toContain(pytest);
  });

  it('beforeShellExecution denies a guarded command with agent_message; postToolUse does not repeat it', () => {
    const { sandbox, guard } = lessonSandbox();
    const denied = run(
      sandbox,
      cursor(sandbox, 'beforeShellExecution', undefined, { command: 'rm -rf build' }),
    );
    expect(denied.out).toEqual({
      permission: 'deny',
      agent_message: expect.stringContaining('Fix: run `make clean`'),
      user_message: `lore guard ${guard} blocked this call: rm -rf build deletes the cached toolchain: use make clean`,
    });
    const shell = cursor(sandbox, 'postToolUse', 'Shell', { tool_input: { command: 'rm -rf build' } });
    expect(run(sandbox, shell).stdout).toBe('{}');
  });

  it('beforeShellExecution denies a checkpoint once; the retry passes both halves', () => {
    const { sandbox } = lessonSandbox();
    const checkpoint = sandbox.add([
      '--summary',
      'publishing needs the changelog entry first',
      '--type',
      'checkpoint',
      '--command',
      'npm\\s+publish',
    ]);
    const before = () =>
      run(sandbox, cursor(sandbox, 'beforeShellExecution', undefined, { command: 'npm publish' }));
    expect(before().out).toEqual({
      permission: 'deny',
      agent_message: expect.stringContaining('publishing needs the changelog entry first'),
      user_message: `lore checkpoint ${checkpoint}: read this lesson before this call runs.`,
    });
    const after = cursor(sandbox, 'postToolUse', 'Shell', { tool_input: { command: 'npm publish' } });
    expect([before().stdout, run(sandbox, after).stdout]).toEqual(['{}', '{}']);
  });

  it('preToolUse denies a guarded file read; postToolUse on a file tool carries path lessons', () => {
    const { sandbox, migrations, migrationGuard } = lessonSandbox();
    expect(run(sandbox, cursor(sandbox, 'preToolUse', 'Read')).out).toMatchObject({
      permission: 'deny',
      agent_message: expect.stringContaining(migrationGuard),
    });
    expect(run(sandbox, cursor(sandbox, 'postToolUse', 'Write')).out.additional_context).toContain(
      migrations,
    );
  });

  it('logs with host cursor and the phase of the call', () => {
    const { sandbox, pytest } = lessonSandbox();
    run(sandbox, cursor(sandbox, 'postToolUse', 'Shell'));
    const [line] = readFileSync(join(sandbox.repo, '.lore', 'cache', 'audit.jsonl'), 'utf8')
      .trim()
      .split('\n');
    expect(JSON.parse(line ?? '{}')).toMatchObject({
      host: 'cursor',
      phase: 'after',
      session: 'c1a2b3c4-0000-4000-8000-000000000001',
      lessons: [expect.objectContaining({ id: pytest })],
    });
  });
});

describe('Cursor running lore twice: from .cursor/hooks.json and from .claude/settings.json', () => {
  function withCursorHooks(sandbox: Sandbox, where: 'project' | 'user') {
    const dir = where === 'project' ? join(sandbox.repo, '.cursor') : join(sandbox.home, '.cursor');
    mkdirSync(dir, { recursive: true });
    const command = 'NODE_EXTRA_CA_CERTS= node "/pkg/plugin/bin/lore-hook.cjs" --host cursor';
    writeFileSync(
      join(dir, 'hooks.json'),
      JSON.stringify({ version: 1, hooks: { postToolUse: [{ command }] } }),
    );
  }

  it('without lore Cursor hooks, the Claude-format run answers Cursor in its own format', () => {
    const { sandbox, pytest } = lessonSandbox();
    const result = run(sandbox, cursor(sandbox, 'postToolUse', 'Shell'), {});
    expect(result.out.additional_context).toContain(pytest);
  });

  it.each(['project', 'user'] as const)(
    'with lore Cursor hooks in the %s, the Claude-format run answers {} and the Cursor one injects',
    (where) => {
      const { sandbox, pytest } = lessonSandbox();
      withCursorHooks(sandbox, where);
      expect(run(sandbox, cursor(sandbox, 'postToolUse', 'Shell'), {}).stdout).toBe('{}');
      expect(run(sandbox, cursor(sandbox, 'sessionStart', undefined), {}).stdout).toBe('{}');
      expect(run(sandbox, cursor(sandbox, 'postToolUse', 'Shell')).out.additional_context).toContain(pytest);
    },
  );

  it('a Claude-named event from Cursor (PostToolUse with conversation_id) is still Cursor', () => {
    const { sandbox, pytest } = lessonSandbox();
    const renamed = cursor(sandbox, 'postToolUse', 'Shell', { hook_event_name: 'PostToolUse' });
    expect(run(sandbox, renamed, {}).out.additional_context).toContain(pytest);
  });
});

describe('Cursor hooks: bad input answers {} and exits 0', () => {
  const cases: [string, (sandbox: Sandbox) => object | string][] = [
    ['not JSON', () => '{"hook_event_name": "postToolUse"'],
    ['no conversation_id', (s) => cursor(s, 'postToolUse', 'Shell', { conversation_id: undefined })],
    [
      'no cwd and no workspace_roots',
      (s) => cursor(s, 'postToolUse', 'Shell', { cwd: '', workspace_roots: [] }),
    ],
    ['an MCP tool', (s) => cursor(s, 'postToolUse', 'MCP:lore_search')],
    ['beforeSubmitPrompt (cannot add context)', (s) => cursor(s, 'beforeSubmitPrompt', undefined)],
    ['stop', (s) => cursor(s, 'stop', undefined)],
    ['tool_input a string', (s) => cursor(s, 'preToolUse', 'Read', { tool_input: '{"file_path":"x"}' })],
    [
      'a postToolUse output over the input limit',
      (s) => cursor(s, 'postToolUse', 'Shell', { tool_output: 'z'.repeat(2_500_000) }),
    ],
  ];
  it.each(cases)('%s', (_name, build) => {
    const { sandbox } = lessonSandbox();
    const result = run(sandbox, build(sandbox));
    expect([result.code, result.stdout]).toEqual([0, '{}']);
  });

  it('cwd empty: the first workspace root stands in', () => {
    const { sandbox, pytest } = lessonSandbox();
    const result = run(sandbox, cursor(sandbox, 'postToolUse', 'Shell', { cwd: '' }));
    expect(result.out.additional_context).toContain(pytest);
  });
});

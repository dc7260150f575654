// The committed hook bundle, spawned as Gemini CLI 0.61.0 spawns it (`--host gemini`), on the
// payloads that binary recorded (test/fixtures/hook-payloads/gemini-hooks.jsonl).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../helpers/cli.js';
import type { Sandbox } from '../helpers/cli.js';
import { payload } from '../helpers/hook-payloads.js';
import { fileAppears, fileDisappears, inRepo, runHookBundle } from '../helpers/hook.js';
import type { HookOptions } from '../helpers/hook.js';

const PYTEST = 'pytest prints a header that floods agent logs: run pytest --no-header -q';
const GEMINI = { args: ['--host', 'gemini'] } as const;

function lessonSandbox(): {
  sandbox: Sandbox;
  pytest: string;
  guard: string;
  migrations: string;
  general: string;
} {
  const sandbox = createSandbox();
  const pytest = sandbox.add([
    '--summary',
    PYTEST,
    '--tool',
    'Bash',
    '--command',
    '(^|\\s)pytest\\b(?!.*--no-header)',
    '--priority',
    '8',
  ]);
  const guard = sandbox.add([
    '--summary',
    'rm -rf build deletes the cached toolchain: use make clean',
    '--type',
    'guard',
    '--tool',
    'Bash',
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
  // no call brings it: the kind of lesson a session opens with
  const general = sandbox.add(['--summary', 'this project formats with black', '--tag', 'lang:python']);
  return { sandbox, pytest, guard, migrations, general };
}

type Out = {
  decision?: string;
  reason?: string;
  hookSpecificOutput?: { hookEventName: string; additionalContext?: string };
};

function run(sandbox: Sandbox, stdin: object | string, options: HookOptions = GEMINI) {
  const result = runHookBundle(sandbox, stdin, options);
  return { code: result.code, out: JSON.parse(result.stdout) as Out, stdout: result.stdout.trim() };
}

function shell(sandbox: Sandbox, event: 'BeforeTool' | 'AfterTool', command: string, session = 'g1') {
  return inRepo(sandbox, payload('gemini', event), {
    session_id: session,
    tool_input: { command, description: 'run it' },
  });
}

function tool(sandbox: Sandbox, name: string, input: Record<string, unknown>, session = 'g2') {
  return inRepo(sandbox, payload('gemini', 'AfterTool'), {
    session_id: session,
    tool_name: name,
    tool_input: input,
    tool_response: { llmContent: 'ok', returnDisplay: 'ok' },
  });
}

describe('Gemini CLI hooks', () => {
  it('SessionStart: the #lesson protocol and the top lessons no call brings, as SessionStart additionalContext', () => {
    const { sandbox, pytest, general } = lessonSandbox();
    const result = run(sandbox, inRepo(sandbox, payload('gemini', 'SessionStart')));
    expect(result.code).toBe(0);
    expect(result.out.hookSpecificOutput).toEqual({
      hookEventName: 'SessionStart',
      additionalContext: expect.stringContaining('#lesson'),
    });
    expect(result.out.hookSpecificOutput?.additionalContext).toContain(general);
    expect(result.out.hookSpecificOutput?.additionalContext).not.toContain(pytest);
  });

  it('BeforeAgent: lessons matching the prompt, without matching the <hook_context> Gemini prepends', () => {
    const { sandbox, pytest } = lessonSandbox();
    const prompt = (text: string, session: string) =>
      inRepo(sandbox, payload('gemini', 'BeforeAgent'), { session_id: session, prompt: text });
    const asked = run(
      sandbox,
      prompt('<hook_context>x</hook_context>\n\nwhy does pytest flood agent logs', 'p1'),
    );
    expect(asked.out.hookSpecificOutput).toEqual({
      hookEventName: 'BeforeAgent',
      additionalContext: expect.stringContaining(pytest),
    });
    const onlyInContext = run(
      sandbox,
      prompt('<hook_context>pytest flood agent logs header</hook_context>\n\nhello there', 'p2'),
    );
    expect(onlyInContext.stdout).toBe('{}');
  });

  it('BeforeTool says nothing for advice; AfterTool carries it, once per session', () => {
    const { sandbox, pytest } = lessonSandbox();
    expect(run(sandbox, shell(sandbox, 'BeforeTool', 'pytest -v tests/')).stdout).toBe('{}');
    const after = run(sandbox, shell(sandbox, 'AfterTool', 'pytest -v tests/'));
    expect(after.out).toEqual({
      hookSpecificOutput: {
        hookEventName: 'AfterTool',
        additionalContext: expect.stringContaining(`[lore ${pytest}] ${PYTEST}`),
      },
    });
    expect(run(sandbox, shell(sandbox, 'AfterTool', 'pytest -x')).stdout).toBe('{}');
    expect(run(sandbox, shell(sandbox, 'AfterTool', 'pytest --no-header', 'g9')).stdout).toBe('{}');
    expect(run(sandbox, shell(sandbox, 'AfterTool', 'pytest -x', 'other')).stdout).toContain(pytest);
  });

  it("a lesson scoped to Gemini CLI and Codex speaks in Gemini's hook, not in Claude Code's", () => {
    const sandbox = createSandbox();
    const cd = sandbox.add([
      '--summary',
      "Don't run cd on its own: each run_shell_command call starts in a new shell",
      '--tool',
      'Bash',
      '--command',
      '^\\s*cd\\s+\\S+\\s*$',
      '--agent',
      'gemini',
      '--agent',
      'codex',
    ]);
    expect(run(sandbox, shell(sandbox, 'AfterTool', 'cd app')).stdout).toContain(`[lore ${cd}]`);
    const claude = inRepo(sandbox, payload('claude', 'PreToolUse', 'Bash'), {
      session_id: 'c1',
      tool_input: { command: 'cd app', description: 'go there' },
    });
    expect(run(sandbox, claude, {}).stdout).toBe('{}');
    const other = inRepo(sandbox, payload('claude', 'PreToolUse', 'Bash'), {
      session_id: 'c2',
      tool_input: { command: 'cd app', description: 'go there' },
    });
    expect(run(sandbox, other, { args: ['--host', 'codex'] }).stdout).toContain(`[lore ${cd}]`);
  });

  it('BeforeTool denies a guarded call with the teaching reason; AfterTool does not repeat it', () => {
    const { sandbox, guard } = lessonSandbox();
    for (let i = 0; i < 2; i += 1) {
      expect(run(sandbox, shell(sandbox, 'BeforeTool', 'rm -rf build')).out).toEqual({
        decision: 'deny',
        reason: expect.stringContaining(`lore guard ${guard} blocked this call`),
      });
    }
    expect(run(sandbox, shell(sandbox, 'BeforeTool', 'rm -rf build')).out.reason).toContain(
      'Fix: run `make clean`',
    );
    expect(run(sandbox, shell(sandbox, 'AfterTool', 'rm -rf build')).stdout).toBe('{}');
    expect(run(sandbox, shell(sandbox, 'BeforeTool', 'rm -rf build/cache/old')).stdout).toBe('{}');
  });

  it.each([
    ['read_file', (repo: string) => ({ file_path: join(repo, 'db/migrations/0001.sql') })],
    ['write_file', (repo: string) => ({ file_path: join(repo, 'db/migrations/0002.sql'), content: 'x' })],
    ['replace', () => ({ file_path: 'db/migrations/0001.sql', old_string: 'a', new_string: 'b' })],
    ['read_many_files', () => ({ include: ['src/a.ts', 'db/migrations/*.sql'] })],
    ['glob', () => ({ pattern: '*.sql', dir_path: 'db/migrations' })],
    ['grep_search', () => ({ pattern: 'CREATE', dir_path: 'db/migrations' })],
  ])('%s: its paths are matched against path lessons', (name, input) => {
    const { sandbox, migrations } = lessonSandbox();
    const result = run(sandbox, tool(sandbox, name, input(sandbox.repo)));
    expect(result.out.hookSpecificOutput?.additionalContext).toContain(migrations);
  });

  it('the host is recognised without --host: Gemini-only events, or GEMINI_SESSION_ID', () => {
    const { sandbox, general, guard } = lessonSandbox();
    expect(run(sandbox, shell(sandbox, 'BeforeTool', 'rm -rf build'), {}).out.reason).toContain(guard);
    const start = run(sandbox, inRepo(sandbox, payload('gemini', 'SessionStart'), { session_id: 'e1' }), {
      env: { GEMINI_SESSION_ID: 'e1' },
    });
    expect(start.out.hookSpecificOutput?.additionalContext).toContain(general);
  });

  it('logs injections and denials with host gemini and the phase of the call', () => {
    const { sandbox, pytest, guard } = lessonSandbox();
    run(sandbox, shell(sandbox, 'AfterTool', 'pytest'));
    run(sandbox, shell(sandbox, 'BeforeTool', 'rm -rf build'));
    const lines = readFileSync(join(sandbox.repo, '.lore', 'cache', 'audit.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toEqual([
      expect.objectContaining({
        host: 'gemini',
        phase: 'after',
        lessons: [expect.objectContaining({ id: pytest })],
      }),
      expect.objectContaining({
        host: 'gemini',
        phase: 'before',
        denied: [expect.objectContaining({ id: guard })],
      }),
    ]);
  });
});

describe('Gemini CLI AfterAgent: feedback markers, as Claude Code Stop', () => {
  it('records LEARNING_HELPFUL from prompt_response and answers {}', async () => {
    const { sandbox, pytest } = lessonSandbox();
    const feedback = join(sandbox.repo, '.lore', 'lessons', pytest, 'feedback.jsonl');
    const appeared = fileAppears(feedback);
    const end = inRepo(sandbox, payload('gemini', 'AfterAgent'), {
      session_id: 'fb-1',
      prompt_response: `Done. LEARNING_HELPFUL: ${pytest}`,
    });
    expect(run(sandbox, end).stdout).toBe('{}');
    await appeared;
    await fileDisappears(join(sandbox.repo, '.lore', 'cache', 'locks', `${pytest}.lock`));
    const show = JSON.parse(sandbox.run(['show', pytest, '--json']).stdout) as {
      feedback: { helpful: number };
    };
    expect(show.feedback.helpful).toBe(1);
  });
});

describe('Gemini CLI hooks: bad input answers {} and exits 0', () => {
  const cases: [string, (sandbox: Sandbox) => object | string][] = [
    ['not JSON', () => '{"hook_event_name": "BeforeTool", '],
    ['no session_id', (s) => ({ ...shell(s, 'AfterTool', 'pytest'), session_id: undefined })],
    ['no cwd', (s) => ({ ...shell(s, 'AfterTool', 'pytest'), cwd: undefined })],
    ['no tool_input', (s) => ({ ...shell(s, 'AfterTool', 'pytest'), tool_input: undefined })],
    [
      'tool_input not an object',
      (s) => ({ ...shell(s, 'BeforeTool', 'rm -rf build'), tool_input: 'rm -rf build' }),
    ],
    ['an unknown tool', (s) => tool(s, 'web_fetch', { url: 'https://example.com/db/migrations/' })],
    ['an MCP tool', (s) => tool(s, 'mcp_lore_lore_search', { query: 'pytest' })],
    ['an unknown event', (s) => ({ ...shell(s, 'AfterTool', 'pytest'), hook_event_name: 'BeforeModel' })],
    ['AfterAgent', (s) => inRepo(s, payload('gemini', 'AfterAgent'))],
    ['SessionEnd', (s) => inRepo(s, payload('gemini', 'SessionEnd'))],
    [
      'an AfterTool output over the input limit',
      (s) => ({
        ...shell(s, 'AfterTool', 'pytest'),
        tool_response: { llmContent: 'x'.repeat(2_500_000), returnDisplay: '' },
      }),
    ],
  ];
  it.each(cases)('%s', (_name, build) => {
    const { sandbox } = lessonSandbox();
    const result = run(sandbox, build(sandbox));
    expect([result.code, result.stdout]).toEqual([0, '{}']);
  });

  it('a large AfterTool output under the input limit still gets its lesson', () => {
    const { sandbox, pytest } = lessonSandbox();
    const big = {
      ...shell(sandbox, 'AfterTool', 'pytest'),
      tool_response: { llmContent: 'y'.repeat(1_500_000) },
    };
    expect(run(sandbox, big).out.hookSpecificOutput?.additionalContext).toContain(pytest);
  });
});

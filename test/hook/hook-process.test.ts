// The committed hook bundle, spawned as Claude Code and Codex spawn it, on recorded payloads.
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../helpers/cli.js';
import type { Sandbox } from '../helpers/cli.js';
import { payload } from '../helpers/hook-payloads.js';
import { spawnSync } from 'node:child_process';
import {
  fileAppears,
  fileDisappears,
  HOOK_BUNDLE,
  HOOK_CORE,
  hookEnv,
  inRepo,
  output,
  runHookAsync,
  runHookBundle,
} from '../helpers/hook.js';

const PYTEST = 'pytest hangs on a TTY in agent shells: run CI=1 pytest -p no:cacheprovider';

function pytestSandbox(): { sandbox: Sandbox; id: string } {
  const sandbox = createSandbox();
  const id = sandbox.add([
    '--summary',
    PYTEST,
    '--tool',
    'Bash',
    '--command',
    '(^|\\s)pytest\\b',
    '--priority',
    '8',
  ]);
  return { sandbox, id };
}

function bash(sandbox: Sandbox, command: string, fields: Record<string, unknown> = {}) {
  const recorded = payload('claude', 'PreToolUse', 'Bash');
  return inRepo(sandbox, recorded, { tool_input: { command, description: 'x' }, ...fields });
}

describe('Claude Code PreToolUse', () => {
  it('injects a matching lesson once per session, with hookEventName', () => {
    const { sandbox, id } = pytestSandbox();
    const first = runHookBundle(sandbox, bash(sandbox, 'pytest -v tests/'));
    expect(first.code).toBe(0);
    expect(output(first).hookSpecificOutput).toEqual({
      hookEventName: 'PreToolUse',
      additionalContext: expect.stringContaining(`[lore ${id}] ${PYTEST}`),
    });
    expect(runHookBundle(sandbox, bash(sandbox, 'pytest -x')).stdout.trim()).toBe('{}');
    const otherSession = runHookBundle(
      sandbox,
      bash(sandbox, 'pytest -x', { session_id: 'another-session' }),
    );
    expect(output(otherSession).hookSpecificOutput?.additionalContext).toContain(id);
  });

  it('a payload of several reads (over 64 KB, under the limit) is read whole', () => {
    const { sandbox, id } = pytestSandbox();
    // the description, which lore ignores, makes stdin 300 KB: five reads into a buffer that grows
    const input = JSON.stringify(
      bash(sandbox, 'pytest -v tests/', {
        tool_input: { command: 'pytest -v tests/', description: 'é'.repeat(150_000) },
      }),
    );
    expect(Buffer.byteLength(input)).toBeGreaterThan(300_000);
    const result = runHookBundle(sandbox, input);
    expect(result.code).toBe(0);
    expect(output(result).hookSpecificOutput?.additionalContext).toContain(id);
  });

  it.each([
    // process.reallyExit, as Node has it: no `exit` event (the launcher skips process.exit's work)
    ['process.reallyExit', 'process.on("exit", () => process._rawDebug("exit event"));', ''],
    // a Node without it: process.exit, with its `exit` event
    [
      'process.exit where Node has no process.reallyExit',
      'const really = process.reallyExit; delete process.reallyExit;' +
        'process.exit = (code) => { process.emit("exit", code); really.call(process, code ?? 0); };' +
        'process.on("exit", () => process._rawDebug("exit event"));',
      'exit event\n',
    ],
  ])('leaves through %s, exit code 0, the answer out', (_name, setup, stderr) => {
    const { sandbox, id } = pytestSandbox();
    const preload = join(sandbox.base, 'preload.cjs');
    writeFileSync(preload, setup);
    const result = spawnSync(process.execPath, ['--require', preload, HOOK_BUNDLE], {
      input: JSON.stringify(bash(sandbox, 'pytest -v tests/')),
      env: hookEnv(sandbox),
      cwd: sandbox.base,
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect([result.status, result.stderr]).toEqual([0, stderr]);
    expect(JSON.parse(result.stdout).hookSpecificOutput.additionalContext).toContain(id);
  });

  it('answers {} for a command no lesson matches, from a subdirectory too', () => {
    const { sandbox } = pytestSandbox();
    const result = runHookBundle(sandbox, bash(sandbox, 'echo hi', { cwd: sandbox.inRepo('src') }));
    expect([result.code, result.stdout.trim()]).toEqual([0, '{}']);
  });

  it('parallel hooks in one session inject a lesson exactly once (claims appended to one file)', async () => {
    const { sandbox, id } = pytestSandbox();
    const runs = await Promise.all(
      Array.from({ length: 6 }, () => runHookAsync(sandbox, bash(sandbox, 'pytest'))),
    );
    expect(runs.map((run) => run.code)).toEqual([0, 0, 0, 0, 0, 0]);
    expect(runs.filter((run) => run.stdout.includes(id))).toHaveLength(1);
  });

  it('a subagent has its own scope, but a lesson shown in the session is not shown again', () => {
    const { sandbox, id } = pytestSandbox();
    expect(runHookBundle(sandbox, bash(sandbox, 'pytest')).stdout).toContain(id);
    const sub = { agent_id: 'aa862d010cae1a731', agent_type: 'general-purpose' };
    const start = runHookBundle(
      sandbox,
      inRepo(sandbox, payload('claude', 'SessionStart'), {
        hook_event_name: 'SubagentStart',
        session_id: bash(sandbox, '').session_id,
        ...sub,
      }),
    );
    expect(output(start).hookSpecificOutput).toEqual({
      hookEventName: 'SubagentStart',
      additionalContext: expect.stringContaining('#lesson\ntool: Bash'),
    });
    const again = runHookBundle(sandbox, bash(sandbox, 'pytest', sub), { env: { LORE_DEBUG: '1' } });
    expect(again.stdout.trim()).toBe('{}');
    const log = readFileSync(join(sandbox.repo, '.lore', 'cache', 'hook-debug.log'), 'utf8');
    expect(log).toContain(`{"id":"${id}","reason":"shown-to-other-agent"`);
  });

  it('two parallel subagents of one session: exactly one injects the lesson', async () => {
    const { sandbox, id } = pytestSandbox();
    const agents = ['a1b2c3d4e5f600001', 'a1b2c3d4e5f600002', 'a1b2c3d4e5f600003', 'a1b2c3d4e5f600004'];
    const runs = await Promise.all(
      agents.map((agent) =>
        runHookAsync(sandbox, bash(sandbox, 'pytest', { agent_id: agent, agent_type: 'general-purpose' })),
      ),
    );
    expect(runs.map((run) => run.code)).toEqual([0, 0, 0, 0]);
    expect(runs.filter((run) => run.stdout.includes(id))).toHaveLength(1);
  });

  it('edits: a path glob matches the repo-relative path of file_path', () => {
    const sandbox = createSandbox();
    const id = sandbox.add([
      '--summary',
      'migrations are generated: never edit them by hand',
      '--tool',
      'Edit',
      '--path',
      'db/migrations/',
    ]);
    const edit = bash(sandbox, '', {
      tool_name: 'Edit',
      tool_input: {
        file_path: sandbox.inRepo('db', 'migrations', '0001.sql'),
        old_string: 'a',
        new_string: 'b',
      },
    });
    expect(output(runHookBundle(sandbox, edit)).hookSpecificOutput?.additionalContext).toContain(id);
    const outside = { ...edit, tool_input: { file_path: '/etc/db/migrations/x.sql' } };
    expect(runHookBundle(sandbox, { ...outside, session_id: 'x2' }).stdout.trim()).toBe('{}');
  });
});

describe('guards', () => {
  function guardSandbox() {
    const sandbox = createSandbox();
    const id = sandbox.add([
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
    return { sandbox, id };
  }

  it('denies the call with a reason that teaches the fix, every time; the corrected command passes', () => {
    const { sandbox, id } = guardSandbox();
    for (let i = 0; i < 2; i += 1) {
      expect(output(runHookBundle(sandbox, bash(sandbox, 'rm -rf build'))).hookSpecificOutput).toEqual({
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: expect.stringContaining(`lore guard ${id} blocked this call`),
      });
    }
    expect(
      output(runHookBundle(sandbox, bash(sandbox, 'rm -rf build'))).hookSpecificOutput
        ?.permissionDecisionReason,
    ).toContain('Fix: run `make clean`');
    expect(runHookBundle(sandbox, bash(sandbox, 'rm -rf build/cache/old')).stdout.trim()).toBe('{}');
  });

  it('a guard whose command also matches its own fix lets the fix through, and only the fix', () => {
    const sandbox = createSandbox();
    const id = sandbox.add([
      '--summary',
      'Use `git stash -u`: plain git stash drops untracked files',
      '--type',
      'guard',
      '--command',
      'git stash( |$)',
      '--remediation',
      'run `git stash -u` (or `git stash --include-untracked`)',
    ]);
    const reason = (command: string) =>
      output(runHookBundle(sandbox, bash(sandbox, command))).hookSpecificOutput?.permissionDecisionReason;
    expect(reason('git stash')).toContain(
      'Run the corrected command instead (`git stash -u`, `git stash --include-untracked` are let through).',
    );
    for (const fixed of ['git stash -u', 'git  stash   -u', 'git stash --include-untracked'])
      expect([fixed, runHookBundle(sandbox, bash(sandbox, fixed)).stdout.trim()]).toEqual([fixed, '{}']);
    // a part of the call that does not follow the fix is still denied, and so is the bad call again
    // more arguments than the fix could undo it
    for (const bad of [
      'git stash -u && git stash drop',
      'cd repo && git stash',
      'git stash -u -m wip',
      'git stash',
    ])
      expect([bad, reason(bad)]).toEqual([
        bad,
        expect.stringContaining(`lore guard ${id} blocked this call`),
      ]);
    const explained = sandbox.run(['explain', '--tool', 'Bash', '--command', 'git stash -u', '--json']);
    expect(JSON.parse(explained.stdout)).toMatchObject({
      denied: [],
      dropped: [{ id, reason: 'follows-fix' }],
    });
  });

  it('a hook started in a folder deleted under the agent still denies (the payload names its cwd)', () => {
    const { sandbox, id } = guardSandbox();
    const gone = join(sandbox.base, 'gone');
    mkdirSync(gone);
    const result = spawnSync(
      '/bin/sh',
      ['-c', 'cd "$1" && rmdir "$1" && shift && exec "$@"', 'sh', gone, process.execPath, HOOK_BUNDLE],
      { input: JSON.stringify(bash(sandbox, 'rm -rf build')), env: hookEnv(sandbox), encoding: 'utf8' },
    );
    expect(result.status).toBe(0);
    expect(
      output({ code: result.status, stdout: result.stdout, stderr: result.stderr, ms: 0 }).hookSpecificOutput,
    ).toMatchObject({
      permissionDecision: 'deny',
      permissionDecisionReason: expect.stringContaining(`lore guard ${id} blocked this call`),
    });
  });

  it('inject.guards: false turns guards into advice', () => {
    const { sandbox, id } = guardSandbox();
    writeFileSync(join(sandbox.repo, '.lore', 'config.yaml'), 'inject:\n  guards: false\n');
    expect(sandbox.run(['sync']).code).toBe(0);
    const out = output(runHookBundle(sandbox, bash(sandbox, 'rm -rf build'))).hookSpecificOutput;
    expect([out?.permissionDecision, out?.additionalContext]).toEqual([
      undefined,
      expect.stringContaining(id),
    ]);
  });

  it('every denial and injection is in the audit log', () => {
    const { sandbox, id } = guardSandbox();
    runHookBundle(sandbox, bash(sandbox, 'rm -rf build'));
    const lines = readFileSync(join(sandbox.repo, '.lore', 'cache', 'audit.jsonl'), 'utf8')
      .trim()
      .split('\n');
    expect(lines.map((line) => JSON.parse(line) as Record<string, unknown>)).toEqual([
      expect.objectContaining({
        event: 'PreToolUse',
        tool: 'Bash',
        host: 'claude-code',
        denied: [{ id, matched_by: ['command:rm\\s+-rf\\s+build(?!/cache)'] }],
        lessons: [],
        bytes: expect.any(Number),
        dropped: [],
        dropped_count: 0,
        // what finds the call again for outcome feedback
        call_id: 'toolu_d1',
        command: 'rm -rf build',
      }),
    ]);
  });
});

describe('checkpoints', () => {
  function checkpointSandbox() {
    const sandbox = createSandbox();
    const id = sandbox.add([
      '--summary',
      'the tests need the fake database: run make db first',
      '--type',
      'checkpoint',
      '--tool',
      'Bash',
      '--command',
      '(^|\\s)pytest\\b',
    ]);
    return { sandbox, id };
  }

  it('denies the first matching call of a session with the lesson; the unchanged retry runs', () => {
    const { sandbox, id } = checkpointSandbox();
    expect(output(runHookBundle(sandbox, bash(sandbox, 'pytest -q'))).hookSpecificOutput).toEqual({
      hookEventName: 'PreToolUse',
      permissionDecision: 'deny',
      permissionDecisionReason: expect.stringContaining(
        `lore checkpoint ${id}: read this lesson before this call runs.\n[lore ${id}] the tests need the fake database`,
      ),
    });
    expect(runHookBundle(sandbox, bash(sandbox, 'pytest -q')).stdout.trim()).toBe('{}');
    // another session reads it again, once
    const other = runHookBundle(sandbox, bash(sandbox, 'pytest -q', { session_id: 'other' }));
    expect(output(other).hookSpecificOutput?.permissionDecision).toBe('deny');
    const audit = readFileSync(join(sandbox.repo, '.lore', 'cache', 'audit.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { denied: unknown[] });
    expect(audit.map((record) => record.denied)).toEqual([
      [{ id, matched_by: ['command:(^|\\s)pytest\\b'], kind: 'checkpoint' }],
      [{ id, matched_by: ['command:(^|\\s)pytest\\b'], kind: 'checkpoint' }],
    ]);
  });

  it('without session state it never denies (the hook cannot record that it did); a guard still does', () => {
    const { sandbox } = checkpointSandbox();
    sandbox.add(['--summary', 'no rm -rf build', '--type', 'guard', '--command', 'rm\\s+-rf\\s+build']);
    const file = join(sandbox.base, 'a-file');
    writeFileSync(file, '');
    const noState = { env: { TMPDIR: file } };
    for (let i = 0; i < 2; i += 1)
      expect(runHookBundle(sandbox, bash(sandbox, 'pytest -q'), noState).stdout.trim()).toBe('{}');
    const guarded = output(runHookBundle(sandbox, bash(sandbox, 'rm -rf build'), noState));
    expect(guarded.hookSpecificOutput?.permissionDecision).toBe('deny');
  });

  it('Gemini CLI: BeforeTool denies once; the retry passes BeforeTool and AfterTool', () => {
    const { sandbox, id } = checkpointSandbox();
    const gemini = (event: 'BeforeTool' | 'AfterTool') =>
      runHookBundle(
        sandbox,
        inRepo(sandbox, payload('gemini', event), {
          session_id: 'g-checkpoint',
          tool_input: { command: 'pytest -q', description: 'run it' },
        }),
        { args: ['--host', 'gemini'] },
      ).stdout.trim();
    expect(JSON.parse(gemini('BeforeTool'))).toEqual({
      decision: 'deny',
      reason: expect.stringContaining(`lore checkpoint ${id}`),
    });
    expect([gemini('BeforeTool'), gemini('AfterTool')]).toEqual(['{}', '{}']);
  });

  it('lore update --type turns a hint into a checkpoint and back', () => {
    const { sandbox, id } = pytestSandbox();
    expect(sandbox.run(['update', id, '--type', 'checkpoint']).code).toBe(0);
    const denied = output(runHookBundle(sandbox, bash(sandbox, 'pytest -q', { session_id: 'u1' })));
    expect(denied.hookSpecificOutput?.permissionDecision).toBe('deny');
    expect(sandbox.run(['update', id, '--type', 'hint']).code).toBe(0);
    const advised = output(runHookBundle(sandbox, bash(sandbox, 'pytest -q', { session_id: 'u2' })));
    expect(advised.hookSpecificOutput?.additionalContext).toContain(id);
  });
});

describe('SessionStart', () => {
  function sessionSandbox() {
    const sandbox = createSandbox();
    const high = sandbox.add([
      '--summary',
      'high priority lesson about pytest',
      '--command',
      'pytest',
      '--priority',
      '9',
    ]);
    const low = sandbox.add([
      '--summary',
      'low priority lesson about make',
      '--command',
      'make',
      '--priority',
      '3',
    ]);
    // lessons no call brings (tags only): the ones a session opens with
    const opening = sandbox.add([
      '--summary',
      'high priority lesson for every session',
      '--tag',
      'lang:python',
      '--priority',
      '9',
    ]);
    const minor = sandbox.add([
      '--summary',
      'minor lesson for every session',
      '--tag',
      'lang:go',
      '--priority',
      '3',
    ]);
    const start = (source: string) =>
      runHookBundle(
        sandbox,
        inRepo(sandbox, payload('claude', 'SessionStart'), { session_id: 's-start', source }),
      );
    const call = (command: string) =>
      runHookBundle(sandbox, bash(sandbox, command, { session_id: 's-start' }));
    return { sandbox, high, low, opening, minor, start, call };
  }

  it('startup: the #lesson protocol and the top lessons no call brings', () => {
    const { start, high, low, opening, minor } = sessionSandbox();
    const context = output(start('startup')).hookSpecificOutput?.additionalContext ?? '';
    expect(context.split('\n').slice(3, 10)).toEqual([
      '#lesson',
      expect.stringMatching(/^tool: /),
      expect.stringMatching(/^trigger: /),
      expect.stringMatching(/^mistake: /),
      expect.stringMatching(/^fix: /),
      expect.stringMatching(/^tags: /),
      '#/lesson',
    ]);
    expect(context.indexOf(opening)).toBeGreaterThan(0);
    expect(context.indexOf(opening)).toBeLessThan(context.indexOf(minor));
    // lessons with a trigger wait for their call
    expect([context.includes(high), context.includes(low)]).toEqual([false, false]);
  });

  it('compact forgets high-priority lessons so they come back; clear forgets everything', () => {
    const { start, call, high, low, opening, minor } = sessionSandbox();
    const started = start('startup').stdout;
    expect([started.includes(opening), started.includes(minor)]).toEqual([true, true]);
    expect(call('pytest').stdout).toContain(high);
    expect(call('make').stdout).toContain(low);
    const compacted = start('compact').stdout;
    expect([compacted.includes(opening), compacted.includes(minor)]).toEqual([true, false]);
    // the important triggered lesson comes back at its next call, the minor one does not
    expect(call('pytest').stdout).toContain(high);
    expect(call('make').stdout.trim()).toBe('{}');
    const cleared = start('clear').stdout;
    expect([cleared.includes(opening), cleared.includes(minor)]).toEqual([true, true]);
    expect(call('make').stdout).toContain(low);
  });
});

describe('background scan', () => {
  /** The hook bundle in a package layout, with a stand-in lore CLI that records how it was started. */
  function packaged(sandbox: Sandbox, withCli: boolean): string {
    const hook = join(sandbox.base, 'pkg', 'plugin', 'bin', 'lore-hook.cjs');
    cpSync(HOOK_BUNDLE, hook);
    cpSync(HOOK_CORE, join(dirname(hook), 'lore-hook-core.cjs'));
    if (withCli) {
      const cli = join(sandbox.base, 'pkg', 'dist', 'cli', 'bin.js');
      mkdirSync(dirname(cli), { recursive: true });
      const marker = JSON.stringify(join(sandbox.base, 'scan-started.json'));
      writeFileSync(
        cli,
        `const fs = require('node:fs');\nfs.writeFileSync(${marker} + '.tmp', JSON.stringify({ argv: process.argv.slice(2), cwd: process.cwd() }));\nfs.renameSync(${marker} + '.tmp', ${marker});\n`,
      );
    }
    return hook;
  }

  function sessionStart(sandbox: Sandbox, hook: string, session: string) {
    const result = spawnSync(process.execPath, [hook], {
      input: JSON.stringify(inRepo(sandbox, payload('claude', 'SessionStart'), { session_id: session })),
      env: hookEnv(sandbox, { LORE_DEBUG: '1', LORE_NO_SCAN: '' }),
      encoding: 'utf8',
    });
    return { code: result.status, stdout: result.stdout, stderr: result.stderr, ms: 0 };
  }

  function scanLog(sandbox: Sandbox): (string | undefined)[] {
    return readFileSync(join(sandbox.repo, '.lore', 'cache', 'hook-debug.log'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { scan?: string }).scan);
  }

  it('SessionStart starts `lore scan --background` detached, unless the stamp is recent', async () => {
    const sandbox = createSandbox();
    sandbox.add(['--summary', 'any lesson so the manifest exists', '--command', 'make']);
    const hook = packaged(sandbox, true);
    const marker = join(sandbox.base, 'scan-started.json');
    const started = fileAppears(marker);
    expect(output(sessionStart(sandbox, hook, 'scan-1')).hookSpecificOutput?.hookEventName).toBe(
      'SessionStart',
    );
    await started;
    expect(JSON.parse(readFileSync(marker, 'utf8'))).toEqual({
      argv: ['scan', '--background'],
      cwd: sandbox.repo,
    });
    // what `lore scan --background` leaves behind: a fresh stamp
    const stamp = join(sandbox.repo, '.lore', 'cache', 'capture', 'background.stamp');
    mkdirSync(dirname(stamp), { recursive: true });
    writeFileSync(stamp, '1\n');
    expect(sessionStart(sandbox, hook, 'scan-2').code).toBe(0);
    expect(scanLog(sandbox)).toEqual(['started', 'ran recently']);
    // a stamp from the future (the clock was set back) is no recent run: it would hold off every
    // scan until the clock caught up with it
    const future = new Date(Date.now() + 365 * 86_400_000);
    utimesSync(stamp, future, future);
    const again = fileAppears(marker);
    rmSync(marker);
    expect(sessionStart(sandbox, hook, 'scan-3').code).toBe(0);
    await again;
    expect(scanLog(sandbox)).toEqual(['started', 'ran recently', 'started']);
  });

  it('no lore CLI next to the hook: nothing starts, the answer is the same', () => {
    const sandbox = createSandbox();
    sandbox.add(['--summary', 'any lesson so the manifest exists', '--command', 'make']);
    const hook = packaged(sandbox, false);
    expect(output(sessionStart(sandbox, hook, 'scan-3')).hookSpecificOutput?.hookEventName).toBe(
      'SessionStart',
    );
    expect(scanLog(sandbox)).toEqual(['no lore CLI next to the hook']);
  });
});

describe('Codex', () => {
  it('a recorded Codex payload gets the lesson (detected from turn_id)', () => {
    const sandbox = createSandbox();
    const id = sandbox.add(['--summary', 'echo in codex tests: quote the argument', '--command', '^echo\\b']);
    const result = runHookBundle(sandbox, inRepo(sandbox, payload('codex', 'PreToolUse', 'Bash')));
    expect(output(result).hookSpecificOutput).toEqual({
      hookEventName: 'PreToolUse',
      additionalContext: expect.stringContaining(id),
    });
  });

  it('--host codex: no SubagentStart output; apply_patch is an Edit of its files', () => {
    const sandbox = createSandbox();
    const id = sandbox.add(['--summary', 'app.py is generated', '--path', 'src/app.py']);
    const sub = inRepo(sandbox, payload('claude', 'SessionStart'), {
      hook_event_name: 'SubagentStart',
      agent_id: 'a1',
    });
    expect(runHookBundle(sandbox, sub, { args: ['--host', 'codex'] }).stdout.trim()).toBe('{}');
    const patch = '*** Begin Patch\n*** Update File: src/app.py\n@@\n-a\n+b\n*** End Patch';
    const call = inRepo(sandbox, payload('codex', 'PreToolUse', 'Bash'), {
      tool_name: 'apply_patch',
      tool_input: { command: patch },
    });
    expect(
      output(runHookBundle(sandbox, call, { args: ['--host', 'codex'] })).hookSpecificOutput
        ?.additionalContext,
    ).toContain(id);
  });

  it('UserPromptSubmit from Codex matches what the prompt mentions', () => {
    const sandbox = createSandbox();
    const id = sandbox.add([
      '--summary',
      'run the LESSONS_TEST suite with --serial',
      '--tag',
      'topic:lessons_test',
    ]);
    const result = runHookBundle(
      sandbox,
      inRepo(sandbox, payload('codex', 'UserPromptSubmit'), { prompt: 'run the lessons_test suite please' }),
    );
    expect(output(result).hookSpecificOutput).toEqual({
      hookEventName: 'UserPromptSubmit',
      additionalContext: expect.stringContaining(id),
    });
  });
});

describe('switches', () => {
  it('LORE_DISABLED=1, lore disable and lore enable', () => {
    const { sandbox, id } = pytestSandbox();
    expect(
      runHookBundle(sandbox, bash(sandbox, 'pytest'), { env: { LORE_DISABLED: '1' } }).stdout.trim(),
    ).toBe('{}');
    expect(sandbox.run(['disable']).code).toBe(0);
    expect(runHookBundle(sandbox, bash(sandbox, 'pytest')).stdout.trim()).toBe('{}');
    expect(sandbox.run(['enable']).code).toBe(0);
    expect(runHookBundle(sandbox, bash(sandbox, 'pytest')).stdout).toContain(id);
  });

  it('LORE_DEBUG=1 logs what happened to .lore/cache/hook-debug.log', () => {
    const { sandbox, id } = pytestSandbox();
    runHookBundle(sandbox, bash(sandbox, 'pytest'), { env: { LORE_DEBUG: '1' } });
    const entry = JSON.parse(
      readFileSync(join(sandbox.repo, '.lore', 'cache', 'hook-debug.log'), 'utf8'),
    ) as Record<string, unknown>;
    expect(entry).toMatchObject({ event: 'PreToolUse', tool: 'Bash', included: [id], host: 'claude-code' });
  });

  it('user-tier lessons apply in every project', () => {
    const sandbox = createSandbox();
    const id = sandbox.add([
      '--summary',
      'my personal pytest habit',
      '--command',
      'pytest',
      '--tier',
      'user',
    ]);
    expect(runHookBundle(sandbox, bash(sandbox, 'pytest')).stdout).toContain(id);
  });
});

describe('manifest freshness', () => {
  it('every lore write leaves the manifest fresh', () => {
    const { sandbox, id } = pytestSandbox();
    expect(sandbox.run(['update', id, '--command', '^make\\b']).code).toBe(0);
    expect(runHookBundle(sandbox, bash(sandbox, 'pytest')).stdout.trim()).toBe('{}');
    expect(runHookBundle(sandbox, bash(sandbox, 'make all')).stdout).toContain(id);
    expect(sandbox.run(['archive', id]).code).toBe(0);
    expect(runHookBundle(sandbox, bash(sandbox, 'make all', { session_id: 'fresh' })).stdout.trim()).toBe(
      '{}',
    );
  });

  it('a missing manifest answers {} at once and is rebuilt in the background', async () => {
    const { sandbox, id } = pytestSandbox();
    const manifest = join(sandbox.repo, '.lore', 'cache', 'manifest');
    rmSync(manifest, { recursive: true, force: true });
    const appeared = fileAppears(join(manifest, 'head.json'));
    expect(runHookBundle(sandbox, bash(sandbox, 'pytest')).stdout.trim()).toBe('{}');
    await appeared;
    await fileDisappears(join(manifest, 'rebuild.lock'));
    expect(runHookBundle(sandbox, bash(sandbox, 'pytest')).stdout).toContain(id);
  });

  it("a lesson added behind lore's back (git pull) is noticed and picked up", async () => {
    const { sandbox } = pytestSandbox();
    const other = createSandbox();
    const id = other.add(['--summary', 'make needs -j1 here', '--command', '^make\\b']);
    cpSync(join(other.repo, '.lore', 'lessons', id), join(sandbox.repo, '.lore', 'lessons', id), {
      recursive: true,
    });
    const lock = join(sandbox.repo, '.lore', 'cache', 'manifest', 'rebuild.lock');
    expect(runHookBundle(sandbox, bash(sandbox, 'make')).code).toBe(0);
    expect(existsSync(join(sandbox.repo, '.lore', 'cache', 'manifest', 'head.json'))).toBe(true);
    await fileDisappears(lock);
    expect(runHookBundle(sandbox, bash(sandbox, 'make', { session_id: 'after-pull' })).stdout).toContain(id);
  });
});

// Claude Code 2.1.330, driven offline by the scripted model server, with lore's plugin loaded.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  expectLsErrorTurns,
  expectOutcomeAuditLine,
  claude,
  copyMarketplace,
  createWorkspace,
  occurrences,
  PLUGIN_DIR,
  runClaude,
  turn,
} from './harness.js';
import {
  addBuildGuard,
  addPytestCheckpoint,
  addPytestLesson,
  addPytestTagLesson,
  addLsErrorLesson,
  addTopLessons,
  CHECKPOINT_MARKER,
  GUARD_MARKER,
  LS_ERROR_MARKER,
  PYTEST_MARKER,
} from './lessons.js';
import { startModelServer } from './model-server.js';
import type { ModelServer, Step } from './model-server.js';

const serve = (steps: readonly Step[]) => startModelServer({ steps });

/** The tool results of the agent's request after its `n`-th tool call: error flag, guard markers. */
function toolResults(server: ModelServer, n: number): { isError: boolean; guard: number }[] {
  return resultBlocks(server, n).map((block) => ({
    isError: block.is_error === true,
    guard: occurrences(JSON.stringify(block), GUARD_MARKER),
  }));
}

/** The same for a checkpoint: its marker, and whether the command ran (the fake pytest's output). */
function checkpointResults(
  server: ModelServer,
  n: number,
): { isError: boolean; marker: number; ran: boolean }[] {
  return resultBlocks(server, n).map((block) => ({
    isError: block.is_error === true,
    marker: occurrences(JSON.stringify(block), CHECKPOINT_MARKER),
    ran: JSON.stringify(block).includes('1 passed'),
  }));
}

function resultBlocks(server: ModelServer, n: number): { type?: string; is_error?: boolean }[] {
  const body = server.agentTurns().find((request) => request.toolResults === n)?.body as {
    messages: { content: unknown }[];
  };
  return body.messages
    .flatMap((message) => (Array.isArray(message.content) ? (message.content as { type?: string }[]) : []))
    .filter((block) => block.type === 'tool_result');
}

/** The messages of the agent's request after its `n`-th tool call: role, and content as JSON text. */
function messages(server: ModelServer, n: number): { role: string; text: string }[] {
  const body = server.agentTurns().find((request) => request.toolResults === n)?.body as {
    messages: { role: string; content: unknown }[];
  };
  return body.messages.map((message) => ({ role: message.role, text: JSON.stringify(message.content) }));
}

const WITH_PLUGIN = ['--plugin-dir', PLUGIN_DIR];

describe('Claude Code with the plugin (--plugin-dir)', () => {
  it('(a) a pytest lesson arrives in the request after `pytest -v tests/`, not after the corrected command', async () => {
    const ws = createWorkspace();
    addTopLessons(ws);
    addPytestLesson(ws);
    const server = await serve([{ bash: 'pytest --no-header -q tests/' }, { bash: 'pytest -v tests/' }]);
    const exit = await runClaude(ws, server, 'run the tests', WITH_PLUGIN);
    await server.close();

    expect(exit.code, exit.stderr).toBe(0);
    expect(occurrences(turn(server, 1), '1 passed')).toBeGreaterThan(0);
    expect(occurrences(turn(server, 0), PYTEST_MARKER)).toBe(0);
    expect(occurrences(turn(server, 1), PYTEST_MARKER)).toBe(0);
    expect(occurrences(turn(server, 2), PYTEST_MARKER)).toBe(1);
  });

  it('(b) the same lesson is injected once per session although the model runs pytest twice', async () => {
    const ws = createWorkspace();
    addTopLessons(ws);
    addPytestLesson(ws);
    const server = await serve([{ bash: 'pytest -v tests/' }, { bash: 'pytest -v tests/' }]);
    const exit = await runClaude(ws, server, 'run the tests', WITH_PLUGIN);
    await server.close();

    expect(exit.code, exit.stderr).toBe(0);
    expect(occurrences(turn(server, 0), PYTEST_MARKER)).toBe(0);
    expect(occurrences(turn(server, 1), PYTEST_MARKER)).toBe(1);
    expect(occurrences(turn(server, 2), PYTEST_MARKER)).toBe(1);
  });

  it('(b) a lesson shown at session start is not shown again by its tool call', async () => {
    const ws = createWorkspace();
    addPytestTagLesson(ws);
    const server = await serve([{ bash: 'pytest -v tests/' }]);
    const exit = await runClaude(ws, server, 'run the tests', WITH_PLUGIN);
    await server.close();

    expect(exit.code, exit.stderr).toBe(0);
    expect(occurrences(turn(server, 0), PYTEST_MARKER)).toBe(1);
    expect(occurrences(turn(server, 1), PYTEST_MARKER)).toBe(1);
  });

  it('(c) a guard denies `rm -rf build`: the model gets the teaching reason as the tool error, the fix goes through', async () => {
    const ws = createWorkspace();
    addBuildGuard(ws);
    const server = await serve([{ bash: 'rm -rf build' }, { bash: 'rm -rf build/tmp' }]);
    const exit = await runClaude(ws, server, 'clean the build', WITH_PLUGIN);
    await server.close();

    expect(exit.code, exit.stderr).toBe(0);
    expect(existsSync(join(ws.repo, 'build', 'artifact.txt'))).toBe(true);
    expect(toolResults(server, 1)).toEqual([{ isError: true, guard: 1 }]);
    expect(toolResults(server, 2)).toEqual([
      { isError: true, guard: 1 },
      { isError: false, guard: 0 },
    ]);
    expect(JSON.parse(exit.stdout).permission_denials).toHaveLength(1);
  });

  it('a checkpoint denies the first `pytest` with the lesson as the reason; the unchanged retry runs', async () => {
    const ws = createWorkspace();
    addTopLessons(ws);
    addPytestCheckpoint(ws);
    const server = await serve([{ bash: 'pytest -v tests/' }, { bash: 'pytest -v tests/' }]);
    const exit = await runClaude(ws, server, 'run the tests', WITH_PLUGIN);
    await server.close();

    expect(exit.code, exit.stderr).toBe(0);
    // not at session start: a checkpoint acts at its call
    expect(occurrences(turn(server, 0), CHECKPOINT_MARKER)).toBe(0);
    expect(checkpointResults(server, 1)).toEqual([{ isError: true, marker: 1, ran: false }]);
    expect(checkpointResults(server, 2)).toEqual([
      { isError: true, marker: 1, ran: false },
      { isError: false, marker: 0, ran: true },
    ]);
    expect(JSON.parse(exit.stdout).permission_denials).toHaveLength(1);
  });

  it('an error-gated lesson: nothing before `ls` or after one that worked; after `ls` fails, beside its error (PostToolUseFailure)', async () => {
    const ws = createWorkspace();
    const id = addLsErrorLesson(ws);
    const server = await serve([{ bash: 'ls tests' }, { bash: 'ls /definitely/not/here' }]);
    const exit = await runClaude(ws, server, 'list the files', WITH_PLUGIN);
    await server.close();

    expect(exit.code, exit.stderr).toBe(0);
    expectLsErrorTurns(server, LS_ERROR_MARKER);
    // Claude Code puts the hook's context in a system message right after the failed call's result
    const after = messages(server, 2);
    const failure = after.findIndex((message) => message.text.includes('No such file or directory'));
    const lesson = after.findIndex((message) => message.text.includes(LS_ERROR_MARKER));
    expect(after[failure]!.text).toContain('"is_error":true');
    expect(lesson).toBe(failure + 1);
    expect(after[lesson]!.role).toBe('system');
    expect(after[lesson]!.text).toContain('PostToolUseFailure:Bash hook additional context');
    // one audit line: the failed call's result (PostToolUseFailure), recorded as the outcome half of its PreToolUse
    expectOutcomeAuditLine(ws, id, 'claude-code');
  });

  it('(d) the SessionStart #lesson protocol is in the first request', async () => {
    const ws = createWorkspace();
    const server = await serve([{ text: 'Nothing to do.' }]);
    const exit = await runClaude(ws, server, 'hello', WITH_PLUGIN);
    await server.close();

    expect(exit.code, exit.stderr).toBe(0);
    const first = turn(server, 0);
    for (const line of ['#lesson', 'tool:', 'trigger:', 'mistake:', 'fix:', 'tags:', '#/lesson']) {
      expect(occurrences(first, line), line).toBeGreaterThan(0);
    }
  });
  it('SubagentStart: a subagent gets the protocol; a lesson shown in the session is not shown to it again', async () => {
    const ws = createWorkspace();
    addTopLessons(ws);
    addPytestLesson(ws);
    const task = 'LORE-E2E-SUBAGENT run the test suite';
    const server = await startModelServer({
      steps: [
        { bash: 'pytest -v tests/' },
        {
          tool: 'Agent',
          input: {
            description: 'Run the tests',
            prompt: task,
            subagent_type: 'general-purpose',
            run_in_background: false,
          },
        },
      ],
      subagent: { marker: task, steps: [{ bash: 'pytest -v tests/' }, { bash: 'pytest -v tests/' }] },
    });
    const exit = await runClaude(ws, server, 'run the tests, then again in a subagent', WITH_PLUGIN);
    await server.close();

    expect(exit.code, exit.stderr).toBe(0);
    expect(occurrences(turn(server, 1), PYTEST_MARKER)).toBe(1);
    const sub = (n: number) => server.subagentTurns().find((request) => request.toolResults === n)!.raw;
    expect(occurrences(sub(0), '#/lesson')).toBeGreaterThan(0);
    expect(occurrences(sub(0), PYTEST_MARKER)).toBe(0);
    expect(occurrences(sub(1), PYTEST_MARKER)).toBe(0);
    expect(occurrences(sub(2), PYTEST_MARKER)).toBe(0);
    expect(occurrences(turn(server, 2), 'LORE-E2E-SUBAGENT')).toBeGreaterThan(0);
  });
});

describe('Claude Code installs', () => {
  it('(e) claude plugin validate --strict passes on plugin/ and on the marketplace', async () => {
    const ws = createWorkspace();
    const server = await serve([]);
    expect(claude(ws, server, ['plugin', 'validate', '--strict', PLUGIN_DIR])).toContain('Validation passed');
    expect(claude(ws, server, ['plugin', 'validate', '--strict', copyMarketplace(ws)])).toContain(
      'Validation passed',
    );
    await server.close();
  });

  it('claude plugin marketplace add + claude plugin install lore@lore -y: the lesson arrives', async () => {
    const ws = createWorkspace();
    addPytestLesson(ws);
    const server = await serve([{ bash: 'pytest -v tests/' }]);
    claude(ws, server, ['plugin', 'marketplace', 'add', copyMarketplace(ws)]);
    expect(claude(ws, server, ['plugin', 'install', 'lore@lore', '-y'])).toContain('lore');
    const exit = await runClaude(ws, server, 'run the tests');
    await server.close();

    expect(exit.code, exit.stderr).toBe(0);
    expect(occurrences(turn(server, 1), PYTEST_MARKER)).toBe(1);
  });

  it('lore install claude-code (user settings): the lesson arrives; lore uninstall: it does not', async () => {
    const ws = createWorkspace();
    addPytestLesson(ws);
    expect(ws.lore(['install', 'claude-code'])).toContain(join(ws.home, '.claude', 'settings.json'));
    const server = await serve([{ bash: 'pytest -v tests/' }]);
    const exit = await runClaude(ws, server, 'run the tests');
    await server.close();
    expect(exit.code, exit.stderr).toBe(0);
    expect(occurrences(turn(server, 1), PYTEST_MARKER)).toBe(1);

    ws.lore(['uninstall', 'claude-code']);
    const after = await serve([{ bash: 'pytest -v tests/' }]);
    const again = await runClaude(ws, after, 'run the tests');
    await after.close();
    expect(again.code, again.stderr).toBe(0);
    expect(occurrences(turn(after, 1), PYTEST_MARKER)).toBe(0);
  });
});

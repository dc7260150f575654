// Codex CLI 0.169.0, driven offline by the scripted model server (Responses API), with lore's hooks.
import { describe, expect, it } from 'vitest';
import {
  expectLsErrorTurns,
  expectOutcomeAuditLine,
  codex,
  codexEnv,
  copyMarketplace,
  createWorkspace,
  occurrences,
  runCodex,
  turn,
} from './harness.js';
import {
  addLsErrorLesson,
  addPytestCheckpoint,
  addPytestLesson,
  addTopLessons,
  CHECKPOINT_MARKER,
  LS_ERROR_MARKER,
  PYTEST_MARKER,
} from './lessons.js';
import { startModelServer } from './model-server.js';
import type { ModelServer } from './model-server.js';

/** The input items of the agent's request after its `n`-th tool call, each as JSON text. */
function inputItems(server: ModelServer, n: number): string[] {
  const body = server.agentTurns().find((request) => request.toolResults === n)?.body as { input: unknown[] };
  return body.input.map((item) => JSON.stringify(item));
}

describe('Codex', () => {
  it('(f) the same plugin, installed through codex plugin marketplace add + codex plugin add: the lesson arrives once', async () => {
    const ws = createWorkspace();
    addTopLessons(ws);
    addPytestLesson(ws);
    const server = await startModelServer({
      steps: [{ bash: 'pytest -v tests/' }, { bash: 'pytest -v tests/' }],
    });
    const env = codexEnv(ws, server);
    codex(ws, env, ['plugin', 'marketplace', 'add', copyMarketplace(ws)]);
    codex(ws, env, ['plugin', 'add', 'lore@lore']);
    const exit = await runCodex(ws, env, 'run the tests');
    await server.close();

    expect(exit.code, exit.stderr).toBe(0);
    expect(occurrences(turn(server, 1), '1 passed')).toBeGreaterThan(0);
    expect(occurrences(turn(server, 0), PYTEST_MARKER)).toBe(0);
    expect(occurrences(turn(server, 1), PYTEST_MARKER)).toBe(1);
    expect(occurrences(turn(server, 2), PYTEST_MARKER)).toBe(1);
  });

  it('an error-gated lesson, from the plugin (its Codex hooks file): nothing after an `ls` that worked; after `ls` fails, a developer message (PostToolUse)', async () => {
    const ws = createWorkspace();
    const id = addLsErrorLesson(ws);
    const server = await startModelServer({
      steps: [{ bash: 'ls tests' }, { bash: 'ls /definitely/not/here' }],
    });
    const env = codexEnv(ws, server);
    codex(ws, env, ['plugin', 'marketplace', 'add', copyMarketplace(ws)]);
    codex(ws, env, ['plugin', 'add', 'lore@lore']);
    const exit = await runCodex(ws, env, 'list the files');
    await server.close();

    expect(exit.code, exit.stderr).toBe(0);
    expectLsErrorTurns(server, LS_ERROR_MARKER);
    // Codex files the hook's context as a developer message after the call it answered
    const items = inputItems(server, 2);
    const call = items.findIndex(
      (item) => item.includes('"function_call"') && item.includes('/definitely/not/here'),
    );
    const lesson = items.findIndex((item) => item.includes(LS_ERROR_MARKER));
    expect(call).toBeGreaterThan(0);
    expect(lesson).toBeGreaterThan(call);
    expect(items[lesson]).toContain('"role":"developer"');
    // one audit line: the failed call's result (PostToolUse), recorded as the outcome half of its PreToolUse
    expectOutcomeAuditLine(ws, id, 'codex');
  });

  it('a checkpoint denies the first `pytest` with the lesson as the reason; the unchanged retry runs', async () => {
    const ws = createWorkspace();
    addPytestCheckpoint(ws);
    const server = await startModelServer({
      steps: [{ bash: 'pytest -v tests/' }, { bash: 'pytest -v tests/' }],
    });
    const env = codexEnv(ws, server);
    ws.lore(['install', 'codex']);
    const exit = await runCodex(ws, env, 'run the tests');
    await server.close();

    expect(exit.code, exit.stderr).toBe(0);
    expect(occurrences(turn(server, 0), CHECKPOINT_MARKER)).toBe(0);
    // the denial is the first call's output: the lesson, and no test run
    expect(occurrences(turn(server, 1), CHECKPOINT_MARKER)).toBe(1);
    expect(occurrences(turn(server, 1), '1 passed')).toBe(0);
    // the retry ran, and the lesson was not sent again
    expect(occurrences(turn(server, 2), CHECKPOINT_MARKER)).toBe(1);
    expect(occurrences(turn(server, 2), '1 passed')).toBeGreaterThan(0);
  });

  it('lore install codex ($CODEX_HOME/hooks.json): the lesson arrives and the protocol is there from the start', async () => {
    const ws = createWorkspace();
    addPytestLesson(ws);
    const server = await startModelServer({ steps: [{ bash: 'pytest -v tests/' }] });
    const env = codexEnv(ws, server);
    ws.lore(['install', 'codex']);
    const exit = await runCodex(ws, env, 'run the tests');
    await server.close();

    expect(exit.code, exit.stderr).toBe(0);
    expect(occurrences(turn(server, 0), '#lesson')).toBeGreaterThan(0);
    expect(occurrences(turn(server, 0), '#/lesson')).toBeGreaterThan(0);
    expect(occurrences(turn(server, 1), PYTEST_MARKER)).toBe(1);
  });
});

// Gemini CLI 0.61.0, driven offline by the scripted model server (Gemini API on 127.0.0.1 through
// GOOGLE_GEMINI_BASE_URL), with lore installed by `lore install gemini` or as an extension.
import { chmodSync, cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  auditLines,
  createWorkspace,
  expectLsErrorTurns,
  expectOutcomeAuditLine,
  gemini,
  GEMINI_EXTENSION_DIR,
  geminiEnv,
  LORE_BIN,
  occurrences,
  runGemini,
  turn,
} from './harness.js';
import type { Workspace } from './harness.js';
import {
  addBuildGuard,
  addLsErrorLesson,
  addPytestCheckpoint,
  addPytestLesson,
  addTopLessons,
  CHECKPOINT_MARKER,
  GUARD_MARKER,
  LS_ERROR_MARKER,
  PYTEST_MARKER,
} from './lessons.js';
import { startModelServer } from './model-server.js';
import type { ModelServer, Step } from './model-server.js';

const serve = (steps: readonly Step[]) => startModelServer({ steps });

/** The function responses (tool results) of the agent's request after its `n`-th tool call. */
function functionResponses(server: ModelServer, n: number): string[] {
  const body = server.agentTurns().find((request) => request.toolResults === n)?.body as {
    contents: { parts: { functionResponse?: unknown }[] }[];
  };
  return body.contents
    .flatMap((content) => content.parts)
    .filter((part) => part.functionResponse !== undefined)
    .map((part) => JSON.stringify(part.functionResponse));
}

/** The same, parsed: what each call returned to the model (`output`, or `error` for a call that did not run). */
function toolReplies(server: ModelServer, n: number): { output?: string; error?: string }[] {
  return functionResponses(server, n).map(
    (text) => (JSON.parse(text) as { response: { output?: string; error?: string } }).response,
  );
}

/** The chat recordings Gemini CLI wrote under the workspace's HOME. */
function geminiSessions(ws: Workspace): string[] {
  const tmp = join(ws.home, '.gemini', 'tmp');
  return readdirSync(tmp, { recursive: true, encoding: 'utf8' })
    .filter((name) => /chats\/session-[^/]+\.jsonl?$/.test(name))
    .map((name) => join(tmp, name));
}

/** Runs `gemini -p` with lore installed in the user's settings.json. */
async function runInstalled(ws: Workspace, server: ModelServer, prompt = 'run the tests') {
  const env = geminiEnv(ws, server);
  ws.lore(['install', 'gemini']);
  const exit = await runGemini(ws, env, prompt);
  await server.close();
  return exit;
}

describe('Gemini CLI with lore install gemini (~/.gemini/settings.json)', () => {
  it('the SessionStart protocol reaches the model in its first request', async () => {
    const ws = createWorkspace();
    addTopLessons(ws);
    const server = await serve([{ text: 'Nothing to do.' }]);
    const exit = await runInstalled(ws, server);

    expect(exit.code, exit.stderr).toBe(0);
    expect(occurrences(turn(server, 0), '#lesson')).toBeGreaterThan(0);
    expect(occurrences(turn(server, 0), '#/lesson')).toBeGreaterThan(0);
  });

  it('a pytest lesson arrives with the result of `pytest -v tests/` (AfterTool), not after the corrected command', async () => {
    const ws = createWorkspace();
    addTopLessons(ws);
    addPytestLesson(ws);
    const server = await serve([{ bash: 'pytest --no-header -q tests/' }, { bash: 'pytest -v tests/' }]);
    const exit = await runInstalled(ws, server);

    expect(exit.code, exit.stderr).toBe(0);
    expect(occurrences(turn(server, 1), '1 passed')).toBeGreaterThan(0);
    expect(occurrences(turn(server, 0), PYTEST_MARKER)).toBe(0);
    expect(occurrences(turn(server, 1), PYTEST_MARKER)).toBe(0);
    expect(occurrences(turn(server, 2), PYTEST_MARKER)).toBe(1);
    expect(functionResponses(server, 2).map((text) => occurrences(text, PYTEST_MARKER))).toEqual([0, 1]);
  });

  it('the same lesson arrives once per session although the model runs pytest twice; lore scan mines nothing lore injected', async () => {
    const ws = createWorkspace();
    addTopLessons(ws);
    addPytestLesson(ws);
    const server = await serve([{ bash: 'pytest -v tests/' }, { bash: 'pytest -v tests/' }]);
    const exit = await runInstalled(ws, server);
    const [session] = geminiSessions(ws);
    const scan = JSON.parse(ws.lore(['scan', '--path', session ?? '', '--json'])) as {
      candidates: unknown[];
    };

    expect(exit.code, exit.stderr).toBe(0);
    expect(occurrences(turn(server, 1), PYTEST_MARKER)).toBe(1);
    expect(occurrences(turn(server, 2), PYTEST_MARKER)).toBe(1);
    expect(occurrences(readFileSync(session ?? '', 'utf8'), PYTEST_MARKER)).toBeGreaterThan(0);
    expect(scan.candidates).toEqual([]);
  });

  it('a guard denies `rm -rf build` (BeforeTool) and the model receives the teaching reason as the error', async () => {
    const ws = createWorkspace();
    addBuildGuard(ws);
    const server = await serve([{ bash: 'rm -rf build' }, { bash: 'rm -rf build/tmp' }]);
    const exit = await runInstalled(ws, server, 'clean the build');

    expect(exit.code, exit.stderr).toBe(0);
    expect(existsSync(join(ws.repo, 'build', 'artifact.txt'))).toBe(true);
    const [denied] = functionResponses(server, 1);
    expect(JSON.parse(denied ?? '{}')).toMatchObject({
      response: { error: expect.stringContaining(GUARD_MARKER) },
    });
    expect(denied).toContain('Fix: rm -rf build/tmp');
    expect(functionResponses(server, 2).map((text) => occurrences(text, GUARD_MARKER))).toEqual([1, 0]);
  });

  it('a checkpoint denies the first `pytest` (BeforeTool) with the lesson as the tool error; the unchanged retry runs', async () => {
    const ws = createWorkspace();
    addTopLessons(ws);
    const id = addPytestCheckpoint(ws);
    const server = await serve([{ bash: 'pytest -v tests/' }, { bash: 'pytest -v tests/' }]);
    const exit = await runInstalled(ws, server);

    expect(exit.code, exit.stderr).toBe(0);
    // not at session start: a checkpoint acts at its call
    expect(occurrences(turn(server, 0), CHECKPOINT_MARKER)).toBe(0);
    // the denial is the first call's error: the lesson, the retry advice, and no test run
    const [denied] = toolReplies(server, 1);
    expect(denied).toEqual({ error: expect.stringContaining(`lore checkpoint ${id}`) });
    expect(occurrences(denied?.error ?? '', CHECKPOINT_MARKER)).toBe(1);
    expect(denied?.error).toContain('run it again unchanged');
    // the retry ran, and the lesson did not come again beside its output (AfterTool)
    const [again, retry] = toolReplies(server, 2);
    expect(again).toEqual(denied);
    expect(retry?.error).toBeUndefined();
    expect(retry?.output).toContain('1 passed');
    expect(occurrences(retry?.output ?? '', CHECKPOINT_MARKER)).toBe(0);
    // one audit line: the denial, in the half before the call
    const lines = auditLines(ws);
    expect(lines).toEqual([
      expect.objectContaining({ host: 'gemini', event: 'PreToolUse', phase: 'before', lessons: [] }),
    ]);
    expect(lines[0]).toMatchObject({ denied: [{ id, kind: 'checkpoint' }] });
  });

  it('an error-gated lesson: nothing before `ls` or after one that worked; after `ls` fails, appended to its output (AfterTool)', async () => {
    const ws = createWorkspace();
    const id = addLsErrorLesson(ws);
    const server = await serve([{ bash: 'ls tests' }, { bash: 'ls /definitely/not/here' }]);
    const exit = await runInstalled(ws, server, 'list the files');

    expect(exit.code, exit.stderr).toBe(0);
    expectLsErrorTurns(server, LS_ERROR_MARKER);
    // the `ls` that worked printed the file (the directory listing in the prompt has it too)
    const [listed] = toolReplies(server, 1);
    expect(listed?.output).toContain('test_app.py');
    expect(occurrences(listed?.output ?? '', LS_ERROR_MARKER)).toBe(0);
    // Gemini appends AfterTool's context to the failed call's output, after the tool's own text,
    // in <hook_context> tags, inside that call's functionResponse
    const [, failed] = toolReplies(server, 2);
    const output = failed?.output ?? '';
    const error = output.indexOf('No such file or directory');
    const context = output.indexOf('<hook_context>');
    expect(error).toBeGreaterThan(-1);
    expect(context).toBeGreaterThan(error);
    expect(output.indexOf(LS_ERROR_MARKER)).toBeGreaterThan(context);
    expect(output.trimEnd().endsWith('</hook_context>')).toBe(true);
    expect(functionResponses(server, 2).map((text) => occurrences(text, LS_ERROR_MARKER))).toEqual([0, 1]);
    // one audit line: the failed call's AfterTool (the after half of its call), matched by the error
    expectOutcomeAuditLine(ws, id, 'gemini', 'after');
  });

  it('the Gemini transcript the run wrote is read by lore scan: a #lesson block becomes a candidate', async () => {
    const ws = createWorkspace();
    const cargo = join(ws.base, 'bin', 'cargo');
    writeFileSync(
      cargo,
      '#!/bin/sh\ncase " $* " in *" --workspace "*) echo "test result: ok. 3 passed"; exit 0;; esac\necho "error: virtual manifest" >&2\nexit 101\n',
    );
    chmodSync(cargo, 0o755);
    const block = [
      '`cargo test` failed: the repository root is a virtual workspace manifest.',
      '#lesson',
      'tool: Bash',
      'trigger: cargo test',
      'mistake: cargo test at the workspace root fails (virtual manifest)',
      'fix: run cargo test --workspace from the root',
      'tags: lang:rust, tool:cargo',
      '#/lesson',
    ].join('\n');
    const server = await serve([
      { bash: 'cargo test' },
      { say: block, bash: 'cargo test --workspace' },
      { text: 'The workspace tests pass.' },
    ]);
    const exit = await runInstalled(ws, server, 'run the rust tests');
    const sessions = geminiSessions(ws);
    const scan = JSON.parse(ws.lore(['scan', '--path', sessions[0] ?? '', '--json'])) as {
      candidates: { tier: number; trigger: string }[];
    };

    expect(exit.code, exit.stderr).toBe(0);
    expect(sessions).toHaveLength(1);
    expect(scan.candidates.map((c) => [c.tier, c.trigger.includes('cargo')])).toEqual([[1, true]]);
  });
});

describe('Gemini CLI with the lore extension (gemini extensions install --consent)', () => {
  it('installs, its hooks inject, and its MCP tools answer', async () => {
    const ws = createWorkspace();
    addTopLessons(ws);
    addPytestLesson(ws);
    const marker = ws.addLesson([
      '--summary',
      'LORE-E2E-5M1 mcp-only lesson: the docs site builds with make docs',
      '--path',
      'site/**',
      '--priority',
      '1',
    ]);
    // a copied extension has no lore CLI beside it: its MCP launcher runs `lore` from PATH
    const shim = join(ws.base, 'bin', 'lore');
    writeFileSync(shim, `#!/bin/sh\nexec "${process.execPath}" "${LORE_BIN}" "$@"\n`);
    chmodSync(shim, 0o755);
    const source = join(ws.scratch, 'lore-gemini-extension');
    cpSync(GEMINI_EXTENSION_DIR, source, { recursive: true });
    const server = await serve([
      { tool: 'mcp_lore_lore_search', input: { query: 'mcp-only docs site' } },
      { bash: 'pytest -v tests/' },
    ]);
    const env = geminiEnv(ws, server);
    gemini(ws, env, ['extensions', 'install', source, '--consent']);
    const exit = await runGemini(ws, env, 'go ahead');
    await server.close();

    expect(exit.code, exit.stderr).toBe(0);
    expect(existsSync(join(ws.home, '.gemini', 'extensions', 'lore', 'bin', 'lore-hook.cjs'))).toBe(true);
    expect(occurrences(turn(server, 0), '#/lesson')).toBeGreaterThan(0);
    expect(functionResponses(server, 1).join('\n')).toContain(marker);
    const [, shell] = functionResponses(server, 2);
    expect(occurrences(shell ?? '', PYTEST_MARKER)).toBe(1);
  });
});

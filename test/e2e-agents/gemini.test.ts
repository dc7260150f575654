// Gemini CLI 0.61.0, driven offline by the scripted model server (Gemini API on 127.0.0.1 through
// GOOGLE_GEMINI_BASE_URL), with lore installed by `lore install gemini` or as an extension.
import { chmodSync, cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  createWorkspace,
  gemini,
  GEMINI_EXTENSION_DIR,
  geminiEnv,
  LORE_BIN,
  occurrences,
  runGemini,
  turn,
} from './harness.js';
import type { Workspace } from './harness.js';
import { addBuildGuard, addPytestLesson, addTopLessons, GUARD_MARKER, PYTEST_MARKER } from './lessons.js';
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

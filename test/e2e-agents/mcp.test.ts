// lore mcp end to end: the MCP Inspector's CLI mode against the built server, and the real Claude
// Code (driven offline by the scripted model server) calling a lore MCP tool and sending the
// learnings sidecar back to the model in the tool result.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createWorkspace, LORE_BIN, occurrences, PLUGIN_DIR, runClaude, turn } from './harness.js';
import type { Workspace } from './harness.js';
import { startModelServer } from './model-server.js';

const INSPECTOR = fileURLToPath(
  new URL('./node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js', import.meta.url),
);

const TEST_MARKER = 'LORE-E2E-5M8 tests lesson';
const MIGRATION_MARKER = 'LORE-E2E-3P1 migration lesson';

function addPathLessons(ws: Workspace): { tests: string; migration: string } {
  return {
    tests: ws.addLesson([
      '--summary',
      `${TEST_MARKER}: fixtures live in tests/conftest.py`,
      '--path',
      'tests/**',
    ]),
    migration: ws.addLesson([
      '--summary',
      `${MIGRATION_MARKER}: never edit an applied migration`,
      '--path',
      'db/migrations/**',
    ]),
  };
}

/** One Inspector CLI call against `node dist/cli/bin.js mcp` in the workspace. */
function inspect(
  ws: Workspace,
  args: readonly string[],
): { code: number | null; json: Record<string, unknown>; stderr: string } {
  const result = spawnSync(
    process.execPath,
    [INSPECTOR, '--cli', process.execPath, LORE_BIN, 'mcp', ...args],
    {
      cwd: ws.repo,
      env: ws.env,
      encoding: 'utf8',
      timeout: 60_000,
    },
  );
  const start = result.stdout.indexOf('{');
  return {
    code: result.status,
    json: start < 0 ? {} : (JSON.parse(result.stdout.slice(start)) as Record<string, unknown>),
    stderr: result.stderr,
  };
}

describe('the MCP Inspector CLI against lore mcp', () => {
  it('lists the tools, calls lore_search with the sidecar, reads a lesson and a prompt', () => {
    const ws = createWorkspace();
    const ids = addPathLessons(ws);

    const tools = inspect(ws, ['--method', 'tools/list']);
    expect(tools.code, tools.stderr).toBe(0);
    const listed = tools.json.tools as { name: string; outputSchema?: object }[];
    expect(listed.map((tool) => tool.name).sort()).toEqual([
      'lore_add',
      'lore_docs_add',
      'lore_docs_index',
      'lore_docs_list',
      'lore_docs_migrate',
      'lore_docs_search',
      'lore_docs_show',
      'lore_feedback',
      'lore_list',
      'lore_search',
      'lore_show',
      'lore_supersede',
      'lore_update',
      'lore_upvote',
    ]);
    expect(listed.every((tool) => tool.outputSchema !== undefined)).toBe(true);

    const search = inspect(ws, [
      '--method',
      'tools/call',
      '--tool-name',
      'lore_search',
      '--tool-arg',
      'query=migration',
      'path=tests/test_app.py',
    ]);
    expect(search.code, search.stderr).toBe(0);
    const structured = search.json.structuredContent as {
      results: { id: string }[];
      learnings: { id: string; matched_by: string[] }[];
    };
    expect(structured.results.map((r) => r.id)).toEqual([]);
    expect(structured.learnings).toEqual([
      expect.objectContaining({ id: ids.tests, matched_by: ['path:tests/**'] }),
    ]);

    const resource = inspect(ws, ['--method', 'resources/read', '--uri', `lesson://${ids.migration}`]);
    expect(JSON.stringify(resource.json)).toContain(MIGRATION_MARKER);

    const prompt = inspect(ws, [
      '--method',
      'prompts/get',
      '--prompt-name',
      'review-lessons-for-path',
      '--prompt-args',
      'path=db/migrations/0001.sql',
    ]);
    expect(JSON.stringify(prompt.json)).toContain(ids.migration);

    const bad = inspect(ws, [
      '--method',
      'tools/call',
      '--tool-name',
      'lore_show',
      '--tool-arg',
      'id=nothing',
    ]);
    expect(bad.json.isError).toBe(true);
    expect(JSON.stringify(bad.json)).toContain('call it as: lore_show');
  });
});

describe('Claude Code calling lore over MCP', () => {
  it('gets the learnings for the path in the tool result it sends back to the model', async () => {
    const ws = createWorkspace();
    const ids = addPathLessons(ws);
    const config = join(ws.scratch, 'mcp.json');
    writeFileSync(
      config,
      JSON.stringify({ mcpServers: { lore: { command: process.execPath, args: [LORE_BIN, 'mcp'] } } }),
    );
    const server = await startModelServer({
      steps: [
        { tool: 'mcp__lore__lore_search', input: { query: 'flaky network', path: 'tests/test_app.py' } },
      ],
    });
    const exit = await runClaude(ws, server, 'look up lessons for tests/test_app.py', [
      '--mcp-config',
      config,
      '--strict-mcp-config',
    ]);
    await server.close();

    expect(exit.code, exit.stderr).toBe(0);
    expect(occurrences(turn(server, 0), 'mcp__lore__lore_search')).toBeGreaterThan(0);
    const after = turn(server, 1);
    expect(occurrences(after, TEST_MARKER)).toBeGreaterThan(0);
    expect(occurrences(after, ids.tests)).toBeGreaterThan(0);
    expect(occurrences(after, '\\"learnings\\"')).toBeGreaterThan(0);
    expect(occurrences(after, MIGRATION_MARKER)).toBe(0);
  });

  it("reaches the server the plugin's .mcp.json registers", async () => {
    const ws = createWorkspace();
    const ids = addPathLessons(ws);
    const server = await startModelServer({
      steps: [{ tool: 'mcp__plugin_lore_lore__lore_show', input: { id: ids.migration } }],
    });
    const exit = await runClaude(ws, server, 'show the migration lesson', ['--plugin-dir', PLUGIN_DIR]);
    await server.close();

    expect(exit.code, exit.stderr).toBe(0);
    expect(occurrences(turn(server, 0), 'mcp__plugin_lore_lore__lore_show')).toBeGreaterThan(0);
    expect(occurrences(turn(server, 1), MIGRATION_MARKER)).toBeGreaterThan(0);
  });

  it('shares the session with the hooks: a lesson the hook injected is not repeated in the sidecar', async () => {
    const ws = createWorkspace();
    const ids = addPathLessons(ws);
    const server = await startModelServer({
      steps: [
        { tool: 'Read', input: { file_path: join(ws.repo, 'tests', 'test_app.py') } },
        {
          tool: 'mcp__plugin_lore_lore__lore_search',
          input: { query: 'flaky network', path: 'tests/test_app.py' },
        },
      ],
    });
    const exit = await runClaude(ws, server, 'read the test, then look up lessons for it', [
      '--plugin-dir',
      PLUGIN_DIR,
    ]);
    await server.close();

    expect(exit.code, exit.stderr).toBe(0);
    const after = turn(server, 2);
    expect(occurrences(after, ids.tests)).toBe(1);
    expect(occurrences(after, TEST_MARKER)).toBe(1);
    expect(occurrences(after, '\\"learnings\\":[]')).toBe(1);
  });
});

// The other write surfaces take `type: checkpoint` as `lore add --type checkpoint` does: the HTTP
// API (in process, with GET /api/explain showing the checkpoint's denial) and MCP lore_add (the
// built server over stdio, through the official SDK client).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { createSandbox } from '../helpers/cli.js';
import { createAppSandbox } from '../helpers/http.js';
import { connectMcp } from '../helpers/mcp.js';

const PUBLISH = {
  summary: 'publishing needs the changelog entry first',
  type: 'checkpoint',
  commands: ['npm\\s+publish'],
};

describe('checkpoints on the HTTP API', () => {
  it('POST /api/lessons stores one; GET /api/explain shows it denying the first call; a bad type is a 422', async () => {
    const { app, repo } = createAppSandbox();
    const created = await app.request('/api/lessons', { method: 'POST', body: PUBLISH });
    expect(created.status).toBe(201);
    const { id, file } = created.json<{ id: string; file: string }>();
    expect((parseYaml(readFileSync(join(repo, file), 'utf8')) as { type: string }).type).toBe('checkpoint');
    const explained = await app.request('/api/explain?tool=Bash&command=npm%20publish');
    expect(explained.json<{ denied: unknown[] }>().denied).toEqual([
      { id, matched_by: ['command:npm\\s+publish'], kind: 'checkpoint' },
    ]);
    const bad = await app.request('/api/lessons', { method: 'POST', body: { summary: 'x', type: 'wall' } });
    expect(bad.status).toBe(422);
  });
});

describe('checkpoints through MCP lore_add', () => {
  it('are stored with their type', async () => {
    const sandbox = createSandbox();
    const client = await connectMcp(sandbox, {});
    const result = (await client.callTool({ name: 'lore_add', arguments: PUBLISH })) as CallToolResult;
    expect(result.isError ?? false).toBe(false);
    expect((result.structuredContent as { lesson: { type: string } }).lesson.type).toBe('checkpoint');
  });
});

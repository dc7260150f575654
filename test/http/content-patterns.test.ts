// The other write surfaces take `contents` as `lore add --content` does: the HTTP API (in process)
// and MCP lore_add (the built server over stdio, through the official SDK client); and
// GET /api/explain takes the written text as `content`.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { createSandbox } from '../helpers/cli.js';
import { createAppSandbox } from '../helpers/http.js';
import { connectMcp } from '../helpers/mcp.js';

const RANDOM = {
  summary: 'ids from Math.random collide: use crypto.randomUUID()',
  contents: ['Math\\.random\\(\\)'],
  paths: ['src/**'],
};

describe('contents on the HTTP API', () => {
  it('POST /api/lessons stores them, GET /api/explain?content= matches them, a bad one is a 422 naming it', async () => {
    const { app, repo } = createAppSandbox();
    const created = await app.request('/api/lessons', { method: 'POST', body: RANDOM });
    expect(created.status).toBe(201);
    const { id, file } = created.json<{ id: string; file: string }>();
    const yaml = parseYaml(readFileSync(join(repo, file), 'utf8')) as { contents: string[] };
    expect(yaml.contents).toEqual(['Math\\.random\\(\\)']);

    const query = new URLSearchParams({
      tool: 'Write',
      path: 'src/ids.ts',
      content: 'const a = Math.random();',
    });
    const explained = await app.request(`/api/explain?${query.toString()}`);
    expect(explained.status).toBe(200);
    expect(explained.json<{ included: { id: string; matched_by: string[] }[] }>().included).toEqual([
      expect.objectContaining({ id, matched_by: ['content:Math\\.random\\(\\)', 'path:src/**'] }),
    ]);
    const quiet = await app.request('/api/explain?tool=Write&path=src%2Fids.ts&content=crypto.randomUUID()');
    expect(quiet.json<{ included: unknown[] }>().included).toEqual([]);

    const bad = await app.request('/api/lessons', {
      method: 'POST',
      body: { summary: 'x', contents: ['(a+)+$'] },
    });
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.json())).toContain('contents[0]');
  });
});

describe('contents through MCP lore_add', () => {
  it('are stored on the lesson', async () => {
    const sandbox = createSandbox();
    const client = await connectMcp(sandbox, {});
    const result = (await client.callTool({ name: 'lore_add', arguments: RANDOM })) as CallToolResult;
    expect(result.isError ?? false).toBe(false);
    const { lesson } = result.structuredContent as { lesson: { contents: string[] } };
    expect(lesson.contents).toEqual(['Math\\.random\\(\\)']);
    const refused = (await client.callTool({
      name: 'lore_add',
      arguments: { summary: 'y', contents: ['('] },
    })) as CallToolResult;
    expect(refused.isError).toBe(true);
  });
});

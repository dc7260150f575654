/**
 * The docs tools of `lore mcp` through the official SDK client over stdio, against the built
 * server: lore_docs_list, lore_docs_show (and its refusals), lore_docs_search (lexical, hybrid
 * fallback, hybrid), each returning what the CLI's store functions return.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, test } from 'vitest';
import { createSandbox } from '../helpers/cli.js';
import type { Sandbox } from '../helpers/cli.js';
import { connectMcp } from '../helpers/mcp.js';

const connect = (sandbox: Sandbox): Promise<Client> => connectMcp(sandbox, {}, 'lore-docs-test');

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

const text = (result: CallToolResult): string =>
  result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');

function docsSandbox(): Sandbox {
  const sandbox = createSandbox();
  const files: Record<string, string> = {
    'docs/design/auth/login.md': '# Login flow\n\nTokens are refreshed with jittered backoff.\n',
    'docs/patterns/retry.md':
      '---\ntype: pattern\nsummary: Retry policy\ntags: [network]\n---\nBackoff rules.\n',
    'src/notes.md': '# not a doc\n',
  };
  for (const [path, body] of Object.entries(files)) {
    mkdirSync(dirname(sandbox.inRepo(path)), { recursive: true });
    writeFileSync(sandbox.inRepo(path), body);
  }
  return sandbox;
}

describe('lore mcp docs tools', () => {
  test('lore_docs_list and lore_docs_show answer what the CLI answers', async () => {
    const sandbox = docsSandbox();
    const client = await connect(sandbox);
    const tools = (await client.listTools()).tools.map((tool) => tool.name);
    expect(tools).toEqual(expect.arrayContaining(['lore_docs_list', 'lore_docs_show', 'lore_docs_search']));
    const listed = await call(client, 'lore_docs_list', {});
    expect(listed.structuredContent).toEqual({
      docs: [
        {
          path: 'docs/design/auth/login.md',
          type: 'design',
          summary: 'Login flow',
          tags: ['auth'],
          paths: [],
          related_features: ['auth'],
          related_artifacts: [],
          source: 'inferred',
        },
        {
          path: 'docs/patterns/retry.md',
          type: 'pattern',
          summary: 'Retry policy',
          tags: ['network'],
          paths: [],
          related_features: [],
          related_artifacts: [],
          source: 'frontmatter',
        },
      ],
      total: 2,
    });
    const cli = sandbox.run(['docs', 'list', '--json']).json<{ docs: { path: string }[] }>();
    expect(cli.docs.map((doc) => doc.path)).toEqual(['docs/design/auth/login.md', 'docs/patterns/retry.md']);
    expect((await call(client, 'lore_docs_list', { type: 'pattern' })).structuredContent?.docs).toMatchObject(
      [{ path: 'docs/patterns/retry.md' }],
    );
    const shown = await call(client, 'lore_docs_show', { path: 'docs/patterns/retry.md' });
    expect(shown.structuredContent).toMatchObject({
      doc: { summary: 'Retry policy' },
      body: 'Backoff rules.\n',
      problems: [],
    });
  });

  test('lore_docs_show refuses paths outside the roots and under .lore/, with what is allowed', async () => {
    const client = await connect(docsSandbox());
    for (const path of ['src/notes.md', '.lore/config.yaml', '../../etc/passwd']) {
      const refused = await call(client, 'lore_docs_show', { path });
      expect(refused.isError).toBe(true);
      expect(text(refused)).toContain('lore docs show reads Markdown files under the docs roots (docs)');
      expect(text(refused)).toContain('call it as: lore_docs_show');
    }
  });

  test('lore_docs_search: lexical, the hybrid fallback, then hybrid after lore docs index', async () => {
    const sandbox = docsSandbox();
    const client = await connect(sandbox);
    expect((await call(client, 'lore_docs_search', { query: 'retry' })).structuredContent).toMatchObject({
      mode: 'lexical',
      results: [{ path: 'docs/patterns/retry.md', score: 85, matched_by: ['summary'] }],
    });
    expect(
      (await call(client, 'lore_docs_search', { query: 'backoff', hybrid: true })).structuredContent,
    ).toEqual({
      mode: 'lexical',
      fallback: 'no body index yet: run `lore docs index` to build it; showing lexical results only',
      semantic: expect.stringContaining('no embedding provider is configured'),
      results: [],
    });
    expect(sandbox.run(['docs', 'index']).code).toBe(0);
    const hybrid = await call(client, 'lore_docs_search', { query: 'backoff', hybrid: true });
    expect(hybrid.structuredContent).toMatchObject({ mode: 'hybrid' });
    expect((hybrid.structuredContent?.results as { path: string }[]).map((hit) => hit.path).sort()).toEqual([
      'docs/design/auth/login.md',
      'docs/patterns/retry.md',
    ]);
  });
});

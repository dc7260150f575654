/**
 * The docs tools of `lore mcp` through the official SDK client over stdio, against the built
 * server: lore_docs_list, lore_docs_show (and its refusals), lore_docs_search (lexical, hybrid
 * fallback, hybrid), each returning what the CLI's store functions return.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
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

  test("lore_docs_add refuses a path no file system holds (a NUL, a name too long) as the caller's error", async () => {
    const sandbox = docsSandbox();
    const client = await connect(sandbox);
    for (const [dir, why] of [
      ['docs\u0000/x', 'it holds a NUL character'],
      ['d'.repeat(5000), 'a name in it is too long'],
    ] as const) {
      const refused = await call(client, 'lore_docs_add', { dir });
      expect({ isError: refused.isError, text: text(refused) }).toEqual({
        isError: true,
        text: expect.stringContaining(`is not a usable path: ${why}`),
      });
      expect(text(refused)).not.toContain('internal error');
    }
    const cli = sandbox.run(['docs', 'add', 'd'.repeat(5000)]);
    expect({ code: cli.code, stderr: cli.stderr }).toEqual({
      code: 1,
      stderr: expect.stringContaining('is not a usable path: a name in it is too long'),
    });
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

  // Orbit docs' verbs add, index and migrate, as tools (they were CLI-only).
  test('lore_docs_add, lore_docs_index and lore_docs_migrate do what lore docs add/index/migrate do', async () => {
    const sandbox = docsSandbox();
    mkdirSync(sandbox.inRepo('handbook'));
    writeFileSync(
      sandbox.inRepo('handbook/oncall.md'),
      '# On-call rota\n\nPage the secondary after 15 minutes.\n',
    );
    const client = await connect(sandbox);
    const tools = (await client.listTools()).tools.map((tool) => tool.name);
    expect(tools).toEqual(expect.arrayContaining(['lore_docs_add', 'lore_docs_index', 'lore_docs_migrate']));

    const added = await call(client, 'lore_docs_add', { dir: 'handbook' });
    expect(added.structuredContent).toMatchObject({
      root: 'handbook',
      added: true,
      roots: ['docs', 'handbook'],
    });
    expect((await call(client, 'lore_docs_add', { dir: 'handbook' })).structuredContent).toMatchObject({
      added: false,
    });
    const missing = await call(client, 'lore_docs_add', { dir: 'nowhere' });
    expect(missing.isError).toBe(true);
    expect(text(missing)).toContain('call it as: lore_docs_add');
    const listed = (await call(client, 'lore_docs_list', {})).structuredContent as {
      docs: { path: string }[];
    };
    expect(listed.docs.map((doc) => doc.path)).toContain('handbook/oncall.md');

    const indexed = await call(client, 'lore_docs_index', {});
    expect(indexed.structuredContent).toMatchObject({ indexed: 3, unchanged: 0, total: 3 });
    expect((await call(client, 'lore_docs_index', {})).structuredContent).toMatchObject({
      indexed: 0,
      unchanged: 3,
    });
    const hybrid = await call(client, 'lore_docs_search', { query: 'secondary', hybrid: true });
    expect(hybrid.structuredContent).toMatchObject({
      mode: 'hybrid',
      results: [{ path: 'handbook/oncall.md' }],
    });

    const before = readFileSync(sandbox.inRepo('handbook/oncall.md'), 'utf8');
    const dry = await call(client, 'lore_docs_migrate', { dryRun: true });
    const planned = dry.structuredContent as { changed: { path: string; diff: string }[] };
    expect(planned.changed.map((doc) => doc.path)).toEqual([
      'docs/design/auth/login.md',
      'handbook/oncall.md',
    ]);
    expect(readFileSync(sandbox.inRepo('handbook/oncall.md'), 'utf8')).toBe(before);
    const migrated = await call(client, 'lore_docs_migrate', {});
    expect((migrated.structuredContent as { changed: unknown[] }).changed).toHaveLength(2);
    expect(readFileSync(sandbox.inRepo('handbook/oncall.md'), 'utf8')).toMatch(/^---\ntype: /);
    expect(sandbox.run(['docs', 'migrate', '--dry-run']).stdout).toContain('nothing to migrate');
  });

  test('lore_docs_migrate names the docs it left alone (not UTF-8) and the problems, as lore docs migrate --json does', async () => {
    const sandbox = docsSandbox();
    writeFileSync(sandbox.inRepo('docs/latin.md'), Buffer.from('# Caf\xe9 notes\n', 'latin1'));
    writeFileSync(sandbox.inRepo('docs/open.md'), '---\ntype: design\nsummary: Open\n\n# Open\n');
    const cli = sandbox.run(['docs', 'migrate', '--dry-run', '--json']).json<{
      notUtf8: string[];
      problems: unknown[];
    }>();
    expect(cli.notUtf8).toEqual(['docs/latin.md']);
    const client = await connect(sandbox);
    const dry = (await call(client, 'lore_docs_migrate', { dryRun: true })).structuredContent;
    expect(dry).toMatchObject({ notUtf8: cli.notUtf8, problems: cli.problems });
    expect(dry?.problems).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ file: 'docs/latin.md', message: expect.stringContaining('not UTF-8') }),
        expect.objectContaining({
          file: 'docs/open.md',
          line: 1,
          message: expect.stringContaining('never closed'),
        }),
      ]),
    );
  });
});

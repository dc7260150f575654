/**
 * The bundled `lore mcp` (dist/mcp/lore-mcp.cjs) and its V8 code cache in `$TMPDIR/lore-mcp-<uid>/`,
 * through the SDK client against the built CLI: the cache is written once, after the first answer,
 * and reused; a cache that is corrupt, or in a directory that is not safely the user's own, is
 * not used and the server serves all the same, with nothing but protocol on stdout.
 */
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, test } from 'vitest';
import { bundleBuild } from '../../src/cli/mcp-bundle.js';
import { codeCacheFile } from '../../src/store/fs/code-cache.js';
import { createSandbox, LORE_BIN } from '../helpers/cli.js';
import type { Sandbox } from '../helpers/cli.js';
import { hookEnv } from '../helpers/hook.js';
import { connectMcp } from '../helpers/mcp.js';

const BUNDLE = fileURLToPath(new URL('../../dist/mcp/lore-mcp.cjs', import.meta.url));
const bundleText = readFileSync(BUNDLE, 'latin1');
const CACHE_FILE = codeCacheFile(bundleBuild(bundleText), bundleText.length);
const uid = process.getuid?.() ?? 'user';
const cacheDir = (sandbox: Sandbox) => join(sandbox.base, 'tmp', `lore-mcp-${uid}`);

type Session = {
  answer: CallToolResult;
  received: unknown[];
  failures: Error[];
  /** The server process's children while it served (Linux only). */
  children: string | undefined;
};

const PLUGIN_LAUNCHER = fileURLToPath(new URL('../../plugin/bin/lore-mcp.cjs', import.meta.url));
/** Where Linux lists a process's children (absent elsewhere). */
const childrenFile = (pid: number) => `/proc/${pid}/task/${pid}/children`;

/** Starts `lore mcp`, asks one lore_search, and closes it (which waits for the process to exit). */
async function searchOnce(
  sandbox: Sandbox,
  env: Record<string, string> = {},
  args: string[] = [LORE_BIN, 'mcp'],
): Promise<Session> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args,
    cwd: sandbox.repo,
    env: hookEnv(sandbox, env),
    stderr: 'pipe',
  });
  const client = new Client({ name: 'lore-test', version: '1.0.0' });
  const received: unknown[] = [];
  const failures: Error[] = [];
  await client.connect(transport);
  const original = transport.onmessage;
  transport.onmessage = (message) => {
    received.push(message);
    original?.(message);
  };
  transport.onerror = (error) => failures.push(error);
  const answer = (await client.callTool({
    name: 'lore_search',
    arguments: { query: 'pytest' },
  })) as CallToolResult;
  const pid = transport.pid ?? 0;
  const children = existsSync(childrenFile(pid)) ? readFileSync(childrenFile(pid), 'utf8').trim() : undefined;
  await client.close();
  return { answer, received, failures, children };
}

function seeded(): { sandbox: Sandbox; id: string } {
  const sandbox = createSandbox();
  const id = sandbox.add(['--summary', 'pytest hangs on a TTY prompt: run it with CI=1', '--tool', 'Bash']);
  mkdirSync(join(sandbox.base, 'tmp'), { recursive: true });
  return { sandbox, id };
}

function expectServed(session: Session, id: string): void {
  expect(session.failures).toEqual([]);
  expect(session.received.every((message) => (message as { jsonrpc?: string }).jsonrpc === '2.0')).toBe(true);
  expect(session.answer.isError ?? false).toBe(false);
  expect(
    (session.answer.structuredContent as { results: { id: string }[] }).results.map((r) => r.id),
  ).toEqual([id]);
}

describe('the bundled lore mcp and its code cache', () => {
  test('writes the code cache once, after the first answer, and the next start reuses it', async () => {
    const { sandbox, id } = seeded();
    expectServed(await searchOnce(sandbox), id);
    expect(readdirSync(cacheDir(sandbox))).toEqual([CACHE_FILE]);
    expect(statSync(cacheDir(sandbox)).mode & 0o777).toBe(0o700);
    const written = statSync(join(cacheDir(sandbox), CACHE_FILE));
    expect(written.mode & 0o777).toBe(0o600);

    expectServed(await searchOnce(sandbox), id);
    // V8 accepted it: a rejected cache would have been written again
    const after = statSync(join(cacheDir(sandbox), CACHE_FILE));
    expect([after.ino, after.mtimeMs]).toEqual([written.ino, written.mtimeMs]);
  });

  test('LORE_MCP_BUNDLE=0 serves from the ES modules and writes no code cache', async () => {
    const { sandbox, id } = seeded();
    expectServed(await searchOnce(sandbox, { LORE_MCP_BUNDLE: '0' }), id);
    expect(existsSync(cacheDir(sandbox))).toBe(false);
  });

  test('a corrupt cache is not used: the server answers, and a good cache replaces it', async () => {
    const { sandbox, id } = seeded();
    mkdirSync(cacheDir(sandbox), { recursive: true, mode: 0o700 });
    writeFileSync(join(cacheDir(sandbox), CACHE_FILE), 'not a code cache', { mode: 0o600 });
    expectServed(await searchOnce(sandbox), id);
    expect(readFileSync(join(cacheDir(sandbox), CACHE_FILE)).length).toBeGreaterThan(1000);
  });

  test('a cache directory others can write is not used: the server answers and writes nothing there', async () => {
    const { sandbox, id } = seeded();
    mkdirSync(cacheDir(sandbox), { recursive: true });
    chmodSync(cacheDir(sandbox), 0o777);
    expectServed(await searchOnce(sandbox), id);
    expect(readdirSync(cacheDir(sandbox))).toEqual([]);
  });

  test('a file where the cache directory goes: the server answers all the same', async () => {
    const { sandbox, id } = seeded();
    writeFileSync(cacheDir(sandbox), '');
    expectServed(await searchOnce(sandbox), id);
    expect(statSync(cacheDir(sandbox)).isFile()).toBe(true);
  });

  test.runIf(process.getuid?.() === 0)(
    'a cache directory owned by someone else is not used: the server answers and writes nothing there',
    async () => {
      const { sandbox, id } = seeded();
      mkdirSync(cacheDir(sandbox), { recursive: true, mode: 0o700 });
      chownSync(cacheDir(sandbox), 4242, 4242);
      expectServed(await searchOnce(sandbox), id);
      expect(readdirSync(cacheDir(sandbox))).toEqual([]);
    },
  );

  test.runIf(process.getuid?.() !== 0)(
    'a cache directory the user cannot write: the server answers all the same',
    async () => {
      const { sandbox, id } = seeded();
      mkdirSync(cacheDir(sandbox), { recursive: true, mode: 0o700 });
      chmodSync(cacheDir(sandbox), 0o500);
      expectServed(await searchOnce(sandbox), id);
      expect(readdirSync(cacheDir(sandbox))).toEqual([]);
    },
  );

  test('the plugin launcher serves through the CLI next to it, bundle and code cache included', async () => {
    const { sandbox, id } = seeded();
    expectServed(await searchOnce(sandbox, {}, [PLUGIN_LAUNCHER]), id);
    expect(readdirSync(cacheDir(sandbox))).toEqual([CACHE_FILE]);
  });

  test.runIf(existsSync(childrenFile(process.pid)))(
    'the plugin launcher runs the CLI in its own process: no second node',
    async () => {
      const { sandbox, id } = seeded();
      const session = await searchOnce(sandbox, {}, [PLUGIN_LAUNCHER]);
      expectServed(session, id);
      expect(session.children).toBe('');
    },
  );

  test('each import.meta.url in the bundle became the URL of a file tsc wrote next to it in dist/', () => {
    const rewritten = [...bundleText.matchAll(/join\(__dirname,"\.\.","([^"]+)"\)/g)].map((m) => m[1] ?? '');
    expect(rewritten.length).toBeGreaterThan(0);
    expect(rewritten.filter((file) => !existsSync(join(dirname(BUNDLE), '..', file)))).toEqual([]);
    expect(bundleText.includes('import.meta')).toBe(false);
  });

  test("zod's other locales, zod 3, zod mini and the SDK's AJV validator are left out, and found in node_modules if asked for", () => {
    expect(bundleText.length).toBeLessThan(900_000);
    expect(bundleText.includes('ZodMiniObject')).toBe(false);
    expect(typeof (createRequire(BUNDLE)('zod/v4-mini') as { object?: unknown }).object).toBe('function');
    // French zod messages, AJV's format keyword and zod 3's type names were in the bundle before
    expect(bundleText.includes('e invalide')).toBe(false);
    expect(bundleText.includes('must match format')).toBe(false);
    expect(bundleText.includes('ZodEffects')).toBe(false);
    const requireThere = createRequire(BUNDLE);
    expect(typeof (requireThere('zod/v3') as { object?: unknown }).object).toBe('function');
    expect(typeof (requireThere('zod-to-json-schema') as { zodToJsonSchema?: unknown }).zodToJsonSchema).toBe(
      'function',
    );
    const locales = requireThere('zod/v4/locales') as Record<string, unknown>;
    expect(typeof locales.fr).toBe('function');
    const { AjvJsonSchemaValidator } = requireThere('@modelcontextprotocol/sdk/validation/ajv') as {
      AjvJsonSchemaValidator: new () => {
        getValidator(schema: object): (value: unknown) => { valid: boolean };
      };
    };
    const check = new AjvJsonSchemaValidator().getValidator({ type: 'object', required: ['a'] });
    expect([check({ a: 1 }).valid, check({}).valid]).toEqual([true, false]);
  });

  test('lore_add into a user tier not set up yet copies the schema files from the package', async () => {
    const sandbox = createSandbox({ loreHome: true });
    mkdirSync(join(sandbox.base, 'tmp'), { recursive: true });
    const client = await connectMcp(sandbox);
    const added = (await client.callTool({
      name: 'lore_add',
      arguments: { summary: 'run the linter before pushing to main', tier: 'user' },
    })) as CallToolResult;
    expect(added.isError ?? false).toBe(false);
    expect(readdirSync(join(sandbox.userTier, 'schema')).sort()).toEqual(
      readdirSync(fileURLToPath(new URL('../../schema/', import.meta.url))).sort(),
    );
  });
});

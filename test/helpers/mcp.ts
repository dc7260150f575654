/** Tests' MCP client: `lore mcp` (the built CLI) over stdio with the SDK's own client. */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { onTestFinished } from 'vitest';
import { LORE_BIN } from './cli.js';
import type { Sandbox } from './cli.js';
import { hookEnv } from './hook.js';

/** Connects to a `lore mcp` started in the sandbox's repository; closed when the test finishes. */
export async function connectMcp(
  sandbox: Sandbox,
  env: Record<string, string> = {},
  name = 'lore-test',
): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [LORE_BIN, 'mcp'],
    cwd: sandbox.repo,
    env: hookEnv(sandbox, env),
    stderr: 'pipe',
  });
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(transport);
  onTestFinished(() => client.close());
  return client;
}

/**
 * Serves `lore mcp` over stdio until the client closes stdin. stdout carries only the protocol;
 * diagnostics go to stderr.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createLoreMcpServer } from './create-mcp-server.js';
import type { McpDeps } from './create-mcp-server.js';

export async function serveMcpStdio(deps: McpDeps): Promise<void> {
  const lore = createLoreMcpServer(deps);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  await lore.server.connect(transport);
  await closed;
  await lore.close();
}

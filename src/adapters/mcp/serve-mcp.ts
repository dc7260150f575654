/**
 * Serves `lore mcp` over stdio until the client closes stdin. stdout carries only the protocol;
 * diagnostics go to stderr.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { createLoreMcpServer } from './create-mcp-server.js';
import type { McpDeps } from './create-mcp-server.js';

/**
 * `afterFirstAnswer` runs once, after the answer to the first tool call went out (or at the end,
 * when there was none): the bundled server writes its code cache then, with the tools compiled.
 */
export async function serveMcpStdio(deps: McpDeps, afterFirstAnswer?: () => void): Promise<void> {
  const lore = createLoreMcpServer(deps);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  await lore.server.connect(transport);
  const first = afterFirstAnswer === undefined ? undefined : onFirstToolAnswer(transport, afterFirstAnswer);
  await closed;
  await lore.close();
  first?.atEnd();
}

/** Calls `fn` once the answer to the first `tools/call` is written, or at the end. */
function onFirstToolAnswer(transport: StdioServerTransport, fn: () => void): { atEnd(): void } {
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    fn();
  };
  const calls = new Set<string | number>();
  const receive = transport.onmessage;
  transport.onmessage = (message: JSONRPCMessage) => {
    if ('method' in message && message.method === 'tools/call' && 'id' in message) calls.add(message.id);
    receive?.(message);
  };
  const send = transport.send.bind(transport);
  transport.send = async (message: JSONRPCMessage) => {
    await send(message);
    if (!done && 'id' in message && message.id !== undefined && calls.has(message.id)) setImmediate(once);
  };
  return { atEnd: once };
}

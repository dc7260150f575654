/**
 * Serves `lore mcp` over stdio until the client closes stdin. stdout carries only the protocol;
 * diagnostics go to stderr.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { createLoreMcpServer } from './create-mcp-server.js';
import type { McpDeps } from './create-mcp-server.js';

/**
 * Once the answer to `initialize` is out, the workspace opens and the index refreshes while the
 * client gets ready (the first call then checks freshness like any later one). `afterFirstAnswer`
 * runs once, after the answer to the first tool call went out (or at the end, when there was
 * none): the bundled server writes its code cache then, with the tools compiled.
 */
export async function serveMcpStdio(deps: McpDeps, afterFirstAnswer?: () => void): Promise<void> {
  const lore = createLoreMcpServer(deps);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  await lore.server.connect(transport);
  const answers = watchAnswers(transport, {
    initialize: () => void lore.warm(),
    'tools/call': afterFirstAnswer ?? (() => undefined),
  });
  await closed;
  await lore.close();
  if (afterFirstAnswer !== undefined && !answers.sent.has('tools/call')) afterFirstAnswer();
}

/** Calls `after[method]` once, just after the answer to the first request of that method went out. */
function watchAnswers(
  transport: StdioServerTransport,
  after: Record<string, () => void>,
): { sent: ReadonlySet<string> } {
  const pending = new Map<string | number, string>();
  const sent = new Set<string>();
  const receive = transport.onmessage;
  transport.onmessage = (message: JSONRPCMessage) => {
    if ('method' in message && 'id' in message && after[message.method] !== undefined) {
      pending.set(message.id, message.method);
    }
    receive?.(message);
  };
  const send = transport.send.bind(transport);
  transport.send = async (message: JSONRPCMessage) => {
    await send(message);
    const method = 'id' in message && message.id !== undefined ? pending.get(message.id) : undefined;
    if (method === undefined) return;
    pending.delete((message as { id: string | number }).id);
    if (sent.has(method)) return;
    sent.add(method);
    setImmediate(after[method] as () => void);
  };
  return { sent };
}

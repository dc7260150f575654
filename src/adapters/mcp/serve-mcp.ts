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
  const answers = watchAnswers(transport, { 'tools/call': afterFirstAnswer ?? (() => undefined) });
  await lore.server.connect(transport);
  await closed;
  await lore.close();
  if (afterFirstAnswer !== undefined && !answers.sent.has('tools/call')) afterFirstAnswer();
}

/**
 * Calls `after[method]` once, just after the answer to the first request of that method went out.
 * Set up before `connect`: the requests are seen from the first one, which may come in the same
 * read as the connection.
 */
function watchAnswers(
  transport: StdioServerTransport,
  after: Record<string, () => void>,
): { sent: ReadonlySet<string> } {
  const pending = new Map<string | number, string>();
  const sent = new Set<string>();
  // connect() sets onmessage, then starts reading: look at each message before the server does
  const start = transport.start.bind(transport);
  transport.start = () => {
    const receive = transport.onmessage;
    transport.onmessage = (message: JSONRPCMessage) => {
      if ('method' in message && 'id' in message && after[message.method] !== undefined) {
        pending.set(message.id, message.method);
      }
      receive?.(message);
    };
    return start();
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

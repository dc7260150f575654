/**
 * A scripted model server on 127.0.0.1 for driving real agents offline.
 *
 * - Anthropic Messages API (`POST /v1/messages`, SSE) for Claude Code (`ANTHROPIC_BASE_URL`).
 * - OpenAI Responses API (`POST /v1/responses`, SSE) for Codex (a `model_providers` entry with
 *   `wire_api = "responses"`).
 * - Gemini API (`POST /v1beta/models/<model>:streamGenerateContent?alt=sse`, and `:generateContent`
 *   for its side requests) for Gemini CLI (`GOOGLE_GEMINI_BASE_URL`); see gemini-api.ts.
 * - Anything else (count_tokens, telemetry, model lists, HEAD probes) gets a benign 200.
 *
 * Each reply is decided from the whole request: the agent's own requests (those that offer a shell
 * tool) get the script step numbered by how many tool results the conversation already holds, so a
 * retried or reordered request gets the same answer; side requests (titles, summaries, quota
 * checks) get plain text. After `maxTurns` tool results the server stops the agent with a final
 * text reply. Every request is logged with its parsed body, and `waitFor` resolves when a logged
 * request matches: tests wait on that signal, never on a timer.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { geminiReply, isGeminiRequest, readGeminiRequest } from './gemini-api.js';

/**
 * One thing the scripted model does: run a shell command, call another tool (Claude Code only:
 * `{tool: 'Agent', input}` starts a subagent), or answer with text and stop. A call may say
 * something first (`say`: a text block before the call in the same reply, as a model explaining
 * a failure, or writing a `#lesson` block, before its next command).
 */
export type Step =
  | { bash: string; say?: string }
  | { tool: string; input: Record<string, unknown>; say?: string }
  | { text: string };

export type LoggedRequest = {
  /** 1-based, in arrival order. */
  seq: number;
  method: string;
  path: string;
  api: 'anthropic' | 'openai' | 'gemini' | 'other';
  /** The agent's own turn (offers a shell tool), as opposed to a side request. */
  agentTurn: boolean;
  /** A subagent's turn (its first user message holds the subagent marker). */
  subagent: boolean;
  /** Tool results the request carries (the step number it was answered with). */
  toolResults: number;
  /** The raw body text, for marker assertions anywhere in it. */
  raw: string;
  body: unknown;
};

export type ModelServer = {
  url: string;
  requests: LoggedRequest[];
  /** Requests of the main agent's own turns, in order (subagents' turns left out). */
  agentTurns(): LoggedRequest[];
  /** Requests of subagents' turns, in order. */
  subagentTurns(): LoggedRequest[];
  /** Resolves with the first logged request (past or future) that matches. */
  waitFor(predicate: (request: LoggedRequest) => boolean): Promise<LoggedRequest>;
  close(): Promise<void>;
};

export type ModelServerOptions = {
  /** What the model does, step by step. */
  steps: readonly Step[];
  /**
   * What a subagent does: requests whose first user message holds `marker` (the prompt the main
   * agent gave the subagent) follow these steps instead.
   */
  subagent?: { marker: string; steps: readonly Step[] };
  /** Tool results after which the model stops whatever the script says (default 8). */
  maxTurns?: number;
};

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** Tool names an Anthropic request offers. */
function anthropicTools(body: Json): string[] {
  return asArray(body.tools).flatMap((tool) =>
    isObject(tool) && typeof tool.name === 'string' ? [tool.name] : [],
  );
}

/** The text of the first user message of an Anthropic request. */
function firstUserText(body: Json): string {
  const first = asArray(body.messages).find((message) => isObject(message) && message.role === 'user');
  return isObject(first) ? JSON.stringify(first.content) : '';
}

function countAnthropicToolResults(body: Json): number {
  let count = 0;
  for (const message of asArray(body.messages)) {
    if (!isObject(message)) continue;
    for (const block of asArray(message.content)) {
      if (isObject(block) && block.type === 'tool_result') count += 1;
    }
  }
  return count;
}

/** Tool names a Responses API request offers (function tools, custom tools, local shell). */
function openaiTools(body: Json): string[] {
  return asArray(body.tools).flatMap((tool) => {
    if (!isObject(tool)) return [];
    if (typeof tool.name === 'string') return [tool.name];
    return typeof tool.type === 'string' ? [tool.type] : [];
  });
}

function countOpenaiToolResults(body: Json): number {
  return asArray(body.input).filter(
    (item) =>
      isObject(item) &&
      (item.type === 'function_call_output' ||
        item.type === 'custom_tool_call_output' ||
        item.type === 'local_shell_call_output'),
  ).length;
}

function pickStep(steps: readonly Step[], toolResults: number, maxTurns: number): Step {
  if (toolResults >= maxTurns) return { text: `Stopping after ${maxTurns} tool calls.` };
  return steps[toolResults] ?? { text: 'Done.' };
}

function sse(res: ServerResponse, events: readonly (readonly [string, Json])[]): void {
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'close',
  });
  for (const [event, data] of events) res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  res.end();
}

function anthropicReply(res: ServerResponse, seq: number, model: string, step: Step): void {
  const id = `msg_e2e_${seq}`;
  const usage = {
    input_tokens: 10,
    output_tokens: 1,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
  };
  const start: [string, Json] = [
    'message_start',
    {
      type: 'message_start',
      message: {
        id,
        type: 'message',
        role: 'assistant',
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage,
      },
    },
  ];
  const call =
    'bash' in step
      ? { name: 'Bash', input: { command: step.bash, description: 'scripted step' } }
      : 'tool' in step
        ? { name: step.tool, input: step.input }
        : undefined;
  const say = 'say' in step && step.say !== undefined ? step.say : undefined;
  const text = call === undefined ? ('text' in step ? step.text : '') : say;
  // The text (when there is one) first, then the call: the order a model writes them in.
  const blocks: [string, Json][][] = [];
  if (text !== undefined) blocks.push(textBlock(blocks.length, text));
  if (call !== undefined) blocks.push(toolUseBlock(blocks.length, `toolu_e2e_${seq}`, call));
  sse(res, [
    start,
    ...blocks.flat(),
    [
      'message_delta',
      {
        type: 'message_delta',
        delta: { stop_reason: call !== undefined ? 'tool_use' : 'end_turn', stop_sequence: null },
        usage: { output_tokens: 5 },
      },
    ],
    ['message_stop', { type: 'message_stop' }],
  ]);
}

function textBlock(index: number, text: string): [string, Json][] {
  return [
    [
      'content_block_start',
      { type: 'content_block_start', index, content_block: { type: 'text', text: '' } },
    ],
    ['content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text } }],
    ['content_block_stop', { type: 'content_block_stop', index }],
  ];
}

function toolUseBlock(
  index: number,
  id: string,
  call: { name: string; input: Record<string, unknown> },
): [string, Json][] {
  return [
    [
      'content_block_start',
      {
        type: 'content_block_start',
        index,
        content_block: { type: 'tool_use', id, name: call.name, input: {} },
      },
    ],
    [
      'content_block_delta',
      {
        type: 'content_block_delta',
        index,
        delta: { type: 'input_json_delta', partial_json: JSON.stringify(call.input) },
      },
    ],
    ['content_block_stop', { type: 'content_block_stop', index }],
  ];
}

/** The shell tool a Codex request offers, and how its arguments are spelled. */
function codexShellCall(tools: readonly string[], command: string): { name: string; arguments: string } {
  if (tools.includes('exec_command'))
    return { name: 'exec_command', arguments: JSON.stringify({ cmd: command }) };
  if (tools.includes('shell_command'))
    return { name: 'shell_command', arguments: JSON.stringify({ command }) };
  return { name: 'shell', arguments: JSON.stringify({ command: ['bash', '-lc', command] }) };
}

function openaiMessage(seq: number, text: string): Json {
  return {
    type: 'message',
    id: `msg_e2e_${seq}`,
    role: 'assistant',
    content: [{ type: 'output_text', text, annotations: [] }],
  };
}

function openaiReply(
  res: ServerResponse,
  seq: number,
  model: string,
  tools: readonly string[],
  step: Step,
): void {
  const id = `resp_e2e_${seq}`;
  const items: Json[] =
    'bash' in step
      ? [
          ...(step.say !== undefined ? [openaiMessage(seq, step.say)] : []),
          {
            type: 'function_call',
            id: `fc_e2e_${seq}`,
            call_id: `call_e2e_${seq}`,
            ...codexShellCall(tools, step.bash),
          },
        ]
      : [openaiMessage(seq, 'text' in step ? step.text : 'Done.')];
  const usage = {
    input_tokens: 10,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 5,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: 15,
  };
  sse(res, [
    ['response.created', { type: 'response.created', response: { id, model, status: 'in_progress' } }],
    ...items.flatMap((item, index): [string, Json][] => [
      ['response.output_item.added', { type: 'response.output_item.added', output_index: index, item }],
      ['response.output_item.done', { type: 'response.output_item.done', output_index: index, item }],
    ]),
    [
      'response.completed',
      { type: 'response.completed', response: { id, model, status: 'completed', usage } },
    ],
  ]);
}

function benign(res: ServerResponse, path: string): void {
  const body = path.includes('count_tokens')
    ? { input_tokens: 10 }
    : path.endsWith('/models')
      ? { data: [], models: [] }
      : {};
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function parseJson(raw: string): unknown {
  try {
    return raw === '' ? null : (JSON.parse(raw) as unknown);
  } catch {
    return null;
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export async function startModelServer(options: ModelServerOptions): Promise<ModelServer> {
  const maxTurns = options.maxTurns ?? 8;
  const requests: LoggedRequest[] = [];
  const waiters: { predicate: (request: LoggedRequest) => boolean; resolve: (r: LoggedRequest) => void }[] =
    [];

  const log = (request: LoggedRequest) => {
    requests.push(request);
    for (const waiter of [...waiters]) {
      if (waiter.predicate(request)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(request);
      }
    }
  };

  const server = createServer((req, res) => {
    void (async () => {
      const raw = await readBody(req);
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      const body = parseJson(raw);
      const seq = requests.length + 1;
      const json = isObject(body) ? body : {};
      const model = typeof json.model === 'string' ? json.model : 'scripted-model';

      if (req.method === 'POST' && path.endsWith('/messages') && !path.includes('count_tokens')) {
        const agentTurn = anthropicTools(json).includes('Bash');
        const toolResults = countAnthropicToolResults(json);
        const subagent =
          options.subagent !== undefined && firstUserText(json).includes(options.subagent.marker);
        log({ seq, method: req.method, path, api: 'anthropic', agentTurn, subagent, toolResults, raw, body });
        const steps = subagent ? options.subagent!.steps : options.steps;
        const step = agentTurn ? pickStep(steps, toolResults, maxTurns) : { text: 'ok' };
        anthropicReply(res, seq, model, step);
        return;
      }
      if (req.method === 'POST' && isGeminiRequest(path)) {
        const { agentTurn, toolResults } = readGeminiRequest(json);
        log({
          seq,
          method: req.method,
          path,
          api: 'gemini',
          agentTurn,
          subagent: false,
          toolResults,
          raw,
          body,
        });
        const step = agentTurn ? pickStep(options.steps, toolResults, maxTurns) : undefined;
        geminiReply(res, path, step);
        return;
      }
      if (req.method === 'POST' && path.endsWith('/responses')) {
        const tools = openaiTools(json);
        const agentTurn = tools.some((name) =>
          ['exec_command', 'shell_command', 'shell', 'local_shell'].includes(name),
        );
        const toolResults = countOpenaiToolResults(json);
        log({
          seq,
          method: req.method,
          path,
          api: 'openai',
          agentTurn,
          subagent: false,
          toolResults,
          raw,
          body,
        });
        const step = agentTurn ? pickStep(options.steps, toolResults, maxTurns) : { text: 'ok' };
        openaiReply(res, seq, model, tools, step);
        return;
      }
      log({
        seq,
        method: req.method ?? 'GET',
        path,
        api: 'other',
        agentTurn: false,
        subagent: false,
        toolResults: 0,
        raw,
        body,
      });
      benign(res, path);
    })().catch((error: unknown) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(error));
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    agentTurns: () => requests.filter((request) => request.agentTurn && !request.subagent),
    subagentTurns: () => requests.filter((request) => request.agentTurn && request.subagent),
    waitFor(predicate) {
      const found = requests.find(predicate);
      if (found) return Promise.resolve(found);
      return new Promise((resolve) => waiters.push({ predicate, resolve }));
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

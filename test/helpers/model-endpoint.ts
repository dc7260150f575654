/**
 * A scripted model endpoint on 127.0.0.1 for `lore distill`: the Anthropic Messages API
 * (`POST /v1/messages`) and OpenAI-style chat completions (`POST /v1/chat/completions`), both
 * non-streaming. Each reply is chosen by `reply` from the whole request; it can answer a lesson,
 * answer garbage, fail with a status, or hang until the server closes (a timeout). Every request is
 * logged with its headers and parsed body, and `waitForRequests` resolves on a count: tests wait
 * on that signal, never on a timer.
 */
import { createServer } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { onTestFinished } from 'vitest';

export type EndpointApi = 'anthropic' | 'openai';

export type EndpointRequest = {
  api: EndpointApi | 'other';
  path: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
  /** The prompt's text: system and user message together. */
  prompt: string;
};

export type Reply =
  /** The model answers this text, in the API's shape. */
  | { text: string; usage?: { input: number; output: number } }
  /** A raw HTTP answer. */
  | { status: number; raw: string }
  /** No answer until the server closes. */
  | { hang: true };

export type ModelEndpoint = {
  /** The base URL: `${url}` for Anthropic (`/v1/messages` is appended), `${url}/v1` for OpenAI. */
  url: string;
  requests: EndpointRequest[];
  waitForRequests(count: number): Promise<void>;
  close(): Promise<void>;
};

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function promptOf(api: EndpointApi | 'other', body: Record<string, unknown>): string {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  const texts = messages.map((m) => (isObject(m) && typeof m.content === 'string' ? m.content : ''));
  return [api === 'anthropic' && typeof body.system === 'string' ? body.system : '', ...texts].join('\n');
}

function answerBody(api: EndpointApi, model: unknown, text: string, usage = { input: 120, output: 80 }) {
  return api === 'anthropic'
    ? {
        id: 'msg_distill',
        type: 'message',
        role: 'assistant',
        model,
        content: [{ type: 'text', text }],
        stop_reason: 'end_turn',
        usage: { input_tokens: usage.input, output_tokens: usage.output },
      }
    : {
        id: 'chatcmpl-distill',
        object: 'chat.completion',
        model,
        choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
        usage: {
          prompt_tokens: usage.input,
          completion_tokens: usage.output,
          total_tokens: usage.input + usage.output,
        },
      };
}

export async function startModelEndpoint(reply: (request: EndpointRequest) => Reply): Promise<ModelEndpoint> {
  const requests: EndpointRequest[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8').on('data', (chunk: string) => (raw += chunk));
    req.on('end', () => {
      const path = req.url ?? '/';
      const api: EndpointRequest['api'] = path.endsWith('/v1/messages')
        ? 'anthropic'
        : path.endsWith('/chat/completions')
          ? 'openai'
          : 'other';
      let body: Record<string, unknown> = {};
      try {
        const parsed: unknown = JSON.parse(raw);
        if (isObject(parsed)) body = parsed;
      } catch {
        // not JSON: logged as an empty body
      }
      const request = { api, path, headers: req.headers, body, prompt: promptOf(api, body) };
      requests.push(request);
      for (const waiter of waiters.filter((w) => requests.length >= w.count)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
      if (api === 'other') {
        res.writeHead(404).end('{"error":"unknown path"}');
        return;
      }
      const answer = reply(request);
      if ('hang' in answer) return;
      if ('status' in answer) {
        res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.raw);
        return;
      }
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify(answerBody(api, body.model, answer.text, answer.usage)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const endpoint: ModelEndpoint = {
    url: `http://127.0.0.1:${port}`,
    requests,
    waitForRequests(count) {
      if (requests.length >= count) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ count, resolve }));
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
  onTestFinished(() => endpoint.close());
  return endpoint;
}

/** A distilled lesson as a model would answer it, with `overrides` merged in. */
export function lessonAnswer(overrides: Record<string, unknown> = {}): string {
  return JSON.stringify({
    summary: 'Run `git push` only after `git pull --rebase`: the remote has commits you lack',
    context: 'Pushing a branch that others also push to.',
    observation: 'git push was rejected: the remote contains work that you do not have locally.',
    implication: 'The push fails and the agent retries blindly.',
    action: 'Run `git pull --rebase` first, then push.',
    trigger: { commands: ['^git\\s+push\\b'], paths: [], tools: ['Bash'] },
    tags: ['tool:git', 'topic:vcs'],
    ...overrides,
  });
}

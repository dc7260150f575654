/**
 * One contract for every distillation provider (STYLE.md: one suite per interface, run on each
 * implementation): the Anthropic Messages API and OpenAI-style chat completions against a
 * scripted endpoint on 127.0.0.1, and the print-mode command provider against a real program (a
 * Node script standing in for `claude -p`).
 */
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createAnthropicProvider, createOpenAiProvider } from '../../src/store/distill/api-providers.js';
import { createCommandProvider } from '../../src/store/distill/command-provider.js';
import type { CompletionRequest, DistillProvider } from '../../src/store/distill/distill-provider.js';
import { startModelEndpoint } from '../helpers/model-endpoint.js';
import type { Reply } from '../helpers/model-endpoint.js';

type Mode = 'answer' | 'hang' | 'fail';

const REQUEST: CompletionRequest = {
  system: 'SYSTEM-MARKER answer with JSON',
  user: 'USER-MARKER the candidate',
  maxOutputTokens: 300,
  timeoutMs: 5000,
};

/** A port nothing listens on: bound, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const REPLIES: Record<Mode, Reply> = {
  answer: { text: '{"summary":"ok"}', usage: { input: 42, output: 7 } },
  hang: { hang: true },
  fail: { status: 500, raw: '{"error":{"message":"overloaded"}}' },
};

type Implementation = {
  name: string;
  /** A provider whose endpoint behaves as `mode`, and what it received. */
  make(mode: Mode): Promise<{ provider: DistillProvider; received: () => string }>;
  unreachable(): Promise<DistillProvider>;
  /** Whether the endpoint reports token counts (the command provider estimates them). */
  reportsUsage: boolean;
};

function apiImplementation(name: 'anthropic' | 'openai'): Implementation {
  const create = name === 'anthropic' ? createAnthropicProvider : createOpenAiProvider;
  const base = (url: string) => (name === 'anthropic' ? url : `${url}/v1`);
  return {
    name,
    reportsUsage: true,
    async make(mode) {
      const endpoint = await startModelEndpoint(() => REPLIES[mode]);
      return {
        provider: create({ baseUrl: base(endpoint.url), model: 'm-1', apiKey: 'test-key' }),
        received: () => endpoint.requests.map((r) => r.prompt).join('\n'),
      };
    },
    async unreachable() {
      return create({
        baseUrl: base(`http://127.0.0.1:${await closedPort()}`),
        model: 'm-1',
        apiKey: undefined,
      });
    },
  };
}

const commandImplementation: Implementation = {
  name: 'command',
  reportsUsage: false,
  async make(mode) {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'lore-distill-cmd-')));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const script = join(dir, 'fake-agent.mjs');
    const log = join(dir, 'stdin.txt');
    writeFileSync(
      script,
      [
        "import { writeFileSync } from 'node:fs';",
        "let input = '';",
        "process.stdin.setEncoding('utf8').on('data', (c) => (input += c));",
        "process.stdin.on('end', () => {",
        `  writeFileSync(${JSON.stringify(log)}, input);`,
        '  const mode = process.argv[2];',
        "  if (mode === 'hang') setInterval(() => {}, 1000);",
        "  else if (mode === 'fail') { process.stderr.write('not logged in'); process.exit(3); }",
        '  else process.stdout.write(\'{"summary":"ok"}\');',
        '});',
      ].join('\n'),
    );
    return {
      provider: createCommandProvider({ argv: [process.execPath, script, mode], cwd: dir, env: process.env }),
      received: () => readFileSync(log, 'utf8'),
    };
  },
  async unreachable() {
    return createCommandProvider({ argv: ['lore-no-such-agent-cli'], cwd: tmpdir(), env: process.env });
  },
};

describe.each([apiImplementation('anthropic'), apiImplementation('openai'), commandImplementation])(
  'the $name provider',
  (impl) => {
    it('sends the system prompt and the candidate, and returns the answer with its cost', async () => {
      const { provider, received } = await impl.make('answer');
      const completion = await provider.complete(REQUEST);
      expect(completion).toMatchObject({ ok: true, text: '{"summary":"ok"}' });
      expect(received()).toContain('SYSTEM-MARKER');
      expect(received()).toContain('USER-MARKER');
      expect(completion.ok && completion.usage).toEqual(
        impl.reportsUsage
          ? { inputTokens: 42, outputTokens: 7, estimated: false }
          : { inputTokens: expect.any(Number), outputTokens: 6, estimated: true },
      );
    });

    it('gives up at the timeout', async () => {
      const { provider } = await impl.make('hang');
      const started = Date.now();
      const completion = await provider.complete({ ...REQUEST, timeoutMs: 300 });
      expect(completion).toMatchObject({ ok: false, kind: 'timeout' });
      expect(Date.now() - started).toBeLessThan(3000);
    });

    it('reports an error answer with its gist', async () => {
      const { provider } = await impl.make('fail');
      const completion = await provider.complete(REQUEST);
      expect(completion).toMatchObject({ ok: false, kind: 'error' });
      expect(completion.ok ? '' : completion.message).toMatch(/overloaded|not logged in/);
    });

    it('tells an endpoint nobody answers at apart', async () => {
      const provider = await impl.unreachable();
      expect(await provider.complete(REQUEST)).toMatchObject({ ok: false, kind: 'unreachable' });
    });
  },
);

describe('the API providers', () => {
  it.each([
    ['anthropic', 'x-api-key', 'test-key'],
    ['openai', 'authorization', 'Bearer test-key'],
  ] as const)('%s: the key goes in its header, and only when there is one', async (name, header, value) => {
    const endpoint = await startModelEndpoint(() => REPLIES.answer);
    const create = name === 'anthropic' ? createAnthropicProvider : createOpenAiProvider;
    const baseUrl = name === 'anthropic' ? endpoint.url : `${endpoint.url}/v1`;
    await create({ baseUrl, model: 'm-1', apiKey: 'test-key' }).complete(REQUEST);
    await create({ baseUrl, model: 'm-1', apiKey: undefined }).complete(REQUEST);
    expect(endpoint.requests.map((r) => r.headers[header])).toEqual([value, undefined]);
    expect(endpoint.requests[0]?.body).toMatchObject({ model: 'm-1', max_tokens: 300 });
  });

  it('openai: a model that refuses max_tokens and temperature gets max_completion_tokens, from then on', async () => {
    // What OpenAI's reasoning models answer to the classic parameters.
    const endpoint = await startModelEndpoint((request) =>
      'max_tokens' in request.body || 'temperature' in request.body
        ? {
            status: 400,
            raw: JSON.stringify({
              error: {
                message:
                  "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
                type: 'invalid_request_error',
              },
            }),
          }
        : REPLIES.answer,
    );
    onTestFinished(() => endpoint.close());
    const provider = createOpenAiProvider({
      baseUrl: `${endpoint.url}/v1`,
      model: 'o-mini',
      apiKey: undefined,
    });
    expect(await provider.complete(REQUEST)).toMatchObject({ ok: true, text: '{"summary":"ok"}' });
    expect(await provider.complete(REQUEST)).toMatchObject({ ok: true });
    expect(endpoint.requests.map((r) => Object.keys(r.body).filter((k) => k !== 'messages'))).toEqual([
      ['model', 'max_tokens', 'temperature'],
      ['model', 'max_completion_tokens'],
      ['model', 'max_completion_tokens'],
    ]);
  });

  it('openai: any other 400 is reported as it is, without a retry', async () => {
    const endpoint = await startModelEndpoint(() => ({
      status: 400,
      raw: '{"error":{"message":"model not found"}}',
    }));
    onTestFinished(() => endpoint.close());
    const provider = createOpenAiProvider({
      baseUrl: `${endpoint.url}/v1`,
      model: 'nope',
      apiKey: undefined,
    });
    expect(await provider.complete(REQUEST)).toMatchObject({ ok: false, kind: 'error' });
    expect(endpoint.requests).toHaveLength(1);
  });

  it.each(['anthropic', 'openai'] as const)(
    '%s: a 200 that is not the API’s JSON is malformed',
    async (name) => {
      const endpoint = await startModelEndpoint(() => ({ status: 200, raw: '<html>captive portal</html>' }));
      const create = name === 'anthropic' ? createAnthropicProvider : createOpenAiProvider;
      const baseUrl = name === 'anthropic' ? endpoint.url : `${endpoint.url}/v1`;
      expect(await create({ baseUrl, model: 'm', apiKey: undefined }).complete(REQUEST)).toMatchObject({
        ok: false,
        kind: 'malformed',
      });
    },
  );
});

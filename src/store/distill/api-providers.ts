/**
 * The two HTTP shapes: the Anthropic Messages API (`POST {baseUrl}/v1/messages`) and OpenAI-style
 * chat completions (`POST {baseUrl}/chat/completions`), which OpenAI, Ollama, vLLM and LM Studio
 * all serve. One non-streaming request each, through Node's fetch, cut off at the timeout.
 */
import { estimateTokens } from '../../core/distill/distill-budget.js';
import type { Completion, CompletionRequest, DistillProvider, Usage } from './distill-provider.js';

export type ApiSettings = { baseUrl: string; model: string; apiKey: string | undefined };

type Json = Record<string, unknown>;
type Failure = Extract<Completion, { ok: false }>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const count = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;

function clip(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/** A failure of fetch itself, told apart: a timeout, or nothing listening. */
function fetchFailure(error: unknown, timeoutMs: number): Failure {
  const name = (error as Error)?.name;
  if (name === 'TimeoutError' || name === 'AbortError')
    return { ok: false, kind: 'timeout', message: `no answer within ${Math.round(timeoutMs / 1000)} s` };
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  return {
    ok: false,
    kind: 'unreachable',
    message: `could not reach the endpoint (${cause?.code ?? cause?.message ?? (error as Error)?.message ?? String(error)})`,
  };
}

/** POSTs JSON and reads a JSON answer; a non-2xx status is an `error` with the body's gist. */
export async function postJson(
  url: string,
  headers: Record<string, string>,
  body: Json,
  timeoutMs: number,
): Promise<{ ok: true; json: unknown } | Failure> {
  let response: Response;
  let text: string;
  try {
    // One signal for the whole exchange: a server that sends headers and then stalls the body
    // times out too.
    const signal = AbortSignal.timeout(timeoutMs);
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
      signal,
    });
    text = await response.text();
  } catch (error) {
    return fetchFailure(error, timeoutMs);
  }
  if (!response.ok)
    return {
      ok: false,
      kind: 'error',
      message: `HTTP ${response.status}: ${clip(text) || response.statusText}`,
    };
  try {
    return { ok: true, json: JSON.parse(text) as unknown };
  } catch {
    return {
      ok: false,
      kind: 'malformed',
      message: `the endpoint answered with something other than JSON: "${clip(text, 80)}"`,
    };
  }
}

const trimSlash = (url: string) => url.replace(/\/+$/, '');

export function createAnthropicProvider(settings: ApiSettings): DistillProvider {
  const url = `${trimSlash(settings.baseUrl)}/v1/messages`;
  return {
    name: 'anthropic',
    model: settings.model,
    endpoint: url,
    async complete(request: CompletionRequest): Promise<Completion> {
      const headers: Record<string, string> = { 'anthropic-version': '2023-06-01' };
      if (settings.apiKey !== undefined) headers['x-api-key'] = settings.apiKey;
      const answer = await postJson(
        url,
        headers,
        {
          model: settings.model,
          max_tokens: request.maxOutputTokens,
          system: request.system,
          messages: [{ role: 'user', content: request.user }],
        },
        request.timeoutMs,
      );
      if (!answer.ok) return answer;
      const json = answer.json;
      const content = isObject(json) && Array.isArray(json.content) ? json.content : undefined;
      if (content === undefined)
        return {
          ok: false,
          kind: 'malformed',
          message: 'the answer has no `content` list (not the Messages API?)',
        };
      const text = content
        .flatMap((block) =>
          isObject(block) && block.type === 'text' && typeof block.text === 'string' ? [block.text] : [],
        )
        .join('');
      const usage = isObject(json) && isObject(json.usage) ? json.usage : {};
      return {
        ok: true,
        text,
        usage: usageOf(count(usage.input_tokens), count(usage.output_tokens), request, text),
      };
    },
  };
}

/**
 * OpenAI's reasoning models refuse `max_tokens` (they take `max_completion_tokens`) and any
 * temperature but the default, while Ollama, vLLM and LM Studio know the classic names best. The
 * classic request goes first; a 400 that names one of those parameters switches this provider to
 * the newer shape for the retry and for every later call.
 */
const NEWER_PARAMETERS = /max_tokens|max_completion_tokens|temperature/;

function chatBody(model: string, request: CompletionRequest, newer: boolean): Json {
  return {
    model,
    ...(newer ? { max_completion_tokens: request.maxOutputTokens } : { max_tokens: request.maxOutputTokens }),
    ...(newer ? {} : { temperature: 0 }),
    messages: [
      { role: 'system', content: request.system },
      { role: 'user', content: request.user },
    ],
  };
}

export function createOpenAiProvider(settings: ApiSettings): DistillProvider {
  const url = `${trimSlash(settings.baseUrl)}/chat/completions`;
  let newer = false;
  return {
    name: 'openai',
    model: settings.model,
    endpoint: url,
    async complete(request: CompletionRequest): Promise<Completion> {
      const headers: Record<string, string> = {};
      if (settings.apiKey !== undefined) headers.authorization = `Bearer ${settings.apiKey}`;
      let answer = await postJson(url, headers, chatBody(settings.model, request, newer), request.timeoutMs);
      if (
        !answer.ok &&
        !newer &&
        /^HTTP 400\b/.test(answer.message) &&
        NEWER_PARAMETERS.test(answer.message)
      ) {
        newer = true;
        answer = await postJson(url, headers, chatBody(settings.model, request, newer), request.timeoutMs);
      }
      if (!answer.ok) return answer;
      const json = answer.json;
      const choice = isObject(json) && Array.isArray(json.choices) ? json.choices[0] : undefined;
      const message = isObject(choice) && isObject(choice.message) ? choice.message : undefined;
      if (message === undefined || typeof message.content !== 'string')
        return {
          ok: false,
          kind: 'malformed',
          message: 'the answer has no `choices[0].message.content` (not chat completions?)',
        };
      const usage = isObject(json) && isObject(json.usage) ? json.usage : {};
      const text = message.content;
      return {
        ok: true,
        text,
        usage: usageOf(count(usage.prompt_tokens), count(usage.completion_tokens), request, text),
      };
    },
  };
}

/** What the endpoint reported, or lore's own estimate when it reported nothing. */
function usageOf(
  input: number | undefined,
  output: number | undefined,
  request: CompletionRequest,
  text: string,
): Usage {
  if (input !== undefined && output !== undefined)
    return { inputTokens: input, outputTokens: output, estimated: false };
  return {
    inputTokens: input ?? estimateTokens(request.system + request.user),
    outputTokens: output ?? estimateTokens(text),
    estimated: true,
  };
}

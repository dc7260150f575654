// The scripted model server on its own: replies chosen from the whole request, bounded turns,
// benign answers to anything else, every request logged.
import { describe, expect, it } from 'vitest';
import { startModelServer } from './model-server.js';

async function post(url: string, body: unknown): Promise<string> {
  const response = await fetch(url, { method: 'POST', body: JSON.stringify(body) });
  return response.text();
}

/** The data payloads of an SSE stream. */
const events = (stream: string) =>
  stream
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>);

const toolResult = { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: 'ok' }] };
const anthropic = (results: number) => ({
  tools: [{ name: 'Bash' }],
  messages: [{ role: 'user', content: 'go' }, ...Array.from({ length: results }, () => toolResult)],
});

describe('startModelServer', () => {
  it('answers an Anthropic agent turn with the step numbered by the tool results already in it', async () => {
    const server = await startModelServer({
      steps: [{ bash: 'echo one' }, { bash: 'echo two' }],
      maxTurns: 3,
    });
    const replies = await Promise.all(
      [0, 1, 2, 3].map((n) => post(`${server.url}/v1/messages`, anthropic(n))),
    );
    await server.close();

    const deltas = replies.map((reply) =>
      events(reply)
        .filter((event) => event.type === 'content_block_delta')
        .map((event) => event.delta),
    );
    expect(deltas).toEqual([
      [
        {
          type: 'input_json_delta',
          partial_json: JSON.stringify({ command: 'echo one', description: 'scripted step' }),
        },
      ],
      [
        {
          type: 'input_json_delta',
          partial_json: JSON.stringify({ command: 'echo two', description: 'scripted step' }),
        },
      ],
      [{ type: 'text_delta', text: 'Done.' }],
      [{ type: 'text_delta', text: 'Stopping after 3 tool calls.' }],
    ]);
    expect(server.agentTurns().map((request) => request.toolResults)).toEqual([0, 1, 2, 3]);
  });

  it('answers side requests with text, and unknown paths with a benign 200', async () => {
    const server = await startModelServer({ steps: [{ bash: 'echo one' }] });
    const side = await post(`${server.url}/v1/messages`, { messages: [{ role: 'user', content: 'title?' }] });
    const count = await post(`${server.url}/v1/messages/count_tokens`, { messages: [] });
    const telemetry = await fetch(`${server.url}/api/event_logging/batch`, { method: 'POST', body: '{}' });
    await server.close();

    expect(events(side).find((event) => event.type === 'content_block_delta')?.delta).toEqual({
      type: 'text_delta',
      text: 'ok',
    });
    expect(JSON.parse(count)).toEqual({ input_tokens: 10 });
    expect(telemetry.status).toBe(200);
    expect(server.requests.map((request) => [request.api, request.agentTurn])).toEqual([
      ['anthropic', false],
      ['other', false],
      ['other', false],
    ]);
  });

  it('speaks the Responses API to Codex: a shell call in the tool Codex offers, then text', async () => {
    const server = await startModelServer({ steps: [{ bash: 'pytest -q' }] });
    const request = (outputs: number) => ({
      tools: [{ type: 'function', name: 'exec_command' }],
      input: [
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'go' }] },
        ...Array.from({ length: outputs }, () => ({
          type: 'function_call_output',
          call_id: 'c',
          output: 'ok',
        })),
      ],
    });
    const first = events(await post(`${server.url}/v1/responses`, request(0)));
    const second = events(await post(`${server.url}/v1/responses`, request(1)));
    await server.close();

    const item = (stream: Record<string, unknown>[]) =>
      stream.find((event) => event.type === 'response.output_item.done')?.item as Record<string, unknown>;
    expect(item(first)).toMatchObject({
      type: 'function_call',
      name: 'exec_command',
      arguments: '{"cmd":"pytest -q"}',
    });
    expect(item(second)).toMatchObject({
      type: 'message',
      content: [{ type: 'output_text', text: 'Done.' }],
    });
    expect(second.at(-1)?.type).toBe('response.completed');
  });

  it('a step that says something first: the text, then the call, in one reply (both APIs)', async () => {
    const server = await startModelServer({
      steps: [{ say: 'It failed.\n#lesson\n#/lesson', bash: 'make' }],
    });
    const claude = events(await post(`${server.url}/v1/messages`, anthropic(0)));
    const codex = events(
      await post(`${server.url}/v1/responses`, {
        tools: [{ type: 'function', name: 'exec_command' }],
        input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'go' }] }],
      }),
    );
    await server.close();

    expect(
      claude
        .filter((event) => event.type === 'content_block_start')
        .map((event) => [event.index, (event.content_block as { type: string }).type]),
    ).toEqual([
      [0, 'text'],
      [1, 'tool_use'],
    ]);
    expect(claude.find((event) => event.type === 'content_block_delta')?.delta).toEqual({
      type: 'text_delta',
      text: 'It failed.\n#lesson\n#/lesson',
    });
    expect(
      codex
        .filter((event) => event.type === 'response.output_item.done')
        .map((event) => [event.output_index, (event.item as { type: string }).type]),
    ).toEqual([
      [0, 'message'],
      [1, 'function_call'],
    ]);
  });

  it('waitFor resolves on a request logged before or after the call', async () => {
    const server = await startModelServer({ steps: [] });
    await post(`${server.url}/early`, { marker: 'early' });
    const early = await server.waitFor((request) => request.raw.includes('early'));
    const late = server.waitFor((request) => request.raw.includes('late'));
    await post(`${server.url}/late`, { marker: 'late' });
    expect((await late).path).toBe('/late');
    expect(early.path).toBe('/early');
    await server.close();
  });
});

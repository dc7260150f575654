/**
 * `lore mcp` through the official SDK client over stdio, against the built server: every tool,
 * the lesson resource, the prompt, bad arguments, and the learnings sidecar sharing the hook's
 * session dedup state. One suite, run on both servers: the bundle (dist/mcp/lore-mcp.cjs, what
 * `lore mcp` runs) and the ES modules (LORE_MCP_BUNDLE=0).
 */
import { appendFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { beforeAll, describe, expect, onTestFinished, test } from 'vitest';
import { z } from 'zod';
import { LessonDraftSchema } from '../../src/core/lesson/draft-schema.js';
import { createSandbox, LORE_BIN } from '../helpers/cli.js';
import type { Sandbox } from '../helpers/cli.js';
import { hookEnv, output, runHookBundle } from '../helpers/hook.js';
import { payload } from '../helpers/hook-payloads.js';
import { callCachePath, writeCallCache } from '../../src/store/breadth/call-cache.js';
import { connectMcp } from '../helpers/mcp.js';
import {
  appendOutcomes,
  lessonReplay,
  outcome,
  replayReport,
  REPLAY_AT,
  writeLastReplay,
} from '../helpers/replay-files.js';

/** The server under test: set by each run of the suite. */
let serverEnv: Record<string, string> = {};

const connect = (sandbox: Sandbox, env: Record<string, string> = {}): Promise<Client> =>
  connectMcp(sandbox, { ...serverEnv, ...env });

type Structured = Record<string, unknown> & {
  results?: { id: string; matched_by: string[] }[];
  lessons?: { id: string }[];
  learnings?: { id: string; summary: string; matched_by: string[] }[];
};

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

function data(result: CallToolResult): Structured {
  expect(result.isError ?? false).toBe(false);
  return result.structuredContent as Structured;
}

function text(result: CallToolResult): string {
  return result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
}

function seed(sandbox: Sandbox): { pytest: string; migrations: string; docker: string } {
  return {
    pytest: sandbox.add([
      '--summary',
      'pytest hangs on a TTY prompt: run it with -p no:cacheprovider and CI=1',
      '--tool',
      'Bash',
      '--command',
      '\\bpytest\\b',
      '--tag',
      'lang:python',
    ]),
    migrations: sandbox.add([
      '--summary',
      'never edit an applied migration; add a new one instead',
      '--path',
      'db/migrations/**',
      '--tag',
      'area:db',
      '--priority',
      '8',
    ]),
    docker: sandbox.add([
      '--summary',
      'docker build needs --platform linux/amd64 on the CI runners',
      '--path',
      'Dockerfile',
    ]),
  };
}

describe.each([
  ['bundled', {}],
  ['ES modules (LORE_MCP_BUNDLE=0)', { LORE_MCP_BUNDLE: '0' }],
])('lore mcp over the SDK client: %s', (_name, env: Record<string, string>) => {
  beforeAll(() => {
    serverEnv = env;
  });

  test('lists its tools with input and output schemas, the lesson resource and the prompt', async () => {
    const sandbox = createSandbox();
    const client = await connect(sandbox);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'lore_add',
      'lore_docs_add',
      'lore_docs_index',
      'lore_docs_list',
      'lore_docs_migrate',
      'lore_docs_search',
      'lore_docs_show',
      'lore_feedback',
      'lore_list',
      'lore_search',
      'lore_show',
      'lore_supersede',
      'lore_update',
      'lore_upvote',
    ]);
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
    }
    const add = tools.find((tool) => tool.name === 'lore_add');
    expect(Object.keys(add?.inputSchema.properties ?? {})).not.toContain('id');
    // lore_add and lore_update publish the one lesson draft's fields, as the HTTP API documents them
    const draft = z.toJSONSchema(LessonDraftSchema(), { target: 'draft-7', io: 'input' }).properties ?? {};
    const update = tools.find((tool) => tool.name === 'lore_update');
    for (const schema of [add?.inputSchema, update?.inputSchema]) {
      const fields = Object.entries(schema?.properties ?? {}).filter(([key]) => key in draft);
      expect(fields.map(([key]) => key)).toEqual(expect.arrayContaining(['summary', 'paths', 'priority']));
      expect(Object.fromEntries(fields)).toEqual(
        Object.fromEntries(fields.map(([key]) => [key, draft[key]])),
      );
    }
    expect(add?.inputSchema.required).toEqual(['summary']);
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(['lesson://{id}']);
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(['review-lessons-for-path']);
    expect(prompts[0]?.arguments).toEqual([
      { name: 'path', description: 'a file path in this repository', required: true },
    ]);
  });

  test('lore_search ranks by scope and text and says why each result matched', async () => {
    const sandbox = createSandbox();
    const ids = seed(sandbox);
    const client = await connect(sandbox);

    const byText = data(await call(client, 'lore_search', { query: 'pytest hangs' }));
    expect(byText.results?.[0]?.id).toBe(ids.pytest);
    expect(byText.results?.[0]?.matched_by).toContain('text:summary');

    const byCommand = data(await call(client, 'lore_search', { command: 'python -m pytest -x tests/' }));
    expect(byCommand.results?.map((r) => r.id)).toEqual([ids.pytest]);
    expect(byCommand.results?.[0]?.matched_by).toEqual(['command:\\bpytest\\b']);

    const byTagAndTool = data(await call(client, 'lore_search', { tags: ['python'], tool: 'Bash' }));
    expect(byTagAndTool.results?.[0]?.matched_by).toEqual(['tag:lang:python', 'tool:Bash']);

    const byPath = data(await call(client, 'lore_search', { path: 'db/migrations/0042_users.sql' }));
    expect(byPath.results?.map((r) => r.id)).toEqual([ids.migrations]);
    expect(byPath.results?.[0]?.matched_by).toEqual(['path:db/migrations/**']);
  });

  test('lore_list, lore_show and the lesson resource read the store', async () => {
    const sandbox = createSandbox();
    const ids = seed(sandbox);
    const client = await connect(sandbox);
    const listed = data(await call(client, 'lore_list', { tags: ['area:db'] }));
    expect(listed.lessons?.map((l) => l.id)).toEqual([ids.migrations]);

    const shown = data(await call(client, 'lore_show', { id: ids.pytest }));
    expect(shown).toMatchObject({
      lesson: { id: ids.pytest, commands: ['\\bpytest\\b'] },
      votes: { count: 0 },
      feedback: { helpful: 0, notHelpful: 0 },
      times_injected: 0,
      replay: null,
      last_replay_at: null,
      outcomes: null,
      problems: [],
    });
    // the last replay's line and the outcomes of its injections, as lore show gives them
    const cache = sandbox.inRepo('.lore', 'cache');
    writeLastReplay(cache, replayReport([lessonReplay(ids.pytest, { fires: 4, hits: 3, noise: 1 })]));
    appendOutcomes(cache, [outcome(ids.pytest, '2026-11-21T10:00:00.000Z', 'prevented')]);
    const measured = data(await call(client, 'lore_show', { id: ids.pytest }));
    expect(measured).toMatchObject({
      replay: { id: ids.pytest, fires: 4, hits: 3, noise: 1, at: REPLAY_AT },
      last_replay_at: REPLAY_AT,
      outcomes: { prevented: 1, repeated: 0 },
    });
    // a damaged votes line is named, as lore show --json names it
    appendFileSync(sandbox.inRepo('.lore', 'lessons', ids.pytest, 'votes.jsonl'), '{"model": "m", "ta\n');
    const damaged = data(await call(client, 'lore_show', { id: ids.pytest }));
    expect(damaged.problems).toEqual([
      expect.objectContaining({ file: expect.stringContaining('votes.jsonl'), line: 1 }),
    ]);

    const resource = await client.readResource({ uri: `lesson://${ids.migrations}` });
    expect(resource.contents[0]).toMatchObject({ mimeType: 'text/markdown' });
    expect(JSON.stringify(resource.contents[0])).toContain('never edit an applied migration');

    const prompt = await client.getPrompt({
      name: 'review-lessons-for-path',
      arguments: { path: 'db/migrations/0001.sql' },
    });
    expect(JSON.stringify(prompt.messages)).toContain(ids.migrations);
    await expect(client.getPrompt({ name: 'review-lessons-for-path', arguments: {} })).rejects.toThrow(
      /Invalid arguments for prompt review-lessons-for-path.*path/s,
    );
  });

  test('lore_add and lore_update run the breadth check: a broad trigger is refused unless force', async () => {
    const sandbox = createSandbox();
    // the recent calls lore scan keeps: 200 ls, 2 of them failing with a missing path
    writeCallCache(
      callCachePath(sandbox.inRepo('.lore', 'cache')),
      Array.from({ length: 200 }, (_, i) => ({
        id: `c${i}`,
        agent: 'claude-code' as const,
        session: 's1',
        tool: 'Bash',
        command: `ls dir${i}`,
        keys: ['ls'],
        ...(i < 2
          ? {
              outcome: 'failed' as const,
              errorClass: 'missing-file' as const,
              error: `ls: dir${i}: No such file or directory`,
            }
          : { outcome: 'ok' as const }),
      })),
    );
    const client = await connect(sandbox);
    const broad = { summary: 'ls of a missing path: check it first', tools: ['Bash'], commands: ['^ls\\b'] };
    const refused = await call(client, 'lore_add', broad);
    expect(refused.isError).toBe(true);
    expect(text(refused)).toContain('would have fired on 200 of your last 200 calls');
    expect(text(refused)).toContain('"force": true');
    const waiting = data(await call(client, 'lore_add', { ...broad, errors: ['No such file or directory'] }));
    expect(waiting.breadth).toMatchObject({ calls: 200, fires: 2, atMistake: 2, broad: false });
    const widened = await call(client, 'lore_update', { id: waiting.id, unset: ['errors'] });
    expect(widened.isError).toBe(true);
    const forced = data(
      await call(client, 'lore_update', { id: waiting.id, unset: ['errors'], force: true }),
    );
    expect(forced.breadth).toMatchObject({ fires: 200, broad: true });
    const renamed = data(await call(client, 'lore_update', { id: waiting.id, summary: 'ls: look first' }));
    expect(renamed.breadth).toBeUndefined();
  });

  test('lore_add allocates the id; update, supersede, upvote and feedback change the files', async () => {
    const sandbox = createSandbox();
    const client = await connect(sandbox);
    const added = data(
      await call(client, 'lore_add', {
        summary: 'run prettier before committing web/ files',
        paths: ['web/**'],
        tags: ['tool:prettier'],
        agents: ['codex', 'claude-code'],
      }),
    ) as { id: string; lesson: { confidence: number } };
    expect(added.id).toMatch(/^[0-9a-z]{10}$/);
    const addedShown = sandbox.run(['show', added.id, '--json']).json<{
      lesson: { summary: string; agents: string[] };
    }>().lesson;
    expect([addedShown.summary, addedShown.agents]).toEqual([
      'run prettier before committing web/ files',
      ['codex', 'claude-code'],
    ]);

    const updated = data(await call(client, 'lore_update', { id: added.id, priority: 9 })) as {
      lesson: { priority: number };
    };
    expect(updated.lesson.priority).toBe(9);

    const second = data(
      await call(client, 'lore_add', { summary: 'run `npm run format` before committing' }),
    ) as {
      id: string;
    };
    const superseded = data(await call(client, 'lore_supersede', { id: added.id, by: second.id })) as {
      old: { status: string; supersededBy: string };
    };
    expect(superseded.old).toMatchObject({ status: 'superseded', supersededBy: second.id });

    const vote = data(await call(client, 'lore_upvote', { id: second.id, model: 'claude', task: 'T-1' }));
    expect(vote).toMatchObject({ recorded: true, votes: { count: 1 } });
    const again = data(await call(client, 'lore_upvote', { id: second.id, model: 'claude', task: 'T-1' }));
    expect(again).toMatchObject({ recorded: false, votes: { count: 1 } });

    const feedback = data(
      await call(client, 'lore_feedback', { id: second.id, helpful: false, task: 'T-2' }),
    );
    expect(feedback).toMatchObject({
      recorded: true,
      confidence: { before: 0.9, after: 0.8 },
      feedback: { notHelpful: 1 },
    });
    const shown = sandbox.run(['show', second.id, '--json']).json<{
      lesson: { confidence: number };
      feedback: { notHelpful: number };
    }>();
    expect(shown.lesson.confidence).toBe(0.8);
    expect(shown.feedback.notHelpful).toBe(1);
  });

  test('answers match the output schemas tools/list published, which a client that listed them checks', async () => {
    const sandbox = createSandbox();
    const ids = seed(sandbox);
    const client = await connect(sandbox);
    // listing the tools makes the SDK client check every later answer against its output schema
    await client.listTools();
    const calls: Array<[string, Record<string, unknown>]> = [
      ['lore_search', { query: 'pytest' }],
      ['lore_list', {}],
      ['lore_show', { id: ids.pytest }],
      ['lore_upvote', { id: ids.pytest, model: 'claude', task: 'T-1' }],
      ['lore_feedback', { id: ids.pytest, helpful: true, task: 'T-1' }],
      ['lore_update', { id: ids.docker, priority: 7 }],
      ['lore_supersede', { id: ids.docker, by: ids.migrations }],
      ['lore_docs_list', {}],
    ];
    for (const [name, args] of calls)
      expect({ name, isError: (await call(client, name, args)).isError ?? false }).toEqual({
        name,
        isError: false,
      });
    const shown = data(await call(client, 'lore_show', { id: ids.pytest }));
    expect(shown.feedback).toEqual({
      helpful: 1,
      notHelpful: 0,
      lastAt: expect.any(String),
      outcomeHelpful: 0,
      outcomeNotHelpful: 0,
    });
  });

  test('lore_list and lore_search report the files they could not load, as the CLI --json does', async () => {
    const sandbox = createSandbox();
    const ids = seed(sandbox);
    mkdirSync(sandbox.inRepo('.lore', 'lessons', 'zzzzzzzzzz'), { recursive: true });
    writeFileSync(
      sandbox.inRepo('.lore', 'lessons', 'zzzzzzzzzz', 'lesson.yaml'),
      'schemaVersion: 1\nid: zzzzzzzzzz\nsummary: [pytest never closed\n',
    );
    appendFileSync(join(sandbox.lessonFile(ids.pytest), '..', 'votes.jsonl'), '{"model": "m"\n');
    const cli = sandbox.run(['list', '--json']).json<{ problems: unknown[] }>().problems;
    expect(cli).toEqual([
      expect.objectContaining({ file: expect.stringContaining(ids.pytest), line: 1, severity: 'warning' }),
      expect.objectContaining({ file: expect.stringContaining('zzzzzzzzzz'), severity: 'error' }),
    ]);
    const client = await connect(sandbox);
    await client.listTools();
    expect(data(await call(client, 'lore_list', {})).problems).toEqual(cli);
    expect(data(await call(client, 'lore_search', { query: 'pytest' })).problems).toEqual(cli);
  });

  test('bad arguments come back as an isError result that says how to call the tool', async () => {
    const sandbox = createSandbox();
    const client = await connect(sandbox);
    const withId = await call(client, 'lore_add', { id: 'abc', summary: 'x' });
    expect(withId.isError).toBe(true);
    expect(text(withId)).toContain('call it as: lore_add');
    expect(text(withId)).toContain('lore allocates it');

    const wrongType = await call(client, 'lore_search', { limit: 'ten' });
    expect(wrongType.isError).toBe(true);
    expect(text(wrongType)).toContain('call it as: lore_search');

    const missing = await call(client, 'lore_show', { id: 'zzzzzz' });
    expect(missing.isError).toBe(true);
    expect(text(missing)).toContain('no lesson matches "zzzzzz"');
    expect(text(missing)).toContain('call it as: lore_show');

    const unknown = await call(client, 'lore_nothing', {});
    expect(unknown.isError).toBe(true);
    expect(text(unknown)).toContain('lore_search');
  });

  test('a refused lesson names the fields as the call spells them, never the CLI flags', async () => {
    const sandbox = createSandbox();
    const ids = seed(sandbox);
    const client = await connect(sandbox);
    const badPath = await call(client, 'lore_add', { summary: 'x', paths: ['/etc/passwd'] });
    expect(badPath.isError).toBe(true);
    expect(text(badPath)).toContain('invalid lesson: paths[0]: must be relative to the repository root');
    const multiLine = await call(client, 'lore_update', { id: ids.docker, summary: 'one\ntwo' });
    expect(text(multiLine).split('\n').slice(0, 2)).toEqual([
      'invalid lesson: summary: must be a single line',
      'keep the summary to one line; put details in body',
    ]);
    const nothing = await call(client, 'lore_update', { id: ids.docker });
    expect(text(nothing)).toContain('nothing to update\npass at least one field, e.g. summary or tags');
    const unset = await call(client, 'lore_update', { id: ids.docker, unset: ['summary'] });
    expect(text(unset)).toContain('unset summary: not a field that can be removed');
    const both = await call(client, 'lore_update', { id: ids.docker, body: 'new', unset: ['body'] });
    expect(text(both)).toContain('body is both set and removed (unset body)');
    const tooLong = await call(client, 'lore_add', { summary: 'x'.repeat(281) });
    expect(text(tooLong)).toContain('summary: must be at most 280 characters');
    for (const result of [badPath, multiLine, nothing, unset, both, tooLong]) {
      expect(text(result)).toContain('call it as: lore_');
      expect(text(result)).not.toMatch(/--(path|summary|body|unset|tag)\b/);
    }
  });

  test('path answers carry learnings once per session, shared with the hook', async () => {
    const sandbox = createSandbox();
    const ids = seed(sandbox);
    const session = 'mcp-session-1';
    // The hook injects the migrations lesson first (a Read of a migration in this session).
    const read = {
      ...payload('claude', 'PreToolUse', 'Bash'),
      session_id: session,
      cwd: sandbox.repo,
      tool_name: 'Read',
      tool_input: { file_path: join(sandbox.repo, 'db/migrations/0007.sql') },
    };
    const hook = runHookBundle(sandbox, read);
    expect(output(hook).hookSpecificOutput?.additionalContext).toContain(ids.migrations);

    const client = await connect(sandbox, { LORE_SESSION_ID: session });
    const first = data(await call(client, 'lore_list', { path: 'Dockerfile', tags: ['nothing:here'] }));
    expect(first.learnings).toEqual([
      {
        id: ids.docker,
        summary: expect.stringContaining('docker build') as string,
        matched_by: ['path:Dockerfile'],
      },
    ]);
    // Shown once: the next answer for the same path carries nothing.
    const second = data(await call(client, 'lore_list', { path: 'Dockerfile', tags: ['nothing:here'] }));
    expect(second.learnings).toEqual([]);
    // Already injected by the hook: never in the sidecar.
    const migrations = data(
      await call(client, 'lore_list', { path: 'db/migrations/0008.sql', tags: ['nothing:here'] }),
    );
    expect(migrations.learnings).toEqual([]);

    // And the hook will not inject what the sidecar showed.
    const readDocker = { ...read, tool_input: { file_path: join(sandbox.repo, 'Dockerfile') } };
    const after = runHookBundle(sandbox, readDocker);
    expect(after.stdout).not.toContain(ids.docker);
  });

  test('without a session the sidecar shows the path lessons every time, and logs them', async () => {
    const sandbox = createSandbox();
    const ids = seed(sandbox);
    const client = await connect(sandbox);
    for (let i = 0; i < 2; i += 1) {
      const answer = data(
        await call(client, 'lore_search', { query: 'nothing matches this', path: 'Dockerfile' }),
      );
      expect(answer.learnings?.map((l) => l.id)).toEqual([ids.docker]);
    }
    const shown = sandbox.run(['show', ids.docker, '--json']).json<{ timesInjected: number }>();
    expect(shown.timesInjected).toBe(2);
  });

  test('sees lessons another lore process added since its last answer', async () => {
    const sandbox = createSandbox();
    seed(sandbox);
    const client = await connect(sandbox);
    expect(data(await call(client, 'lore_search', { query: 'kubernetes' })).results).toEqual([]);
    const added = sandbox.add(['--summary', 'kubernetes: apply with --server-side']);
    const after = data(await call(client, 'lore_search', { query: 'kubernetes' }));
    expect(after.results?.map((r) => r.id)).toEqual([added]);
  });

  test('a cache folder deleted under it: the next call opens the new one, and later edits are seen at once', async () => {
    const sandbox = createSandbox();
    seed(sandbox);
    const id = sandbox.add(['--summary', 'kubernetes: apply with --server-side']);
    const client = await connect(sandbox);
    const found = async (query: string) =>
      (data(await call(client, 'lore_search', { query })).results ?? []).map((r) => r.id);
    expect(await found('kubernetes')).toEqual([id]);
    // `git clean -fdX`: the index it had open and the generation stamp it watched are gone
    rmSync(sandbox.inRepo('.lore', 'cache'), { recursive: true, force: true });
    expect(sandbox.run(['update', id, '--summary', 'helm: pin chart versions']).code).toBe(0);
    expect(await found('helm')).toEqual([id]);
    // an edit inside the lesson's folder is seen through the new cache's stamp, not the 30 s check
    expect(sandbox.run(['update', id, '--summary', 'terraform: lock provider versions']).code).toBe(0);
    expect(await found('terraform')).toEqual([id]);
  });

  test('writes nothing but protocol on stdout', async () => {
    const sandbox = createSandbox();
    seed(sandbox);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [LORE_BIN, 'mcp'],
      cwd: sandbox.repo,
      env: hookEnv(sandbox, serverEnv),
      stderr: 'pipe',
    });
    const received: unknown[] = [];
    const client = new Client({ name: 'lore-test', version: '1.0.0' });
    await client.connect(transport);
    onTestFinished(() => client.close());
    const original = transport.onmessage;
    transport.onmessage = (message) => {
      received.push(message);
      original?.(message);
    };
    const failures: Error[] = [];
    transport.onerror = (error) => failures.push(error);
    await call(client, 'lore_search', { query: 'pytest' });
    await call(client, 'lore_show', { id: 'nope' });
    expect(failures).toEqual([]);
    expect(received.every((message) => (message as { jsonrpc?: string }).jsonrpc === '2.0')).toBe(true);
  });
});

/**
 * lore's tools on the SDK's low-level `Server` (the public `McpServer.server`): tools/list
 * publishes each tool's zod schemas as JSON Schema; tools/call checks the arguments, runs the
 * tool in the session's queue, checks the answer against the output schema, and turns every
 * failure into an `isError` answer that ends with how to call the tool right.
 *
 * Not `McpServer.registerTool`: the SDK answers arguments that fail the input schema itself, and
 * has no public hook to add that usage line, which is what an agent that sent a wrong argument
 * needs. Handling tools/list and tools/call here costs some 60 lines and depends on nothing but
 * the protocol; resources and prompts stay on McpServer.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { isLoreError } from '../../core/errors.js';
import type { Workspace } from '../../store/workspace/workspace.js';
import { TOOL_USAGE } from './tool-schemas.js';

export type ToolSpec<In extends z.ZodObject, Out extends z.ZodObject> = {
  name: string;
  description: string;
  /** The schemas, built on first use (tool-schemas.ts). */
  input(): In;
  output(): Out;
  /**
   * Work that waits on something slow outside lore (a model's endpoint), run before the call
   * takes its turn in the queue, so the other calls do not wait for it: it reads the workspace as
   * it is (no refresh) and writes nothing. Its result is the handler's third argument.
   */
  prepare?(args: z.infer<In>, ws: Workspace): Promise<unknown>;
  handler(args: z.infer<In>, ws: Workspace, prepared?: unknown): Promise<z.infer<Out>>;
};
export type AnyToolSpec = ToolSpec<z.ZodObject, z.ZodObject>;

/** Checks the handler against its schemas, then forgets the types: the tool table holds any tool. */
export function defineTool<In extends z.ZodObject, Out extends z.ZodObject>(
  spec: ToolSpec<In, Out>,
): AnyToolSpec {
  return spec as unknown as AnyToolSpec;
}

export type ToolRunner = {
  /** Runs a tool's work in the session's queue, against its workspace. */
  run<T>(fn: (ws: Workspace) => Promise<T>): Promise<T>;
  /** The session's workspace as it is, outside the queue (for `prepare`). */
  peek(): Promise<Workspace>;
  log(line: string): void;
};

/** A tool answer: the data as structuredContent and, for clients that read only text, as JSON text. */
function answer(data: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(data) }], structuredContent: data };
}

function failure(tool: string, message: string, hint?: string): CallToolResult {
  const usage = TOOL_USAGE[tool];
  const lines = [message, ...(hint ? [hint] : []), ...(usage ? [`call it as: ${usage}`] : [])];
  return { content: [{ type: 'text', text: lines.join('\n') }], isError: true };
}

/** `tags[0]: Invalid input: expected string, received number; Unrecognized key: "id"` */
function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .map((issue) => {
      const path = issue.path
        .map((key, i) => (typeof key === 'number' ? `[${key}]` : i === 0 ? String(key) : `.${String(key)}`))
        .join('');
      return path === '' ? issue.message : `${path}: ${issue.message}`;
    })
    .join('; ');
}

/** tools/list as the SDK's McpServer would publish it (JSON Schema draft 7, the input side of inputs). */
function describeTool(tool: AnyToolSpec): Tool {
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: z.toJSONSchema(tool.input(), { target: 'draft-7', io: 'input' }) as Tool['inputSchema'],
    outputSchema: z.toJSONSchema(tool.output(), { target: 'draft-7', io: 'output' }) as Tool['outputSchema'],
    execution: { taskSupport: 'forbidden' },
  };
}

export function registerTools(server: Server, tools: readonly AnyToolSpec[], runner: ToolRunner): void {
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  let listed: Tool[] | undefined;
  server.registerCapabilities({ tools: { listChanged: true } });
  server.setRequestHandler(ListToolsRequestSchema, () => {
    listed ??= tools.map(describeTool);
    return { tools: listed };
  });
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name } = request.params;
    const tool = byName.get(name);
    if (tool === undefined)
      return failure(name, `Tool ${name} not found`, `lore's tools: ${[...byName.keys()].join(', ')}`);
    const args = tool.input().safeParse(request.params.arguments ?? {});
    if (!args.success)
      return failure(name, `Invalid arguments for tool ${name}: ${describeIssues(args.error.issues)}`);
    try {
      const prepared = tool.prepare ? await tool.prepare(args.data, await runner.peek()) : undefined;
      const data = await runner.run((ws) => tool.handler(args.data, ws, prepared));
      const checked = tool.output().safeParse(data);
      if (!checked.success)
        throw new Error(`the answer breaks the output schema: ${describeIssues(checked.error.issues)}`);
      // the parsed answer, not the handler's: a key the schema does not declare is dropped here
      // rather than sent, since tools/list publishes `additionalProperties: false` and a client
      // that listed the tools (the SDK's, Claude Code's) refuses such an answer whole
      return answer(checked.data);
    } catch (error) {
      if (isLoreError(error)) return failure(name, error.message, error.hint);
      runner.log(`lore mcp: ${name}: internal error: ${(error as Error)?.stack ?? String(error)}`);
      return failure(name, `internal error: ${(error as Error)?.message ?? String(error)}`);
    }
  });
}

/**
 * `lore mcp`: lore's lessons and docs as an MCP server, wired here. The tools (lesson-tools.ts,
 * doc-tools.ts) make the store calls the CLI makes and are served by register-tools.ts; a resource
 * per lesson (`lesson://{id}`) and a prompt that reviews the lessons for a path. Every call runs in
 * one session (create-mcp-session.ts): one workspace, one call at a time.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Workspace } from '../../store/workspace/workspace.js';
import { createMcpSession } from './create-mcp-session.js';
import { docTools } from './doc-tools.js';
import { lessonTools } from './lesson-tools.js';
import { registerLessonResource } from './register-lesson-resource.js';
import { registerReviewPrompt } from './register-review-prompt.js';
import { registerTools } from './register-tools.js';

export type McpDeps = {
  openWorkspace(): Promise<Workspace>;
  env: NodeJS.ProcessEnv;
  now(): number;
  tmpdir: string;
  uid: number | string;
  version: string;
  /** Diagnostics (stderr): never stdout, which carries the protocol. */
  log(line: string): void;
  /**
   * Check every lesson file's signature when a call comes this long after the last check
   * (default 30 s; 2 s when the lesson folders cannot be watched). A watched change is picked up
   * by the next call.
   */
  refreshMs?: number;
};

export type LoreMcpServer = { server: McpServer; close(): Promise<void> };

const INSTRUCTIONS =
  "lore holds this repository's lessons: mistakes agents made before and what to do instead. " +
  'Search them (lore_search) before risky work; answers about file paths carry `learnings` for those paths. ' +
  'Say LEARNING_HELPFUL: <id> or LEARNING_NOT_HELPFUL: <id> in your reply (or call lore_feedback) after using one. ' +
  'Project docs (designs, patterns, runbooks, glossaries) are found with lore_docs_search and read with lore_docs_show.';

export function createLoreMcpServer(deps: McpDeps): LoreMcpServer {
  const server = new McpServer({ name: 'lore', version: deps.version }, { instructions: INSTRUCTIONS });
  const session = createMcpSession(deps);
  registerTools(server.server, [...lessonTools({ deps, session }), ...docTools(deps.env)], {
    run: session.run,
    peek: session.peek,
    log: deps.log,
  });
  registerLessonResource(server, deps, session);
  registerReviewPrompt(server, deps, session);

  // Open the workspace and check the index while the client initializes: the first call is answered
  // sooner. After an initialize already waiting on stdin is answered (the event loop reads stdin
  // before it runs immediates): the check is some 30 ms of synchronous work at 10,000 lessons, which
  // then runs while the client reads that answer and sends its first call, instead of before it.
  const warmUp = setImmediate(() => void session.run(async () => undefined).catch(() => undefined));

  return {
    server,
    async close() {
      // a client gone before the warm-up started: no workspace to open (and then leave open)
      clearImmediate(warmUp);
      await server.close();
      await session.close();
    },
  };
}

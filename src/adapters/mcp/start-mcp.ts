/**
 * The entry of the `lore mcp` bundle (dist/mcp/lore-mcp.cjs, scripts/bundle-mcp.mjs): the SDK,
 * zod, the store and the tools in one CommonJS file, which `lore mcp` runs from V8's code cache
 * (src/store/fs/code-cache.ts) instead of loading some 400 ES modules. It serves with the same deps
 * as the unbundled path (src/cli/commands/mcp.ts with LORE_MCP_BUNDLE=0).
 */
import { z } from 'zod';
import { openWorkspace } from '../../store/workspace/workspace.js';
import { serveMcpStdio } from './serve-mcp.js';
import type { McpDeps } from './create-mcp-server.js';

export type StartMcpOptions = Pick<McpDeps, 'env' | 'now' | 'tmpdir' | 'uid' | 'version' | 'log'> & {
  cwd: string;
  /** `--root DIR`, when given. */
  root: string | undefined;
  /** Called once after the first tool answer went out (the CLI writes the code cache then). */
  afterFirstAnswer?(): void;
};

/** Serves MCP on stdio until the client closes it. */
export function startMcp(options: StartMcpOptions): Promise<void> {
  // zod compiles a parser per object schema (new Function) the first time it parses with it: at a
  // start that is every protocol message's schema and the tools', some 6 ms of CPU before the
  // first answer, and V8's code cache cannot keep them. Without it a warm lore_search took the
  // same time (p50 2.8 ms against 2.9 ms, 300 calls at 10,000 lessons): the parses are small.
  z.config({ jitless: true });
  return serveMcpStdio(
    {
      openWorkspace: () => openWorkspace({ cwd: options.cwd, root: options.root, env: options.env }),
      env: options.env,
      now: options.now,
      tmpdir: options.tmpdir,
      uid: options.uid,
      version: options.version,
      log: options.log,
    },
    options.afterFirstAnswer,
  );
}

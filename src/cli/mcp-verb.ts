/**
 * `lore mcp`'s entry in the verb tables (fast-cli.ts, and so main.ts), in a module of its own: bin.ts
 * runs it without the fast verbs' bundle, which `lore mcp` would load for nothing (about 6 ms of
 * every server start), since the server runs from its own bundle (mcp-bundle.ts).
 */
import type { VerbEntry } from './run-command.js';

export const MCP_VERB: VerbEntry = {
  summary: "run lore's MCP server on stdio (tools, lesson resources, learnings sidecar)",
  load: () => import('./commands/mcp.js'),
};

/**
 * The fast verbs (fast-verbs.ts): their table, and the entry of their CommonJS bundle
 * (dist/cli-bundle/fast-core.cjs, built by scripts/bundle-cli.mjs and run by fast-launch.ts). A
 * verb runs as main.ts runs any verb (run-command.ts); other commands it starts in this process
 * (`ctx.runCommand`) go to `full`, the whole CLI. main.ts lists these entries with every other verb.
 */
import { isFastVerb } from './fast-verbs.js';
import { MCP_VERB } from './mcp-verb.js';
import type { FastVerb } from './fast-verbs.js';
import { runCommand } from './run-command.js';
import type { Io, VerbEntry } from './run-command.js';

export const FAST_VERBS: Record<FastVerb, VerbEntry> = {
  list: {
    summary: 'list lessons, filtered by status, tag, tool, path or tier',
    load: () => import('./commands/list.js'),
  },
  search: { summary: 'ranked full-text search over lessons', load: () => import('./commands/search.js') },
  show: { summary: 'show one lesson with its votes', load: () => import('./commands/show.js') },
  sync: { summary: 'rebuild the index from the lesson files', load: () => import('./commands/sync.js') },
  mcp: MCP_VERB,
};

/** The exit code, or undefined when `io.argv` does not start with a fast verb. */
export async function runFastCli(io: Io, full: (io: Io) => Promise<number>): Promise<number | undefined> {
  const [verb, ...rest] = io.argv;
  if (!isFastVerb(verb)) return undefined;
  return runCommand(io, verb, FAST_VERBS[verb], rest, full);
}

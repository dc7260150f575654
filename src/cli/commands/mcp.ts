import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import type { StartMcpOptions, startMcp as StartMcp } from '../../adapters/mcp/start-mcp.js';
import type { Command, CommandContext } from '../command.js';

function packageVersion(): string {
  try {
    return (
      JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
        version: string;
      }
    ).version;
  } catch {
    return '0.0.0';
  }
}

export const command: Command = {
  spec: {
    usage: 'lore mcp [--root DIR]',
    description:
      "Runs lore's MCP server on stdio (for Claude Code, Codex, Gemini CLI, Cursor and any MCP client) until\n" +
      'the client closes it. Tools: lore_search, lore_list, lore_show, lore_add, lore_update, lore_supersede,\n' +
      'lore_upvote, lore_feedback; resource lesson://{id}; prompt review-lessons-for-path. Answers about file\n' +
      'paths carry `learnings`: the lessons for those paths not yet shown in this session (session id from\n' +
      'CLAUDE_CODE_SESSION_ID or LORE_SESSION_ID; shared with the hooks). Register it with\n' +
      '`lore install mcp --agent claude-code|codex|gemini`, or install the plugin. stdout carries only the\n' +
      'protocol; diagnostics go to stderr.',
    options: {},
    positionals: { min: 0, max: 0, names: '' },
    json: false,
    examples: ['lore mcp', 'claude mcp add lore -- lore mcp'],
  },
  async run(ctx) {
    const options: StartMcpOptions = {
      cwd: ctx.cwd,
      root: ctx.root,
      env: ctx.env,
      now: ctx.now,
      tmpdir: tmpdir(),
      uid: process.getuid?.() ?? 'user',
      version: packageVersion(),
      log: (line) => ctx.note(line),
    };
    const bundled = ctx.env.LORE_MCP_BUNDLE === '0' ? undefined : await startBundled(ctx, options);
    if (bundled === undefined) {
      // the ES modules of dist/ (tsc's output), by a URL bundlers leave alone: a bundle of this
      // verb (dist/cli/lore.cjs) would otherwise carry the whole server a second time
      const startModule = new URL('../../adapters/mcp/start-mcp.js', import.meta.url).href;
      const { startMcp } = (await import(startModule)) as { startMcp: typeof StartMcp };
      await startMcp(options);
    } else await bundled.served;
    return { data: null, text: '' };
  },
};

/**
 * Starts the bundled server (src/cli/mcp-bundle.ts); undefined when there is no bundle or it
 * cannot be loaded (then the ES modules serve, and the reason goes to stderr).
 */
async function startBundled(
  ctx: CommandContext,
  options: StartMcpOptions,
): Promise<{ served: Promise<void> } | undefined> {
  const { loadMcpBundle } = await import('../mcp-bundle.js');
  let bundle;
  try {
    bundle = loadMcpBundle();
  } catch (error) {
    ctx.note(
      `lore mcp: the bundled server did not load (${(error as Error)?.message ?? String(error)}); serving without it`,
    );
    return undefined;
  }
  if (bundle === undefined) return undefined;
  return { served: bundle.startMcp({ ...options, afterFirstAnswer: bundle.saveCodeCache }) };
}

import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import type { Command } from '../command.js';
import { openWorkspace } from '../../store/workspace.js';

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
    const { serveMcpStdio } = await import('../../adapters/mcp/serve-mcp.js');
    await serveMcpStdio({
      openWorkspace: () => openWorkspace({ cwd: ctx.cwd, root: ctx.root, env: ctx.env }),
      env: ctx.env,
      now: ctx.now,
      tmpdir: tmpdir(),
      uid: process.getuid?.() ?? 'user',
      version: packageVersion(),
      log: (line) => ctx.note(line),
    });
    return { data: null, text: '' };
  },
};

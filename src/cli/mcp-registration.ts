/**
 * `lore install mcp --agent claude-code|codex|gemini` and `lore uninstall mcp --agent ...`: lore's
 * MCP server (`node <this package>/dist/cli/lore.cjs mcp`, the package's `lore`) in the agent's MCP
 * configuration, for people who do not use the plugin (whose `.mcp.json` registers it for Claude
 * Code already). lore.cjs rather than dist/cli/bin.js (which only imports it): an ES module entry
 * costs some 9 ms of every server start.
 */
import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';
import { LoreError } from '../core/errors.js';
import {
  planMcpJsonInstall,
  planMcpJsonUninstall,
  planMcpTomlInstall,
  planMcpTomlUninstall,
} from '../core/install/plan-mcp-config.js';
import type { McpPlan, McpServerEntry } from '../core/install/plan-mcp-config.js';
import { agentMcpConfigFile, INSTALL_SCOPES, MCP_AGENTS } from '../store/install/agent-config-paths.js';
import type { McpAgent } from '../store/install/agent-config-paths.js';
import { findProjectRoot, findRepositoryRoot, resolveLoreHome } from '../store/fs/paths.js';
import { readSettings } from './agent-hooks.js';
import { withoutCreated, writeInstalled, writeUninstalled } from './install-containers.js';
import { choiceOption, flagOption, stringOption } from './command.js';
import type { CommandContext, CommandOutput, ParsedArgs } from './command.js';

export const LORE_BIN = fileURLToPath(new URL('./lore.cjs', import.meta.url));

const AGENT_NAMES: Record<McpAgent, string> = {
  'claude-code': 'Claude Code',
  codex: 'Codex',
  gemini: 'Gemini CLI',
};

export function loreMcpEntry(agent: McpAgent): McpServerEntry {
  return {
    command: process.execPath,
    args: [LORE_BIN, 'mcp'],
    ...(agent === 'claude-code' ? { extra: { type: 'stdio', env: {} } } : {}),
  };
}

function rootOf(ctx: CommandContext): string {
  if (ctx.root !== undefined) return resolve(ctx.cwd, ctx.root);
  return findProjectRoot(ctx.cwd, resolveLoreHome(ctx.env)) ?? findRepositoryRoot(ctx.cwd);
}

export function runMcpRegistration(
  ctx: CommandContext,
  args: ParsedArgs,
  action: 'install' | 'uninstall',
  usage: string,
): CommandOutput {
  const agent = stringOption(args, 'agent');
  if (agent === undefined || !(MCP_AGENTS as readonly string[]).includes(agent)) {
    throw new LoreError(
      'usage',
      agent === undefined
        ? `lore ${action} mcp needs --agent`
        : `unknown agent "${agent}"; lore registers its MCP server with ${MCP_AGENTS.join(', ')}`,
      { hint: `usage: ${usage}` },
    );
  }
  const host = agent as McpAgent;
  const scope = choiceOption(args, 'scope', INSTALL_SCOPES) ?? 'user';
  const dryRun = flagOption(args, 'dry-run');
  const file = agentMcpConfigFile(host, scope, ctx.env, rootOf(ctx));
  if (file === undefined) {
    throw new LoreError('usage', `${AGENT_NAMES[host]} keeps MCP servers in its user config only`, {
      hint: `run \`lore ${action} mcp --agent ${host}\` without --scope project`,
    });
  }
  const text = readSettings(file);
  const entry = loreMcpEntry(host);
  const toml = host === 'codex';
  const plan: McpPlan =
    action === 'install'
      ? toml
        ? planMcpTomlInstall(text, entry, file)
        : planMcpJsonInstall(text, entry, file)
      : toml
        ? planMcpTomlUninstall(text, file)
        : planMcpJsonUninstall(text, file);
  if (plan.changed && !dryRun) {
    if (action === 'install') writeInstalled(ctx.env, file, text, plan.text);
    else writeUninstalled(ctx.env, file, withoutCreated(ctx.env, file, plan.text));
  }
  const name = AGENT_NAMES[host];
  const command = [entry.command, ...entry.args].join(' ');
  const lines =
    action === 'install'
      ? plan.changed
        ? [
            `${dryRun ? 'Would register' : 'Registered'} lore's MCP server for ${name} in ${file}: ${command}`,
            'Your other MCP servers are unchanged. Start a new session to load it.',
          ]
        : [`lore's MCP server is already registered for ${name} in ${file}; nothing changed.`]
      : plan.changed
        ? [`${dryRun ? 'Would remove' : 'Removed'} lore's MCP server for ${name} from ${file}.`]
        : [plan.kept ?? `No lore MCP server for ${name} in ${file}; nothing changed.`];
  return {
    data: {
      target: 'mcp',
      agent: host,
      scope,
      file,
      changed: plan.changed,
      dryRun,
      command: entry.command,
      args: entry.args,
      ...(plan.kept === undefined ? {} : { kept: plan.kept }),
    },
    text: lines.join('\n'),
  };
}

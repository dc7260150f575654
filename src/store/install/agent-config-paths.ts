/**
 * Where the agents keep the hook settings `lore install` edits. Like paths.ts, the only place that
 * reads these locations from the environment.
 *
 * - Claude Code, user scope: `$CLAUDE_CONFIG_DIR/settings.json`, default `~/.claude/settings.json`;
 *   project scope: `<repository>/.claude/settings.json`.
 * - Codex, user scope: `$CODEX_HOME/hooks.json`, default `~/.codex/hooks.json`; project scope:
 *   `<repository>/.codex/hooks.json` (Codex reads it only in a trusted project).
 */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

export const AGENT_HOSTS = ['claude-code', 'codex'] as const;
export type AgentHost = (typeof AGENT_HOSTS)[number];
export const INSTALL_SCOPES = ['user', 'project'] as const;
export type InstallScope = (typeof INSTALL_SCOPES)[number];

function envDir(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : resolve(value);
}

function home(env: NodeJS.ProcessEnv): string {
  return envDir(env, 'HOME') ?? homedir();
}

/** The settings file lore's hooks go into for `host` at `scope`; `root` is the repository. */
export function agentHookSettingsFile(
  host: AgentHost,
  scope: InstallScope,
  env: NodeJS.ProcessEnv,
  root: string,
): string {
  if (host === 'claude-code') {
    return scope === 'project'
      ? join(root, '.claude', 'settings.json')
      : join(envDir(env, 'CLAUDE_CONFIG_DIR') ?? join(home(env), '.claude'), 'settings.json');
  }
  return scope === 'project'
    ? join(root, '.codex', 'hooks.json')
    : join(envDir(env, 'CODEX_HOME') ?? join(home(env), '.codex'), 'hooks.json');
}

/** Agents `lore install mcp --agent` registers lore's MCP server with. */
export const MCP_AGENTS = ['claude-code', 'codex', 'gemini'] as const;
export type McpAgent = (typeof MCP_AGENTS)[number];

/**
 * Where an agent keeps its MCP servers (checked against the agents' own `mcp add`):
 * - Claude Code, user scope: `~/.claude.json` (`$CLAUDE_CONFIG_DIR/.claude.json` when set), key
 *   `mcpServers`; project scope: `<repository>/.mcp.json`.
 * - Codex: `$CODEX_HOME/config.toml` (default `~/.codex/config.toml`), table `[mcp_servers.<name>]`;
 *   user scope only (`codex mcp add` writes the global file).
 * - Gemini CLI, user scope: `~/.gemini/settings.json`; project scope: `<repository>/.gemini/settings.json`,
 *   key `mcpServers`.
 */
export function agentMcpConfigFile(
  agent: McpAgent,
  scope: InstallScope,
  env: NodeJS.ProcessEnv,
  root: string,
): string | undefined {
  if (agent === 'claude-code') {
    if (scope === 'project') return join(root, '.mcp.json');
    const dir = envDir(env, 'CLAUDE_CONFIG_DIR');
    return dir === undefined ? join(home(env), '.claude.json') : join(dir, '.claude.json');
  }
  if (agent === 'codex') {
    return scope === 'project'
      ? undefined
      : join(envDir(env, 'CODEX_HOME') ?? join(home(env), '.codex'), 'config.toml');
  }
  return scope === 'project'
    ? join(root, '.gemini', 'settings.json')
    : join(home(env), '.gemini', 'settings.json');
}

/**
 * Where the agents keep the hook settings and MCP registrations `lore install` edits (their folders
 * come from src/store/fs/agent-homes.ts, with `$CLAUDE_CONFIG_DIR`'s first folder when it lists several).
 *
 * - Claude Code, user scope: `$CLAUDE_CONFIG_DIR/settings.json`, default `~/.claude/settings.json`;
 *   project scope: `<repository>/.claude/settings.json`.
 * - Codex, user scope: `$CODEX_HOME/hooks.json`, default `~/.codex/hooks.json`; project scope:
 *   `<repository>/.codex/hooks.json` (Codex reads it only in a trusted project).
 * - Gemini CLI, user scope: `$GEMINI_CLI_HOME/.gemini/settings.json`, default
 *   `~/.gemini/settings.json`; project scope: `<repository>/.gemini/settings.json` (hooks and the
 *   MCP server in the same file).
 * - Cursor, user scope: `~/.cursor/hooks.json`; project scope: `<repository>/.cursor/hooks.json`
 *   (its MCP servers beside it, in `mcp.json`: `cursorMcpFile`).
 */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { claudeConfigDirs, codexHome, geminiHome } from '../fs/agent-homes.js';

export const AGENT_HOSTS = ['claude-code', 'codex', 'gemini', 'cursor'] as const;
export type AgentHost = (typeof AGENT_HOSTS)[number];
export const INSTALL_SCOPES = ['user', 'project'] as const;
export type InstallScope = (typeof INSTALL_SCOPES)[number];

function home(env: NodeJS.ProcessEnv): string {
  const value = env.HOME?.trim();
  return value === undefined || value === '' ? homedir() : resolve(value);
}

function claudeDir(env: NodeJS.ProcessEnv): string {
  return claudeConfigDirs(env, home(env))[0] ?? join(home(env), '.claude');
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
      : join(claudeDir(env), 'settings.json');
  }
  if (host === 'cursor') {
    return scope === 'project'
      ? join(root, '.cursor', 'hooks.json')
      : join(home(env), '.cursor', 'hooks.json');
  }
  if (host === 'gemini') {
    return scope === 'project'
      ? join(root, '.gemini', 'settings.json')
      : join(geminiHome(env, home(env)), 'settings.json');
  }
  return scope === 'project'
    ? join(root, '.codex', 'hooks.json')
    : join(codexHome(env, home(env)), 'hooks.json');
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
    // without $CLAUDE_CONFIG_DIR, Claude Code keeps this file beside ~/.claude, not in it
    return env.CLAUDE_CONFIG_DIR?.trim()
      ? join(claudeDir(env), '.claude.json')
      : join(home(env), '.claude.json');
  }
  if (agent === 'codex') {
    return scope === 'project' ? undefined : join(codexHome(env, home(env)), 'config.toml');
  }
  return scope === 'project'
    ? join(root, '.gemini', 'settings.json')
    : join(geminiHome(env, home(env)), 'settings.json');
}

/** Cursor's MCP servers (`mcpServers`, Claude's JSON shape), beside its hooks.json. */
export function cursorMcpFile(scope: InstallScope, env: NodeJS.ProcessEnv, root: string): string {
  return scope === 'project' ? join(root, '.cursor', 'mcp.json') : join(home(env), '.cursor', 'mcp.json');
}

/** The Claude Code settings files Cursor also runs hooks from, for a repository. */
export function claudeSettingsFilesCursorReads(env: NodeJS.ProcessEnv, root: string): string[] {
  return [
    join(root, '.claude', 'settings.json'),
    join(root, '.claude', 'settings.local.json'),
    join(claudeDir(env), 'settings.json'),
  ];
}

/**
 * Where the agents keep their own folders, read from the environment in this one place for every
 * reader (transcript capture) and writer (`lore install`):
 * - Claude Code: `$CLAUDE_CONFIG_DIR`, default `~/.claude`. A comma-separated list is read as
 *   several folders (capture scans each, as ccusage does); writers use the first.
 * - Codex CLI: `$CODEX_HOME`, default `~/.codex`.
 * - Gemini CLI: `$GEMINI_CLI_HOME/.gemini`, default `~/.gemini`.
 * Blank values count as unset; relative ones are resolved against the working directory.
 */
import { join, resolve } from 'node:path';

function envDir(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : resolve(value);
}

export function claudeConfigDirs(env: NodeJS.ProcessEnv, home: string): string[] {
  const dirs = (env.CLAUDE_CONFIG_DIR ?? '')
    .split(',')
    .map((dir) => dir.trim())
    .filter((dir) => dir !== '')
    .map((dir) => resolve(dir));
  return dirs.length > 0 ? dirs : [join(home, '.claude')];
}

export function codexHome(env: NodeJS.ProcessEnv, home: string): string {
  return envDir(env, 'CODEX_HOME') ?? join(home, '.codex');
}

export function geminiHome(env: NodeJS.ProcessEnv, home: string): string {
  return join(envDir(env, 'GEMINI_CLI_HOME') ?? home, '.gemini');
}

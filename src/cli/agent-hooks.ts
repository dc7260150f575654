/**
 * What `lore install` and `lore uninstall` share: the hosts, lore's hook table for each (read from
 * the plugin's own hooks/hooks.json, so the plugin and the installed hooks never drift apart), and
 * the write of a settings file.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LoreError } from '../core/errors.js';
import { toCodexHookTable } from '../core/install/codex-hook-table.js';
import type { HookTable } from '../core/install/plan-hook-settings.js';
import { agentHookSettingsFile } from '../store/install/agent-config-paths.js';
import type { AgentHost, InstallScope } from '../store/install/agent-config-paths.js';
import { writeFileThroughLinks } from '../store/fs/fs-atomic.js';
import { findProjectRoot, findRepositoryRoot, resolveLoreHome } from '../store/fs/paths.js';
import type { CommandContext } from './command.js';

export const HOST_NAMES: Record<AgentHost, string> = {
  'claude-code': 'Claude Code',
  codex: 'Codex',
  gemini: 'Gemini CLI',
  cursor: 'Cursor',
};

/** The Claude Code plugin root shipped in the lore package (holds bin/lore-hook.cjs). */
export const PLUGIN_DIR = fileURLToPath(new URL('../../plugin/', import.meta.url)).replace(/\/$/, '');
export const HOOK_BUNDLE = join(PLUGIN_DIR, 'bin', 'lore-hook.cjs');

/** A handler is lore's when its command runs lore's hook bundle, wherever that bundle lives. */
export function isLoreHookCommand(command: string): boolean {
  return command.includes('lore-hook.cjs');
}

/** `path` inside double quotes for sh. */
function shellQuote(path: string): string {
  return path.replace(/["\\$`]/g, (char) => `\\${char}`);
}

/**
 * lore's hooks for `host`: the plugin's hooks.json with `${CLAUDE_PLUGIN_ROOT}` made absolute;
 * for Codex, as Codex runs them (`toCodexHookTable`: its event names, `--host codex`).
 */
export function loreHookTable(host: AgentHost, pluginDir: string = PLUGIN_DIR): HookTable {
  if (host === 'gemini') return geminiHookTable();
  const file = join(pluginDir, 'hooks', 'hooks.json');
  const bundle = join(pluginDir, 'bin', 'lore-hook.cjs');
  if (!existsSync(bundle)) {
    throw new LoreError('not-found', `lore's hook bundle is missing: ${bundle}`, {
      hint: 'this lore package is incomplete; in a checkout, run `npm run build`',
    });
  }
  const plugin = JSON.parse(readFileSync(file, 'utf8')) as { hooks: HookTable };
  const table: HookTable = {};
  for (const [event, groups] of Object.entries(plugin.hooks)) {
    table[event] = groups.map((group) => ({
      ...group,
      hooks: group.hooks.map((handler) => ({
        ...handler,
        command: handler.command.replaceAll('${CLAUDE_PLUGIN_ROOT}', shellQuote(pluginDir)),
      })),
    }));
  }
  return host === 'codex' ? toCodexHookTable(table) : table;
}

/** The Gemini CLI extension shipped in the lore package (its own copy of the hook bundle in bin/). */
export const GEMINI_EXTENSION_DIR = fileURLToPath(
  new URL('../../gemini-extension/', import.meta.url),
).replace(/\/$/, '');

/**
 * lore's hooks for Gemini CLI's settings.json: the extension's hooks/hooks.json with
 * `${extensionPath}` made absolute (so a settings install and the extension never drift apart).
 */
export function geminiHookTable(extensionDir: string = GEMINI_EXTENSION_DIR): HookTable {
  const bundle = join(extensionDir, 'bin', 'lore-hook.cjs');
  if (!existsSync(bundle)) {
    throw new LoreError('not-found', `lore's Gemini CLI hook bundle is missing: ${bundle}`, {
      hint: 'this lore package is incomplete; in a checkout, run `npm run build`',
    });
  }
  const file = join(extensionDir, 'hooks', 'hooks.json');
  const extension = JSON.parse(readFileSync(file, 'utf8')) as { hooks: HookTable };
  const table: HookTable = {};
  for (const [event, groups] of Object.entries(extension.hooks)) {
    table[event] = groups.map((group) => ({
      ...group,
      hooks: group.hooks.map((handler) => ({
        ...handler,
        command: handler.command.replaceAll('${extensionPath}', shellQuote(extensionDir)),
      })),
    }));
  }
  return table;
}

/** The repository whose `.claude/` or `.codex/` a project-scope install edits. */
function projectRoot(ctx: CommandContext): string {
  if (ctx.root !== undefined) return resolve(ctx.cwd, ctx.root);
  return findProjectRoot(ctx.cwd, resolveLoreHome(ctx.env)) ?? findRepositoryRoot(ctx.cwd);
}

export function settingsFileFor(ctx: CommandContext, host: AgentHost, scope: InstallScope): string {
  return agentHookSettingsFile(host, scope, ctx.env, projectRoot(ctx));
}

/** The current text of a settings file, or undefined when there is none. */
export function readSettings(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new LoreError('io', `cannot read ${file}: ${(error as Error).message}`);
  }
}

/**
 * Replaces a settings file whole (temporary file + rename), through a symlink to its target,
 * keeping the file's permissions.
 */
export function writeSettings(file: string, text: string): void {
  try {
    // a symlinked settings file (a dotfiles repository) stays a link, even a dangling one
    writeFileThroughLinks(file, text);
  } catch (error) {
    throw new LoreError('io', `cannot write ${file}: ${(error as Error).message}`);
  }
}

export const CODEX_TRUST_NOTE =
  'Codex runs a new or changed hook only after you trust it: start `codex`, answer its "hooks need review" prompt (or type /hooks) and trust lore\'s hooks. ' +
  '`codex exec --dangerously-bypass-hook-trust` skips the review for one run.';

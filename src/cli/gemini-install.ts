/**
 * `lore install gemini` / `lore uninstall gemini`: lore's hooks (from the shipped extension's
 * hooks/hooks.json, with absolute paths) and lore's MCP server, both in Gemini CLI's settings.json,
 * in one write. Only lore's entries change; running it twice changes nothing.
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { planHookInstall, planHookUninstall } from '../core/install/plan-hook-settings.js';
import { planMcpJsonInstall, planMcpJsonUninstall } from '../core/install/plan-mcp-config.js';
import { geminiHome } from '../store/fs/agent-homes.js';
import { INSTALL_SCOPES } from '../store/install/agent-config-paths.js';
import {
  GEMINI_EXTENSION_DIR,
  geminiHookTable,
  isLoreHookCommand,
  readSettings,
  settingsFileFor,
} from './agent-hooks.js';
import { choiceOption, flagOption } from './command.js';
import type { CommandContext, CommandOutput, ParsedArgs } from './command.js';
import { loreMcpEntry } from './mcp-registration.js';
import { withoutCreated, writeInstalled, writeUninstalled } from './install-containers.js';

/** Where `gemini extensions install|link` puts an extension named `lore`. */
function installedExtension(ctx: CommandContext): string | undefined {
  const dir = join(geminiHome(ctx.env, ctx.env.HOME?.trim() || homedir()), 'extensions', 'lore');
  return existsSync(join(dir, 'gemini-extension.json')) ||
    existsSync(join(dir, '.gemini-extension-install.json'))
    ? dir
    : undefined;
}

const TWICE =
  'The lore Gemini CLI extension is installed too (%s): both would run, so every session start and guard would arrive twice. Keep one: `gemini extensions uninstall lore`, or `lore uninstall gemini`.';

export function runGeminiInstall(ctx: CommandContext, args: ParsedArgs): CommandOutput {
  const scope = choiceOption(args, 'scope', INSTALL_SCOPES) ?? 'user';
  const dryRun = flagOption(args, 'dry-run');
  const file = settingsFileFor(ctx, 'gemini', scope);
  const before = readSettings(file);
  const hooks = planHookInstall(before, geminiHookTable(), isLoreHookCommand, file);
  const mcp = planMcpJsonInstall(hooks.text, loreMcpEntry('gemini'), file);
  const text = mcp.changed ? mcp.text : hooks.text;
  const changed = before !== text;
  if (changed && !dryRun) writeInstalled(ctx.env, file, before, text);

  const extension = installedExtension(ctx);
  const lines = changed
    ? [
        `${dryRun ? 'Would install' : 'Installed'} lore's hooks and MCP server for Gemini CLI in ${file}:`,
        ...hooks.installed.map((entry) => `  ${entry}`),
        ...(mcp.changed ? ['  mcpServers.lore (lore mcp)'] : []),
        ...(hooks.removed.length > 0
          ? [`${dryRun ? 'Would replace' : 'Replaced'} older lore hooks: ${hooks.removed.join(', ')}`]
          : []),
        'Your other settings and hooks are unchanged. Start a new Gemini CLI session to load them.',
      ]
    : [`lore's hooks and MCP server are already installed for Gemini CLI in ${file}; nothing changed.`];
  lines.push(
    `Hook: ${join(GEMINI_EXTENSION_DIR, 'bin', 'lore-hook.cjs')}`,
    `Prefer an extension? \`gemini extensions install ${GEMINI_EXTENSION_DIR} --consent\` (instead of this).`,
  );
  if (extension !== undefined) lines.push(TWICE.replace('%s', extension));
  return {
    data: {
      agent: 'gemini',
      scope,
      file,
      changed,
      dryRun,
      hooks: hooks.installed,
      replaced: hooks.removed,
      mcpServer: true,
      bundle: join(GEMINI_EXTENSION_DIR, 'bin', 'lore-hook.cjs'),
      extension: GEMINI_EXTENSION_DIR,
      warnings: extension === undefined ? [] : [TWICE.replace('%s', extension)],
    },
    text: lines.join('\n'),
  };
}

export function runGeminiUninstall(ctx: CommandContext, args: ParsedArgs): CommandOutput {
  const scope = choiceOption(args, 'scope', INSTALL_SCOPES) ?? 'user';
  const dryRun = flagOption(args, 'dry-run');
  const file = settingsFileFor(ctx, 'gemini', scope);
  const before = readSettings(file);
  const hooks = planHookUninstall(before, isLoreHookCommand, file);
  const afterHooks = hooks.changed ? hooks.text : before;
  const mcp = planMcpJsonUninstall(afterHooks, file);
  const planned = mcp.changed ? mcp.text : afterHooks;
  const uninstalled = planned === undefined ? undefined : withoutCreated(ctx.env, file, planned);
  const changed = uninstalled !== undefined && uninstalled.text !== before;
  if (changed && !dryRun) writeUninstalled(ctx.env, file, uninstalled);
  const removed = [...hooks.removed, ...(mcp.changed ? ['mcpServers.lore'] : [])];
  return {
    data: { agent: 'gemini', scope, file, changed, dryRun, removed, ...(mcp.kept ? { kept: mcp.kept } : {}) },
    text: [
      changed
        ? [
            `${dryRun ? 'Would remove' : 'Removed'} lore's hooks and MCP server for Gemini CLI from ${file}:`,
            ...removed.map((entry) => `  ${entry}`),
            'Your other settings and hooks are unchanged.',
          ].join('\n')
        : `No lore hooks or MCP server for Gemini CLI in ${file}; nothing changed.`,
      ...(mcp.kept === undefined ? [] : [mcp.kept]),
    ].join('\n'),
  };
}

/**
 * `lore install cursor` / `lore uninstall cursor`: lore's hooks in Cursor's `hooks.json` (version 1)
 * and lore's MCP server in the `mcp.json` beside it. Only lore's entries change; running it twice
 * changes nothing. Cursor also runs the Claude-format hooks of `.claude/settings.json`: when lore is
 * installed there too, the install says so (the hook answers once: see src/hook/cursor-hooks-installed.ts).
 */
import { dirname, join } from 'node:path';
import { planCursorHooksInstall, planCursorHooksUninstall } from '../core/install/plan-cursor-hooks.js';
import type { CursorHookTable } from '../core/install/plan-cursor-hooks.js';
import { planMcpJsonInstall, planMcpJsonUninstall } from '../core/install/plan-mcp-config.js';
import type { McpPlan } from '../core/install/plan-mcp-config.js';
import {
  claudeSettingsFilesCursorReads,
  cursorMcpFile,
  INSTALL_SCOPES,
} from '../store/install/agent-config-paths.js';
import { HOOK_BUNDLE, isLoreHookCommand, PLUGIN_DIR, readSettings, settingsFileFor } from './agent-hooks.js';
import { withoutCreated, writeInstalled, writeUninstalled } from './install-containers.js';
import { choiceOption, flagOption } from './command.js';
import type { CommandContext, CommandOutput, ParsedArgs } from './command.js';
import { loreMcpEntry } from './mcp-registration.js';

/** The file tools Cursor's preToolUse can deny (shell commands go through beforeShellExecution). */
const FILE_TOOLS = 'Read|Write|Edit|StrReplace|Delete|Grep|Glob';

/** lore's Cursor hooks, running this package's hook bundle with `--host cursor`. */
export function cursorHookTable(pluginDir: string = PLUGIN_DIR): CursorHookTable {
  const command = `NODE_EXTRA_CA_CERTS= node "${join(pluginDir, 'bin', 'lore-hook.cjs').replace(/["\\$`]/g, (c) => `\\${c}`)}" --host cursor`;
  return {
    sessionStart: [{ command }],
    beforeShellExecution: [{ command }],
    preToolUse: [{ command, matcher: FILE_TOOLS }],
    postToolUse: [{ command, matcher: `Shell|${FILE_TOOLS}` }],
  };
}

/** Claude Code settings with lore's hooks that Cursor would run too. */
function claudeSettingsWithLore(ctx: CommandContext, hooksFile: string, scope: string): string[] {
  const root = scope === 'project' ? dirname(dirname(hooksFile)) : ctx.cwd;
  return claudeSettingsFilesCursorReads(ctx.env, root).filter(
    (file) => readSettings(file)?.includes('lore-hook.cjs') === true,
  );
}

const TWICE =
  'Cursor also runs the Claude Code hooks in %s, which hold lore too: lore answers each event once (its Cursor hooks do; the Claude-format run in Cursor stays quiet). To keep one install, `lore uninstall claude-code` where you do not use Claude Code.';

export function runCursorInstall(ctx: CommandContext, args: ParsedArgs): CommandOutput {
  const scope = choiceOption(args, 'scope', INSTALL_SCOPES) ?? 'user';
  const dryRun = flagOption(args, 'dry-run');
  const file = settingsFileFor(ctx, 'cursor', scope);
  const mcpFile = cursorMcpFile(scope, ctx.env, dirname(dirname(file)));
  const hooksBefore = readSettings(file);
  const mcpBefore = readSettings(mcpFile);
  const hooks = planCursorHooksInstall(hooksBefore, cursorHookTable(), isLoreHookCommand, file);
  const mcp = planMcpJsonInstall(mcpBefore, loreMcpEntry('claude-code'), mcpFile);
  if (!dryRun) {
    if (hooks.changed) writeInstalled(ctx.env, file, hooksBefore, hooks.text);
    if (mcp.changed) writeInstalled(ctx.env, mcpFile, mcpBefore, mcp.text);
  }
  const changed = hooks.changed || mcp.changed;
  const claude = claudeSettingsWithLore(ctx, file, scope);
  const warnings = claude.length === 0 ? [] : [TWICE.replace('%s', claude.join(', '))];
  const lines = changed
    ? [
        `${dryRun ? 'Would install' : 'Installed'} lore's hooks for Cursor in ${file}:`,
        ...hooks.entries.map((entry) => `  ${entry}`),
        ...(mcp.changed ? [`and lore's MCP server in ${mcpFile}`] : []),
        'Your other hooks and servers are unchanged. Restart Cursor (or open a new agent chat) to load them.',
      ]
    : [`lore's hooks and MCP server are already installed for Cursor in ${file}; nothing changed.`];
  lines.push(`Hook: ${HOOK_BUNDLE}`, ...warnings);
  return {
    data: {
      agent: 'cursor',
      scope,
      file,
      mcpFile,
      changed,
      dryRun,
      hooks: hooks.entries,
      bundle: HOOK_BUNDLE,
      warnings,
    },
    text: lines.join('\n'),
  };
}

export function runCursorUninstall(ctx: CommandContext, args: ParsedArgs): CommandOutput {
  const scope = choiceOption(args, 'scope', INSTALL_SCOPES) ?? 'user';
  const dryRun = flagOption(args, 'dry-run');
  const file = settingsFileFor(ctx, 'cursor', scope);
  const mcpFile = cursorMcpFile(scope, ctx.env, dirname(dirname(file)));
  const hooks = planCursorHooksUninstall(readSettings(file), isLoreHookCommand, file);
  const mcpText = readSettings(mcpFile);
  const mcp: McpPlan =
    mcpText === undefined ? { changed: false, text: '' } : planMcpJsonUninstall(mcpText, mcpFile);
  if (!dryRun) {
    if (hooks.changed) writeUninstalled(ctx.env, file, withoutCreated(ctx.env, file, hooks.text));
    if (mcp.changed) writeUninstalled(ctx.env, mcpFile, withoutCreated(ctx.env, mcpFile, mcp.text));
  }
  const removed = [...hooks.entries, ...(mcp.changed ? ['mcpServers.lore'] : [])];
  const changed = removed.length > 0;
  return {
    data: {
      agent: 'cursor',
      scope,
      file,
      mcpFile,
      changed,
      dryRun,
      removed,
      ...(mcp.kept ? { kept: mcp.kept } : {}),
    },
    text: [
      changed
        ? [
            `${dryRun ? 'Would remove' : 'Removed'} lore's hooks for Cursor from ${file}:`,
            ...removed.map((entry) => `  ${entry}`),
            'Your other hooks and servers are unchanged.',
          ].join('\n')
        : `No lore hooks for Cursor in ${file}; nothing changed.`,
      ...(mcp.kept === undefined ? [] : [mcp.kept]),
    ].join('\n'),
  };
}

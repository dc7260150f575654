/**
 * lore's Claude Code hook table as Codex runs it. Codex (0.169.0) reads Claude-shaped hooks but
 * knows no PostToolUseFailure (an entry for it is skipped without a word): it runs PostToolUse
 * after every call, failed or not, with the call's output as the `tool_response` string. So the
 * after-failure entries become PostToolUse entries (beside any PostToolUse ones), and every
 * command says `--host codex`. `lore install codex` writes this table; the plugin carries it as
 * `hooks/codex-hooks.json`, named by `.codex-plugin/plugin.json`, which Codex reads before
 * `.claude-plugin/plugin.json`.
 */
import type { HookTable } from './plan-hook-settings.js';

const CODEX_EVENT_NAMES: Readonly<Record<string, string>> = { PostToolUseFailure: 'PostToolUse' };

const CODEX_HOST_FLAG = ' --host codex';

export function toCodexHookTable(table: HookTable): HookTable {
  const codex: HookTable = {};
  for (const [event, groups] of Object.entries(table)) {
    const name = CODEX_EVENT_NAMES[event] ?? event;
    codex[name] = [
      ...(codex[name] ?? []),
      ...groups.map((group) => ({
        ...group,
        hooks: group.hooks.map((handler) => ({
          ...handler,
          command: `${handler.command}${CODEX_HOST_FLAG}`,
        })),
      })),
    ];
  }
  return codex;
}

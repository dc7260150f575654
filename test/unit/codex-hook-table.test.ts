import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { toCodexHookTable } from '../../src/core/install/codex-hook-table.js';
import type { HookTable } from '../../src/core/install/plan-hook-settings.js';

const handler = (command: string) => ({ type: 'command' as const, command, timeout: 5 });
const readPluginJson = (path: string) =>
  JSON.parse(readFileSync(new URL(`../../plugin/${path}`, import.meta.url), 'utf8')) as Record<
    string,
    unknown
  >;

describe('toCodexHookTable', () => {
  it.each<[string, HookTable, HookTable]>([
    [
      'PostToolUseFailure becomes PostToolUse, matchers and timeouts kept',
      { PostToolUseFailure: [{ matcher: 'Bash|Read', hooks: [handler('node hook.cjs')] }] },
      { PostToolUse: [{ matcher: 'Bash|Read', hooks: [handler('node hook.cjs --host codex')] }] },
    ],
    [
      'beside a PostToolUse entry, after it',
      {
        PostToolUse: [{ matcher: 'Write', hooks: [handler('a')] }],
        PostToolUseFailure: [{ matcher: 'Bash', hooks: [handler('b')] }],
      },
      {
        PostToolUse: [
          { matcher: 'Write', hooks: [handler('a --host codex')] },
          { matcher: 'Bash', hooks: [handler('b --host codex')] },
        ],
      },
    ],
    [
      'every other event keeps its name, in its order',
      {
        PreToolUse: [{ matcher: 'mcp__.*', hooks: [handler('a')] }],
        SessionStart: [{ hooks: [handler('b')] }],
        Stop: [{ hooks: [handler('c')] }],
      },
      {
        PreToolUse: [{ matcher: 'mcp__.*', hooks: [handler('a --host codex')] }],
        SessionStart: [{ hooks: [handler('b --host codex')] }],
        Stop: [{ hooks: [handler('c --host codex')] }],
      },
    ],
  ])('%s', (_name, table, expected) => {
    expect(toCodexHookTable(table)).toEqual(expected);
  });
});

describe("the plugin's Codex files (written by npm run build)", () => {
  it('hooks/codex-hooks.json is hooks/hooks.json as Codex runs it: rebuild and commit when this fails', () => {
    const claude = readPluginJson('hooks/hooks.json') as { hooks: HookTable };
    const codex = readPluginJson('hooks/codex-hooks.json') as { hooks: HookTable };
    expect(codex.hooks).toEqual(toCodexHookTable(claude.hooks));
    expect(Object.keys(codex.hooks)).toContain('PostToolUse');
    expect(Object.keys(codex.hooks)).not.toContain('PostToolUseFailure');
  });

  it('.codex-plugin/plugin.json names it, with the Claude Code manifest name and version', () => {
    const claude = readPluginJson('.claude-plugin/plugin.json');
    expect(readPluginJson('.codex-plugin/plugin.json')).toEqual({
      name: claude.name,
      version: claude.version,
      description: claude.description,
      hooks: './hooks/codex-hooks.json',
    });
  });
});

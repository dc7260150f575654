import { choiceOption, flagOption } from '../command.js';
import type { Command } from '../command.js';
import { LoreError } from '../../core/errors.js';
import { planHookInstall } from '../../core/install/plan-hook-settings.js';
import { AGENT_HOSTS, INSTALL_SCOPES } from '../../store/install/agent-config-paths.js';
import type { AgentHost } from '../../store/install/agent-config-paths.js';
import {
  CODEX_TRUST_NOTE,
  HOOK_BUNDLE,
  HOST_NAMES,
  isLoreHookCommand,
  loreHookTable,
  readSettings,
  settingsFileFor,
} from '../agent-hooks.js';
import { writeInstalled } from '../install-containers.js';

export function parseHost(value: string | undefined, usage: string): AgentHost {
  if (value === undefined || !(AGENT_HOSTS as readonly string[]).includes(value)) {
    throw new LoreError(
      'usage',
      `unknown agent "${value ?? ''}"; lore installs into ${AGENT_HOSTS.join(', ')}`,
      {
        hint: `usage: ${usage}`,
      },
    );
  }
  return value as AgentHost;
}

const USAGE =
  'lore install claude-code|codex|gemini|cursor [--scope user|project] [--dry-run] [--json]\n       lore install mcp --agent claude-code|codex|gemini [--scope user|project] [--dry-run] [--json]';

export const command: Command = {
  spec: {
    usage: USAGE,
    description:
      "Adds lore's hooks (PreToolUse, PostToolUseFailure, UserPromptSubmit, SessionStart, SubagentStart, Stop) to an\n" +
      "agent's settings, pointing at the hook bundle of this lore package; for Codex, which has no PostToolUseFailure,\n" +
      "the after-failure hook is a PostToolUse one. Only lore's own entries change: your other settings and\n" +
      'hooks stay as they are, and running it again changes nothing. A settings file that is not valid JSON is\n' +
      'refused with its line, untouched.\n' +
      '  claude-code  user: $CLAUDE_CONFIG_DIR/settings.json (default ~/.claude/settings.json); project: .claude/settings.json\n' +
      '  codex        user: $CODEX_HOME/hooks.json (default ~/.codex/hooks.json); project: .codex/hooks.json\n' +
      '  gemini       user: $GEMINI_CLI_HOME/.gemini/settings.json (default ~/.gemini/settings.json); project:\n' +
      '               .gemini/settings.json; SessionStart, BeforeAgent, BeforeTool, AfterTool, AfterAgent, MCP server\n' +
      '  cursor       user: ~/.cursor/hooks.json; project: .cursor/hooks.json (version 1: sessionStart, preToolUse,\n' +
      "               beforeShellExecution, postToolUse), and lore's MCP server in the mcp.json beside it\n" +
      'Codex runs new hooks only once you trust them (the "hooks need review" prompt, or /hooks in codex).\n' +
      'Prefer a plugin marketplace? See the README: `claude plugin install lore@lore`, `codex plugin add lore@lore`.\n' +
      "`lore install mcp --agent A` registers lore's MCP server (`lore mcp`) instead, keeping your other servers:\n" +
      '  claude-code  user: ~/.claude.json ($CLAUDE_CONFIG_DIR/.claude.json); project: .mcp.json\n' +
      '  codex        user: $CODEX_HOME/config.toml [mcp_servers.lore] (user scope only)\n' +
      '  gemini       user: ~/.gemini/settings.json; project: .gemini/settings.json',
    options: {
      scope: { type: 'string', value: 'user|project', description: 'whose settings to edit (default user)' },
      'dry-run': { type: 'boolean', description: 'say what would change and write nothing' },
      agent: {
        type: 'string',
        value: 'A',
        description: 'with `mcp`: the agent to register the MCP server with (claude-code, codex, gemini)',
      },
    },
    positionals: { min: 1, max: 1, names: 'AGENT (claude-code, codex, gemini or cursor) or mcp' },
    json: true,
    examples: [
      'lore install claude-code',
      'lore install claude-code --scope project',
      'lore install codex',
      'lore install gemini --scope project',
      'lore install cursor --scope project',
      'lore install mcp --agent gemini',
    ],
  },
  async run(ctx, args) {
    if (args.positionals[0] === 'mcp') {
      const { runMcpRegistration } = await import('../mcp-registration.js');
      return runMcpRegistration(ctx, args, 'install', USAGE);
    }
    const host = parseHost(args.positionals[0], USAGE);
    if (host === 'gemini') return (await import('../gemini-install.js')).runGeminiInstall(ctx, args);
    if (host === 'cursor') return (await import('../cursor-install.js')).runCursorInstall(ctx, args);
    const scope = choiceOption(args, 'scope', INSTALL_SCOPES) ?? 'user';
    const dryRun = flagOption(args, 'dry-run');
    const file = settingsFileFor(ctx, host, scope);
    const before = readSettings(file);
    const plan = planHookInstall(before, loreHookTable(host), isLoreHookCommand, file);
    if (plan.changed && !dryRun) writeInstalled(ctx.env, file, before, plan.text);

    const name = HOST_NAMES[host];
    const lines: string[] = [];
    if (!plan.changed)
      lines.push(`lore's hooks are already installed for ${name} in ${file}; nothing changed.`);
    else
      lines.push(
        `${dryRun ? 'Would install' : 'Installed'} lore's hooks for ${name} in ${file}:`,
        ...plan.installed.map((entry) => `  ${entry}`),
        ...(plan.removed.length > 0
          ? [`${dryRun ? 'Would replace' : 'Replaced'} older lore hooks: ${plan.removed.join(', ')}`]
          : []),
        'Your other settings and hooks are unchanged.',
      );
    lines.push(`Hook: ${HOOK_BUNDLE}`);
    if (host === 'codex') lines.push(CODEX_TRUST_NOTE);
    else lines.push('Start a new Claude Code session (2.1.9 or later) to load them.');
    return {
      data: {
        agent: host,
        scope,
        file,
        changed: plan.changed,
        dryRun,
        hooks: plan.installed,
        replaced: plan.removed,
        bundle: HOOK_BUNDLE,
        ...(host === 'codex' ? { trustRequired: true } : {}),
      },
      text: lines.join('\n'),
    };
  },
};

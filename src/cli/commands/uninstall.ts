import { choiceOption, flagOption } from '../command.js';
import type { Command } from '../command.js';
import { planHookUninstall } from '../../core/install/plan-hook-settings.js';
import { INSTALL_SCOPES } from '../../store/install/agent-config-paths.js';
import { HOST_NAMES, isLoreHookCommand, readSettings, settingsFileFor } from '../agent-hooks.js';
import { withoutCreated, writeUninstalled } from '../install-containers.js';
import { parseHost } from './install.js';

const USAGE =
  'lore uninstall claude-code|codex|gemini|cursor [--scope user|project] [--dry-run] [--json]\n       lore uninstall mcp --agent claude-code|codex|gemini [--scope user|project] [--dry-run] [--json]';

export const command: Command = {
  spec: {
    usage: USAGE,
    description:
      "Takes lore's hooks out of an agent's settings (the files `lore install` edits). Only handlers that run\n" +
      "lore's hook bundle go; every other setting and hook stays. Nothing to remove: nothing changes.\n" +
      "`lore uninstall gemini` also takes lore's MCP server out of Gemini CLI's settings.json.\n" +
      "`lore uninstall mcp --agent A` removes lore's MCP server from that agent's MCP configuration.",
    options: {
      scope: { type: 'string', value: 'user|project', description: 'whose settings to edit (default user)' },
      'dry-run': { type: 'boolean', description: 'say what would change and write nothing' },
      agent: {
        type: 'string',
        value: 'A',
        description: 'with `mcp`: the agent to remove the MCP server from (claude-code, codex, gemini)',
      },
    },
    positionals: { min: 1, max: 1, names: 'AGENT (claude-code, codex, gemini or cursor) or mcp' },
    json: true,
    examples: [
      'lore uninstall claude-code',
      'lore uninstall codex --scope project',
      'lore uninstall mcp --agent codex',
    ],
  },
  async run(ctx, args) {
    if (args.positionals[0] === 'mcp') {
      const { runMcpRegistration } = await import('../mcp-registration.js');
      return runMcpRegistration(ctx, args, 'uninstall', USAGE);
    }
    const host = parseHost(args.positionals[0], USAGE);
    if (host === 'gemini') return (await import('../gemini-install.js')).runGeminiUninstall(ctx, args);
    if (host === 'cursor') return (await import('../cursor-install.js')).runCursorUninstall(ctx, args);
    const scope = choiceOption(args, 'scope', INSTALL_SCOPES) ?? 'user';
    const dryRun = flagOption(args, 'dry-run');
    const file = settingsFileFor(ctx, host, scope);
    const plan = planHookUninstall(readSettings(file), isLoreHookCommand, file);
    const uninstalled = plan.changed ? withoutCreated(ctx.env, file, plan.text) : undefined;
    if (uninstalled !== undefined && !dryRun) writeUninstalled(ctx.env, file, uninstalled);
    const name = HOST_NAMES[host];
    const removedFile = uninstalled?.removeFile === true;
    const text = plan.changed
      ? [
          `${dryRun ? 'Would remove' : 'Removed'} lore's hooks for ${name} from ${file}:`,
          ...plan.removed.map((entry) => `  ${entry}`),
          removedFile
            ? `${dryRun ? 'Would remove' : 'removed'} ${file}: the install created it and nothing else is in it.`
            : 'Your other settings and hooks are unchanged.',
        ].join('\n')
      : `No lore hooks for ${name} in ${file}; nothing changed.`;
    return {
      data: { agent: host, scope, file, changed: plan.changed, dryRun, removed: plan.removed, removedFile },
      text,
    };
  },
};

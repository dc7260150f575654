import { join, resolve } from 'node:path';
import { choiceOption } from '../command.js';
import type { Command } from '../command.js';
import {
  findProjectRoot,
  findRepositoryRoot,
  LORE_DIR,
  resolveLoreHome,
  tierLayout,
} from '../../store/fs/paths.js';
import { initTier } from '../../store/workspace/init-tier.js';

export const command: Command = {
  spec: {
    usage: 'lore init [--tier project|user] [--root DIR] [--json]',
    description:
      'Creates .lore/ at the repository root (the nearest directory with .git, else the working directory):\n' +
      'lessons/, config.yaml, schema/ for editor completion, and a .gitignore for derived files and candidates.\n' +
      'Running it again changes nothing but refreshing the schemas and adding .gitignore entries an older lore\n' +
      'did not write. --tier user sets up $LORE_HOME instead.',
    options: {
      tier: { type: 'string', value: 'project|user', description: 'which tier to set up (default project)' },
    },
    positionals: { min: 0, max: 0, names: '' },
    json: true,
    examples: ['lore init', 'lore init --root ~/src/app', 'lore init --tier user'],
  },
  async run(ctx, args) {
    const tier = choiceOption(args, 'tier', ['project', 'user'] as const) ?? 'project';
    const loreHome = resolveLoreHome(ctx.env);
    const root =
      tier === 'user'
        ? undefined
        : ctx.root !== undefined
          ? resolve(ctx.cwd, ctx.root)
          : (findProjectRoot(ctx.cwd, loreHome) ?? findRepositoryRoot(ctx.cwd));
    const dir = root === undefined ? loreHome : join(root, LORE_DIR);
    const report = initTier(tierLayout(dir));
    const show = (path: string) =>
      root !== undefined && path.startsWith(`${root}/`) ? path.slice(root.length + 1) : path;
    const lines: string[] = [];
    if (report.created.length === 0 && report.updated.length === 0) {
      lines.push(`${dir} is already set up; nothing changed.`);
    } else {
      lines.push(`Set up ${tier === 'user' ? 'the user tier' : 'lore'} in ${dir}:`);
      for (const path of report.created) lines.push(`  created ${show(path)}`);
      for (const path of report.updated) lines.push(`  updated ${show(path)}`);
    }
    lines.push('', 'Next: lore add --summary "..." --command "REGEX" --path "GLOB" --tag lang:python');
    if (tier === 'project')
      lines.push(`Commit ${LORE_DIR}/ with your code; ${LORE_DIR}/cache/ stays out of git.`);
    return {
      data: {
        tier,
        dir,
        root: root ?? null,
        created: report.created,
        updated: report.updated,
        kept: report.kept,
      },
      text: lines.join('\n'),
    };
  },
};

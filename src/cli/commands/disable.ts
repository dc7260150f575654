import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from '../command.js';
import { openWorkspace } from '../../store/workspace/workspace.js';
import { DISABLED_FILE } from '../../store/fs/paths.js';

export const command: Command = {
  spec: {
    usage: 'lore disable [--json]',
    description:
      'Turns the agent hooks off for this project, on this machine: they print {} until `lore enable`.\n' +
      'Writes .lore/cache/disabled (the cache is not committed, so teammates are not affected).\n' +
      'For one session only, start the agent with LORE_DISABLED=1 instead.',
    options: {},
    positionals: { min: 0, max: 0, names: '' },
    json: true,
  },
  async run(ctx) {
    const ws = await openWorkspace({ cwd: ctx.cwd, root: ctx.root, env: ctx.env });
    try {
      const store = ws.store('project');
      const file = join(store.layout.cacheDir, DISABLED_FILE);
      mkdirSync(store.layout.cacheDir, { recursive: true });
      writeFileSync(file, `disabled by lore disable at ${new Date(ctx.now()).toISOString()}\n`);
      return {
        data: { disabled: true, file: ws.displayPath(file) },
        text: `lore hooks are off in this project (${ws.displayPath(file)}); \`lore enable\` turns them back on`,
      };
    } finally {
      ws.close();
    }
  },
};

import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from '../command.js';
import { openWorkspace } from '../../store/workspace/workspace.js';
import { DISABLED_FILE } from '../../store/fs/paths.js';

export const command: Command = {
  spec: {
    usage: 'lore enable [--json]',
    description:
      'Turns the agent hooks back on for this project after `lore disable` (removes .lore/cache/disabled).',
    options: {},
    positionals: { min: 0, max: 0, names: '' },
    json: true,
  },
  async run(ctx) {
    const ws = await openWorkspace({ cwd: ctx.cwd, root: ctx.root, env: ctx.env });
    try {
      const file = join(ws.store('project').layout.cacheDir, DISABLED_FILE);
      rmSync(file, { force: true });
      return {
        data: { disabled: false, file: ws.displayPath(file) },
        text: 'lore hooks are on in this project',
      };
    } finally {
      ws.close();
    }
  },
};

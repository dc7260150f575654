import { tierLayout } from '../store/fs/paths.js';
import type { CommandContext } from './command.js';

/**
 * After the org tier's files changed (`lore pull`, `lore remote remove`): the index and this
 * workspace's manifest take it in, and other repositories notice the user tier's generation, so
 * the hooks stop or start injecting those lessons everywhere.
 */
export async function refreshOrgTier(ctx: CommandContext, home: string): Promise<void> {
  const [{ openWorkspace }, { afterWrite }, { bumpGeneration }] = await Promise.all([
    import('../store/workspace/workspace.js'),
    import('../store/workspace/after-write.js'),
    import('../store/hook-state/manifest-files.js'),
  ]);
  const ws = await openWorkspace({ cwd: ctx.cwd, root: ctx.root, env: ctx.env, warn: ctx.note });
  try {
    await ws.ready();
    await afterWrite(ws, 'org');
    bumpGeneration(tierLayout(home).cacheDir, `${ctx.now().toString(36)}-${process.pid}`);
  } finally {
    ws.close();
  }
}

/**
 * What every lore write ends with. A function of its own, not a method of the workspace, so the
 * workspace does not depend on the manifest and view code that consume it: the writers import this.
 */
import type { Tier } from '../../core/lesson/schema.js';
import { bumpGeneration, sourcePaths, stampSources } from '../hook-state/manifest-files.js';
import type { Workspace } from './workspace.js';

/**
 * After a write to `tier`: marks the tier changed (other repositories' manifests notice) and brings
 * this workspace's hook manifest up to date, so the hook never answers from an old one. With
 * `changed` (every lesson the write touched, in any tier) only their part of the manifest is
 * rewritten when the manifest was current before this process wrote; otherwise, or without
 * `changed`, it is rebuilt in full.
 */
export async function afterWrite(
  ws: Workspace,
  tier: Tier,
  changed?: readonly { tier: Tier; id: string }[],
): Promise<void> {
  const { index, tiers, cacheDir } = ws;
  index.invalidate();
  const store = tier === 'user' ? ws.user : tier === 'org' ? (ws.org ?? ws.user) : (ws.project ?? ws.user);
  // a skill that came or went changes the manifest's skills table: that takes a full build
  const skillsChanged = await refreshViews(ws);
  try {
    bumpGeneration(store.layout.cacheDir, `${Date.now().toString(36)}-${process.pid}`);
    // The index sees every lesson file as it is now; what it saw is what the patch must match.
    const sourcesNow = stampSources(sourcePaths(tiers.map((t) => t.layout.dir)));
    await index.refresh();
    const contentNow = index.contentParts();
    if (changed !== undefined && contentNow !== undefined && !skillsChanged) {
      const [{ patchManifestFiles }, { parseLessonYaml }] = await Promise.all([
        import('../manifest/manifest-patch.js'),
        import('../../core/lesson/lesson-yaml.js'),
      ]);
      const result = patchManifestFiles(
        {
          cacheDir,
          tiers,
          halfLifeDays: ws.halfLifeDays,
          sourcesBefore: ws.manifestSources,
          contentNow,
          parse: parseLessonYaml,
        },
        changed,
        Date.now(),
      );
      if (result.patched) {
        ws.manifestSources = result.head.sources;
        return;
      }
    }
    const { rebuildWorkspaceManifest } = await import('../manifest/manifest-build.js');
    ws.manifestSources = (await rebuildWorkspaceManifest(ws, Date.now(), sourcesNow)).head.sources;
  } catch {
    // the hook notices the changed generation and rebuilds in the background
  }
}

/** `views.render` / `aggregate.enabled`: the derived files follow every write, failure-tolerant. */
async function refreshViews(ws: Workspace): Promise<boolean> {
  if (!ws.config.views.render && !ws.config.aggregate.enabled) return false;
  try {
    const { refreshDerivedFiles } = await import('../views/workspace-views.js');
    return await refreshDerivedFiles(ws, Date.now(), ws.warn);
  } catch (error) {
    ws.warn(`lore: the lesson was saved, but the views were not updated: ${(error as Error).message}`);
    return true;
  }
}

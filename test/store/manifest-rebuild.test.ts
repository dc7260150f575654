/**
 * The background rebuilder (rebuildManifestFromFiles, bundled as plugin/bin/lore-manifest.cjs)
 * reads the settings as a workspace does: LORE_VOTE_HALF_LIFE_DAYS over the config, an invalid
 * value refused by both, never read leniently by one.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { tierLayout } from '../../src/store/fs/paths.js';
import { rebuildManifestFromFiles } from '../../src/store/manifest/manifest-build.js';
import { initTier } from '../../src/store/workspace/init-tier.js';
import { openWorkspace } from '../../src/store/workspace/workspace.js';

function sandbox() {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'lore-rebuild-')));
  onTestFinished(() => rmSync(base, { recursive: true, force: true }));
  const repo = join(base, 'repo');
  mkdirSync(join(repo, '.git'), { recursive: true });
  initTier(tierLayout(join(repo, '.lore')));
  return { repo, loreHome: join(base, 'lore-home') };
}

describe('the background rebuilder', () => {
  it.each(['abc', '-1', 'NaN'])(
    'refuses LORE_VOTE_HALF_LIFE_DAYS=%s as the workspace does',
    async (value) => {
      const { repo, loreHome } = sandbox();
      const env = { LORE_HOME: loreHome, LORE_VOTE_HALF_LIFE_DAYS: value };
      await expect(openWorkspace({ cwd: repo, env })).rejects.toMatchObject({ code: 'usage' });
      expect(() => rebuildManifestFromFiles({ start: repo, env, nowMs: 0 })).toThrow(
        expect.objectContaining({ code: 'usage' }),
      );
    },
  );

  it.each(['', '0', '30'])('builds with LORE_VOTE_HALF_LIFE_DAYS=%j', (value) => {
    const { repo, loreHome } = sandbox();
    const env = { LORE_HOME: loreHome, LORE_VOTE_HALF_LIFE_DAYS: value };
    expect(rebuildManifestFromFiles({ start: repo, env, nowMs: 0 })).toMatchObject({ rebuilt: true });
  });
});

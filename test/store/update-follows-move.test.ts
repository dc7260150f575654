// `lore update` racing `lore promote`: the update resolved the lesson in the project tier, then the
// promote moved it to the user tier before the update took its lock. The update follows it there
// instead of calling a lesson that exists "gone". The interleaving is made deterministic by running
// the promote from inside the update's lookup (its index read), in the same process.
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { addLesson, updateLesson } from '../../src/store/lessons/lesson-writes.js';
import { moveLesson } from '../../src/store/lessons/move-lesson.js';
import { tierLayout } from '../../src/store/fs/paths.js';
import { initTier } from '../../src/store/workspace/init-tier.js';
import { openWorkspace } from '../../src/store/workspace/workspace.js';

const NOW = Date.parse('2026-01-01T00:00:00.000Z');

describe('update racing a promote', () => {
  it('applies to the lesson in the tier it moved to, and says it moved', async () => {
    const base = realpathSync(mkdtempSync(join(tmpdir(), 'lore-update-move-')));
    onTestFinished(() => rmSync(base, { recursive: true, force: true }));
    const repo = join(base, 'repo');
    const loreHome = join(base, 'lore-home');
    mkdirSync(join(repo, '.git'), { recursive: true });
    initTier(tierLayout(join(repo, '.lore')));
    initTier(tierLayout(loreHome));
    const open = () => openWorkspace({ cwd: repo, env: { LORE_HOME: loreHome }, home: base });

    const writer = await open();
    const added = await addLesson(
      writer,
      { summary: 'Run pytest with -x', tools: ['Bash'] },
      { tier: 'project', nowMs: NOW },
    );
    writer.close();

    const updater = await open();
    const promoter = await open();
    onTestFinished(() => {
      updater.close();
      promoter.close();
    });
    // The promote runs right after the update's lookup read the lesson in the project tier.
    const get = updater.index.get.bind(updater.index);
    let promoted = false;
    updater.index.get = async (...args: Parameters<typeof get>) => {
      const found = await get(...args);
      if (!promoted) {
        promoted = true;
        await moveLesson(promoter, added.id, 'user', NOW);
      }
      return found;
    };

    const updated = await updateLesson(
      updater,
      added.id,
      { summary: 'Run pytest with -x to stop early' },
      { nowMs: NOW },
    );
    expect(promoted).toBe(true);
    expect(updated).toMatchObject({ id: added.id, tier: 'user', movedFrom: 'project' });
    const moved = readFileSync(join(loreHome, 'lessons', added.id, 'lesson.yaml'), 'utf8');
    expect(moved).toContain('summary: Run pytest with -x to stop early');
    expect(moved).toContain('tier: user');
  });
});

/**
 * Notices changes to the lesson store for long-lived readers (`lore mcp`) without a signature
 * scan per call: per tier, a watch on the `lessons/` folder (a lesson added or removed), on the
 * cache's `generation` stamp (every lore write anywhere bumps it: the CLI, the dashboard, another
 * MCP server) and on the config file. Non-recursive on purpose: a recursive watch over 10,000
 * lesson folders costs seconds to set up. Edits made outside lore inside a lesson folder (an
 * editor, a git pull) are caught by the caller's periodic full check.
 */
import { watch } from 'node:fs';
import type { FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';
import { GENERATION_FILE } from '../hook-state/manifest-files.js';
import type { TierStore } from '../lessons/tier-store.js';

export type LessonWatch = {
  /** False when a folder that exists could not be watched: check the files more often. */
  complete: boolean;
  close(): void;
};

export function watchLessons(tiers: readonly TierStore[], onChange: () => void): LessonWatch {
  const watchers: FSWatcher[] = [];
  let complete = true;
  const add = (dir: string, only?: string) => {
    try {
      const watcher = watch(dir, { persistent: false }, (_event, name) => {
        if (only === undefined || name === null || String(name) === only) onChange();
      });
      watcher.on('error', () => {
        complete = false;
        onChange();
      });
      watchers.push(watcher);
    } catch (error) {
      // A folder that does not exist yet holds nothing to miss; anything else is a blind spot.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') complete = false;
    }
  };
  for (const tier of tiers) {
    add(tier.layout.lessonsDir);
    add(tier.layout.cacheDir, GENERATION_FILE);
    add(dirname(tier.layout.configFile), basename(tier.layout.configFile));
  }
  return {
    get complete() {
      return complete;
    },
    close() {
      for (const watcher of watchers) watcher.close();
    },
  };
}

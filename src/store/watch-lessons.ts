/**
 * Notices changes to the lesson files of long-lived readers (`lore mcp`): one recursive watch per
 * tier's `lessons/` folder and one on each config file's folder. A watch that cannot be set up
 * (no such folder yet, a platform without recursive watches) is reported, so the caller falls back
 * to checking the files' signatures more often.
 */
import { watch } from 'node:fs';
import type { FSWatcher } from 'node:fs';
import { dirname } from 'node:path';
import type { TierStore } from './tier-store.js';

export type LessonWatch = { complete: boolean; close(): void };

export function watchLessons(tiers: readonly TierStore[], onChange: () => void): LessonWatch {
  const watchers: FSWatcher[] = [];
  let complete = true;
  const add = (dir: string, recursive: boolean) => {
    try {
      const watcher = watch(dir, { recursive, persistent: false }, () => onChange());
      watcher.on('error', () => {
        complete = false;
        onChange();
      });
      watchers.push(watcher);
    } catch {
      complete = false;
    }
  };
  for (const tier of tiers) {
    add(tier.layout.lessonsDir, true);
    add(dirname(tier.layout.configFile), false);
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

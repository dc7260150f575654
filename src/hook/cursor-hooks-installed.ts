/**
 * Cursor runs its own hooks (`.cursor/hooks.json`) and also the Claude-format ones in
 * `.claude/settings.json`. When lore is installed both ways, each event would reach lore twice:
 * the Claude-format run (no `--host cursor`) steps aside when lore's Cursor hooks are installed
 * for the project (`.cursor/hooks.json` in the directory or a parent) or the user
 * (`~/.cursor/hooks.json`). Node built-ins only: the hook bundles this.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

function namesLoreHook(file: string): boolean {
  try {
    return readFileSync(file, 'utf8').includes('lore-hook.cjs');
  } catch {
    return false;
  }
}

/** The hooks.json that holds lore's Cursor hooks for `cwd`, if any. */
export function loreCursorHooksFile(cwd: string, home: string | undefined): string | undefined {
  let dir = cwd;
  for (let depth = 0; depth < 40; depth += 1) {
    const file = join(dir, '.cursor', 'hooks.json');
    if (namesLoreHook(file)) return file;
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  if (home === undefined || home === '') return undefined;
  const user = join(home, '.cursor', 'hooks.json');
  return namesLoreHook(user) ? user : undefined;
}

/**
 * Writing an agent's settings file for `lore install` / `lore uninstall` while keeping the ledger of
 * the top-level members lore created there (store/install/install-ledger.ts): install remembers
 * what it added, uninstall takes out what it added and is now empty, and nothing the user had.
 */
import { addedTopLevelKeys, dropCreatedKeys } from '../core/install/created-containers.js';
import { forgetCreatedKeys, readCreatedKeys, recordCreatedKeys } from '../store/install/install-ledger.js';
import { writeSettings } from './agent-hooks.js';

/** Writes an install's text and remembers the top-level members it added to `file`. */
export function writeInstalled(
  env: NodeJS.ProcessEnv,
  file: string,
  before: string | undefined,
  after: string,
): void {
  writeSettings(file, after);
  recordCreatedKeys(env, file, addedTopLevelKeys(before, after));
}

export type Uninstalled = { text: string; dropped: string[] };

/** An uninstall's text without the members lore created in `file` that lore's entries were all of. */
export function withoutCreated(env: NodeJS.ProcessEnv, file: string, text: string): Uninstalled {
  return dropCreatedKeys(text, readCreatedKeys(env, file));
}

/** Writes an uninstall's text and forgets the members it took out. */
export function writeUninstalled(env: NodeJS.ProcessEnv, file: string, uninstalled: Uninstalled): void {
  writeSettings(file, uninstalled.text);
  forgetCreatedKeys(env, file, uninstalled.dropped);
}

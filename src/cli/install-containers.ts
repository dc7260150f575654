/**
 * Writing an agent's settings file for `lore install` / `lore uninstall` while keeping the ledger of
 * what lore created there (store/install/install-ledger.ts): install remembers the top-level members
 * it added, and the file itself when there was none; uninstall takes out what it added and is now
 * empty (the file too, when nothing else is left in it), and nothing the user had.
 */
import { realpathSync, unlinkSync } from 'node:fs';
import { LoreError } from '../core/errors.js';
import { addedTopLevelKeys, dropCreatedKeys } from '../core/install/created-containers.js';
import {
  CREATED_FILE,
  forgetCreatedKeys,
  readCreatedKeys,
  recordCreatedKeys,
} from '../store/install/install-ledger.js';
import { writeSettings } from './agent-hooks.js';

/** Writes an install's text and remembers what it added to `file` (the file, when it had none). */
export function writeInstalled(
  env: NodeJS.ProcessEnv,
  file: string,
  before: string | undefined,
  after: string,
): void {
  writeSettings(file, after);
  recordCreatedKeys(env, file, [
    ...(before === undefined ? [CREATED_FILE] : []),
    ...addedTopLevelKeys(before, after),
  ]);
}

/** `removeFile`: the install created the file and nothing else is left in it. */
export type Uninstalled = { text: string; dropped: string[]; removeFile: boolean };

/** Whether a settings text is an object with nothing in it (`{}`, perhaps formatted, after a byte order mark). */
function isEmptyObject(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text.replace(/^\uFEFF/, ''));
    return (
      value !== null && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0
    );
  } catch {
    return false;
  }
}

/** An uninstall's text without the members lore created in `file` that lore's entries were all of. */
export function withoutCreated(env: NodeJS.ProcessEnv, file: string, text: string): Uninstalled {
  const created = readCreatedKeys(env, file);
  const result = dropCreatedKeys(
    text,
    created.filter((key) => key !== CREATED_FILE),
  );
  const removeFile = created.includes(CREATED_FILE) && isEmptyObject(result.text);
  return { ...result, dropped: removeFile ? [...result.dropped, CREATED_FILE] : result.dropped, removeFile };
}

/**
 * Writes an uninstall's text and forgets the members it took out; a file the install created and
 * that is left empty is removed instead (its target, when it is a symlink: the link is the user's).
 */
export function writeUninstalled(env: NodeJS.ProcessEnv, file: string, uninstalled: Uninstalled): void {
  if (uninstalled.removeFile) {
    try {
      unlinkSync(realpathSync(file));
    } catch (error) {
      throw new LoreError('io', `cannot remove ${file}: ${(error as Error).message}`);
    }
  } else writeSettings(file, uninstalled.text);
  forgetCreatedKeys(env, file, uninstalled.dropped);
}

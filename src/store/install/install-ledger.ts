/**
 * Which top-level members of an agent's settings file `lore install` created (`mcpServers`,
 * `hooks`, Cursor's `version`), and whether it created the file itself (`CREATED_FILE`), so
 * `lore uninstall` takes out those it created and only those: a container the user had before
 * stays, and so does a file the user had. Kept in `$LORE_HOME/cache/installed-containers.json`,
 * keyed by the settings file's absolute path. A missing or damaged ledger reads as empty, and
 * uninstall then keeps every container and the file.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { writeFileAtomic } from '../fs/fs-atomic.js';
import { resolveLoreHome } from '../fs/paths.js';

type Ledger = Record<string, string[]>;

/** The ledger's entry for "the install created this file" (no settings file has this top-level key). */
export const CREATED_FILE = '<the file>';

function ledgerFile(env: NodeJS.ProcessEnv): string {
  return join(resolveLoreHome(env), 'cache', 'installed-containers.json');
}

function readLedger(env: NodeJS.ProcessEnv): Ledger {
  try {
    const value: unknown = JSON.parse(readFileSync(ledgerFile(env), 'utf8'));
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return {};
    return Object.fromEntries(
      Object.entries(value).filter(
        (entry): entry is [string, string[]] =>
          Array.isArray(entry[1]) && entry[1].every((key) => typeof key === 'string'),
      ),
    );
  } catch {
    return {};
  }
}

function writeLedger(env: NodeJS.ProcessEnv, ledger: Ledger): void {
  const file = ledgerFile(env);
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileAtomic(file, `${JSON.stringify(ledger, null, 2)}\n`);
}

/** The members lore created in `file` (empty when it created none, or does not remember). */
export function readCreatedKeys(env: NodeJS.ProcessEnv, file: string): string[] {
  return readLedger(env)[resolve(file)] ?? [];
}

/** Adds `keys` to what lore created in `file`. */
export function recordCreatedKeys(env: NodeJS.ProcessEnv, file: string, keys: readonly string[]): void {
  if (keys.length === 0) return;
  const ledger = readLedger(env);
  const path = resolve(file);
  const known = ledger[path] ?? [];
  const next = [...known, ...keys.filter((key) => !known.includes(key))];
  if (next.length === known.length) return;
  writeLedger(env, { ...ledger, [path]: next });
}

/** Forgets `keys` (uninstall took them out) of `file`. */
export function forgetCreatedKeys(env: NodeJS.ProcessEnv, file: string, keys: readonly string[]): void {
  const ledger = readLedger(env);
  const path = resolve(file);
  const known = ledger[path];
  if (known === undefined || keys.length === 0) return;
  const left = known.filter((key) => !keys.includes(key));
  const { [path]: _gone, ...rest } = ledger;
  writeLedger(env, left.length === 0 ? rest : { ...rest, [path]: left });
}

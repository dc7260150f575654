/**
 * Where lore's files live. The only module that reads the environment for locations.
 *
 * Project tier: the `.lore/` directory found from the working directory upward, the way git finds
 * `.git` (`--root DIR` overrides). User tier: `$LORE_HOME`, default `~/.lore`, same layout.
 */
import { existsSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { toRepoPath } from '../../core/match/repo-path.js';

export const LORE_DIR = '.lore';

/** The file in a tier's cache whose presence means `lore disable`: the hooks answer `{}`. */
export const DISABLED_FILE = 'disabled';

export type TierLayout = {
  /** The `.lore/` directory (project) or `$LORE_HOME` (user). */
  dir: string;
  lessonsDir: string;
  /** Derived files: index, manifest, journal, locks. Never committed. */
  cacheDir: string;
  schemaDir: string;
  configFile: string;
};

/** The organisation tier: lessons `lore pull` brings down, read-only, inside the user tier. */
export function orgTierDir(loreHome: string): string {
  return join(loreHome, 'org');
}

export function tierLayout(dir: string): TierLayout {
  return {
    dir,
    lessonsDir: join(dir, 'lessons'),
    cacheDir: join(dir, 'cache'),
    schemaDir: join(dir, 'schema'),
    configFile: join(dir, 'config.yaml'),
  };
}

/**
 * os.homedir(), without loading node:os (a fifth of a millisecond of the hook's budget) when
 * $HOME gives it, as os.homedir() itself does on POSIX.
 */
export function homeDirectory(): string {
  const home = process.platform === 'win32' ? undefined : process.env.HOME;
  return home !== undefined && home !== '' ? home : process.getBuiltinModule('node:os').homedir();
}

/** os.tmpdir(), without loading node:os on POSIX (the same variables, in the same order). */
export function tempDirectory(): string {
  if (process.platform === 'win32') return process.getBuiltinModule('node:os').tmpdir();
  const env = process.env;
  const dir = env.TMPDIR || env.TMP || env.TEMP || '/tmp';
  return dir.length > 1 && dir.endsWith('/') ? dir.slice(0, -1) : dir;
}

export function resolveLoreHome(env: NodeJS.ProcessEnv, home: string = homeDirectory()): string {
  const fromEnv = env.LORE_HOME?.trim();
  return resolve(fromEnv !== undefined && fromEnv !== '' ? fromEnv : join(home, LORE_DIR));
}

function isDirectory(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false;
}

/**
 * The nearest ancestor of `start` (itself included) holding a `.lore/` directory, skipping the
 * user tier's own directory so that a home directory is never mistaken for a project.
 */
export function findProjectRoot(start: string, loreHome: string): string | undefined {
  let current = resolve(start);
  for (;;) {
    const candidate = join(current, LORE_DIR);
    if (resolve(candidate) !== loreHome && isDirectory(candidate)) return current;
    const parent = dirname(current);
    if (parent === current) return undefined;
    current = parent;
  }
}

/** The nearest ancestor holding `.git` (a directory or a worktree file), else `start` itself. */
export function findRepositoryRoot(start: string): string {
  let current = resolve(start);
  for (;;) {
    if (existsSync(join(current, '.git'))) return current;
    const parent = dirname(current);
    if (parent === current) return resolve(start);
    current = parent;
  }
}

/**
 * Where the hooks work for `cwd`: the cache of the nearest project, else the user tier's when it
 * has lessons; undefined when there is neither. `disabled` is `lore disable`'s mark in that cache.
 */
export function findHookCache(
  cwd: string,
  env: NodeJS.ProcessEnv,
  home?: string,
): { projectRoot: string | undefined; cacheDir: string; disabled: boolean } | undefined {
  const loreHome = resolveLoreHome(env, home);
  const projectRoot = findProjectRoot(cwd, loreHome);
  if (projectRoot === undefined && !existsSync(join(loreHome, 'lessons'))) return undefined;
  const cacheDir = projectRoot === undefined ? join(loreHome, 'cache') : join(projectRoot, LORE_DIR, 'cache');
  return { projectRoot, cacheDir, disabled: existsSync(join(cacheDir, DISABLED_FILE)) };
}

/** Paths of an event relative to `root` in the repository's spelling, dropping those outside it. */
export function repoRelativePaths(paths: readonly string[], root: string): string[] {
  const out: string[] = [];
  for (const path of paths) {
    const rel = relative(root, path);
    if (rel === '' || rel.startsWith('..') || rel.startsWith('/')) continue;
    out.push(toRepoPath(rel));
  }
  return out;
}

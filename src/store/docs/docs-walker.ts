/**
 * The docs walker: Markdown files under the configured docs roots, repo-relative, in a
 * deterministic order. It never enters `.lore/` (checked for each root and again for each file),
 * skips `.git`, `node_modules` and `target`, honours `.gitignore` files (and `.git/info/exclude`)
 * with real gitignore rules, follows a symlink only when it stays inside the repository, and
 * reads each directory once.
 */
import { mkdirSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import type { Dirent } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import ignore from 'ignore';
import type { Ignore } from 'ignore';
import { fileSignature } from '../fs/file-signature.js';
import { writeFileAtomic } from '../fs/fs-atomic.js';
import { LORE_DIR } from '../fs/paths.js';

export const SKIPPED_DIRECTORIES: ReadonlySet<string> = new Set([LORE_DIR, '.git', 'node_modules', 'target']);
export const DOC_EXTENSIONS = /\.(?:md|markdown|mdx)$/i;

export type WalkedDoc = {
  /** Repo-relative POSIX path. */
  path: string;
  /** The expanded root (repo-relative) it was found under. */
  root: string;
  abs: string;
};

export type WalkedRoot = {
  /** As configured. */
  pattern: string;
  /** Existing directories it expanded to (repo-relative; '.' for the repository itself). */
  directories: string[];
  /** Why a configured root gave nothing, when it did not. */
  skipped?: string;
};

export type DocsWalk = { docs: WalkedDoc[]; roots: WalkedRoot[] };

/**
 * The paths a walk's result depends on (directories read, .gitignore files consulted, existing or
 * not), each with its signature taken before it was read: when none changed, neither did the walk.
 */
export type WalkWatch = Map<string, string>;

function watchPath(watch: WalkWatch | undefined, path: string): void {
  if (watch !== undefined && !watch.has(path)) watch.set(path, fileSignature(path));
}

const toPosix = (path: string): string => (sep === '/' ? path : path.split(sep).join('/'));

function isInside(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !rel.startsWith('/') && !/^[A-Za-z]:/.test(rel));
}

/** Normalises a configured root: POSIX, no `./`, no trailing slash; undefined when it leaves the repository. */
export function normalizeDocsRoot(pattern: string): string | undefined {
  const parts: string[] = [];
  for (const part of pattern.trim().replace(/\\/g, '/').split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (parts.length === 0) return undefined;
      parts.pop();
      continue;
    }
    parts.push(part);
  }
  if (pattern.trim().startsWith('/')) return undefined;
  return parts.length === 0 ? '.' : parts.join('/');
}

function segmentMatcher(segment: string): RegExp {
  const source = segment.replace(/[.+^${}()|[\]\\?]/g, '\\$&').replace(/\*/g, '[^/]*');
  return new RegExp(`^${source}$`);
}

function listDirectory(abs: string): Dirent[] {
  try {
    return readdirSync(abs, { withFileTypes: true }).sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
    );
  } catch {
    return [];
  }
}

/** Expands `*` segments against the directories that exist. */
export function expandDocsRoot(repoRoot: string, normalized: string, watch?: WalkWatch): string[] {
  watchPath(watch, repoRoot);
  if (normalized === '.') return ['.'];
  let current = [''];
  for (const segment of normalized.split('/')) {
    const next: string[] = [];
    for (const base of current) {
      watchPath(watch, join(repoRoot, base));
      if (!segment.includes('*')) {
        next.push(base === '' ? segment : `${base}/${segment}`);
        continue;
      }
      const pattern = segmentMatcher(segment);
      for (const entry of listDirectory(join(repoRoot, base))) {
        if (SKIPPED_DIRECTORIES.has(entry.name) || !pattern.test(entry.name)) continue;
        const rel = base === '' ? entry.name : `${base}/${entry.name}`;
        if (statSync(join(repoRoot, rel), { throwIfNoEntry: false })?.isDirectory() ?? false) next.push(rel);
      }
    }
    current = next;
  }
  return current.filter(
    (rel) => statSync(join(repoRoot, rel), { throwIfNoEntry: false })?.isDirectory() ?? false,
  );
}

/** The gitignore rules in force, one level per directory holding a `.gitignore`. */
export function createGitignoreRules(
  repoRoot: string,
  watch?: WalkWatch,
): {
  isIgnored(rel: string, isDirectory: boolean): boolean;
} {
  const levels = new Map<string, Ignore | null>();
  const load = (dir: string): Ignore | null => {
    const cached = levels.get(dir);
    if (cached !== undefined) return cached;
    const files = [join(repoRoot, dir, '.gitignore')];
    if (dir === '') files.push(join(repoRoot, '.git', 'info', 'exclude'));
    let rules: Ignore | null = null;
    for (const file of files) {
      watchPath(watch, file);
      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch {
        continue;
      }
      rules ??= ignore();
      rules.add(text);
    }
    levels.set(dir, rules);
    return rules;
  };
  /** The rule levels in force in `dir`, outermost first (computed once per directory). */
  const chains = new Map<string, { base: string; rules: Ignore }[]>();
  const chainFor = (dir: string): { base: string; rules: Ignore }[] => {
    const cached = chains.get(dir);
    if (cached !== undefined) return cached;
    const slash = dir.lastIndexOf('/');
    const chain = dir === '' ? [] : [...chainFor(slash === -1 ? '' : dir.slice(0, slash))];
    const rules = load(dir);
    if (rules !== null) chain.push({ base: dir, rules });
    chains.set(dir, chain);
    return chain;
  };
  return {
    isIgnored(rel, isDirectory) {
      const slash = rel.lastIndexOf('/');
      let ignored = false;
      for (const { base, rules } of chainFor(slash === -1 ? '' : rel.slice(0, slash))) {
        const below = base === '' ? rel : rel.slice(base.length + 1);
        const result = rules.test(isDirectory ? `${below}/` : below);
        if (result.ignored) ignored = true;
        else if (result.unignored) ignored = false;
      }
      return ignored;
    },
  };
}

export function walkDocs(repoRoot: string, roots: readonly string[], watch?: WalkWatch): DocsWalk {
  const repoReal = realpathSync(repoRoot);
  const loreReal = join(repoReal, LORE_DIR);
  const rules = createGitignoreRules(repoRoot, watch);
  const seen = new Set<string>();
  const docs: WalkedDoc[] = [];
  const walkedRoots: WalkedRoot[] = [];

  const isIgnoredPath = (rel: string, isDirectory: boolean): boolean =>
    rel !== '.' && rules.isIgnored(rel, isDirectory);

  /**
   * `real` is the directory's real path (known without a syscall until a symlink is followed);
   * `visited` holds the real paths of the directories above it, so a symlink loop ends.
   */
  const visit = (rel: string, root: string, real: string, visited: ReadonlySet<string>): void => {
    const abs = rel === '.' ? repoRoot : join(repoRoot, rel);
    watchPath(watch, abs);
    for (const entry of listDirectory(abs)) {
      if (SKIPPED_DIRECTORIES.has(entry.name)) continue;
      const childRel = rel === '.' ? entry.name : `${rel}/${entry.name}`;
      const childAbs = join(abs, entry.name);
      let isDirectory = entry.isDirectory();
      let isFile = entry.isFile();
      let childReal = join(real, entry.name);
      if (entry.isSymbolicLink()) {
        const target = realpathSafe(childAbs);
        if (target === undefined) continue; // dangling
        if (!isInside(repoReal, target) || isInside(loreReal, target)) continue;
        const stat = statSync(target, { throwIfNoEntry: false });
        isDirectory = stat?.isDirectory() ?? false;
        isFile = stat?.isFile() ?? false;
        childReal = target;
      }
      if (isDirectory) {
        if (visited.has(childReal) || isIgnoredPath(childRel, true)) continue;
        visit(childRel, root, childReal, new Set([...visited, childReal]));
      } else if (isFile && DOC_EXTENSIONS.test(entry.name)) {
        if (childRel.split('/').includes(LORE_DIR)) continue;
        if (seen.has(childRel) || isIgnoredPath(childRel, false)) continue;
        seen.add(childRel);
        docs.push({ path: toPosix(childRel), root, abs: childAbs });
      }
    }
  };

  for (const pattern of roots) {
    const normalized = normalizeDocsRoot(pattern);
    if (normalized === undefined) {
      walkedRoots.push({ pattern, directories: [], skipped: 'outside the repository' });
      continue;
    }
    if (normalized.split('/').includes(LORE_DIR)) {
      walkedRoots.push({ pattern, directories: [], skipped: `${LORE_DIR}/ is never a docs root` });
      continue;
    }
    const directories: string[] = [];
    for (const rel of expandDocsRoot(repoRoot, normalized, watch)) {
      const real = realpathSafe(rel === '.' ? repoRoot : join(repoRoot, rel));
      if (real === undefined || !isInside(repoReal, real) || isInside(loreReal, real)) continue;
      if (isIgnoredPath(rel, true)) continue;
      directories.push(rel);
      visit(rel, rel, real, new Set([real]));
    }
    walkedRoots.push({
      pattern,
      directories,
      ...(directories.length === 0 ? { skipped: 'no such directory' } : {}),
    });
  }
  docs.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { docs, roots: walkedRoots };
}

function realpathSafe(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

const WALK_CACHE_VERSION = 2;
type WalkCache = {
  version: number;
  repoRoot: string;
  roots: string[];
  watch: [string, string][];
  /** [path, root] of each doc: the absolute path is the repository root joined with the path. */
  docs: [string, string][];
  walkedRoots: WalkedRoot[];
};

/**
 * `walkDocs`, answered from `cacheFile` when no directory it read and no .gitignore it consulted
 * changed since (a stat each, instead of reading every directory and testing every path).
 */
export function walkDocsCached(repoRoot: string, roots: readonly string[], cacheFile: string): DocsWalk {
  try {
    const cache = JSON.parse(readFileSync(cacheFile, 'utf8')) as WalkCache;
    if (
      cache.version === WALK_CACHE_VERSION &&
      cache.repoRoot === repoRoot &&
      cache.roots.length === roots.length &&
      cache.roots.every((root, index) => root === roots[index]) &&
      cache.watch.every(([path, signature]) => fileSignature(path) === signature)
    ) {
      const prefix = repoRoot.endsWith(sep) ? repoRoot : `${repoRoot}${sep}`;
      return {
        docs: cache.docs.map(([path, root]) => ({
          path,
          root,
          abs: prefix + (sep === '/' ? path : path.split('/').join(sep)),
        })),
        roots: cache.walkedRoots,
      };
    }
  } catch {
    // no cache, or unreadable: walk below
  }
  const watch: WalkWatch = new Map();
  const walk = walkDocs(repoRoot, roots, watch);
  try {
    mkdirSync(dirname(cacheFile), { recursive: true });
    const cache: WalkCache = {
      version: WALK_CACHE_VERSION,
      repoRoot,
      roots: [...roots],
      watch: [...watch],
      docs: walk.docs.map((doc) => [doc.path, doc.root]),
      walkedRoots: walk.roots,
    };
    writeFileAtomic(cacheFile, JSON.stringify(cache));
  } catch {
    // a cache that cannot be written only costs speed next time
  }
  return walk;
}

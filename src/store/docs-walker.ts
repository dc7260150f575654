/**
 * The docs walker: Markdown files under the configured docs roots, repo-relative, in a
 * deterministic order. It never enters `.lore/` (checked for each root and again for each file),
 * skips `.git`, `node_modules` and `target`, honours `.gitignore` files (and `.git/info/exclude`)
 * with real gitignore rules, follows a symlink only when it stays inside the repository, and
 * reads each directory once.
 */
import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import type { Dirent } from 'node:fs';
import { join, relative, sep } from 'node:path';
import ignore from 'ignore';
import type { Ignore } from 'ignore';
import { LORE_DIR } from './paths.js';

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
export function expandDocsRoot(repoRoot: string, normalized: string): string[] {
  if (normalized === '.') return ['.'];
  let current = [''];
  for (const segment of normalized.split('/')) {
    const next: string[] = [];
    for (const base of current) {
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
export function createGitignoreRules(repoRoot: string): {
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
  return {
    isIgnored(rel, isDirectory) {
      const parts = rel.split('/');
      let ignored = false;
      for (let depth = 0; depth < parts.length; depth += 1) {
        const dir = parts.slice(0, depth).join('/');
        const rules = load(dir);
        if (rules === null) continue;
        const below = parts.slice(depth).join('/');
        const result = rules.test(isDirectory ? `${below}/` : below);
        if (result.ignored) ignored = true;
        else if (result.unignored) ignored = false;
      }
      return ignored;
    },
  };
}

export function walkDocs(repoRoot: string, roots: readonly string[]): DocsWalk {
  const repoReal = realpathSync(repoRoot);
  const loreReal = join(repoReal, LORE_DIR);
  const rules = createGitignoreRules(repoRoot);
  const seen = new Set<string>();
  const docs: WalkedDoc[] = [];
  const walkedRoots: WalkedRoot[] = [];

  const isIgnoredPath = (rel: string, isDirectory: boolean): boolean =>
    rel !== '.' && rules.isIgnored(rel, isDirectory);

  const visit = (rel: string, root: string, visited: Set<string>): void => {
    const abs = rel === '.' ? repoRoot : join(repoRoot, rel);
    for (const entry of listDirectory(abs)) {
      if (SKIPPED_DIRECTORIES.has(entry.name)) continue;
      const childRel = rel === '.' ? entry.name : `${rel}/${entry.name}`;
      const childAbs = join(abs, entry.name);
      let isDirectory = entry.isDirectory();
      let isFile = entry.isFile();
      let real: string | undefined;
      if (entry.isSymbolicLink()) {
        try {
          real = realpathSync(childAbs);
        } catch {
          continue; // dangling
        }
        if (!isInside(repoReal, real) || isInside(loreReal, real)) continue;
        const stat = statSync(real, { throwIfNoEntry: false });
        isDirectory = stat?.isDirectory() ?? false;
        isFile = stat?.isFile() ?? false;
      }
      if (isDirectory) {
        if (isIgnoredPath(childRel, true)) continue;
        const key = real ?? realpathSafe(childAbs);
        if (key === undefined || visited.has(key)) continue;
        visit(childRel, root, new Set([...visited, key]));
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
    for (const rel of expandDocsRoot(repoRoot, normalized)) {
      const real = realpathSafe(rel === '.' ? repoRoot : join(repoRoot, rel));
      if (real === undefined || !isInside(repoReal, real) || isInside(loreReal, real)) continue;
      if (isIgnoredPath(rel, true)) continue;
      directories.push(rel);
      visit(rel, rel, new Set([real]));
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

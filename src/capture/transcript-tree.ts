/**
 * What a scan's roots hold: every file below each root (walk-files.ts) with the numbers the scan
 * state keys a transcript on (mtime, size, inode; scan-file.ts `signatureMatches`). `lore scan`
 * reads it when it counts changed files, keeps it in the scan stamp (scan-stamp.ts) after a scan
 * with nothing new, and the next scan compares a fresh one with it before anything else. Node
 * built-ins only: the comparison runs from the CLI's launcher bundle.
 */
import { resolve, sep } from 'node:path';
import { statNumbers } from '../store/fs/stat-numbers.js';
import type { StatNumbers } from '../store/fs/stat-numbers.js';
import { walk } from './walk-files.js';
import type { SkippedPath } from './walk-files.js';

/** A root as the scan was given it (scan-transcripts.ts `ScanRoot`). */
type Root = { path: string; agent?: string };

export type TranscriptTree = {
  /** Per root, in order: its resolved path, its agent, and its files (absolute, sorted). */
  roots: { base: string; agent: string | null; files: string[] }[];
  /** Each file's numbers; undefined when it was gone by the time it was stat-ed. */
  stats: Map<string, StatNumbers | undefined>;
  /** Folders that could not be listed, left out (walk-files.ts). */
  skipped: SkippedPath[];
};

/** A tree as JSON keeps it: per root its files relative to it, and three numbers a file. */
export type StoredTree = {
  roots: { base: string; agent: string | null; files: string[]; numbers: number[] }[];
};

/** Lists every root and stats every file below it (a file under two roots is stat-ed once). */
export function readTranscriptTree(roots: readonly Root[]): TranscriptTree {
  const stats = new Map<string, StatNumbers | undefined>();
  const skipped: SkippedPath[] = [];
  const listed = roots.map((root) => {
    const base = resolve(root.path);
    const files = walk(base, (folder) => skipped.push(folder));
    for (const file of files) if (!stats.has(file)) stats.set(file, statNumbers(file));
    return { base, agent: root.agent ?? null, files };
  });
  return { roots: listed, stats, skipped };
}

/** The tree as the stamp stores it; undefined when a file vanished between its listing and its stat. */
export function storedTree(tree: TranscriptTree): StoredTree | undefined {
  const roots: StoredTree['roots'] = [];
  for (const root of tree.roots) {
    const prefix = root.base.endsWith(sep) ? root.base : `${root.base}${sep}`;
    const files: string[] = [];
    const numbers: number[] = [];
    for (const file of root.files) {
      const stat = tree.stats.get(file);
      if (stat === undefined) return undefined;
      files.push(file.startsWith(prefix) ? file.slice(prefix.length) : file);
      numbers.push(stat.mtimeMs, stat.size, stat.ino);
    }
    roots.push({ base: root.base, agent: root.agent, files, numbers });
  }
  return { roots };
}

/** The same roots, the same files, each with the same mtime, size and inode. */
export function sameTree(a: StoredTree, b: StoredTree): boolean {
  if (a.roots.length !== b.roots.length) return false;
  return a.roots.every((root, r) => {
    const other = b.roots[r];
    return (
      other !== undefined &&
      root.base === other.base &&
      root.agent === other.agent &&
      sameList(root.files, other.files) &&
      sameList(root.numbers, other.numbers)
    );
  });
}

function sameList<T>(a: readonly T[], b: readonly T[]): boolean {
  if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i += 1) if (a[i] !== b[i]) return false;
  return true;
}

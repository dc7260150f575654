/**
 * The scan stamp, `<cache>/capture/scan-stamp.json`: what a `lore scan` that found nothing new
 * printed, with everything that answer depended on, so that the next `lore scan` can tell from a
 * directory walk and some stats, before it opens the workspace, that it would print the same
 * again, and print it (src/cli/unchanged-scan.ts). It holds:
 *
 *   build    the signature of the lore that wrote it (dist/cli/lore.cjs: every build and install
 *            rewrites it); another lore may print otherwise
 *   atMs     when that scan ran; a clock set back falls through (see below)
 *   watched  the signature of every other file the answer read, taken before the scan read it:
 *            the scan state (its file signatures) and backlog, the config files, each own tier's audit log
 *            and outcome records, the journal folder (a killed write to finish) and every tier's
 *            lessons/ folder (a lesson in the old flat layout fails the scan)
 *   tree     every file below the default folders with its mtime, size and inode, as the scan
 *            found them unchanged against the scan state (transcript-tree.ts)
 *   output   the command's data (`--json`) and text
 *
 * The scan that writes it (src/cli/commands/scan.ts) has read nothing new, noted nothing on
 * stderr, and left no injection of the audit logs open (none judged, pending, of an unknown lesson
 * or of a session without a transcript), and no lesson in the outcome records has the repeats a
 * guard proposal needs whatever its type. Then the same files give the same answer later: an
 * injection that was neither open nor judged was past the outcome horizon, and stays past it as
 * time goes on. Node built-ins and the small path modules only: the check runs from the launcher.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { OUTCOMES_FILE } from '../core/feedback/outcome-record.js';
import { fileSignature, MISSING_SIGNATURE } from '../store/fs/file-signature.js';
import { writeFileAtomic } from '../store/fs/fs-atomic.js';
import { findProjectRoot, LORE_DIR, orgTierDir, resolveLoreHome, tierLayout } from '../store/fs/paths.js';
import { AUDIT_FILE } from '../store/hook-state/audit-log.js';
import { defaultRoots } from './default-roots.js';
import { readTranscriptTree, sameTree, storedTree } from './transcript-tree.js';
import type { StoredTree, TranscriptTree } from './transcript-tree.js';

const STAMP_VERSION = 1;

export type ScanOutput = { data: unknown; text: string };

export type ScanStamp = {
  version: typeof STAMP_VERSION;
  build: string;
  atMs: number;
  watched: [path: string, signature: string][];
  tree: StoredTree;
  output: ScanOutput;
};

/** Where a workspace keeps its stamp, and the files the stamp watches, found as openWorkspace finds them. */
export type StampPlace = {
  /** The workspace's cache (the project's, else the user tier's). */
  cacheDir: string;
  stampPath: string;
  /** The lesson index: a scan that finds it missing says so, so it must be there. */
  indexPath: string;
  watched: string[];
};

export function stampPlace(cwd: string, env: NodeJS.ProcessEnv): StampPlace {
  const loreHome = resolveLoreHome(env);
  const projectRoot = findProjectRoot(cwd, loreHome);
  const user = tierLayout(loreHome);
  const project = projectRoot === undefined ? undefined : tierLayout(join(projectRoot, LORE_DIR));
  const own = project ? [project, user] : [user];
  const cacheDir = (project ?? user).cacheDir;
  const capture = join(cacheDir, 'capture');
  return {
    cacheDir,
    stampPath: join(capture, 'scan-stamp.json'),
    indexPath: join(cacheDir, 'index.db'),
    watched: [
      join(capture, 'scan-state.json'),
      // drafts a capped scan left out: the next scan writes them
      join(capture, 'scan-state-backlog.json'),
      ...own.map((tier) => tier.configFile),
      ...own.flatMap((tier) => [join(tier.cacheDir, AUDIT_FILE), join(tier.cacheDir, OUTCOMES_FILE)]),
      join(cacheDir, 'journal'),
      ...[...own, tierLayout(orgTierDir(loreHome))].map((tier) => tier.lessonsDir),
    ],
  };
}

/** The watched files' signatures now. */
export function signWatched(place: StampPlace): [string, string][] {
  return place.watched.map((path) => [path, fileSignature(path)]);
}

/** The signature of the lore running (its launcher, dist/cli/lore.cjs); `-` when there is none. */
export function loreBuild(): string {
  return fileSignature(fileURLToPath(new URL('../cli/lore.cjs', import.meta.url)));
}

/** Writes the stamp of a scan with nothing new; never throws (without it the next scan is only slower). */
export function writeScanStamp(
  place: StampPlace,
  input: { watched: [string, string][]; tree: TranscriptTree; atMs: number; output: ScanOutput },
): void {
  const build = loreBuild();
  const tree = storedTree(input.tree);
  if (build === MISSING_SIGNATURE || tree === undefined) return;
  const stamp: ScanStamp = {
    version: STAMP_VERSION,
    build,
    atMs: input.atMs,
    watched: input.watched,
    tree,
    output: input.output,
  };
  try {
    mkdirSync(dirname(place.stampPath), { recursive: true });
    writeFileAtomic(place.stampPath, JSON.stringify(stamp));
  } catch {
    // the next scan runs in full
  }
}

function readStamp(path: string): Partial<ScanStamp> | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as Partial<ScanStamp>;
  } catch {
    return undefined;
  }
}

function sameWatched(stamped: unknown, now: readonly [string, string][]): boolean {
  return (
    Array.isArray(stamped) &&
    stamped.length === now.length &&
    now.every(([path, signature], i) => {
      const entry = (stamped as unknown[])[i];
      return Array.isArray(entry) && entry[0] === path && entry[1] === signature;
    })
  );
}

/**
 * What the last scan printed, when a scan of the default folders now would print it again:
 * the same lore, no clock set back, the index there, every watched file as it was, and every file
 * below the folders with the mtime, size and inode it had. Undefined otherwise (then the scan runs).
 */
export function unchangedScanOutput(
  place: StampPlace,
  env: NodeJS.ProcessEnv,
  home: string,
  nowMs: number,
): ScanOutput | undefined {
  const stamp = readStamp(place.stampPath);
  if (stamp?.version !== STAMP_VERSION || stamp.output === undefined || stamp.tree === undefined)
    return undefined;
  if (stamp.build !== loreBuild() || typeof stamp.atMs !== 'number' || nowMs < stamp.atMs) return undefined;
  if (!existsSync(place.indexPath) || !sameWatched(stamp.watched, signWatched(place))) return undefined;
  const tree = storedTree(readTranscriptTree(defaultRoots(env, home)));
  return tree !== undefined && sameTree(stamp.tree, tree) ? stamp.output : undefined;
}

/**
 * The index's freshness scan: what the tiers' lesson and votes files look like now, as one
 * aggregate (equal aggregate, nothing changed) and, when it changed, as per-file signatures.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, resolve, sep } from 'node:path';
import { isAbandonedTemp } from '../fs/fs-atomic.js';
import { fileSignature, STAMP_WIDTH, stampSignature } from '../fs/file-signature.js';
import { inDirectory, stampFile } from '../fs/stat-numbers.js';
import { createAggregate } from './scan-aggregate.js';
import { LESSON_FILE, VOTES_FILE } from '../lessons/tier-store.js';
import type { LessonDir, TierStore } from '../lessons/tier-store.js';

/** A full scan (every votes file looked for) at least this often, whatever the context says. */
export const FULL_SCAN_MS = 10 * 60_000;

/** Per lesson: lesson.yaml's stamps, then votes.jsonl's. */
const LESSON_WIDTH = 2 * STAMP_WIDTH;

/**
 * What the freshness check reads: one readdir per tier, then a stat of each lesson.yaml and
 * votes.jsonl (in-place edits change nothing else). Per lesson it keeps only the numbers, in a
 * typed array: Node 20 builds four Date objects per Stats, and keeping 20,000 Stats (or any
 * object per lesson) alive until the end of the scan makes the garbage collector cost as much as
 * the stat calls. The aggregate is an order-independent sum of per-file hashes, so nothing is
 * sorted and no string is built per file; equal aggregate, nothing changed.
 */
type TierScan = {
  tier: TierStore;
  names: string[];
  /** Per name: lesson.yaml's stamps, then votes.jsonl's (see file-signature.ts); NaN when missing. */
  stamps: Float64Array;
  /** Names of directories without lesson.yaml, with what they hold. */
  orphans: Map<string, string>;
};

export type Scan = {
  tiers: TierScan[];
  legacy: string[];
  aggregate: string;
  /** Only the votes files the last full scan found were stat-ed (see `freshnessContext`). */
  lite: boolean;
  /** `<tier index>:<name>` of each lesson with a votes file (complete after a full scan). */
  voted: string[];
  /** Each tier's lessons/ listing (null: no such directory). */
  listings: (readonly string[] | null)[];
};

/**
 * A lite scan's knowledge from the last full scan: the lessons with a votes file
 * (`<tier index>:<name>`), and each tier's directory listing (valid while the directory's mtime,
 * part of the freshness context, is unchanged).
 */
export type ScanHint = { voted: ReadonlySet<string>; listings: readonly (readonly string[] | null)[] };

/** A file the index keeps a signature of: a lesson, its votes, or a lesson directory without lesson.yaml. */
export type Signature = { path: string; sig: string; kind: 'lesson' | 'votes' | 'dir'; dir: LessonDir };

/** A tier's lessons/ listing: as the hint knows it, or read now; null when there is none. */
function listTier(tier: TierStore, known: readonly string[] | null | undefined): readonly string[] | null {
  if (known !== undefined) return known;
  try {
    return readdirSync(tier.layout.lessonsDir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    return null;
  }
}

/** Per tier index, the names of the lessons `voted` (`<tier index>:<name>`) says have a votes file. */
function votedByTier(voted: ReadonlySet<string>): Map<number, Set<string>> {
  const byTier = new Map<number, Set<string>>();
  for (const key of voted) {
    const colon = key.indexOf(':');
    if (colon <= 0) continue;
    const t = Number(key.slice(0, colon));
    let names = byTier.get(t);
    if (names === undefined) byTier.set(t, (names = new Set()));
    names.add(key.slice(colon + 1));
  }
  return byTier;
}

const NO_NAMES: ReadonlySet<string> = new Set();

/**
 * `hint` makes a lite scan (see ScanHint); without it every directory is listed and every votes file
 * stat-ed. The loop runs once per lesson on every read, mostly before V8 has optimised it: it
 * builds no string but the two paths it stats (a name is looked up in a per-tier set, not as a
 * `tier:name` key), and no object.
 */
export function scanTiers(tiers: readonly TierStore[], hint?: ScanHint): Scan {
  const voted = hint === undefined ? undefined : votedByTier(hint.voted);
  const listings: (readonly string[] | null)[] = [];
  const scans: TierScan[] = [];
  const votedNow: string[] = [];
  const legacy: string[] = [];
  const aggregate = createAggregate();
  const lessonFile = `${sep}${LESSON_FILE}`;
  const votesFile = `${sep}${VOTES_FILE}`;
  for (const [t, tier] of tiers.entries()) {
    const names = listTier(tier, hint?.listings[t]);
    listings.push(names);
    if (names === null) continue;
    const withVotes = voted?.get(t) ?? (voted === undefined ? undefined : NO_NAMES);
    const stamps = new Float64Array(names.length * LESSON_WIDTH);
    const orphans = new Map<string, string>();
    const kept: string[] = [];
    // paths relative to the lessons folder, where inDirectory can go: see there
    inDirectory(tier.layout.lessonsDir, (prefix) => {
      for (const name of names) {
        if (name.charCodeAt(0) === 46) continue; // '.'
        const at = kept.length * LESSON_WIDTH;
        if (stampFile(prefix + name + lessonFile, stamps, at)) {
          kept.push(name);
          aggregate.add(name, t * 4 + 1, stamps, at);
          if (withVotes !== undefined && !withVotes.has(name)) {
            stamps.fill(Number.NaN, at + STAMP_WIDTH, at + LESSON_WIDTH);
          } else if (stampFile(prefix + name + votesFile, stamps, at + STAMP_WIDTH)) {
            aggregate.add(name, t * 4 + 2, stamps, at + STAMP_WIDTH);
            votedNow.push(`${t}:${name}`);
          }
          continue;
        }
        // Rare: not a directory (a legacy file, a stray file) or a directory without lesson.yaml.
        const dir = `${tier.layout.lessonsDir}${sep}${name}`;
        const stat = statSync(dir, { throwIfNoEntry: false });
        if (stat?.isFile() && /\.ya?ml$/.test(name)) legacy.push(dir);
        if (!stat?.isDirectory()) continue;
        const held = orphanSignature(dir);
        kept.push(name);
        orphans.set(name, held);
        stamps.fill(Number.NaN, at, at + LESSON_WIDTH);
        aggregate.add(`${name}\u0000${held}`, t * 4 + 3, new Float64Array(STAMP_WIDTH), 0);
      }
    });
    scans.push({ tier, names: kept, stamps, orphans });
  }
  legacy.sort();
  return {
    tiers: scans,
    legacy,
    aggregate: aggregate.value(),
    lite: voted !== undefined,
    voted: votedNow,
    listings,
  };
}

/** Stored listings, if they are one per tier. */
export function parseListings(text: string | undefined, tiers: number): (string[] | null)[] | undefined {
  if (text === undefined) return undefined;
  try {
    const value = JSON.parse(text) as unknown;
    if (!Array.isArray(value) || value.length !== tiers) return undefined;
    return value.every(
      (entry) => entry === null || (Array.isArray(entry) && entry.every((n) => typeof n === 'string')),
    )
      ? (value as (string[] | null)[])
      : undefined;
  } catch {
    return undefined;
  }
}

/** The index file of the git repository at `root` (`.git` may be a worktree's `gitdir:` file). */
function gitIndexPath(root: string): string | undefined {
  const dotGit = `${root}${sep}.git`;
  try {
    const stat = statSync(dotGit, { throwIfNoEntry: false });
    if (stat === undefined) return undefined;
    if (stat.isDirectory()) return `${dotGit}${sep}index`;
    const gitdir = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, 'utf8'))?.[1]?.trim();
    return gitdir === undefined ? undefined : resolve(root, gitdir, 'index');
  } catch {
    return undefined;
  }
}

/**
 * What a votes file can appear by, outside lore (lore's own writes refresh the index in full):
 * git (a checkout, pull or merge rewrites the git index) and new lesson directories. While this
 * holds (and for FULL_SCAN_MS at most), a read lists no directory (the listings are as stored,
 * since the directories' mtimes are unchanged) and stats only the votes files it knew of: a
 * lesson file edited in place is still noticed (every lesson.yaml is stat-ed), and a votes file
 * copied in by hand waits for the next full scan or `lore sync`.
 */
export function freshnessContext(tiers: readonly TierStore[]): string {
  return tiers
    .map((tier) => {
      const index = gitIndexPath(dirname(tier.layout.dir));
      return `${fileSignature(tier.layout.lessonsDir)}|${index === undefined ? '-' : fileSignature(index)}`;
    })
    .join('\n');
}

/** Per-file signatures, built only when the aggregate says something changed. */
export function signaturesOf(scan: Scan): Signature[] {
  const signatures: Signature[] = [];
  for (const { tier, names, stamps, orphans } of scan.tiers) {
    for (const [i, name] of names.entries()) {
      const dir = tier.lessonDir(name);
      const held = orphans.get(name);
      if (held !== undefined) {
        signatures.push({ path: dir.dir, sig: held, kind: 'dir', dir });
        continue;
      }
      const at = i * LESSON_WIDTH;
      signatures.push({ path: dir.yamlPath, sig: stampSignature(stamps, at), kind: 'lesson', dir });
      if (!Number.isNaN(stamps[at + STAMP_WIDTH])) {
        signatures.push({
          path: dir.votesPath,
          sig: stampSignature(stamps, at + STAMP_WIDTH),
          kind: 'votes',
          dir,
        });
      }
    }
  }
  return signatures;
}

/** See `LessonIndex.contentParts`: `<lesson.yaml>|<votes.jsonl>` signatures by `tier:id`. */
export function contentPartsOf(scan: Scan): Record<string, string> {
  const parts: Record<string, string> = {};
  for (const { tier, names, stamps } of scan.tiers) {
    for (const [i, name] of names.entries()) {
      const at = i * LESSON_WIDTH;
      parts[`${tier.tier}:${name}`] =
        `${stampSignature(stamps, at)}|${stampSignature(stamps, at + STAMP_WIDTH)}`;
    }
  }
  return parts;
}

/** A lesson directory without lesson.yaml: a crashed writer's claim (ignored) or a real problem. */
function orphanSignature(dir: string): string {
  try {
    const names = readdirSync(dir).filter((name) => !isAbandonedTemp(name) && !name.startsWith('.'));
    return names.length === 0 ? 'empty' : `orphan:${names.sort().join(',')}`;
  } catch {
    return 'empty';
  }
}

/**
 * The writer's side of incremental manifest updates: after a lore write of a few lessons, their
 * blocks, the key tables, the words table and the head are rewritten (under new file names in the
 * same generation directory, the head last and atomically), so a hook reading at any moment sees
 * either the old manifest or the new one. Every manifest writer (this patch, the full build from
 * the CLI, the background rebuilder) holds one lock, so a patch always applies to the head it read.
 *
 *   <cache>/manifest/state.json   the writer's state (see ManifestState): ordinals, shadowed
 *                                 user lessons, content signature parts; never read by the hook
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { entryKey, patchManifest } from '../../core/manifest/patch-manifest.js';
import type { LessonChange, ManifestState } from '../../core/manifest/patch-manifest.js';
import type { ManifestHead, ManifestWords, SourceStamp } from '../../core/inject/types.js';
import type { Tier } from '../../core/lesson/schema.js';
import { unlinkQuietly, writeFileAtomic } from '../fs/fs-atomic.js';
import { withLocks } from '../fs/lock.js';
import { fileSignature } from '../fs/file-signature.js';
import {
  blockFile,
  withManifestReader,
  manifestDir,
  readManifestHead,
  readManifestLiterals,
  sourcePaths,
  stampSources,
  writeLiteralIndex,
} from '../hook-state/manifest-files.js';
import { LiteralIndexError } from '../hook-state/literal-index.js';
import type { ParseLesson } from '../lessons/load-lesson.js';
import { readableLessonText } from '../lessons/tier-store.js';
import type { TierStore } from '../lessons/tier-store.js';
import { lessonSource } from './lesson-source.js';

export const STATE_FILE = 'state.json';
export const SIGNATURE_FILE = 'signature';

/** The lock every manifest writer holds while it writes. */
export function manifestWriteLock(cacheDir: string): string {
  return join(cacheDir, 'locks', 'manifest-write.lock');
}

export function withManifestLock<T>(cacheDir: string, fn: () => T): T {
  return withLocks([manifestWriteLock(cacheDir)], fn);
}

export function readManifestState(cacheDir: string): ManifestState | undefined {
  try {
    const state = JSON.parse(readFileSync(join(manifestDir(cacheDir), STATE_FILE), 'utf8')) as ManifestState;
    if (state === null || typeof state !== 'object' || !Array.isArray(state.entries)) return undefined;
    return state;
  } catch {
    return undefined;
  }
}

export function writeManifestState(cacheDir: string, state: ManifestState): void {
  writeFileAtomic(join(manifestDir(cacheDir), STATE_FILE), JSON.stringify(state));
}

/**
 * One lesson directory's part of the content signature: its two files' signatures (as the index's
 * scan signs them, see `LessonIndex.contentParts`).
 */
export function lessonFilesPart(yamlPath: string, votesPath: string): string {
  return `${fileSignature(yamlPath)}|${fileSignature(votesPath)}`;
}

/** Every lesson directory's signature part, by `tier:id` (two stats per lesson). */
export function contentFiles(tiers: readonly TierStore[]): Record<string, string> {
  const files: Record<string, string> = {};
  for (const tier of tiers) {
    for (const dir of tier.list().dirs)
      files[entryKey(tier.tier, dir.id)] = lessonFilesPart(dir.yamlPath, dir.votesPath);
  }
  return files;
}

/**
 * A digest of the parts, independent of their order: a sum of per-entry hashes, so a patch can
 * keep it current by replacing the parts of the lessons it wrote.
 */
export function signatureOfFiles(files: Readonly<Record<string, string>>): string {
  let sumA = 0;
  let sumB = 0;
  let count = 0;
  for (const key in files) {
    const text = `${key}\u0000${files[key] as string}`;
    let a = 0x811c9dc5;
    let b = 0x01000193;
    for (let i = 0; i < text.length; i += 1) {
      const c = text.charCodeAt(i);
      a = Math.imul(a ^ c, 0x01000193);
      b = Math.imul(b ^ c, 0x5bd1e995);
      b ^= b >>> 15;
    }
    sumA = (sumA + (a >>> 0)) % 0x100000000;
    sumB = (sumB + (b >>> 0)) % 0x100000000;
    count += 1;
  }
  return `${sumA.toString(16).padStart(8, '0')}${sumB.toString(16).padStart(8, '0')}:${count}`;
}

export type PatchTarget = {
  cacheDir: string;
  tiers: readonly TierStore[];
  halfLifeDays: number;
  /** The manifest's source stamps as this process saw them before it wrote anything. */
  sourcesBefore: readonly SourceStamp[];
  /**
   * Every lesson directory's content stamps as they are now, after the write (the index's scan,
   * see `LessonIndex.contentParts`): the patched manifest must account for exactly these, or
   * something else changed the store too and only a full build sees what.
   */
  contentNow: Readonly<Record<string, string>>;
  /** The YAML parser (`parseLessonYaml`, loaded by the caller), for the one lesson loader. */
  parse: ParseLesson;
};

export type PatchResult = { patched: true; head: ManifestHead } | { patched: false; reason: string };

function sameStamps(a: readonly SourceStamp[], b: readonly SourceStamp[]): boolean {
  return a.length === b.length && a.every((s, i) => s.path === b[i]?.path && s.sig === b[i]?.sig);
}

function sameParts(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
  let count = 0;
  for (const key in a) {
    if (a[key] !== b[key]) return false;
    count += 1;
  }
  return count === Object.keys(b).length;
}

function readJson<T>(path: string): T | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

/**
 * Applies a write of `changed` lessons to the manifest on disk, or says why it cannot (then the
 * caller builds in full). Holds the manifest lock.
 */
export function patchManifestFiles(
  target: PatchTarget,
  changed: readonly { tier: Tier; id: string }[],
  nowMs: number,
): PatchResult {
  const { cacheDir } = target;
  return withManifestLock(cacheDir, (): PatchResult => {
    const head = readManifestHead(cacheDir);
    if (head === undefined) return { patched: false, reason: 'no manifest' };
    const state = readManifestState(cacheDir);
    if (state === undefined || state.generation !== head.generation || state.revision !== head.revision) {
      return { patched: false, reason: 'no writer state for this manifest' };
    }
    // The manifest must have been current when this process started (before its own writes):
    // otherwise something else changed the store, and only a full build sees what.
    if (!sameStamps(head.sources, target.sourcesBefore))
      return { patched: false, reason: 'manifest was stale' };
    const paths = sourcePaths(target.tiers.map((tier) => tier.layout.dir));

    const changes: LessonChange[] = [];
    const files: Record<string, string | undefined> = {};
    const seen = new Set<string>();
    for (const { tier: tierName, id } of changed) {
      const key = entryKey(tierName, id);
      if (seen.has(key)) continue;
      seen.add(key);
      const tier = target.tiers.find((t) => t.tier === tierName);
      if (tier === undefined) return { patched: false, reason: `no ${tierName} tier` };
      const dir = tier.lessonDir(id);
      const text = readableLessonText(tier, id);
      files[key] = text === undefined ? undefined : lessonFilesPart(dir.yamlPath, dir.votesPath);
      if (text === undefined) {
        changes.push({ tier: tierName, id });
        continue;
      }
      const source = lessonSource(tier, id, text, target.parse, nowMs, target.halfLifeDays);
      changes.push(source === undefined ? { tier: tierName, id } : { tier: tierName, id, source });
    }

    const dir = join(manifestDir(cacheDir), head.generation);
    const token = `${nowMs.toString(36)}${Math.floor(Math.random() * 0x10000)
      .toString(36)
      .padStart(4, '0')}`;
    const result = withDamagedAsFull(() =>
      withManifestReader(cacheDir, head, (reader) =>
        patchManifest({
          head,
          state,
          changes,
          token,
          nowMs,
          files,
          readBlock: (n) => reader.readBlock(n),
          readLiterals: () => readManifestLiterals(cacheDir, head),
          readWords: () => {
            const patch = head.patched.words;
            return readJson<ManifestWords>(
              join(dir, patch === undefined ? 'words.json' : `words-${patch}.json`),
            );
          },
        }),
      ),
    );
    if ('full' in result) return { patched: false, reason: result.full };
    if (!sameParts(result.state.files, target.contentNow)) {
      return { patched: false, reason: 'lesson files changed elsewhere' };
    }

    // Files the previous patch replaced are unused by now; what this one replaces goes next time.
    for (const name of state.garbage) unlinkQuietly(join(dir, name));
    const garbage: string[] = [];
    for (const [n, block] of result.blocks) {
      const previous = n * head.blockSize < head.lessonCount;
      const [lessonsFile, textsFile] = [blockFile(head, 'b', n), blockFile(head, 't', n)];
      if (previous && lessonsFile !== undefined && textsFile !== undefined)
        garbage.push(lessonsFile, textsFile);
      // Fresh names no head refers to yet: plain writes; the head, renamed in last, publishes them.
      writeFileSync(join(dir, `b${n}-${token}.json`), JSON.stringify(block.lessons));
      writeFileSync(join(dir, `t${n}-${token}.json`), JSON.stringify(block.texts));
    }
    if (result.words !== undefined) {
      const patch = head.patched.words;
      garbage.push(patch === undefined ? 'words.json' : `words-${patch}.json`);
      writeFileSync(join(dir, `words-${token}.json`), JSON.stringify(result.words));
    }
    let index = result.head.index;
    if (result.literals !== undefined) {
      garbage.push(...Object.values(head.index));
      index = writeLiteralIndex(dir, result.literals, token);
    }
    const newState: ManifestState = { ...result.state, garbage };
    const newHead: ManifestHead = { ...result.head, index, sources: stampSources(paths) };
    writeManifestState(cacheDir, newState);
    writeFileAtomic(join(manifestDir(cacheDir), SIGNATURE_FILE), `${signatureOfFiles(newState.files)}\n`);
    writeFileAtomic(join(manifestDir(cacheDir), 'head.json'), JSON.stringify(newHead));
    return { patched: true, head: newHead };
  });
}

/** A damaged manifest (a pack or a literal index) is not patched in place: a full build replaces it. */
function withDamagedAsFull<T>(patch: () => T): T | { full: string } {
  try {
    return patch();
  } catch (error) {
    if (error instanceof LiteralIndexError) return { full: `manifest damaged: ${error.message}` };
    throw error;
  }
}

/**
 * One tier of lessons on disk: `<dir>/lessons/<id>/lesson.yaml` plus its `votes.jsonl` sidecar.
 * The project tier is `.lore/` in the repository; the user tier is `$LORE_HOME`. Both have this
 * same layout, so one implementation (and one contract test suite) serves both.
 */
import { mkdirSync, readdirSync, readFileSync, rmdirSync, statSync } from 'node:fs';
import type { Dirent } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import type { Tier } from '../../core/lesson/schema.js';
import { createLessonId, ID_RANDOM_BYTES } from '../../core/lesson/lesson-id.js';
import { parseVotes, voteKey } from '../../core/rank/votes.js';
import type { Vote } from '../../core/rank/votes.js';
import type { Problem } from '../../core/errors.js';
import {
  appendLine,
  claimDirectory,
  isAbandonedTemp,
  isTempName,
  unlinkQuietly,
  writeFileAtomic,
} from '../fs/fs-atomic.js';
import { statNumbers } from '../fs/stat-numbers.js';
import { readUtf8File } from '../fs/read-utf8.js';
import { tierLayout } from '../fs/paths.js';
import type { TierLayout } from '../fs/paths.js';

export const LESSON_FILE = 'lesson.yaml';
export const VOTES_FILE = 'votes.jsonl';
/** An empty lesson directory younger than this may be a writer's fresh claim: leave it. */
const ABANDONED_AFTER_MS = 60_000;
/** What `sweep` found clean, by lesson id: the directory's mtime then (cache/sweep.json). */
const SWEEP_STATE = 'sweep.json';
/** A directory changed this recently is listed again at the next sweep, whatever its mtime. */
const SWEEP_RACY_MS = 2_000;

function readSweepState(path: string): Record<string, number> {
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as { version?: unknown; clean?: unknown };
    if (parsed.version === 1 && typeof parsed.clean === 'object' && parsed.clean !== null)
      return parsed.clean as Record<string, number>;
  } catch {
    // missing or damaged: list every directory
  }
  return {};
}

function writeSweepState(path: string, clean: Record<string, number>): void {
  try {
    mkdirSync(dirname(path), { recursive: true });
    writeFileAtomic(path, JSON.stringify({ version: 1, clean }));
  } catch {
    // a cache: the next sweep lists every directory
  }
}

export type LessonDir = { tier: Tier; id: string; dir: string; yamlPath: string; votesPath: string };

export type TierListing = {
  dirs: LessonDir[];
  /** `lessons/<id>.yaml` files of the old flat layout. */
  legacyFiles: string[];
};

export type TierStore = {
  readonly tier: Tier;
  readonly layout: TierLayout;
  exists(): boolean;
  list(): TierListing;
  lessonDir(id: string): LessonDir;
  readLessonText(id: string): string | undefined;
  /** Claims a fresh id and directory (mkdir fails if another writer has it), then writes. */
  createLesson(render: (id: string) => string): string;
  writeLessonText(id: string, text: string): void;
  /**
   * Writes a lesson under a given id (import, migration); false if that directory exists, unless it
   * is a dead writer's leftover (see `isOrphanedLessonDir`), which is completed instead.
   */
  createLessonWithId(id: string, text: string): boolean;
  readVotes(id: string): { votes: Vote[]; problems: Problem[] };
  /** Appends a vote unless (model, task) already voted; returns whether it was recorded. */
  appendVote(id: string, vote: Vote): boolean;
  /** Removes directories and temporary files left by writers that died mid-way. */
  sweep(): number;
};

/**
 * A lesson's text, or undefined when it is missing or cannot be read (a directory or a link loop
 * where lesson.yaml should be, no permission): for readers that take every lesson they can and
 * leave reporting the others to the index (`lore check`, `lore list`'s problems).
 */
export function readableLessonText(tier: Pick<TierStore, 'readLessonText'>, id: string): string | undefined {
  try {
    return tier.readLessonText(id);
  } catch {
    return undefined;
  }
}

/** Files a lesson directory may hold beside lesson.yaml (votes, feedback.ts's reports). */
const SIDECAR_FILES = new Set([VOTES_FILE, 'feedback.jsonl']);

/**
 * A lesson directory without lesson.yaml that a writer left behind when it died between the mkdir
 * and the rename (kill -9, Ctrl-C, a full disk), given its entries and age: it holds only lore's
 * temporary files and sidecars, none being written by a live process, and either a dead writer's
 * temporary file shows that the claim was abandoned or it is older than a fresh claim can be. An
 * empty directory made a moment ago is another writer's claim that has not written yet: not orphaned.
 */
export function isOrphanedLessonDir(names: readonly string[], ageMs: number): boolean {
  if (names.includes(LESSON_FILE)) return false;
  if (!names.every((name) => isTempName(name) || SIDECAR_FILES.has(name))) return false;
  const temps = names.filter(isTempName);
  if (!temps.every(isAbandonedTemp)) return false;
  return temps.length > 0 || ageMs > ABANDONED_AFTER_MS;
}

/** Clears a dead writer's lesson directory (`isOrphanedLessonDir`) for a new write; false if it is not one. */
function reclaimOrphanedDir(dir: string): boolean {
  const stat = statNumbers(dir);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return false;
  }
  if (!stat || !isOrphanedLessonDir(names, Date.now() - stat.mtimeMs)) return false;
  for (const name of names) if (isTempName(name)) unlinkQuietly(join(dir, name));
  return true;
}

export function createTierStore(tier: Tier, dir: string): TierStore {
  const layout = tierLayout(dir);

  // Plain concatenation: path.join costs ~3 µs a call, and a refresh builds these for every lesson.
  const lessonsPrefix = `${layout.lessonsDir}${sep}`;
  const lessonDir = (id: string): LessonDir => {
    const path = lessonsPrefix + id;
    return {
      tier,
      id,
      dir: path,
      yamlPath: `${path}${sep}${LESSON_FILE}`,
      votesPath: `${path}${sep}${VOTES_FILE}`,
    };
  };

  const readText = (path: string, strict = false): string | undefined => {
    try {
      return strict ? readUtf8File(path) : readFileSync(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  };

  return {
    tier,
    layout,
    exists: () => statSync(layout.lessonsDir, { throwIfNoEntry: false })?.isDirectory() ?? false,

    list() {
      let names: Dirent[];
      try {
        names = readdirSync(layout.lessonsDir, { withFileTypes: true });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { dirs: [], legacyFiles: [] };
        throw error;
      }
      const dirs: LessonDir[] = [];
      const legacyFiles: string[] = [];
      for (const entry of names) {
        if (entry.name.startsWith('.')) continue;
        if (entry.isDirectory()) dirs.push(lessonDir(entry.name));
        else if (entry.isFile() && /\.ya?ml$/.test(entry.name))
          legacyFiles.push(join(layout.lessonsDir, entry.name));
      }
      dirs.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
      legacyFiles.sort();
      return { dirs, legacyFiles };
    },

    lessonDir,
    // strict: a lesson file that is not UTF-8 is reported, never read with U+FFFD and saved so
    readLessonText: (id) => readText(lessonDir(id).yamlPath, true),

    createLesson(render) {
      mkdirSync(layout.lessonsDir, { recursive: true });
      for (let attempt = 0; attempt < 16; attempt += 1) {
        // node:crypto on first use, as in fs-atomic.ts
        const id = createLessonId(process.getBuiltinModule('node:crypto').randomBytes(ID_RANDOM_BYTES));
        const target = lessonDir(id);
        if (!claimDirectory(target.dir)) continue;
        try {
          writeFileAtomic(target.yamlPath, render(id));
        } catch (error) {
          try {
            rmdirSync(target.dir);
          } catch {
            // leave it: sweep() removes empty lesson directories
          }
          throw error;
        }
        return id;
      }
      throw new Error('could not allocate a lesson id after 16 attempts');
    },

    writeLessonText(id, text) {
      const target = lessonDir(id);
      mkdirSync(target.dir, { recursive: true });
      writeFileAtomic(target.yamlPath, text);
    },

    createLessonWithId(id, text) {
      mkdirSync(layout.lessonsDir, { recursive: true });
      const target = lessonDir(id);
      // An import killed mid-way leaves its directory behind: a re-run completes it (its votes
      // are this lesson's: same id) rather than report an add it never wrote.
      if (!claimDirectory(target.dir) && !reclaimOrphanedDir(target.dir)) return false;
      writeFileAtomic(target.yamlPath, text);
      return true;
    },

    readVotes(id) {
      const path = lessonDir(id).votesPath;
      const text = readText(path);
      return text === undefined ? { votes: [], problems: [] } : parseVotes(text, path);
    },

    appendVote(id, vote) {
      const target = lessonDir(id);
      const votes = this.readVotes(id).votes;
      const existing = votes.find((seen) => voteKey(seen) === voteKey(vote));
      if (existing && Date.parse(existing.at) <= Date.parse(vote.at)) return false;
      if (existing) {
        // Already voted, but this copy is older (an import, a skewed clock): keep the earliest time
        // by rewriting the sidecar whole, so the file still holds one line per (model, task).
        const kept = votes.map((seen) => (seen === existing ? vote : seen));
        writeFileAtomic(
          target.votesPath,
          kept.map((v) => `${JSON.stringify({ model: v.model, task: v.task, at: v.at })}\n`).join(''),
        );
        return false;
      }
      appendLine(target.votesPath, JSON.stringify({ model: vote.model, task: vote.task, at: vote.at }));
      return true;
    },

    sweep() {
      let removed = 0;
      const started = Date.now();
      const statePath = join(layout.cacheDir, SWEEP_STATE);
      const cleanBefore = readSweepState(statePath);
      const clean: Record<string, number> = {};
      let changed = false;
      for (const dir of this.list().dirs) {
        const stat = statNumbers(dir.dir);
        if (!stat) continue;
        // A directory's mtime moves whenever an entry is added, removed or renamed: unchanged
        // since a sweep found only lesson files in it, it still holds only those.
        if (cleanBefore[dir.id] === stat.mtimeMs) {
          clean[dir.id] = stat.mtimeMs;
          continue;
        }
        changed = true;
        let names: string[];
        try {
          names = readdirSync(dir.dir);
        } catch {
          continue;
        }
        const age = started - stat.mtimeMs;
        for (const name of names) {
          if (isAbandonedTemp(name)) {
            unlinkQuietly(join(dir.dir, name));
            removed += 1;
          }
        }
        if (age > ABANDONED_AFTER_MS && names.every((name) => isAbandonedTemp(name))) {
          try {
            rmdirSync(dir.dir);
            removed += 1;
          } catch {
            // not empty after all, or gone already
          }
          continue;
        }
        // Remembered only when clearly older than this sweep: the file system stamps mtimes with a
        // coarse clock, so an entry added just after the listing could share the stamp read here.
        if (names.length > 0 && !names.some(isTempName) && age > SWEEP_RACY_MS) clean[dir.id] = stat.mtimeMs;
      }
      // unchanged (every directory as clean as before, none gone): no write, no fsync
      if (changed || Object.keys(clean).length !== Object.keys(cleanBefore).length)
        writeSweepState(statePath, clean);
      return removed;
    },
  };
}

/**
 * `lore prune`: which active lessons are stale (project tier: their paths, commits or tasks are
 * gone from this repository) and which the age rule retires (both tiers), and, when asked,
 * archiving them: status `archived`, the file kept, never deleted. Facts about the repository are
 * gathered once for all lessons (src/store/curate/repo-facts.ts); the rules are pure
 * (src/core/curate/find-stale.ts, find-aged.ts).
 */
import { findAgeReason } from '../../core/curate/find-aged.js';
import type { AgeReason } from '../../core/curate/find-aged.js';
import { createFileMatcher, findStaleReasons } from '../../core/curate/find-stale.js';
import type { RepoFacts, StaleReason } from '../../core/curate/find-stale.js';
import type { Config, LessonSeverity, Tier } from '../../core/lesson/schema.js';
import type { ListedLesson } from '../index/lesson-index.js';
import { applyPatch, readForUpdate } from '../lessons/lesson-writes.js';
import { lessonLockPath, withLocks } from '../fs/lock.js';
import { commitsOnBranch, isGitWorkTree, listRepoFiles, tasksPresent } from './repo-facts.js';
import type { Workspace } from '../workspace/workspace.js';
import { afterWrite } from '../workspace/after-write.js';

export type PruneReason = StaleReason | AgeReason;

export type PruneItem = {
  id: string;
  slug: string;
  summary: string;
  tier: Tier;
  severity: LessonSeverity;
  file: string;
  reasons: PruneReason[];
};

export type PruneChecks = {
  /** Project lessons checked for staleness (none outside a project). */
  staleChecked: number;
  files: { count: number; source: 'git' | 'walk' } | null;
  git: boolean;
  commits: { known: number; unknown: number };
  tasks: { configured: boolean; known: number; unknown: number };
  age: { maxAgeDays: number; maxSeverity: LessonSeverity } | null;
};

export type PruneReport = {
  stale: PruneItem[];
  aged: PruneItem[];
  archived: string[];
  dryRun: boolean;
  checks: PruneChecks;
};

export type PruneOptions = {
  staleOnly: boolean;
  archive: boolean;
  tier?: Tier | undefined;
  nowMs: number;
};

function refsOf(lessons: readonly ListedLesson[], kind: string): string[] {
  return lessons.flatMap(({ lesson }) =>
    lesson.evidence.filter((e) => e.kind === kind).map((e) => e.ref.trim()),
  );
}

function gatherFacts(
  root: string,
  lessons: readonly ListedLesson[],
  config: Config,
): { facts: RepoFacts; checks: Omit<PruneChecks, 'staleChecked' | 'age'> } {
  const useGit = isGitWorkTree(root);
  const needFiles = lessons.some(({ lesson }) => lesson.paths.length > 0);
  const listing = needFiles ? listRepoFiles(root, useGit) : undefined;
  const commitRefs = [...new Set(refsOf(lessons, 'commit'))];
  const taskRefs = [...new Set(refsOf(lessons, 'task'))];
  const commits = commitsOnBranch(root, commitRefs, useGit);
  const tasks = tasksPresent(root, taskRefs, config.prune.taskPaths);
  return {
    facts: { files: listing?.files, commits, tasks },
    checks: {
      files: listing ? { count: listing.files.length, source: listing.source } : null,
      git: useGit,
      commits: { known: commits.size, unknown: commitRefs.length - commits.size },
      tasks: {
        configured: config.prune.taskPaths.length > 0,
        known: tasks.size,
        unknown: taskRefs.length - tasks.size,
      },
    },
  };
}

export async function pruneLessons(ws: Workspace, options: PruneOptions): Promise<PruneReport> {
  const listed = (await ws.index.list({ status: 'active' }, options.nowMs, ws.halfLifeDays)).filter(
    ({ lesson }) => options.tier === undefined || lesson.tier === options.tier,
  );
  const item = (entry: ListedLesson, reasons: PruneReason[]): PruneItem => ({
    id: entry.lesson.id,
    slug: entry.lesson.slug,
    summary: entry.lesson.summary,
    tier: entry.lesson.tier,
    severity: entry.lesson.severity,
    file: ws.displayPath(entry.file),
    reasons,
  });

  const projectLessons =
    ws.projectRoot === undefined ? [] : listed.filter(({ lesson }) => lesson.tier === 'project');
  const gathered =
    ws.projectRoot !== undefined && projectLessons.length > 0
      ? gatherFacts(ws.projectRoot, projectLessons, ws.config)
      : undefined;
  const stale: PruneItem[] = [];
  if (gathered) {
    const matcher = gathered.facts.files ? createFileMatcher(gathered.facts.files) : undefined;
    for (const entry of projectLessons) {
      const reasons = findStaleReasons(entry.lesson, gathered.facts, matcher);
      if (reasons.length > 0) stale.push(item(entry, reasons));
    }
  }

  const aged: PruneItem[] = [];
  const policy = ws.config.prune;
  if (!options.staleOnly) {
    const staleIds = new Set(stale.map((entry) => `${entry.tier}:${entry.id}`));
    for (const entry of listed) {
      if (staleIds.has(`${entry.lesson.tier}:${entry.lesson.id}`)) continue;
      const reason = findAgeReason(
        { ...entry.lesson, lastVotedAt: entry.votes.lastVotedAt },
        policy,
        options.nowMs,
      );
      if (reason) aged.push(item(entry, [reason]));
    }
  }

  const archived = options.archive ? await archiveAll(ws, [...stale, ...aged], listed, options.nowMs) : [];
  return {
    stale,
    aged,
    archived,
    dryRun: !options.archive,
    checks: {
      staleChecked: projectLessons.length,
      files: gathered?.checks.files ?? null,
      git: gathered?.checks.git ?? false,
      commits: gathered?.checks.commits ?? { known: 0, unknown: 0 },
      tasks: gathered?.checks.tasks ?? { configured: policy.taskPaths.length > 0, known: 0, unknown: 0 },
      age: options.staleOnly ? null : { maxAgeDays: policy.maxAgeDays, maxSeverity: policy.maxSeverity },
    },
  };
}

/** Archives each lesson under its lock (a lesson changed meanwhile is archived as it now is). */
async function archiveAll(
  ws: Workspace,
  items: readonly PruneItem[],
  listed: readonly ListedLesson[],
  nowMs: number,
): Promise<string[]> {
  const byKey = new Map(listed.map((entry) => [`${entry.lesson.tier}:${entry.lesson.id}`, entry]));
  const archived: string[] = [];
  const touched = new Set<Tier>();
  for (const entry of items) {
    const found = byKey.get(`${entry.tier}:${entry.id}`);
    if (!found) continue;
    const target = { tier: entry.tier, id: entry.id, lesson: found.lesson, file: found.file };
    const store = ws.store(entry.tier);
    const changed = withLocks([lessonLockPath(store.layout.cacheDir, entry.id)], () => {
      const current = readForUpdate(ws, target);
      if (current.lesson.status !== 'active') return false;
      const next = applyPatch(ws, target, current, { status: 'archived' }, nowMs);
      store.writeLessonText(entry.id, next.text);
      return true;
    });
    if (changed) {
      archived.push(entry.id);
      touched.add(entry.tier);
    }
  }
  for (const tier of touched) await afterWrite(ws, tier);
  return archived;
}

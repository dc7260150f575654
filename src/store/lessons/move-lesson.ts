/**
 * `lore promote` / `lore demote`: a lesson changes its reach (project -> user -> universal and
 * back). Between `user` and `universal` only the `universal` flag changes; between the project and
 * the user tier the whole lesson directory moves (lesson.yaml, votes.jsonl, feedback.jsonl and
 * anything else in it), keeping its id. A move holds the lesson's locks (lesson, votes, feedback)
 * in both tiers and goes through the journal: the new files are written in the target tier, then
 * the old directory is removed; a process killed in between leaves a journal entry that the next
 * lore command in this project replays, so the lesson ends up in exactly one tier. Until then the
 * project copy wins, as on any conflict.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { LoreError } from '../../core/errors.js';
import type { Lesson, ScopeClass, Tier } from '../../core/lesson/schema.js';
import { isTempName } from '../fs/fs-atomic.js';
import { initTier } from '../workspace/init-tier.js';
import { commitWrites } from '../fs/journal.js';
import type { FileWrite } from '../fs/journal.js';
import { lessonLockPath, withLocks } from '../fs/lock.js';
import { applyPatch, readForUpdate, resolveLesson } from './lesson-writes.js';
import type { ResolvedLesson } from './lesson-writes.js';
import { LESSON_FILE } from './tier-store.js';
import type { Workspace } from '../workspace/workspace.js';
import { afterWrite } from '../workspace/after-write.js';

export type MoveResult = {
  id: string;
  slug: string;
  from: ScopeClass;
  to: ScopeClass;
  changed: boolean;
  tier: Tier;
  file: string;
  /** Files carried to the other tier (empty when only the universal flag changed). */
  moved: string[];
  lesson: Lesson;
};

/** The reach of a lesson as it is stored. */
export function scopeClassOf(lesson: Pick<Lesson, 'tier' | 'universal'>): ScopeClass {
  if (lesson.tier === 'project') return 'project';
  return lesson.universal === true ? 'universal' : 'user';
}

export function tierOfScope(scope: ScopeClass): Tier {
  return scope === 'project' ? 'project' : 'user';
}

const ORDER: readonly ScopeClass[] = ['project', 'user', 'universal'];

/** The next reach up (promote) or down (demote), or undefined at the end of the ladder. */
export function nextScope(from: ScopeClass, direction: 'promote' | 'demote'): ScopeClass | undefined {
  return ORDER[ORDER.indexOf(from) + (direction === 'promote' ? 1 : -1)];
}

/** A directory's files as text, or a refusal naming what cannot be carried over safely. */
function readDirectory(dir: string, shown: (path: string) => string): { name: string; text: string }[] {
  const files: { name: string; text: string }[] = [];
  const decoder = new TextDecoder('utf-8', { fatal: true });
  for (const name of readdirSync(dir).sort()) {
    if (isTempName(name)) continue;
    const path = join(dir, name);
    if (!statSync(path).isFile()) {
      throw new LoreError('conflict', `${shown(path)} is not a plain file; lore moves only lesson files`, {
        hint: 'move or remove it by hand, then run the command again',
      });
    }
    try {
      files.push({ name, text: decoder.decode(readFileSync(path)) });
    } catch {
      throw new LoreError('conflict', `${shown(path)} is not UTF-8 text; lore moves only lesson files`, {
        hint: 'move or remove it by hand, then run the command again',
      });
    }
  }
  return files;
}

export async function moveLesson(
  ws: Workspace,
  ref: string,
  to: ScopeClass,
  nowMs: number,
): Promise<MoveResult> {
  const source = await resolveLesson(ws, ref);
  const from = scopeClassOf(source.lesson);
  const result = (target: ResolvedLesson, changed: boolean, moved: string[]): MoveResult => ({
    id: target.id,
    slug: target.lesson.slug,
    from,
    to,
    changed,
    tier: target.tier,
    file: ws.displayPath(target.file),
    moved,
    lesson: target.lesson,
  });
  if (from === to) return result(source, false, []);

  const targetTier = tierOfScope(to);
  const fields = { classifiedBy: 'human', universal: to === 'universal' ? true : undefined };
  const sourceStore = ws.store(source.tier);
  const sourceLocks = ['', '-votes', '-feedback'].map((suffix) =>
    lessonLockPath(sourceStore.layout.cacheDir, source.id, suffix),
  );

  if (targetTier === source.tier) {
    const lesson = withLocks(sourceLocks, () => {
      const next = applyPatch(ws, source, readForUpdate(ws, source), fields, nowMs);
      sourceStore.writeLessonText(source.id, next.text);
      return next.lesson;
    });
    await afterWrite(ws, source.tier);
    return result({ ...source, lesson }, true, []);
  }

  const targetStore = ws.store(targetTier);
  if (targetTier === 'user' && !targetStore.exists()) initTier(targetStore.layout);
  const origin = sourceStore.lessonDir(source.id);
  const into = targetStore.lessonDir(source.id);
  const locks = [...sourceLocks, lessonLockPath(targetStore.layout.cacheDir, source.id)];
  const outcome = withLocks(locks, () => {
    if (existsSync(into.dir)) {
      throw new LoreError(
        'conflict',
        `a lesson ${source.id} already exists in the ${targetTier} tier (${ws.displayPath(into.dir)})`,
        { hint: 'compare the two (`lore show`), archive or remove one, then run the command again' },
      );
    }
    const current = readForUpdate(ws, source);
    const next = applyPatch(ws, source, current, { ...fields, tier: targetTier }, nowMs);
    const files = readDirectory(origin.dir, ws.displayPath);
    const writes: FileWrite[] = files.map(({ name, text }) => ({
      path: join(into.dir, name),
      content: name === LESSON_FILE ? next.text : text,
    }));
    commitWrites(
      join(ws.cacheDir, 'journal'),
      writes,
      {
        files: readdirSync(origin.dir).map((name) => join(origin.dir, name)),
        dirs: [origin.dir],
      },
      { createDirs: true },
    );
    return { lesson: { ...next.lesson, tier: targetTier }, moved: files.map(({ name }) => name) };
  });
  await afterWrite(ws, source.tier);
  await afterWrite(ws, targetTier);
  return result(
    { tier: targetTier, id: source.id, lesson: outcome.lesson, file: into.yamlPath },
    true,
    outcome.moved,
  );
}

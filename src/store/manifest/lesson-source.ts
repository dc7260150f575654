/**
 * A lesson file as the hook manifest takes it, for the two builders that read lesson files
 * themselves (the patch after a lore write, the background rebuilder): loaded by the one lesson
 * loader, active, with its decayed vote score.
 */
import { readFileSync } from 'node:fs';
import type { ManifestSource } from '../../core/manifest/build-manifest.js';
import { parseVotes, voteScore } from '../../core/rank/votes.js';
import { fileSignature } from '../fs/file-signature.js';
import { loadLesson } from '../lessons/load-lesson.js';
import type { ParseLesson } from '../lessons/load-lesson.js';
import type { TierStore } from '../lessons/tier-store.js';

/** Undefined when `text` is no lesson (see load-lesson.ts) or not an active one. */
export function lessonSource(
  tier: TierStore,
  id: string,
  text: string,
  parse: ParseLesson,
  nowMs: number,
  halfLifeDays: number,
): ManifestSource | undefined {
  const dir = tier.lessonDir(id);
  const loaded = loadLesson({ text, file: dir.yamlPath, tier: tier.tier, id }, parse);
  if (!loaded.ok || loaded.lesson.status !== 'active') return undefined;
  let times: string[];
  try {
    times = parseVotes(readFileSync(dir.votesPath, 'utf8'), dir.votesPath).votes.map((vote) => vote.at);
  } catch {
    times = [];
  }
  return {
    lesson: loaded.lesson,
    file: dir.yamlPath,
    sig: fileSignature(dir.yamlPath),
    voteScore: voteScore(times, nowMs, halfLifeDays),
  };
}

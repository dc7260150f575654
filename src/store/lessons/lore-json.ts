/**
 * lore's own JSON interchange: `{format: "lore", version: 1, exportedAt, lessons: [...]}` where each
 * lesson is the full record plus its `votes`. Import keeps ids, so a round trip is lossless.
 */
import { LoreError } from '../../core/errors.js';
import type { Problem } from '../../core/errors.js';
import { parseLessonYaml, serializeLesson } from '../../core/lesson/lesson-yaml.js';
import { LessonSchema } from '../../core/lesson/schema.js';
import type { Lesson, Tier } from '../../core/lesson/schema.js';
import { parseVotes, voteKey } from '../../core/rank/votes.js';
import type { Vote } from '../../core/rank/votes.js';
import { openBreadthChecker } from '../breadth/check-draft.js';
import type { BroadImport } from '../breadth/check-draft.js';
import type { Workspace } from '../workspace/workspace.js';
import { afterWrite } from '../workspace/after-write.js';
import { comparableLesson } from '../../core/lesson/comparable-lesson.js';
import { isSafeSourceId } from '../../core/interop/imported-lesson.js';

export const EXPORT_FORMAT = 'lore';
export const EXPORT_VERSION = 1;

export type ImportReport = {
  added: string[];
  replaced: string[];
  unchanged: string[];
  conflicts: string[];
  invalid: number;
  votesAdded: number;
  problems: Problem[];
  /** Lessons with a broad trigger (see import-interop.ts); `held`: marked needsReview (not with force). */
  broad: BroadImport[];
  /** The breadth check's line when there is no call cache to check against. */
  breadthNote?: string;
};

export async function importLessons(
  ws: Workspace,
  text: string,
  source: string,
  options: { tier: Tier | undefined; replace: boolean; dryRun: boolean; force?: boolean },
): Promise<ImportReport> {
  const touched = new Set<Tier>();
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw new LoreError('invalid', `${source} is not JSON: ${(error as Error).message}`, {
      hint: 'lore import reads the output of `lore export`',
    });
  }
  const entries = Array.isArray(document)
    ? (document as unknown[])
    : (document as { format?: unknown; lessons?: unknown } | null)?.format === EXPORT_FORMAT &&
        Array.isArray((document as { lessons: unknown }).lessons)
      ? (document as { lessons: unknown[] }).lessons
      : undefined;
  if (!entries) {
    throw new LoreError(
      'invalid',
      `${source} is not a lore export (expected {"format": "lore", "lessons": [...]})`,
      {
        hint: 'create one with `lore export --out FILE`',
      },
    );
  }
  const report: ImportReport = {
    added: [],
    replaced: [],
    unchanged: [],
    conflicts: [],
    invalid: 0,
    votesAdded: 0,
    problems: [],
    broad: [],
  };
  const breadthOf = openBreadthChecker(ws);
  entries.forEach((entry, index) => {
    const where = `lessons[${index}]`;
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) {
      report.invalid += 1;
      report.problems.push({
        file: source,
        field: where,
        message: 'expected a lesson object',
        severity: 'error',
      });
      return;
    }
    const { votes: rawVotes, ...fields } = entry as Record<string, unknown>;
    const parsed = LessonSchema.safeParse(fields);
    if (!parsed.success) {
      report.invalid += 1;
      for (const issue of parsed.error.issues) {
        report.problems.push({
          file: source,
          field: `${where}.${issue.path.join('.')}`,
          message: issue.message,
          severity: 'error',
        });
      }
      return;
    }
    const originId = parsed.data.origin?.id;
    if (originId !== undefined && !isSafeSourceId(originId)) {
      // an export to that format would name a file after it (see originId)
      report.invalid += 1;
      report.problems.push({
        file: source,
        field: `${where}.origin.id`,
        message: `${JSON.stringify(originId)} cannot be a file name (a path separator, "..", a control character or too long); lesson skipped`,
        severity: 'error',
      });
      return;
    }
    const tier = options.tier ?? parsed.data.tier;
    let lesson: Lesson = { ...parsed.data, tier };
    const breadth = breadthOf(lesson);
    if (breadth.noCache) report.breadthNote = breadth.message;
    if (breadth.broad || breadth.toolOnly) {
      const held = breadth.broad && options.force !== true;
      report.broad.push({ id: lesson.id, tier, from: lesson.id, breadth, held });
      if (held) lesson = { ...lesson, needsReview: true };
    }
    const store = ws.store(tier);
    touched.add(tier);
    const votes = parseVotes(
      (Array.isArray(rawVotes) ? rawVotes : []).map((vote) => JSON.stringify(vote)).join('\n'),
      `${source} ${where}.votes`,
    );
    report.problems.push(...votes.problems);

    const existingText = store.readLessonText(lesson.id);
    if (existingText === undefined) {
      if (!options.dryRun && !store.createLessonWithId(lesson.id, serializeLesson(lesson))) {
        // The folder is there without lesson.yaml and is not a dead writer's leftover: another
        // writer's fresh claim, or files of someone's. Never an add that wrote nothing.
        report.conflicts.push(lesson.id);
        report.problems.push({
          file: source,
          field: where,
          message: `${store.lessonDir(lesson.id).dir} exists without lesson.yaml (another lore may be writing it); run the import again, or move that folder away if it is not lore's`,
          severity: 'error',
        });
        return;
      }
      report.added.push(lesson.id);
    } else {
      const existing = parseLessonYaml(existingText, lesson.id);
      if (existing.ok && comparableLesson({ ...existing.lesson, tier }) === comparableLesson(lesson))
        report.unchanged.push(lesson.id);
      else if (options.replace) {
        if (!options.dryRun) store.writeLessonText(lesson.id, serializeLesson(lesson));
        report.replaced.push(lesson.id);
      } else {
        report.conflicts.push(lesson.id);
        return;
      }
    }
    const have = new Set(store.readVotes(lesson.id).votes.map(voteKey));
    for (const vote of votes.votes as Vote[]) {
      if (have.has(voteKey(vote))) continue;
      if (!options.dryRun) store.appendVote(lesson.id, vote);
      report.votesAdded += 1;
    }
  });
  if (options.dryRun) ws.index.invalidate();
  else for (const tier of touched) await afterWrite(ws, tier);
  return report;
}

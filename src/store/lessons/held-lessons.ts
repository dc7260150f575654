/**
 * Lessons held for review: active lessons marked `needsReview` (never injected until a person
 * decides), because their outcomes showed they do not prevent their mistake (outcome-linked
 * feedback), or because `lore import` found their trigger too broad. Each comes with what a
 * reviewer decides on: the outcomes judged for it (`<cache>/outcomes.jsonl` of each tier, see
 * core/feedback/outcome-record.ts), the transcript lines where its mistake repeated, and the
 * breadth of its trigger. Keeping one is `keepHeldLesson` (src/store/feedback/held-lessons.ts);
 * archiving it is `setStatus`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { OUTCOMES_FILE, OUTCOME_VERDICTS } from '../../core/feedback/outcome-record.js';
import type { OutcomeRecord, OutcomeVerdict } from '../../core/feedback/outcome-record.js';
import type { Breadth } from '../../core/breadth/check-breadth.js';
import type { Lesson, Tier } from '../../core/lesson/schema.js';
import { openBreadthChecker } from '../breadth/check-draft.js';
import type { Workspace } from '../workspace/workspace.js';

/** At most this many repeats are listed per lesson (the newest). */
const EVIDENCE_SHOWN = 10;

export type HeldLesson = {
  id: string;
  tier: Tier;
  slug: string;
  summary: string;
  mistake: string | null;
  confidence: number;
  file: string;
  /** How many of its injections were judged each way. */
  outcomes: Record<OutcomeVerdict, number>;
  /** Where its mistake repeated after it was injected, newest first: transcript file and line. */
  repeated: { file: string; line: number; at: string; form: OutcomeRecord['form'] }[];
  breadth: Breadth;
};

export type HeldLessons = {
  lessons: HeldLesson[];
  /** Lines of outcomes.jsonl that were not outcome records (skipped). */
  skippedOutcomes: number;
};

function isOutcome(value: unknown): value is OutcomeRecord {
  if (value === null || typeof value !== 'object') return false;
  const record = value as Record<string, unknown>;
  return (
    typeof record.lesson === 'string' &&
    typeof record.injectedAt === 'string' &&
    (OUTCOME_VERDICTS as readonly unknown[]).includes(record.verdict)
  );
}

/** Every outcome record of the workspace's tiers; unreadable lines are counted. */
export function readOutcomes(ws: Workspace): { records: OutcomeRecord[]; skipped: number } {
  const dirs = new Set([
    ws.cacheDir,
    ws.user.layout.cacheDir,
    ...(ws.project ? [ws.project.layout.cacheDir] : []),
  ]);
  const records: OutcomeRecord[] = [];
  let skipped = 0;
  for (const dir of dirs) {
    let text: string;
    try {
      text = readFileSync(join(dir, OUTCOMES_FILE), 'utf8');
    } catch {
      continue; // no outcomes judged in this tier yet
    }
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      try {
        const parsed: unknown = JSON.parse(line);
        if (isOutcome(parsed)) records.push(parsed);
        else skipped += 1;
      } catch {
        skipped += 1;
      }
    }
  }
  return { records, skipped };
}

export async function listHeldLessons(ws: Workspace, nowMs: number): Promise<HeldLessons> {
  const listed = await ws.index.list({ status: 'active' }, nowMs, ws.halfLifeDays);
  const held = listed.filter((item) => item.lesson.needsReview);
  if (held.length === 0) return { lessons: [], skippedOutcomes: 0 };
  const { records, skipped } = readOutcomes(ws);
  const byLesson = new Map<string, OutcomeRecord[]>();
  for (const record of records) byLesson.set(record.lesson, [...(byLesson.get(record.lesson) ?? []), record]);
  const breadthOf = openBreadthChecker(ws);
  const lessons = held.map(({ lesson, file }) =>
    heldLesson(ws, lesson, file, byLesson.get(lesson.id) ?? [], breadthOf(lesson)),
  );
  return { lessons, skippedOutcomes: skipped };
}

function heldLesson(
  ws: Workspace,
  lesson: Lesson,
  file: string,
  outcomes: readonly OutcomeRecord[],
  breadth: Breadth,
): HeldLesson {
  const counts = Object.fromEntries(OUTCOME_VERDICTS.map((verdict) => [verdict, 0])) as Record<
    OutcomeVerdict,
    number
  >;
  for (const record of outcomes) counts[record.verdict] += 1;
  const repeated = outcomes
    .filter((record) => record.verdict === 'repeated' && record.evidence !== undefined)
    .sort((a, b) => (a.injectedAt < b.injectedAt ? 1 : a.injectedAt > b.injectedAt ? -1 : 0))
    .slice(0, EVIDENCE_SHOWN)
    .map((record) => ({
      file: record.evidence?.file ?? '',
      line: record.evidence?.line ?? 0,
      at: record.injectedAt,
      form: record.form,
    }));
  return {
    id: lesson.id,
    tier: lesson.tier,
    slug: lesson.slug,
    summary: lesson.summary,
    mistake: lesson.mistake ?? null,
    confidence: lesson.confidence,
    file: ws.displayPath(file),
    outcomes: counts,
    repeated,
    breadth,
  };
}

/**
 * Lessons held for review: active lessons marked `needsReview` (never injected until a person
 * decides), because their outcomes showed they do not prevent their mistake (outcome-linked
 * feedback), or because `lore import` found their trigger too broad. Each comes with what a
 * reviewer decides on: the outcomes judged for it (`<cache>/outcomes.jsonl` of each tier, see
 * core/feedback/outcome-record.ts), the transcript lines where its mistake repeated, and the
 * breadth of its trigger. Keeping one is `keepHeldLesson` (src/store/feedback/held-lessons.ts);
 * archiving it is `setStatus`.
 */
import { readOutcomes } from '../analytics/read-outcomes.js';
import { OUTCOME_VERDICTS } from '../../core/feedback/outcome-record.js';
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

/** The active lessons marked `needsReview`, each with its outcomes, its repeats and its trigger's breadth. */
export async function listHeldLessons(ws: Workspace, nowMs: number): Promise<HeldLessons> {
  const listed = await ws.index.list({ status: 'active' }, nowMs, ws.halfLifeDays);
  const held = listed.filter((item) => item.lesson.needsReview);
  if (held.length === 0) return { lessons: [], skippedOutcomes: 0 };
  const { records, malformed: skipped } = readOutcomes(ws);
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

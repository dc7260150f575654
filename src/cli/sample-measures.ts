/**
 * The measurements of `lore up`'s throw-away sample workspace, so its Replay page, lesson pages
 * and weekly outcome charts are not empty: a last replay with hand-made figures for the demo
 * lessons (no transcripts were replayed: the sample workspace says it is sample data), and an
 * outcome verdict for each sample injection of its audit log, taken in a fixed rotation.
 */
import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import { injectionId, OUTCOMES_FILE } from '../core/feedback/outcome-record.js';
import type { OutcomeRecord, OutcomeVerdict } from '../core/feedback/outcome-record.js';
import { LAST_REPLAY_FILE, precisionOf } from '../core/replay/replay-report.js';
import type {
  DeliveryForm,
  LessonReplay,
  ReplayReport,
  ReplaySuggestion,
} from '../core/replay/replay-report.js';
import { appendLine, writeFileAtomic } from '../store/fs/fs-atomic.js';
import { readAuditLog } from '../store/lessons/audit-read.js';
import type { Lesson } from '../core/lesson/schema.js';

/** Hand-made figures per demo lesson, in DEMO_LESSONS order: fires, hits, misses, noise, prevented. */
const FIGURES: readonly [number, number, number, number, number][] = [
  [14, 9, 1, 5, 4],
  [6, 4, 0, 2, 2],
  [3, 2, 1, 1, 1],
  [4, 3, 0, 1, 3],
  [22, 2, 0, 20, 1],
  [0, 0, 2, 0, 0],
];

const ROTATION: readonly OutcomeVerdict[] = [
  'prevented',
  'noise',
  'prevented',
  'repeated',
  'prevented',
  'noise',
  'unlinked',
];

function sampleReplay(lessons: readonly Lesson[], nowMs: number): ReplayReport {
  const lines: LessonReplay[] = lessons.map((lesson, i) => {
    const [fires, hits, misses, noise, prevented] = FIGURES[i % FIGURES.length] ?? [0, 0, 0, 0, 0];
    const form: DeliveryForm = lesson.type === 'guard' ? 'guard' : 'after-call';
    const line: LessonReplay = {
      id: lesson.id,
      summary: lesson.summary,
      type: lesson.type,
      toolOnly: false,
      fires,
      hits,
      misses,
      noise,
      prevented,
      precision: precisionOf({ fires, hits }),
      byForm: fires + misses > 0 ? { [form]: { fires, hits, misses, noise, prevented } } : {},
      recurrences: misses + hits - prevented,
    };
    if (form !== 'guard' && fires > 0) line.asCheckpoint = { denials: Math.ceil(fires / 3), prevented: hits };
    return line;
  });
  const suggestions: ReplaySuggestion[] = [];
  for (const line of lines) {
    if (line.fires === 0)
      suggestions.push({
        lesson: line.id,
        kind: 'retire',
        text: 'never fired on the 412 sample calls: retire it, or widen its trigger',
      });
    else if ((line.precision ?? 1) < 0.34)
      suggestions.push({
        lesson: line.id,
        kind: 'narrow',
        text: `fired on ${line.fires} calls, ${line.hits} at its mistake: narrow its trigger to the calls it hit`,
      });
  }
  const fires = lines.reduce((sum, line) => sum + line.fires, 0);
  return {
    version: 1,
    at: new Date(nowMs).toISOString(),
    options: { sources: ['sample'], paths: [], since: null, asOf: true, lessons: [] },
    counts: {
      files: 9,
      sessions: 9,
      brokenLines: 0,
      missingResults: 3,
      orphanResults: 0,
      clockBackwards: 0,
      unknownTools: 5,
      subagentCalls: 0,
    },
    calls: 412,
    callsWithInjection: 41,
    injections: fires,
    bytes: fires * 410,
    injectionsPer100Calls: Math.round((fires / 412) * 10_000) / 100,
    bytesPer100Calls: Math.round(((fires * 410) / 412) * 10_000) / 100,
    guardDenials: lines.filter((line) => line.type === 'guard').reduce((sum, line) => sum + line.fires, 0),
    checkpointDenials: 0,
    lessons: lines,
    suggestions,
  };
}

/** Writes the sample last replay and the sample injections' outcomes into `cacheDir`. */
export function writeSampleMeasures(cacheDir: string, lessons: readonly Lesson[], nowMs: number): void {
  const replayFile = join(cacheDir, LAST_REPLAY_FILE);
  mkdirSync(join(replayFile, '..'), { recursive: true });
  writeFileAtomic(replayFile, `${JSON.stringify(sampleReplay(lessons, nowMs), null, 2)}\n`);
  let n = 0;
  for (const record of readAuditLog(cacheDir)) {
    const judgedAt = new Date(Date.parse(record.time) + 3_600_000).toISOString();
    const items = [
      ...record.lessons.map((item) => ({ id: item.id, form: 'after-call' as const })),
      ...record.denied.map((item) => ({ id: item.id, form: 'guard' as const })),
    ];
    for (const item of items) {
      const verdict = item.form === 'guard' ? 'prevented' : (ROTATION[n % ROTATION.length] ?? 'noise');
      n += 1;
      const outcome: OutcomeRecord = {
        injection: injectionId(record.session, record.time, item.id),
        lesson: item.id,
        session: record.session,
        injectedAt: record.time,
        judgedAt,
        form: item.form,
        verdict,
        linkedBy: verdict === 'unlinked' ? 'none' : 'call-match',
      };
      appendLine(join(cacheDir, OUTCOMES_FILE), JSON.stringify(outcome));
    }
  }
}

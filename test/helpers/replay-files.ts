/**
 * Hand-written files of what `lore replay` and `lore scan` leave for the dashboard and `lore show`:
 * a last replay (`cache/replay/last.json`) and outcome records (`cache/outcomes.jsonl`), written
 * into a tier's cache directory the way those commands lay them out.
 */
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { OUTCOMES_FILE } from '../../src/core/feedback/outcome-record.js';
import type { OutcomeRecord } from '../../src/core/feedback/outcome-record.js';
import { LAST_REPLAY_FILE } from '../../src/core/replay/replay-report.js';
import type { LessonReplay, ReplayReport } from '../../src/core/replay/replay-report.js';

export const REPLAY_AT = '2026-11-21T09:30:00.000Z';

/** A lesson's replay line: noisy unless told otherwise. */
export function lessonReplay(id: string, over: Partial<LessonReplay> = {}): LessonReplay {
  return {
    id,
    summary: `lesson ${id}`,
    type: 'hint',
    toolOnly: false,
    fires: 12,
    hits: 3,
    misses: 1,
    noise: 9,
    prevented: 2,
    precision: 0.25,
    byForm: {
      'after-call': { fires: 10, hits: 2, misses: 1, noise: 8, prevented: 2 },
      'before-call': { fires: 2, hits: 1, misses: 0, noise: 1, prevented: 0 },
    },
    recurrences: 4,
    asCheckpoint: { denials: 5, prevented: 3 },
    ...over,
  };
}

export function replayReport(lessons: LessonReplay[], over: Partial<ReplayReport> = {}): ReplayReport {
  return {
    version: 1,
    at: REPLAY_AT,
    options: { sources: ['claude-code'], paths: [], since: null, asOf: true, lessons: [] },
    counts: {
      files: 6,
      sessions: 7,
      brokenLines: 2,
      missingResults: 1,
      orphanResults: 0,
      clockBackwards: 0,
      unknownTools: 3,
      subagentCalls: 0,
    },
    calls: 660,
    callsWithInjection: 53,
    injections: 61,
    bytes: 24_400,
    injectionsPer100Calls: 9.24,
    bytesPer100Calls: 3696.97,
    guardDenials: 1,
    checkpointDenials: 0,
    lessons,
    suggestions: [],
    ...over,
  };
}

export function writeLastReplay(cacheDir: string, content: ReplayReport | string): string {
  const path = join(cacheDir, LAST_REPLAY_FILE);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return path;
}

export function outcome(
  lesson: string,
  injectedAt: string,
  verdict: OutcomeRecord['verdict'],
  over: Partial<OutcomeRecord> = {},
): OutcomeRecord {
  const session = over.session ?? 'session-1';
  return {
    injection: `${session}/${injectedAt}/${lesson}`,
    lesson,
    session,
    injectedAt,
    judgedAt: '2026-11-22T11:00:00.000Z',
    form: 'after-call',
    verdict,
    linkedBy: 'call-id',
    ...over,
  };
}

/** Appends records (and raw lines, for malformed ones) to the tier's outcomes.jsonl. */
export function appendOutcomes(cacheDir: string, lines: (OutcomeRecord | string)[]): string {
  const path = join(cacheDir, OUTCOMES_FILE);
  mkdirSync(cacheDir, { recursive: true });
  appendFileSync(path, lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n');
  return path;
}

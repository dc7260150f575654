/**
 * What outcome-linked feedback concluded, summed for people: per lesson (`lore show`, the lesson
 * page) and per ISO week (the analytics page's "mistakes prevented" and "injections that were
 * noise"). Pure: the text of `outcomes.jsonl` in, counts out; the clock arrives as an argument.
 *
 * Each injection counts once: `lore scan` may judge the same injection again on a rescan, and the
 * newest judgement (by `judgedAt`) wins.
 */
import { DELIVERY_FORMS } from '../replay/replay-report.js';
import type { DeliveryForm } from '../replay/replay-report.js';
import { OUTCOME_VERDICTS } from '../feedback/outcome-record.js';
import type { OutcomeRecord, OutcomeVerdict } from '../feedback/outcome-record.js';

export type OutcomeLines = {
  records: OutcomeRecord[];
  /** Lines that were not an outcome record (torn, foreign, an unknown verdict): skipped. */
  malformed: number;
  /** 1-based numbers of the first few malformed lines, for the message. */
  malformedAt: number[];
};

export type VerdictCounts = Record<OutcomeVerdict, number>;

export type LessonOutcomes = VerdictCounts & {
  /** Injections judged (each counted once). */
  total: number;
  byForm: Partial<Record<DeliveryForm, VerdictCounts>>;
  /** The newest injection judged, with its verdict. */
  last: Pick<OutcomeRecord, 'verdict' | 'form' | 'injectedAt' | 'judgedAt' | 'session'> | null;
};

export type WeeklyOutcomes = VerdictCounts & {
  /** ISO 8601 week, `2026-W47`. */
  week: string;
  /** The week's Monday (UTC), `2026-11-16`. */
  start: string;
};

const DAY_MS = 86_400_000;
const VERDICTS = new Set<string>(OUTCOME_VERDICTS);
const FORMS = new Set<string>(DELIVERY_FORMS);
const LINKS = new Set(['call-id', 'call-match', 'none']);

/** One line of `outcomes.jsonl` as a record, or null when it is not one. */
export function parseOutcomeLine(line: string): OutcomeRecord | null {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const v = value as Record<string, unknown>;
  const strings = ['injection', 'lesson', 'session', 'injectedAt', 'judgedAt'] as const;
  if (!strings.every((key) => typeof v[key] === 'string' && v[key] !== '')) return null;
  if (!Number.isFinite(Date.parse(v.injectedAt as string))) return null;
  if (typeof v.verdict !== 'string' || !VERDICTS.has(v.verdict)) return null;
  if (typeof v.form !== 'string' || !FORMS.has(v.form)) return null;
  const record: OutcomeRecord = {
    injection: v.injection as string,
    lesson: v.lesson as string,
    session: v.session as string,
    injectedAt: v.injectedAt as string,
    judgedAt: v.judgedAt as string,
    form: v.form as DeliveryForm,
    verdict: v.verdict as OutcomeVerdict,
    linkedBy:
      typeof v.linkedBy === 'string' && LINKS.has(v.linkedBy)
        ? (v.linkedBy as OutcomeRecord['linkedBy'])
        : 'none',
  };
  const evidence = v.evidence as { file?: unknown; line?: unknown } | undefined;
  if (typeof evidence?.file === 'string' && typeof evidence.line === 'number')
    record.evidence = { file: evidence.file, line: evidence.line };
  return record;
}

/** The records of an `outcomes.jsonl` text; blank lines are nothing, anything else not a record is counted. */
export function parseOutcomeLines(text: string): OutcomeLines {
  const records: OutcomeRecord[] = [];
  const malformedAt: number[] = [];
  let malformed = 0;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i] ?? '';
    if (line.trim() === '') continue;
    const record = parseOutcomeLine(line);
    if (record) records.push(record);
    else {
      malformed += 1;
      if (malformedAt.length < 5) malformedAt.push(i + 1);
    }
  }
  return { records, malformed, malformedAt };
}

/** One record per injection: the newest judgement of each. */
export function latestPerInjection(records: readonly OutcomeRecord[]): OutcomeRecord[] {
  const byInjection = new Map<string, OutcomeRecord>();
  for (const record of records) {
    const seen = byInjection.get(record.injection);
    if (seen === undefined || record.judgedAt >= seen.judgedAt) byInjection.set(record.injection, record);
  }
  return [...byInjection.values()];
}

function zeroCounts(): VerdictCounts {
  return { prevented: 0, repeated: 0, noise: 0, unlinked: 0 };
}

/** Every lesson's outcomes; a lesson without records is absent. */
export function summarizeLessonOutcomes(records: readonly OutcomeRecord[]): Map<string, LessonOutcomes> {
  const out = new Map<string, LessonOutcomes>();
  for (const record of latestPerInjection(records)) {
    const entry = out.get(record.lesson) ?? { ...zeroCounts(), total: 0, byForm: {}, last: null };
    entry[record.verdict] += 1;
    entry.total += 1;
    const form = (entry.byForm[record.form] ??= zeroCounts());
    form[record.verdict] += 1;
    if (entry.last === null || record.injectedAt > entry.last.injectedAt) {
      const { verdict, form: delivered, injectedAt, judgedAt, session } = record;
      entry.last = { verdict, form: delivered, injectedAt, judgedAt, session };
    }
    out.set(record.lesson, entry);
  }
  return out;
}

/** The ISO 8601 week of a UTC day (days since 1970-01-01): its label and its Monday. */
export function isoWeekOf(day: number): { week: string; monday: number } {
  // 1970-01-01 was a Thursday: (day + 3) mod 7 is 0 on Mondays
  const monday = day - ((((day + 3) % 7) + 7) % 7);
  const thursday = monday + 3;
  // the week belongs to the year of its Thursday; week 1 holds that year's first Thursday
  const year = new Date(thursday * DAY_MS).getUTCFullYear();
  const jan1 = Math.floor(Date.UTC(year, 0, 1) / DAY_MS);
  const number = Math.floor((thursday - jan1) / 7) + 1;
  return { week: `${year}-W${String(number).padStart(2, '0')}`, monday };
}

/**
 * Outcomes per ISO week (by when the lesson was injected), oldest first: the `weeks` weeks up to
 * and including the week of `nowMs`, zeros included. Records outside them are left out.
 */
export function outcomesPerWeek(
  records: readonly OutcomeRecord[],
  options: { nowMs: number; weeks: number },
): WeeklyOutcomes[] {
  const { monday: thisMonday } = isoWeekOf(Math.floor(options.nowMs / DAY_MS));
  const series: WeeklyOutcomes[] = [];
  const byMonday = new Map<number, WeeklyOutcomes>();
  for (let n = options.weeks - 1; n >= 0; n -= 1) {
    const monday = thisMonday - 7 * n;
    const entry = {
      week: isoWeekOf(monday).week,
      start: new Date(monday * DAY_MS).toISOString().slice(0, 10),
      ...zeroCounts(),
    };
    series.push(entry);
    byMonday.set(monday, entry);
  }
  for (const record of latestPerInjection(records)) {
    const day = Math.floor(Date.parse(record.injectedAt) / DAY_MS);
    const entry = byMonday.get(isoWeekOf(day).monday);
    if (entry) entry[record.verdict] += 1;
  }
  return series;
}

/**
 * The last replay (`<cache>/replay/last.json`, written by `lore replay`) read back for `lore show`,
 * `GET /api/replay` and the dashboard: the text to a `ReplayReport`, or what is wrong with it.
 * Pure. The figures people read (per-lesson fires, hits, misses, noise, prevented) must be there
 * and be counts; fields a reader can do without (counts of bad input, by-form figures,
 * recurrences) fall back to empty, so a report from a slightly different lore still shows.
 */
import { DELIVERY_FORMS, SUGGESTION_KINDS } from '../replay/replay-report.js';
import type {
  DeliveryForm,
  FormFigures,
  LessonReplay,
  ReplayCounts,
  ReplayReport,
  ReplaySuggestion,
  SuggestionKind,
} from '../replay/replay-report.js';

export type ParsedReplay = { ok: true; report: ReplayReport } | { ok: false; message: string };

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;
const count = (v: unknown): number => (isCount(v) ? v : 0);
const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];

const FIGURES = ['fires', 'hits', 'misses', 'noise', 'prevented'] as const;
const TOTALS = [
  'calls',
  'callsWithInjection',
  'injections',
  'bytes',
  'injectionsPer100Calls',
  'bytesPer100Calls',
  'guardDenials',
] as const;
const COUNTS = [
  'files',
  'sessions',
  'brokenLines',
  'missingResults',
  'orphanResults',
  'clockBackwards',
  'unknownTools',
  'subagentCalls',
] as const;

function readFigures(v: Obj): FormFigures {
  return {
    fires: count(v.fires),
    hits: count(v.hits),
    misses: count(v.misses),
    noise: count(v.noise),
    prevented: count(v.prevented),
  };
}

function readLesson(v: unknown, index: number): LessonReplay | string {
  if (!isObj(v) || typeof v.id !== 'string' || v.id === '') return `lessons[${index}] has no id`;
  const missing = FIGURES.find((key) => !isCount(v[key]));
  if (missing) return `lessons[${index}] (${v.id}): ${missing} is not a count`;
  const byForm: Partial<Record<DeliveryForm, FormFigures>> = {};
  if (isObj(v.byForm))
    for (const form of DELIVERY_FORMS) {
      const figures = v.byForm[form];
      if (isObj(figures)) byForm[form] = readFigures(figures);
    }
  const precision =
    typeof v.precision === 'number' && Number.isFinite(v.precision)
      ? v.precision
      : count(v.fires) === 0
        ? null
        : Math.round((count(v.hits) / count(v.fires)) * 100) / 100;
  const lesson: LessonReplay = {
    id: v.id,
    summary: typeof v.summary === 'string' ? v.summary : '',
    type: typeof v.type === 'string' ? v.type : 'hint',
    toolOnly: v.toolOnly === true,
    ...readFigures(v),
    precision,
    byForm,
    recurrences: count(v.recurrences),
  };
  if (isObj(v.asCheckpoint))
    lesson.asCheckpoint = {
      denials: count(v.asCheckpoint.denials),
      prevented: count(v.asCheckpoint.prevented),
    };
  return lesson;
}

function readSuggestion(v: unknown): ReplaySuggestion | null {
  if (!isObj(v) || typeof v.lesson !== 'string' || typeof v.text !== 'string') return null;
  if (typeof v.kind !== 'string' || !(SUGGESTION_KINDS as readonly string[]).includes(v.kind)) return null;
  const suggestion: ReplaySuggestion = { lesson: v.lesson, kind: v.kind as SuggestionKind, text: v.text };
  if (isObj(v.trigger)) {
    const trigger: NonNullable<ReplaySuggestion['trigger']> = {};
    for (const key of ['commands', 'paths', 'tools'] as const)
      if (Array.isArray(v.trigger[key])) trigger[key] = strings(v.trigger[key]);
    suggestion.trigger = trigger;
  }
  return suggestion;
}

export function parseReplayReport(text: string): ParsedReplay {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, message: `not JSON (${(error as Error).message})` };
  }
  if (!isObj(value)) return { ok: false, message: 'not a replay report (expected a JSON object)' };
  if (value.version !== 1)
    return { ok: false, message: `replay report version ${String(value.version)}, expected 1` };
  if (typeof value.at !== 'string' || !Number.isFinite(Date.parse(value.at)))
    return { ok: false, message: 'the replay report has no valid `at` time' };
  const missing = TOTALS.find((key) => !isCount(value[key]));
  if (missing) return { ok: false, message: `${missing} is not a count` };
  if (!Array.isArray(value.lessons)) return { ok: false, message: 'lessons is not a list' };
  const lessons: LessonReplay[] = [];
  for (const [index, item] of value.lessons.entries()) {
    const lesson = readLesson(item, index);
    if (typeof lesson === 'string') return { ok: false, message: lesson };
    lessons.push(lesson);
  }
  const counts = isObj(value.counts) ? value.counts : {};
  const options = isObj(value.options) ? value.options : {};
  const report: ReplayReport = {
    version: 1,
    at: value.at,
    options: {
      sources: strings(options.sources),
      paths: strings(options.paths),
      since: typeof options.since === 'string' ? options.since : null,
      asOf: options.asOf === true,
      lessons: strings(options.lessons),
    },
    counts: Object.fromEntries(COUNTS.map((key) => [key, count(counts[key])])) as ReplayCounts,
    calls: count(value.calls),
    callsWithInjection: count(value.callsWithInjection),
    injections: count(value.injections),
    bytes: count(value.bytes),
    injectionsPer100Calls: count(value.injectionsPer100Calls),
    bytesPer100Calls: count(value.bytesPer100Calls),
    guardDenials: count(value.guardDenials),
    checkpointDenials: count(value.checkpointDenials),
    lessons,
    suggestions: (Array.isArray(value.suggestions) ? value.suggestions : [])
      .map(readSuggestion)
      .filter((s): s is ReplaySuggestion => s !== null),
  };
  return { ok: true, report };
}

/**
 * What `lore replay` reports, and what the dashboard's Replay page, `lore show` and the HTTP API
 * read back from the last replay (`<cache>/replay/last.json` of the project, or of the user tier).
 * Types and small pure helpers only: the replay itself lives beside this file.
 *
 * Delivery forms (DESIGN.md §4): a `guard` denies the very call; a `checkpoint` denies the first
 * matching call of a session and lets the retry through; `before-call` context (prompt, session
 * start, task pre-prompt, MCP answers) reaches the model before the calls that follow;
 * `after-call` context (PreToolUse `additionalContext`, Gemini AfterTool, Cursor postToolUse)
 * reaches it only after the call it was attached to has run.
 */

export const DELIVERY_FORMS = ['guard', 'checkpoint', 'before-call', 'after-call'] as const;
export type DeliveryForm = (typeof DELIVERY_FORMS)[number];

/** One lesson's figures in one delivery form. */
export type FormFigures = {
  /** Calls (or prompts) it was injected on, or that it denied. */
  fires: number;
  /** Fires on a call that failed with the lesson's mistake (same trigger and error class). */
  hits: number;
  /** Calls that failed with the lesson's mistake where it did not fire on or before them. */
  misses: number;
  /** Fires where nothing of the kind went wrong on that call or the next attempt of the same kind. */
  noise: number;
  /** Repeats of its mistake it could have stopped: denied, or reached before the repeat. */
  prevented: number;
};

export const SUGGESTION_KINDS = ['narrow', 'retire', 'checkpoint', 'guard'] as const;
export type SuggestionKind = (typeof SUGGESTION_KINDS)[number];

export type ReplaySuggestion = {
  lesson: string;
  kind: SuggestionKind;
  /** One sentence a person can act on, with the figures behind it. */
  text: string;
  /** `narrow`: the trigger proposed from the calls it hit and the calls it fired on in vain. */
  trigger?: { commands?: string[]; paths?: string[]; tools?: string[]; errors?: string[] };
};

export type LessonReplay = {
  id: string;
  summary: string;
  /** The lesson's type as stored (`hint`, `guard`, `checkpoint`). */
  type: string;
  /** Scoped by tool alone (no command, path or content pattern): fires on every call of its tools. */
  toolOnly: boolean;
  /** It waits for its error (`errors`): it speaks only after a call that printed one. */
  waits?: boolean;
  /** Totals over every form. */
  fires: number;
  hits: number;
  misses: number;
  noise: number;
  prevented: number;
  /** hits / fires, null before it fired. */
  precision: number | null;
  byForm: Partial<Record<DeliveryForm, FormFigures>>;
  /** `--as-of`: failures with its mistake after the lesson existed (its recurrence). */
  recurrences: number;
  /** What it would have prevented as a checkpoint (for advisory lessons): the first matching call per session denied. */
  asCheckpoint?: { denials: number; prevented: number };
};

export type ReplayCounts = {
  files: number;
  sessions: number;
  /** Lines that were not valid records, skipped. */
  brokenLines: number;
  missingResults: number;
  orphanResults: number;
  clockBackwards: number;
  /** Calls of tools the hook never sees (they are replayed as no-ops and counted). */
  unknownTools: number;
  /** Calls made inside subagents (replayed with their own per-agent dedup). */
  subagentCalls: number;
};

export type ReplayReport = {
  version: 1;
  /** When the replay ran (ISO). */
  at: string;
  options: { sources: string[]; paths: string[]; since: string | null; asOf: boolean; lessons: string[] };
  counts: ReplayCounts;
  calls: number;
  callsWithInjection: number;
  injections: number;
  bytes: number;
  injectionsPer100Calls: number;
  bytesPer100Calls: number;
  guardDenials: number;
  checkpointDenials: number;
  lessons: LessonReplay[];
  suggestions: ReplaySuggestion[];
};

/** Where the last replay is kept, relative to a tier's cache directory. */
export const LAST_REPLAY_FILE = 'replay/last.json';

export function emptyFigures(): FormFigures {
  return { fires: 0, hits: 0, misses: 0, noise: 0, prevented: 0 };
}

/** hits / fires, two decimals; null before the first fire. */
export function precisionOf(figures: Pick<FormFigures, 'fires' | 'hits'>): number | null {
  return figures.fires === 0 ? null : Math.round((figures.hits / figures.fires) * 100) / 100;
}

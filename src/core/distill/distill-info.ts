/**
 * The `distill` block of a candidate record: how its last distillation went, and, once one was
 * applied, the heuristic text capture wrote (so review can show both side by side, and a second
 * distillation starts from the same text as the first and hits the same cache entry).
 */
import type { CandidateRecord } from '../capture/merge-candidate.js';

export const DISTILL_OUTCOMES = ['applied', 'refused', 'failed'] as const;
export type DistillStatus = (typeof DISTILL_OUTCOMES)[number];

/** The fields a distillation replaces, as capture wrote them. */
export type HeuristicText = {
  summary: string;
  mistake?: string;
  remediation?: string;
  tools: string[];
  commands: string[];
  paths: string[];
  tags: string[];
};

export type DistillInfo = {
  /** How the last attempt went. */
  status: DistillStatus;
  /** Why it was refused or failed, for people. */
  note?: string;
  provider: string;
  model?: string;
  at: string;
  /** The cache key of the request (a hash of everything sent). */
  key?: string;
  /** Present while the record's text is the distilled one. */
  heuristic?: HeuristicText;
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

function readHeuristic(value: unknown): HeuristicText | undefined {
  if (!isRecord(value) || typeof value.summary !== 'string') return undefined;
  const mistake = text(value.mistake);
  const remediation = text(value.remediation);
  return {
    summary: value.summary,
    ...(mistake !== undefined ? { mistake } : {}),
    ...(remediation !== undefined ? { remediation } : {}),
    tools: strings(value.tools),
    commands: strings(value.commands),
    paths: strings(value.paths),
    tags: strings(value.tags),
  };
}

/** The record's `distill` block, when it has a readable one (a hand-edited file may not). */
export function distillInfoOf(record: CandidateRecord): DistillInfo | undefined {
  const raw = record.distill;
  if (!isRecord(raw) || !(DISTILL_OUTCOMES as readonly unknown[]).includes(raw.status)) return undefined;
  const heuristic = readHeuristic(raw.heuristic);
  const note = text(raw.note);
  const model = text(raw.model);
  const key = text(raw.key);
  return {
    status: raw.status as DistillStatus,
    ...(note !== undefined ? { note } : {}),
    provider: text(raw.provider) ?? 'unknown',
    ...(model !== undefined ? { model } : {}),
    at: text(raw.at) ?? '',
    ...(key !== undefined ? { key } : {}),
    ...(heuristic !== undefined ? { heuristic } : {}),
  };
}

/** The text capture wrote: the record's own fields, or the snapshot a distillation kept. */
export function heuristicText(record: CandidateRecord): HeuristicText {
  const kept = distillInfoOf(record)?.heuristic;
  if (kept !== undefined) return kept;
  const mistake = text(record.mistake);
  const remediation = text(record.remediation);
  return {
    summary: record.summary,
    ...(mistake !== undefined ? { mistake } : {}),
    ...(remediation !== undefined ? { remediation } : {}),
    tools: strings(record.tools),
    commands: strings(record.commands),
    paths: strings(record.paths),
    tags: strings(record.tags),
  };
}

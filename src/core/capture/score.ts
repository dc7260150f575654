/**
 * Confidence and priority of a candidate, from the signals of its episodes and how often it was
 * seen. The weights come from the config file (`capture.confidence`, `capture.priority`).
 */
import { CAPTURE_CONFIDENCE_DEFAULTS, CAPTURE_PRIORITY_DEFAULTS } from '../lesson/constants.js';
import type { EpisodeSignals } from './episode.js';

export type ConfidenceWeights = {
  base: number;
  tier1: number;
  fixConfirmed: number;
  userCorrection: number;
  multiSession: number;
  multiProject: number;
  causal: number;
  /** Same target tried three or more times with changes (seed: "retry loop", +0.10). */
  retry: number;
  /** A timeout or a stalled prompt (seed: "hang/stall", +0.10). */
  hang: number;
};

export type PriorityWeights = {
  base: number;
  multiSession: number;
  multiProject: number;
  hang: number;
  dataLoss: number;
  userCorrection: number;
  fixConfirmed: number;
  selfReported: number;
  singleOccurrence: number;
};

export const DEFAULT_CONFIDENCE_WEIGHTS: ConfidenceWeights = CAPTURE_CONFIDENCE_DEFAULTS;

export const DEFAULT_PRIORITY_WEIGHTS: PriorityWeights = CAPTURE_PRIORITY_DEFAULTS;

export type Spread = { tier: 1 | 2; sessions: number; projects: number; occurrences: number };

export function scoreConfidence(signals: EpisodeSignals, spread: Spread, w: ConfidenceWeights): number {
  let value = spread.tier === 1 ? w.tier1 : w.base;
  if (spread.tier === 2 && signals.fixConfirmed) value += w.fixConfirmed;
  if (spread.tier === 2 && signals.userCorrection) value += w.userCorrection;
  if (spread.sessions >= 2) value += w.multiSession;
  if (spread.projects >= 2) value += w.multiProject;
  if (spread.tier === 2 && signals.causal) value += w.causal;
  if (spread.tier === 2 && signals.retry === true) value += w.retry;
  if (spread.tier === 2 && signals.hang) value += w.hang;
  return Math.round(Math.min(1, Math.max(0, value)) * 100) / 100;
}

export function scorePriority(signals: EpisodeSignals, spread: Spread, w: PriorityWeights): number {
  let value = w.base;
  if (spread.sessions >= 2) value += w.multiSession;
  if (spread.projects >= 2) value += w.multiProject;
  if (signals.hang) value += w.hang;
  if (signals.dataLoss || signals.silentFailure) value += w.dataLoss;
  if (signals.userCorrection) value += w.userCorrection;
  if (signals.fixConfirmed) value += w.fixConfirmed;
  if (signals.selfReported) value += w.selfReported;
  if (spread.occurrences <= 1) value += w.singleOccurrence;
  return Math.min(10, Math.max(1, Math.round(value)));
}

/** Signals of several occurrences together: a signal seen once counts. */
export function mergeSignals(a: EpisodeSignals, b: EpisodeSignals): EpisodeSignals {
  return {
    fixConfirmed: a.fixConfirmed || b.fixConfirmed,
    userCorrection: a.userCorrection || b.userCorrection,
    causal: a.causal || b.causal,
    hang: a.hang || b.hang,
    // Candidates stored before the retry signal existed have none.
    retry: a.retry === true || b.retry === true,
    dataLoss: a.dataLoss || b.dataLoss,
    silentFailure: a.silentFailure || b.silentFailure,
    selfReported: a.selfReported || b.selfReported,
  };
}

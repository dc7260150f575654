/**
 * How feedback moves a lesson's confidence: +0.05 per helpful report (at most 1.0), -0.1 per
 * not-helpful one (at least 0.1), and -0.02 per 30 days without an injection (`lore maintain`,
 * floor 0.1). A lesson already below a floor is never raised by it. Automatic verdicts from
 * outcomes (`lore scan` judging what followed an injection) move it in smaller steps: +0.02 / -0.05.
 */
export const CONFIDENCE_STEP = { helpful: 0.05, notHelpful: -0.1 } as const;
export const OUTCOME_CONFIDENCE_STEP = { helpful: 0.02, notHelpful: -0.05 } as const;
export type ConfidenceStep = { readonly helpful: number; readonly notHelpful: number };
export const CONFIDENCE_FLOOR = 0.1;
export const CONFIDENCE_CEILING = 1;
export const UNUSED_DECAY = { step: 0.02, periodDays: 30, floor: 0.1 } as const;

const DAY_MS = 86_400_000;

/** Two decimals: confidence is shown and compared at that precision, and float noise never builds up. */
function round(value: number): number {
  return Math.round(value * 100) / 100;
}

export function adjustConfidence(
  confidence: number,
  helpful: boolean,
  step: ConfidenceStep = CONFIDENCE_STEP,
): number {
  if (helpful) return Math.max(confidence, Math.min(CONFIDENCE_CEILING, round(confidence + step.helpful)));
  return Math.min(confidence, Math.max(CONFIDENCE_FLOOR, round(confidence + step.notHelpful)));
}

export type DecayPlan = {
  /** Whole 30-day periods without an injection since `since`. */
  periods: number;
  confidence: number;
  /** The new reference time: `since` moved forward by the periods applied. */
  decayedThrough: string;
};

/**
 * The unused-decay step for one lesson. `since` is the later of its last injection, its creation
 * and the last decay already applied; undefined when nothing is due.
 */
export function planUnusedDecay(confidence: number, sinceMs: number, nowMs: number): DecayPlan | undefined {
  const periods = Math.floor((nowMs - sinceMs) / (UNUSED_DECAY.periodDays * DAY_MS));
  if (!Number.isFinite(periods) || periods < 1) return undefined;
  const next =
    confidence <= UNUSED_DECAY.floor
      ? confidence
      : Math.max(UNUSED_DECAY.floor, round(confidence - UNUSED_DECAY.step * periods));
  return {
    periods,
    confidence: next,
    decayedThrough: new Date(sinceMs + periods * UNUSED_DECAY.periodDays * DAY_MS).toISOString(),
  };
}

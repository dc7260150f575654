/**
 * What `lore scan` concluded about one injection from the calls that followed it (outcome-linked
 * feedback), one JSON line each in `<cache>/outcomes.jsonl` of the tier whose audit log held the
 * injection. `prevented` and `repeated` also go to the lesson's `feedback.jsonl` as an automatic
 * helpful / not-helpful (`source: outcome`); `noise` (nothing of its kind went wrong) and
 * `unlinked` (the call it preceded could not be found) are kept here only, for the analytics
 * ("mistakes prevented" and "injections that were noise" per week) and for `lore show`.
 */
import type { DeliveryForm } from '../replay/replay-report.js';

export const OUTCOME_VERDICTS = ['prevented', 'repeated', 'noise', 'unlinked'] as const;
export type OutcomeVerdict = (typeof OUTCOME_VERDICTS)[number];

export type OutcomeRecord = {
  /** The injection this judges: session, time and lesson of its audit line (counted once). */
  injection: string;
  lesson: string;
  session: string;
  /** When the lesson was injected (the audit line's time, ISO). */
  injectedAt: string;
  /** When the outcome was judged (ISO). */
  judgedAt: string;
  form: DeliveryForm;
  verdict: OutcomeVerdict;
  /** How the call was found: by tool-use id, or by tool, command or path and time (older audit lines). */
  linkedBy: 'call-id' | 'call-match' | 'none';
  /** The transcript line that decided it, when one did. */
  evidence?: { file: string; line: number };
};

export const OUTCOMES_FILE = 'outcomes.jsonl';

/** The key an injection is counted once by. */
export function injectionId(session: string, time: string, lesson: string): string {
  return `${session}/${time}/${lesson}`;
}

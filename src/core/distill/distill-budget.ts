/**
 * The per-day budget of model calls and tokens, as pure arithmetic over a small ledger. A call is
 * admitted only when the ledger can take it at its worst: one more call, and the prompt's tokens
 * (estimated on the safe side) plus the whole answer allowance. The reservation is made before
 * the call and settled to what the endpoint reports after it, so the budget holds even when two
 * `lore distill` runs share it.
 */

export type BudgetLimits = { dailyCalls: number; dailyTokens: number };

/** One UTC day's spending. */
export type BudgetLedger = { day: string; calls: number; tokens: number };

export type Admission = { ok: true; ledger: BudgetLedger } | { ok: false; reason: string };

/** The UTC day (`2026-11-26`) of an ISO time. */
export function budgetDay(nowIso: string): string {
  return nowIso.slice(0, 10);
}

/** The ledger for `day`: yesterday's spending does not count today. */
export function ledgerFor(stored: BudgetLedger | undefined, day: string): BudgetLedger {
  return stored !== undefined && stored.day === day ? stored : { day, calls: 0, tokens: 0 };
}

/**
 * Tokens of a prompt, on the safe side: about 3 characters a token (English prose averages 4,
 * code and JSON fewer), so the budget errs towards refusing a call rather than overspending.
 */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 3);
}

/** Admits a call that may cost up to `reserve` tokens, with the ledger that holds its reservation. */
export function admitCall(ledger: BudgetLedger, limits: BudgetLimits, reserve: number): Admission {
  if (ledger.calls + 1 > limits.dailyCalls) {
    return {
      ok: false,
      reason: `the daily budget of ${limits.dailyCalls} call(s) is spent (distill.dailyCalls)`,
    };
  }
  if (ledger.tokens + reserve > limits.dailyTokens) {
    return {
      ok: false,
      reason: `this call may take ${reserve} tokens and ${Math.max(0, limits.dailyTokens - ledger.tokens)} of the daily ${limits.dailyTokens} are left (distill.dailyTokens)`,
    };
  }
  return { ok: true, ledger: { ...ledger, calls: ledger.calls + 1, tokens: ledger.tokens + reserve } };
}

/**
 * The reservation replaced by what was spent: `calls` 0 gives the call back (nothing reached the
 * model). A spend above the reservation (an endpoint that ignores the answer limit) is counted in
 * full: the ledger tells the truth, and the next admission sees it.
 */
export function settleCall(
  ledger: BudgetLedger,
  reserved: { day: string; tokens: number },
  spent: { calls: 0 | 1; tokens: number },
): BudgetLedger {
  if (ledger.day !== reserved.day) return ledger;
  return {
    ...ledger,
    calls: Math.max(0, ledger.calls - 1 + spent.calls),
    tokens: Math.max(0, ledger.tokens - reserved.tokens + spent.tokens),
  };
}

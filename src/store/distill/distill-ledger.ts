/**
 * What distillation remembers on this machine, in the user tier's cache (`$LORE_HOME/cache/distill/`):
 * every answer a model gave, by the hash of the request that asked for it (`answers/<key>.json`),
 * so a candidate is never sent twice, from any project; and the day's budget (`budget.json`),
 * changed only under its lock, so two runs at once share one budget.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { admitCall, ledgerFor, settleCall } from '../../core/distill/distill-budget.js';
import type { Admission, BudgetLedger, BudgetLimits } from '../../core/distill/distill-budget.js';
import { DISTILL_PROMPT_VERSION } from '../../core/distill/distill-prompt.js';
import type { DistillPrompt } from '../../core/distill/distill-prompt.js';
import { writeFileAtomic } from '../fs/fs-atomic.js';
import { withLocks } from '../fs/lock.js';
import type { Usage } from './distill-provider.js';

export type CachedAnswer = {
  key: string;
  at: string;
  provider: string;
  model: string | null;
  text: string;
  usage: Usage;
};

export type DistillLedger = {
  readonly dir: string;
  answer(key: string): CachedAnswer | undefined;
  remember(answer: CachedAnswer): void;
  /** Reserves a call's worst case, or says why the budget cannot take it. */
  reserve(day: string, limits: BudgetLimits, tokens: number): Admission;
  /** Replaces a reservation of `reserved` tokens by what was spent (`calls` 0: nothing was sent). */
  settle(day: string, reserved: number, spent: { calls: 0 | 1; tokens: number }): void;
  /** Today's spending. */
  spent(day: string): BudgetLedger;
};

/**
 * The cache key of a request: everything that decides the answer (the prompt's version, the
 * provider, its model or, for a program, its command line, and the prompt itself), so another
 * model or a new prompt asks again.
 */
export function requestKey(
  provider: { name: string; model: string | undefined; endpoint: string },
  prompt: DistillPrompt,
): string {
  const who = provider.model ?? provider.endpoint;
  return createHash('sha256')
    .update(`v${DISTILL_PROMPT_VERSION}\n${provider.name}\n${who}\n${prompt.system}\n${prompt.user}`)
    .digest('hex')
    .slice(0, 32);
}

function readJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as unknown;
  } catch {
    return undefined;
  }
}

function readLedger(path: string): BudgetLedger | undefined {
  const raw = readJson(path) as Partial<BudgetLedger> | undefined;
  return raw !== undefined &&
    typeof raw.day === 'string' &&
    typeof raw.calls === 'number' &&
    typeof raw.tokens === 'number'
    ? { day: raw.day, calls: raw.calls, tokens: raw.tokens }
    : undefined;
}

export function openDistillLedger(userCacheDir: string): DistillLedger {
  const dir = join(userCacheDir, 'distill');
  const answers = join(dir, 'answers');
  const budgetFile = join(dir, 'budget.json');
  const lock = join(userCacheDir, 'locks', 'distill-budget.lock');
  const change = <T>(fn: (ledger: BudgetLedger | undefined) => { ledger?: BudgetLedger; result: T }): T =>
    withLocks([lock], () => {
      const out = fn(readLedger(budgetFile));
      if (out.ledger !== undefined) {
        mkdirSync(dir, { recursive: true });
        writeFileAtomic(budgetFile, `${JSON.stringify(out.ledger)}\n`);
      }
      return out.result;
    });
  return {
    dir,
    answer(key) {
      const raw = readJson(join(answers, `${key}.json`)) as CachedAnswer | undefined;
      return raw !== undefined && raw.key === key && typeof raw.text === 'string' ? raw : undefined;
    },
    remember(answer) {
      mkdirSync(answers, { recursive: true });
      writeFileAtomic(join(answers, `${answer.key}.json`), `${JSON.stringify(answer, null, 2)}\n`);
    },
    reserve(day, limits, tokens) {
      return change<Admission>((stored) => {
        const admission = admitCall(ledgerFor(stored, day), limits, tokens);
        return admission.ok ? { ledger: admission.ledger, result: admission } : { result: admission };
      });
    },
    settle(day, reserved, spent) {
      // A reservation of a day that has since ended is left alone: today's ledger is another's.
      change((stored) =>
        stored?.day === day
          ? { ledger: settleCall(stored, { day, tokens: reserved }, spent), result: undefined }
          : { result: undefined },
      );
    },
    spent(day) {
      return ledgerFor(readLedger(budgetFile), day);
    },
  };
}

/** How a distillation run reads as text, for `lore distill` and `lore scan --distill`. */
import type { DistillResult, DistillRun } from '../store/distill/distill-candidates.js';
import { truncate } from './output.js';

const thousands = (n: number): string => n.toLocaleString('en-US');

/** The budget line every run prints, so the limits are never a surprise. */
export function formatBudget(run: Pick<DistillRun, 'budget'>): string {
  const b = run.budget;
  return `budget today (${b.day} UTC): ${b.calls} of ${b.dailyCalls} call(s), ${thousands(b.tokens)} of ${thousands(b.dailyTokens)} tokens (distill.dailyCalls, distill.dailyTokens)`;
}

function formatResult(result: DistillResult): string[] {
  const head = `  ${result.id}  ${result.outcome.padEnd(11)}`;
  switch (result.outcome) {
    case 'applied':
      return [
        `${head}  ${truncate(result.summary, 110)}${result.cached ? '  (cached answer, no call)' : ''}`,
        `  ${' '.repeat(result.id.length)}  ${' '.repeat(11)}  was: ${truncate(result.before, 105)}`,
      ];
    case 'refused':
      return [
        `${head}  ${result.note ?? ''}; the candidate stays as it was${result.cached ? ' (cached answer)' : ''}`,
      ];
    case 'failed':
      return [`${head}  ${result.note ?? ''}; the candidate stays as it was (asked again next run)`];
    case 'over-budget':
      return [`${head}  not sent: ${result.note ?? ''}`];
  }
}

export function formatDistillRun(run: DistillRun): string {
  const model = run.model === null ? '' : ` ${run.model}`;
  const lines = [`distill: ${run.provider}${model} at ${run.endpoint}`];
  if (run.results.length === 0)
    lines.push('  no candidates to distill (every one is distilled or refused; name ids to ask again)');
  if (run.problems.length > 0)
    lines.push(
      `  ${run.problems.length} candidate file(s) skipped: they cannot be read (named on stderr; fix them, or delete their folders)`,
    );
  for (const result of run.results) lines.push(...formatResult(result));
  const count = (outcome: DistillResult['outcome']) =>
    run.results.filter((r) => r.outcome === outcome).length;
  if (run.results.length > 0)
    lines.push(
      `${count('applied')} distilled, ${count('refused')} refused, ${count('failed')} failed, ${count('over-budget')} over budget`,
    );
  lines.push(formatBudget(run));
  return lines.join('\n');
}

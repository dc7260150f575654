/**
 * Whether a candidate reads like advice, by a rule a script can check (`npm run eval` reports the
 * share): the summary starts with an imperative verb or "When …"; it names, in backticks, a
 * command, flag or path that appears in the evidence (the transcript's calls and results); it has
 * a fix; and the fix differs from the failure. The rule is deliberately mechanical: it cannot tell
 * good advice from bad, but a candidate that fails it needs a reviewer to rewrite it.
 */

export type AdviceShapeInput = {
  summary: string;
  mistake: string | undefined;
  remediation: string | undefined;
  /** The texts the candidate was drawn from: the calls' inputs and their results. */
  evidence: readonly string[];
};

export type AdviceFault = 'not-imperative' | 'names-nothing-in-evidence' | 'no-fix' | 'fix-equals-failure';

export type AdviceShape = {
  advice: boolean;
  faults: AdviceFault[];
  /** The backticked names found in the evidence. */
  named: string[];
};

/** Verbs a piece of advice starts with (and the negations and adverbs of the imperative). */
const IMPERATIVES = new Set(
  (
    'add always avoid ask build call cd check choose close commit configure copy create delete disable do ' +
    "don't drop edit enable escape export find fix give heed include install keep kill list load look make " +
    'mind move never open pass pin prefer put quote read reinstall remove rename replace restart retry run ' +
    'select set skip source specify start stop switch test try type uninstall unset update upgrade use ' +
    'verify wait wrap write'
  ).split(' '),
);

function flat(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

export function startsImperative(summary: string): boolean {
  const first = /^[\s`'"]*([A-Za-z']+)/.exec(summary)?.[1]?.toLowerCase();
  if (first === undefined) return false;
  return first === 'when' || IMPERATIVES.has(first);
}

/** The backticked spans of a text, without the `…` a cut left at either end. */
export function codeSpans(text: string): string[] {
  return [...text.matchAll(/`([^`]+)`/g)]
    .map((match) => flat((match[1] ?? '').replace(/^\u2026|\u2026$/g, '')))
    .filter((span) => span.length > 0);
}

/**
 * Whether the fix says nothing the failure did not: the command the mistake opens with is the one
 * the fix names, or the two say the same words.
 */
export function fixEqualsFailure(mistake: string | undefined, remediation: string | undefined): boolean {
  if (mistake === undefined || remediation === undefined) return false;
  const failed = /^\s*`/.test(mistake) ? codeSpans(mistake)[0] : undefined;
  const fixed = codeSpans(remediation)[0];
  if (failed !== undefined && fixed !== undefined) return failed === fixed;
  return flat(mistake).toLowerCase() === flat(remediation).toLowerCase();
}

export function checkAdviceShape(input: AdviceShapeInput): AdviceShape {
  const faults: AdviceFault[] = [];
  if (!startsImperative(input.summary)) faults.push('not-imperative');
  const evidence = input.evidence.map(flat).join('\n');
  const named = codeSpans(input.summary).filter((span) => span.length >= 2 && evidence.includes(span));
  if (named.length === 0) faults.push('names-nothing-in-evidence');
  const fix = input.remediation === undefined ? '' : flat(input.remediation);
  if (fix === '' || /\bwith different input\b/i.test(fix)) faults.push('no-fix');
  else if (fixEqualsFailure(input.mistake, input.remediation)) faults.push('fix-equals-failure');
  return { advice: faults.length === 0, faults, named };
}

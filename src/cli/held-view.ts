/**
 * How `lore review` and `lore candidates list` show what outcome feedback put in the review queue:
 * lessons held by their outcomes (with the transcript lines where their mistake came back) and
 * advisory lessons proposed as guards.
 */
import type { GuardProposal, HeldLesson } from '../store/feedback/held-lessons.js';

/** At most this many repeats are listed per held lesson (the JSON has them all). */
const REPEATS_SHOWN = 5;

export function formatHeldLesson(held: HeldLesson): string {
  const repeats = held.repeats
    .slice(0, REPEATS_SHOWN)
    .map((repeat) => `    its mistake again (${repeat.form}): ${repeat.file}:${repeat.line}`);
  const more =
    held.repeats.length > REPEATS_SHOWN ? [`    ... and ${held.repeats.length - REPEATS_SHOWN} more`] : [];
  return [
    `  ${held.id}  ${held.tier}  ${held.summary.slice(0, 100)}`,
    `    held ${held.heldAt.slice(0, 10)}: ${held.notHelpful} automatic not-helpful, ${held.helpful} helpful`,
    ...repeats,
    ...more,
    `    keep it: ${held.keep}   archive it: ${held.archive}`,
  ].join('\n');
}

export function formatGuardProposal(proposal: GuardProposal): string {
  return `  ${proposal.id}  repeated ${proposal.repeats} time(s) after it was shown  ${proposal.summary.slice(0, 80)}\n    make it a guard: ${proposal.command}`;
}

/** The two sections, each only when it has something. */
export function formatOutcomeQueue(held: readonly HeldLesson[], guards: readonly GuardProposal[]): string[] {
  return [
    ...(held.length > 0
      ? [
          '',
          'lessons held by their outcomes (not injected until you keep or archive them):',
          ...held.map(formatHeldLesson),
        ]
      : []),
    ...(guards.length > 0 ? ['', 'proposed as guards:', ...guards.map(formatGuardProposal)] : []),
  ];
}

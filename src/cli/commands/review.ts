import { createInterface } from 'node:readline';
import { LoreError } from '../../core/errors.js';
import { stringOption } from '../command.js';
import type { Command, CommandContext } from '../command.js';
import type { Workspace } from '../../store/workspace/workspace.js';
import { setStatus } from '../../store/lessons/lesson-writes.js';
import { formatGuardProposal, formatHeldLesson } from '../held-view.js';
import { openCommandWorkspace, settleIndex } from '../open-workspace.js';
import { formatCandidateDetail } from '../candidate-view.js';
import { openBreadthChecker } from '../../store/breadth/check-draft.js';
import { breadthLine } from '../breadth-view.js';
import {
  approveCandidate,
  draftOf,
  listCandidates,
  rejectCandidate,
} from '../../store/candidates/candidate-actions.js';

/** `--keep ID`: a person keeps a lesson its outcomes held; it is injected again. */
async function keep(ctx: CommandContext, ref: string) {
  const ws = await openCommandWorkspace(ctx);
  try {
    const { keepHeldLesson } = await import('../../store/feedback/held-lessons.js');
    const kept = await keepHeldLesson(ws, ref, ctx.now());
    await settleIndex(ws).catch(() => undefined);
    return {
      data: kept,
      text: `kept ${kept.id}: injected again; only outcomes from now on count toward holding it again`,
    };
  } finally {
    ws.close();
  }
}

type Ask = (question: string) => Promise<string | undefined>;
type Tally = { approved: number; rejected: number; skipped: number; kept: number; archived: number };

/**
 * The lessons held by their outcomes, one decision each, and the guard proposals (shown, with the
 * command). False when the person quit.
 */
async function reviewHeld(ctx: CommandContext, ws: Workspace, ask: Ask, tally: Tally) {
  const { heldLessons, keepHeldLesson, proposedGuards } =
    await import('../../store/feedback/held-lessons.js');
  const held = await heldLessons(ws, ctx.now());
  if (held.length > 0)
    process.stdout.write(
      '\nlessons held by their outcomes (their mistake kept coming back after they were shown):\n',
    );
  for (const lesson of held) {
    process.stdout.write(`\n${formatHeldLesson(lesson)}\n`);
    const answer = (await ask('[k]eep  [a]rchive  [s]kip  [q]uit > '))?.toLowerCase();
    if (answer === undefined || answer === 'q') return false;
    if (answer === 'k') {
      await keepHeldLesson(ws, lesson.id, ctx.now());
      process.stdout.write('kept: injected again\n');
      tally.kept += 1;
    } else if (answer === 'a') {
      await setStatus(ws, lesson.id, 'archived', ctx.now());
      process.stdout.write('archived\n');
      tally.archived += 1;
    }
  }
  const guards = await proposedGuards(ws, ctx.now());
  if (guards.length > 0)
    process.stdout.write(`\nproposed as guards:\n${guards.map(formatGuardProposal).join('\n')}\n`);
  return true;
}

/**
 * Interactive review on a terminal: each candidate in review order, one key a decision. Reads
 * answers line by line from stdin (so it can be driven through a pseudo-terminal in tests).
 */
export const command: Command = {
  spec: {
    usage: 'lore review | lore review --keep ID',
    description:
      'Walks through the lessons held by their outcomes (their mistake kept coming back after they were\n' +
      'shown; each with the transcript lines of the repeats): [k]eep, [a]rchive, [s]kip; lists the lessons\n' +
      'proposed as guards; then the candidates (repeated and user-corrected first): [a]pprove, [e]dit the\n' +
      'summary and approve, [r]eject, [s]kip, [q]uit. Needs a terminal; use `lore candidates` in scripts.\n' +
      'A trigger the breadth check finds too broad (see `lore add --help`) asks once more before it is approved.\n' +
      '--keep ID keeps a held lesson without a terminal: it is injected again.',
    options: {
      keep: {
        type: 'string',
        value: 'ID',
        description: 'keep a lesson held by its outcomes (no terminal needed)',
      },
    },
    positionals: { min: 0, max: 0, names: '' },
    json: false,
  },
  async run(ctx, args) {
    const kept = stringOption(args, 'keep');
    if (kept !== undefined) return keep(ctx, kept);
    if (!process.stdin.isTTY || !ctx.isTTY) {
      throw new LoreError('usage', 'lore review needs a terminal', {
        hint: 'in scripts use `lore candidates list --json`, `lore candidates approve ID`, `lore candidates reject ID`, `lore review --keep ID`',
      });
    }
    const ws = await openCommandWorkspace(ctx);
    const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: false });
    const lines = rl[Symbol.asyncIterator]();
    const ask = async (question: string): Promise<string | undefined> => {
      process.stdout.write(question);
      const next = await lines.next();
      return next.done ? undefined : String(next.value).trim();
    };
    const tally: Tally = { approved: 0, rejected: 0, skipped: 0, kept: 0, archived: 0 };
    try {
      if (!(await reviewHeld(ctx, ws, ask, tally))) return { data: tally, text: '\nreview stopped' };
      const candidates = listCandidates(ws);
      if (candidates.length === 0) {
        if (tally.kept + tally.archived > 0) await settleIndex(ws).catch(() => undefined);
        return { data: tally, text: 'no candidates to review; run `lore scan` first' };
      }
      const breadthOf = openBreadthChecker(ws);
      let index = 0;
      for (const found of candidates) {
        index += 1;
        process.stdout.write(
          `\n[${index}/${candidates.length}] ${formatCandidateDetail(found.record, found.tier, ws.displayPath(found.file))}\n`,
        );
        const answer = (await ask('[a]pprove  [e]dit summary  [r]eject  [s]kip  [q]uit > '))?.toLowerCase();
        if (answer === undefined || answer === 'q') break;
        if (answer === 'a' || answer === 'e') {
          const summary = answer === 'e' ? await ask('summary > ') : undefined;
          const edits = summary ? { summary } : {};
          // The breadth check: a too-broad trigger is approved only on a second yes.
          const breadth = breadthOf(draftOf(found.record, edits));
          if (breadth.broad) {
            process.stdout.write(`broad trigger: it ${breadth.message}\n`);
            const sure = (await ask('approve it anyway? [y/N] > '))?.toLowerCase();
            if (sure !== 'y') {
              process.stdout.write('skipped (narrow it with `lore candidates approve ID --command ...`)\n');
              tally.skipped += 1;
              continue;
            }
          }
          const added = await approveCandidate(ws, found, edits, {
            nowMs: ctx.now(),
            env: ctx.env,
          });
          process.stdout.write(
            `approved as lesson ${added.id} (${added.tier}${added.placement.universal ? ', universal' : ''}); ${breadthLine(breadth, 'as you confirmed')}\n`,
          );
          tally.approved += 1;
        } else if (answer === 'r') {
          rejectCandidate(found, ctx.now());
          process.stdout.write('rejected\n');
          tally.rejected += 1;
        } else tally.skipped += 1;
      }
      if (tally.approved + tally.kept + tally.archived > 0) await settleIndex(ws).catch(() => undefined);
      const outcomes =
        tally.kept + tally.archived > 0
          ? `; held lessons: ${tally.kept} kept, ${tally.archived} archived`
          : '';
      return {
        data: tally,
        text: `\nreviewed: ${tally.approved} approved, ${tally.rejected} rejected, ${tally.skipped} skipped${outcomes}`,
      };
    } finally {
      rl.close();
      ws.close();
    }
  },
};

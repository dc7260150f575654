import { createInterface } from 'node:readline';
import { LoreError } from '../../core/errors.js';
import type { Command } from '../command.js';
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

/**
 * Interactive review on a terminal: each candidate in review order, one key a decision. Reads
 * answers line by line from stdin (so it can be driven through a pseudo-terminal in tests).
 */
export const command: Command = {
  spec: {
    usage: 'lore review',
    description:
      'Walks through the candidates (repeated and user-corrected first): [a]pprove, [e]dit the summary and\n' +
      'approve, [r]eject, [s]kip, [q]uit. Needs a terminal; use `lore candidates` in scripts. A trigger the\n' +
      'breadth check finds too broad (see `lore add --help`) asks once more before it is approved.',
    options: {},
    positionals: { min: 0, max: 0, names: '' },
    json: false,
  },
  async run(ctx) {
    if (!process.stdin.isTTY || !ctx.isTTY) {
      throw new LoreError('usage', 'lore review needs a terminal', {
        hint: 'in scripts use `lore candidates list --json`, `lore candidates approve ID`, `lore candidates reject ID`',
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
    const tally = { approved: 0, rejected: 0, skipped: 0 };
    try {
      const candidates = listCandidates(ws);
      if (candidates.length === 0)
        return { data: tally, text: 'no candidates to review; run `lore scan` first' };
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
      if (tally.approved > 0) await settleIndex(ws).catch(() => undefined);
      return {
        data: tally,
        text: `\nreviewed: ${tally.approved} approved, ${tally.rejected} rejected, ${tally.skipped} skipped`,
      };
    } finally {
      rl.close();
      ws.close();
    }
  },
};

import { choiceOption, flagOption } from '../command.js';
import type { Command } from '../command.js';
import { LoreError } from '../../core/errors.js';
import { LESSON_OPTIONS, draftFromArgs, inFlagTerms } from '../lesson-flags.js';
import { openCommandWorkspace, settleIndex } from '../open-workspace.js';
import { formatCandidateDetail, formatCandidateRow, listedCandidateJson } from '../candidate-view.js';
import { formatOutcomeQueue } from '../held-view.js';
import {
  approveCandidate,
  draftOf,
  findCandidate,
  findSettledCandidate,
  surveyCandidates,
  placeCandidate,
  rejectCandidate,
} from '../../store/candidates/candidate-actions.js';
import type { SettledCandidate } from '../../store/candidates/candidate-actions.js';
import { findDuplicates } from '../../store/curate/find-duplicates.js';
import { SCOPE_CLASSES } from '../../core/lesson/constants.js';
import { distillComparison } from '../../core/distill/distill-comparison.js';
import { requireNarrowTrigger } from '../../store/breadth/check-draft.js';
import { BREADTH_DESCRIPTION, FORCE_OPTION, breadthLine } from '../breadth-view.js';
import { NO_DUPLICATE_OPTION, noteDuplicates, refuseDuplicates } from '../duplicate-note.js';

const ACTIONS = ['list', 'show', 'approve', 'reject'] as const;

function settledLine(settled: SettledCandidate): string {
  const when = settled.at.slice(0, 10);
  return settled.decision === 'approved'
    ? `candidate ${settled.id} was approved on ${when}: it is lesson ${settled.lesson ?? '(id not recorded)'}`
    : `candidate ${settled.id} was rejected on ${when}; its pattern is not proposed again`;
}

export const command: Command = {
  spec: {
    usage:
      'lore candidates list [--json] | show ID | approve ID [lesson flags] [--tier T] [--force] [-q] | reject ID',
    description:
      'Lesson candidates found by `lore scan`, waiting for review. `list` puts repeated and user-corrected\n' +
      'ones first; `approve` turns one into a lesson (flags such as --summary or --tag edit it on the way);\n' +
      '`reject` drops it and its pattern is never proposed again. Candidates are never injected.\n' +
      'Approval writes the lesson where capture classified it: project files, schemas, config -> project;\n' +
      'a library or framework -> user tier; a process or method -> user tier, universal; unclear -> project\n' +
      '(`show` says which and why; --tier overrides). Near-duplicates already in the store are named on stderr.\n' +
      '`list` also shows the lessons held by their outcomes (their mistake kept coming back after they were shown;\n' +
      'keep one with `lore review --keep ID`, or `lore archive ID`) and the lessons proposed as guards.\n' +
      BREADTH_DESCRIPTION,
    options: {
      ...LESSON_OPTIONS,
      tier: {
        type: 'string',
        value: 'project|user|universal',
        description: 'approve into this tier (default: where capture classified it)',
      },
      'no-duplicate': NO_DUPLICATE_OPTION,
      force: FORCE_OPTION,
      quiet: { type: 'boolean', short: 'q', description: 'approve: print only the new lesson id' },
    },
    positionals: { min: 1, max: 2, names: 'list | show ID | approve ID | reject ID' },
    json: true,
    examples: [
      'lore candidates list',
      'lore candidates approve 7m2k --summary "Read a file before editing it"',
      'lore candidates reject 7m2k',
    ],
  },
  async run(ctx, args) {
    const [action, ref] = args.positionals;
    if (!(ACTIONS as readonly string[]).includes(action ?? '')) {
      throw new LoreError('usage', `unknown action "${action}"; use ${ACTIONS.join(', ')}`, {
        hint: 'usage: lore candidates list | show ID | approve ID | reject ID',
      });
    }
    if (action !== 'list' && ref === undefined)
      throw new LoreError('usage', `lore candidates ${action} needs an id`);
    if (action === 'list' && ref !== undefined)
      throw new LoreError('usage', 'lore candidates list takes no id');
    const tier = choiceOption(args, 'tier', SCOPE_CLASSES);
    const edits = await draftFromArgs(ctx, args);
    if (
      action !== 'approve' &&
      (Object.keys(edits).length > 0 ||
        tier !== undefined ||
        flagOption(args, 'no-duplicate') ||
        flagOption(args, 'force') ||
        flagOption(args, 'quiet'))
    ) {
      throw new LoreError('usage', `lore candidates ${action} takes no lesson flags`, {
        hint: 'field edits go with approve: lore candidates approve ID --summary "..."',
      });
    }
    const ws = await openCommandWorkspace(ctx);
    try {
      if (action === 'list') {
        const survey = surveyCandidates(ws);
        const candidates = survey.candidates.map((c) =>
          listedCandidateJson(c.record, c.tier, ws.displayPath(c.file)),
        );
        const { heldLessons, proposedGuards } = await import('../../store/feedback/held-lessons.js');
        const held = await heldLessons(ws, ctx.now());
        const guardProposals = await proposedGuards(ws, ctx.now());
        const broken = survey.broken.map((c) => ({
          id: c.id,
          tier: c.tier,
          file: ws.displayPath(c.file),
          ...(c.line !== undefined ? { line: c.line } : {}),
          problem: c.problem,
        }));
        for (const c of broken)
          ctx.note(
            `${c.file}${c.line !== undefined ? `:${c.line}` : ''}: skipped: ${c.problem} (fix the file, or delete its folder)`,
          );
        const text = [
          candidates.length === 0
            ? 'no candidates; run `lore scan` to look for some'
            : ['id          store    tier prio conf  summary', ...candidates.map(formatCandidateRow)].join(
                '\n',
              ),
          ...formatOutcomeQueue(held, guardProposals),
        ].join('\n');
        return { data: { candidates, broken, held, guardProposals }, text };
      }
      let found: ReturnType<typeof findCandidate>;
      try {
        found = findCandidate(ws, ref ?? '');
      } catch (error) {
        // Approved or rejected already: its folder is gone, its decision names it (and its lesson).
        const settled =
          error instanceof LoreError && error.code === 'not-found'
            ? findSettledCandidate(ws, ref ?? '')
            : undefined;
        if (settled === undefined) throw error;
        const said = settledLine(settled);
        if (action !== 'show')
          throw new LoreError('not-found', said, {
            hint: settled.lesson
              ? `open it with: lore show ${settled.lesson}`
              : 'list the others with `lore candidates list`',
          });
        return {
          data: { settled, ...(settled.lesson ? { next: `lore show ${settled.lesson}` } : {}) },
          text: settled.lesson
            ? `${said}
open it with: lore show ${settled.lesson}`
            : said,
        };
      }
      if (action === 'show') {
        const placement = placeCandidate(ws, found);
        return {
          data: {
            candidate: listedCandidateJson(found.record, found.tier, ws.displayPath(found.file)),
            record: found.record,
            placement,
            distill: distillComparison(found.record),
          },
          text: `${formatCandidateDetail(found.record, found.tier, ws.displayPath(found.file))}\napproving writes it to: ${placement.tier}${placement.universal ? ' (universal)' : ''}${placement.reason ? ` (${placement.reason})` : ''}`,
        };
      }
      if (action === 'reject') {
        rejectCandidate(found, ctx.now());
        return {
          data: { rejected: found.id, contentHash: found.record.contentHash },
          text: `rejected ${found.id}; its pattern will not be proposed again`,
        };
      }
      const draft = draftOf(found.record, edits);
      const breadth = requireNarrowTrigger(
        ws,
        draft,
        flagOption(args, 'force'),
        `lore candidates approve ${found.id} --force (with the same flags)`,
      );
      const duplicates = await findDuplicates(
        ws,
        { ...draft, summary: edits.summary ?? found.record.summary },
        {
          threshold: ws.config.duplicates.threshold,
          nowMs: ctx.now(),
          env: ctx.env,
        },
      );
      if (duplicates.length > 0 && flagOption(args, 'no-duplicate')) refuseDuplicates(duplicates);
      const added = await approveCandidate(ws, found, edits, {
        ...(tier ? { tier } : {}),
        nowMs: ctx.now(),
        env: ctx.env,
      }).catch((error: unknown) => {
        throw inFlagTerms(error);
      });
      await settleIndex(ws).catch(() => undefined);
      noteDuplicates(ctx, duplicates);
      const file = ws.displayPath(added.file);
      return {
        data: {
          approved: found.id,
          id: added.id,
          slug: added.lesson.slug,
          tier: added.tier,
          file,
          lesson: added.lesson,
          placement: added.placement,
          duplicates,
          breadth,
        },
        text: flagOption(args, 'quiet')
          ? added.id
          : `approved ${found.id} as lesson ${added.id} (${added.tier}${added.placement.universal ? ', universal' : ''}) in ${file}${added.placement.reason ? `\nwhy there: ${added.placement.reason}` : ''}\n${breadthLine(breadth)}\nsee it with: lore show ${added.id}`,
      };
    } finally {
      ws.close();
    }
  },
};

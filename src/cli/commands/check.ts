import { dirname, join } from 'node:path';
import type { Problem } from '../../core/errors.js';
import { formatProblem } from '../../core/errors.js';
import type { Command } from '../command.js';
import { openWorkspace } from '../../store/workspace/workspace.js';
import { recoverWrites } from '../../store/fs/journal.js';
import { FEEDBACK_FILE, readFeedbackFile } from '../../store/lessons/feedback.js';

export const command: Command = {
  spec: {
    usage: 'lore check [--json]',
    description:
      'Reads and validates every lesson file, vote file, feedback file and config file of both tiers, and lists every problem\n' +
      'with its file and line. Exit status: 0 when there are no errors (warnings allowed), 1 otherwise.',
    options: {},
    positionals: { min: 0, max: 0, names: '' },
    json: true,
  },
  async run(ctx) {
    const ws = await openWorkspace({ cwd: ctx.cwd, root: ctx.root, env: ctx.env });
    try {
      recoverWrites(join(ws.cacheDir, 'journal'), (path) =>
        ctx.note(
          `lore: ${ws.displayPath(path)} changed after an interrupted write; kept as it is, the older text from the journal not applied`,
        ),
      );
      const report = await ws.index.rebuild();
      const problems: Problem[] = [...ws.configProblems, ...(await ws.index.problems())];
      for (const file of report.legacyFiles) {
        problems.push({
          file: ws.displayPath(file),
          message: 'old flat layout (lessons/<id>.yaml): run `lore migrate-layout`',
          severity: 'error',
        });
      }
      const lessons = await ws.index.list({ status: 'any' }, ctx.now(), ws.halfLifeDays);
      const byId = new Map(lessons.map((item) => [item.lesson.id, item]));
      const slugs = new Map<string, string[]>();
      for (const { lesson, file } of lessons) {
        slugs.set(lesson.slug, [...(slugs.get(lesson.slug) ?? []), lesson.id]);
        const shown = ws.displayPath(file);
        for (const problem of readFeedbackFile(join(dirname(file), FEEDBACK_FILE)).problems)
          problems.push({ ...problem, file: ws.displayPath(problem.file) });
        if (lesson.supersededBy !== undefined && !byId.has(lesson.supersededBy)) {
          problems.push({
            file: shown,
            field: 'supersededBy',
            message: `points at ${lesson.supersededBy}, which does not exist`,
            severity: 'warning',
          });
        }
        if (
          lesson.type === 'checkpoint' &&
          lesson.commands.length + lesson.paths.length + lesson.contents.length === 0
        ) {
          problems.push({
            file: shown,
            field: 'type',
            message:
              'a checkpoint without commands, paths or contents never denies a call (it is advice instead): add a trigger (lore update --command, --path or --content) or make it a hint',
            severity: 'warning',
          });
        }
        if ((lesson.type === 'checkpoint' || lesson.type === 'guard') && lesson.errors.length > 0) {
          problems.push({
            file: shown,
            field: 'errors',
            message: `a ${lesson.type} with errors never denies: it waits for its error and speaks after the call ran, as a hint does; drop the errors (lore update --error '') or make it a hint`,
            severity: 'warning',
          });
        }
        for (const old of lesson.supersedes) {
          if (!byId.has(old))
            problems.push({
              file: shown,
              field: 'supersedes',
              message: `names ${old}, which does not exist`,
              severity: 'warning',
            });
        }
      }
      for (const [slug, ids] of slugs) {
        if (ids.length > 1) {
          problems.push({
            file: ws.displayPath(ws.tiers[0]?.layout.lessonsDir ?? ''),
            field: 'slug',
            message: `slug "${slug}" is shared by ${ids.join(', ')}; refer to them by id`,
            severity: 'warning',
          });
        }
      }
      const errors = problems.filter((p) => p.severity === 'error');
      const warnings = problems.length - errors.length;
      const brokenFiles = new Set(errors.map((e) => e.file)).size;
      const summary =
        errors.length === 0
          ? `ok: ${lessons.length} lesson(s) checked${warnings > 0 ? `, ${warnings} warning(s)` : ''}`
          : `${errors.length} error(s) and ${warnings} warning(s); ${brokenFiles} file(s) with errors are skipped until fixed, ${lessons.length} lesson(s) load fine`;
      return {
        data: { ok: errors.length === 0, lessons: lessons.length, errors: errors.length, warnings, problems },
        text: [...problems.map(formatProblem), summary].join('\n'),
        exitCode: errors.length === 0 ? 0 : 1,
      };
    } finally {
      ws.close();
    }
  },
};

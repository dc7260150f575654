/**
 * Opens the workspace for a command and tells the person (on stderr) about files that could not
 * be loaded, so a broken lesson never goes unnoticed while every other lesson keeps working.
 */
import type { Problem } from '../core/errors.js';
import { formatProblem } from '../core/errors.js';
import { openWorkspace } from '../store/workspace/workspace.js';
import type { Workspace } from '../store/workspace/workspace.js';
import type { CommandContext } from './command.js';
import { markStage } from './stage-marks.js';

export async function openCommandWorkspace(ctx: CommandContext): Promise<Workspace> {
  const ws = await openWorkspace({ cwd: ctx.cwd, root: ctx.root, env: ctx.env, warn: ctx.note });
  markStage('workspace opened');
  const report = await ws.ready();
  markStage('index ready');
  if (report.rebuilt) ctx.note('lore: the index was missing or damaged; rebuilt it from the lesson files');
  for (const problem of ws.configProblems) ctx.note(`lore: ${formatProblem(problem)}`);
  return ws;
}

/** After a read: one line per broken file (up to 3) and where to see them all. */
export async function noteProblems(ctx: CommandContext, ws: Workspace): Promise<Problem[]> {
  const problems = await ws.index.problems();
  const errors = problems.filter((problem) => problem.severity === 'error');
  if (errors.length > 0) {
    const files = [...new Set(errors.map((problem) => problem.file))];
    ctx.note(`lore: ${files.length} lesson file(s) could not be loaded and were skipped:`);
    for (const problem of errors.slice(0, 3)) ctx.note(`  ${formatProblem(problem)}`);
    ctx.note('run `lore check` to see every problem');
  }
  return problems;
}

/**
 * After a write: bring the index up to date while the parser is loaded anyway, so the next read
 * command finds it fresh and stays on the fast path.
 */
export async function settleIndex(ws: Workspace): Promise<void> {
  await ws.index.settle();
}

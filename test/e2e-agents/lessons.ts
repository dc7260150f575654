/**
 * The lessons the agent scenarios add with the built `lore` CLI. Each summary carries a marker
 * that occurs nowhere else, so a test can find it anywhere in a request body.
 */
import { LS_ERROR_TRIGGER } from '../helpers/error-lesson.js';
import type { Workspace } from './harness.js';

export const PYTEST_MARKER = 'LORE-E2E-7Q2 pytest lesson';
export const GUARD_MARKER = 'LORE-E2E-9K4 build guard';

/**
 * Three weightier lessons about other things. Session start shows the top few project lessons;
 * with these in the store, the pytest lesson (priority 3) is not among them and has to arrive
 * through its own tool call.
 */
export function addTopLessons(ws: Workspace): string[] {
  return [
    ['migrations: never edit an applied migration, add a new one', 'db/migrations/**'],
    ['api: every handler validates its input with the shared schema module', 'src/api/**'],
    ['docs: regenerate the CLI reference after changing a flag', 'docs/**'],
  ].map(([summary, path]) => ws.addLesson(['--summary', summary!, '--path', path!, '--priority', '9']));
}

/** Advisory: pytest without --no-header (a negative lookahead lets the corrected command through). */
export function addPytestLesson(ws: Workspace): string {
  return ws.addLesson([
    '--summary',
    `${PYTEST_MARKER}: run pytest with --no-header (pytest --no-header -q tests/); its header floods agent output`,
    '--tool',
    'Bash',
    '--command',
    '(^|\\s)pytest\\b(?!.*--no-header)',
    '--tag',
    'tool:pytest',
    '--priority',
    '3',
  ]);
}

/**
 * The same advice scoped by its tag alone (no tool, command or path): a lesson no call's trigger
 * brings, so session start shows it, and its tag matches the `pytest` call after it.
 */
export function addPytestTagLesson(ws: Workspace): string {
  return ws.addLesson([
    '--summary',
    `${PYTEST_MARKER}: run pytest with --no-header (pytest --no-header -q tests/); its header floods agent output`,
    '--tag',
    'tool:pytest',
    '--priority',
    '3',
  ]);
}

/** Guard: `rm -rf build` is denied with the fix; `rm -rf build/tmp` is let through. */
export function addBuildGuard(ws: Workspace): string {
  return ws.addLesson([
    '--type',
    'guard',
    '--summary',
    `${GUARD_MARKER}: never rm -rf build, it holds an hour of compiled artifacts; remove build/tmp instead`,
    '--tool',
    'Bash',
    '--command',
    '\\brm\\s+-rf\\s+build\\b(?!/tmp)',
    '--remediation',
    'rm -rf build/tmp',
    '--priority',
    '3',
  ]);
}

export const CHECKPOINT_MARKER = 'LORE-E2E-3C8 pytest checkpoint';

/**
 * Checkpoint: the first `pytest` of a session is denied with this lesson as the reason; the same
 * command run again goes through.
 */
export function addPytestCheckpoint(ws: Workspace): string {
  return ws.addLesson([
    '--type',
    'checkpoint',
    '--summary',
    `${CHECKPOINT_MARKER}: the tests here need the fake database; pytest starts it itself`,
    '--tool',
    'Bash',
    '--command',
    '(^|\\s)pytest\\b',
    '--priority',
    '3',
  ]);
}

export const LS_ERROR_MARKER = 'LORE-E2E-5E1 ls error lesson';

/**
 * Error-gated: about `ls`, but only once an `ls` has printed "No such file or directory"; never
 * before a call, and not after an `ls` that worked.
 */
export function addLsErrorLesson(ws: Workspace): string {
  return ws.addLesson([
    '--summary',
    `${LS_ERROR_MARKER}: that path is not there; list the parent directory before guessing another`,
    ...LS_ERROR_TRIGGER,
    '--priority',
    '3',
  ]);
}

/**
 * The lessons the agent scenarios add with the built `lore` CLI. Each summary carries a marker
 * that occurs nowhere else, so a test can find it anywhere in a request body.
 */
import type { Workspace } from './harness.js';

export const PYTEST_MARKER = 'LORE-E2E-7Q2 pytest lesson';
export const GUARD_MARKER = 'LORE-E2E-9K4 build guard';

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

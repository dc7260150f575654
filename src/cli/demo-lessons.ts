/**
 * The lessons `lore demo` seeds: real pitfalls agents hit, written the way a team would keep them.
 */
import type { LessonDraft } from '../store/lessons/lesson-writes.js';

export const DEMO_LESSONS: readonly LessonDraft[] = [
  {
    summary:
      'pytest waits on a TTY prompt in agent shells: run it with -p no:cacheprovider and CI=1, never bare',
    body:
      'In a non-interactive agent shell, a plugin that asks for input makes `pytest` hang until the tool times out.\n' +
      'Run `CI=1 pytest -p no:cacheprovider -q tests/` instead; add `--timeout 60` when pytest-timeout is installed.',
    tools: ['Bash'],
    commands: ['(^|\\s)pytest\\b(?!.*no:cacheprovider)'],
    paths: ['tests/**', 'pytest.ini', 'pyproject.toml'],
    tags: ['lang:python', 'tool:pytest', 'topic:testing'],
    stack: ['python'],
    category: 'testing',
    severity: 'high',
    priority: 8,
    mistake: 'Ran `pytest -v tests/` and the shell hung for 10 minutes.',
    remediation: 'Run `CI=1 pytest -p no:cacheprovider -q tests/`.',
  },
  {
    summary:
      'mock.patch the name where it is looked up (myapp.billing.requests), not where it is defined (requests)',
    body:
      '`from requests import get` binds `get` into the importing module, so `patch("requests.get")` leaves it untouched.\n' +
      'Patch `myapp.billing.get` (the module under test) instead.',
    tools: ['Edit', 'Write'],
    paths: ['tests/**/*.py', '**/test_*.py'],
    tags: ['lang:python', 'tool:unittest-mock', 'topic:testing'],
    stack: ['python'],
    category: 'testing',
    severity: 'medium',
    priority: 6,
  },
  {
    summary: 'git stash drops untracked files from the stash: use git stash -u (or commit to a WIP branch)',
    body: 'Plain `git stash` leaves untracked files in place; a later `git clean` or checkout then loses them.',
    tools: ['Bash'],
    commands: ['\\bgit\\s+stash(?!.*(-u|--include-untracked|\\b(list|show|pop|apply|drop)\\b))'],
    tags: ['tool:git', 'topic:data-loss'],
    category: 'process',
    severity: 'critical',
    priority: 9,
    type: 'guard',
  },
  {
    summary:
      'Database migrations under migrations/ are append-only: add a new revision, never edit an applied one',
    body: 'Editing an applied Alembic revision desynchronises every environment that already ran it.',
    tools: ['Edit', 'Write'],
    paths: ['migrations/versions/*.py'],
    tags: ['lang:python', 'tool:alembic', 'topic:database'],
    category: 'architecture',
    severity: 'high',
    priority: 7,
  },
  {
    summary: 'Use npm ci, not npm install, in scripts and CI: install rewrites package-lock.json',
    tools: ['Bash'],
    commands: ['\\bnpm\\s+(install|i)\\b(?!\\s+\\S)'],
    paths: ['package-lock.json', '.github/workflows/*.yml'],
    tags: ['lang:javascript', 'tool:npm', 'topic:ci'],
    stack: ['node'],
    category: 'tooling',
    severity: 'medium',
    priority: 5,
  },
  {
    summary: 'src/generated/ is produced by `make codegen`: edit the .proto sources instead, then regenerate',
    tools: ['Edit', 'Write'],
    paths: ['src/generated/'],
    tags: ['topic:codegen'],
    category: 'anti-pattern',
    severity: 'high',
    priority: 7,
  },
];

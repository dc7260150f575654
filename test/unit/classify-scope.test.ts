// Scope classification at capture: candidates shaped the way `lore scan` drafts them (summary,
// mistake, remediation, the failed command, path globs, tags) go to project, user or universal.
import { describe, expect, it } from 'vitest';
import { classifyScope } from '../../src/core/capture/classify-scope.js';
import type { ScopeInput } from '../../src/core/capture/classify-scope.js';

type Case = [string, ScopeInput, 'project' | 'user' | 'universal', RegExp];

const CASES: Case[] = [
  [
    'an Edit of a file in the repository',
    {
      summary:
        'Edit failed (String to replace not found in file); what worked: Edit with different input (src/api/handlers.py)',
      mistake: 'Edit failed: String to replace not found in file',
      remediation: 'what worked: Edit with different input (src/api/handlers.py)',
      paths: ['src/api/handlers.py'],
      tags: ['lang:python', 'tool:edit', 'env:claude-code', 'severity:medium'],
      category: 'technical',
    },
    'project',
    /src\/api\/handlers\.py/,
  ],
  [
    "the repository's build script",
    {
      summary:
        "`npm run build` failed (error TS2307: Cannot find module './gen/types'); what worked: `npm run codegen && npm run build`",
      mistake: "`npm run build` failed: error TS2307: Cannot find module './gen/types'",
      remediation: 'what worked: `npm run codegen && npm run build`',
      command: 'npm run build',
      paths: [],
      tags: ['lang:javascript', 'tool:npm', 'env:codex', 'severity:medium'],
      category: 'technical',
    },
    'project',
    /script/,
  ],
  [
    'a migration schema',
    {
      summary:
        'User correction: "the users table has no email column, read db/schema.sql before writing queries"',
      mistake: 'the user corrected Bash `psql -c "select email from users"`',
      remediation:
        'the user said: "the users table has no email column, read db/schema.sql before writing queries"',
      command: 'psql -c "select email from users"',
      paths: [],
      tags: ['tool:psql', 'env:claude-code', 'severity:medium'],
      category: 'collaboration',
    },
    'project',
    /db\/schema\.sql/,
  ],
  [
    'a missing .env for docker compose',
    {
      summary: '`docker compose up` failed (env file .env not found); what worked: `cp .env.example .env`',
      remediation: 'what worked: `cp .env.example .env`',
      command: 'docker compose up -d',
      paths: [],
      tags: ['tool:docker', 'env:claude-code', 'severity:medium'],
      category: 'technical',
    },
    'project',
    /\.env/,
  ],
  [
    'pytest hanging on a TTY',
    {
      summary:
        '`pytest` hangs until it times out: Command timed out after 120s; run it non-interactively (pass every option, --yes, CI=1) or with a timeout',
      mistake: '`pytest` hangs until it times out: Command timed out after 120s',
      remediation: 'run it non-interactively (pass every option, --yes, CI=1) or with a timeout',
      command: 'pytest -q',
      paths: [],
      tags: ['lang:python', 'tool:pytest', 'topic:timeout', 'env:codex', 'severity:medium'],
      category: 'technical',
    },
    'user',
    /pytest/,
  ],
  [
    'pip refusing a system Python (a stack trace through site-packages)',
    {
      summary:
        '`pip install` failed (error: externally-managed-environment); what worked: `python3 -m venv .venv && .venv/bin/pip install -r requirements.txt`',
      mistake:
        '`pip install -r requirements.txt` failed: error: externally-managed-environment (/usr/lib/python3/dist-packages/pip/_internal/cli.py)',
      remediation: 'what worked: `python3 -m venv .venv && .venv/bin/pip install -r requirements.txt`',
      command: 'pip install -r requirements.txt',
      paths: [],
      tags: ['lang:python', 'tool:pip', 'topic:dependencies', 'env:claude-code', 'severity:medium'],
      category: 'technical',
    },
    'user',
    /pip/,
  ],
  [
    'a React hook rule from an agent #lesson block',
    {
      summary: 'useEffect: calling setState unconditionally loops forever → guard it with a dependency array',
      mistake: 'calling setState unconditionally in useEffect loops forever',
      remediation: 'guard it with a dependency array',
      paths: ['**/*.tsx'],
      tags: ['lang:typescript', 'framework:react', 'env:claude-code', 'severity:medium'],
      category: 'technical',
    },
    'user',
    /react/,
  ],
  [
    'a Go module error',
    {
      summary: '`go build` failed (go: cannot find main module); what worked: `go mod init example.com/app`',
      remediation: 'what worked: `go mod init example.com/app`',
      command: 'go build ./...',
      paths: [],
      tags: ['lang:go', 'tool:go', 'env:codex', 'severity:medium'],
      category: 'technical',
    },
    'user',
    /\bgo\b/,
  ],
  [
    'a user correction about committing, made after a git call',
    {
      summary: 'User correction after Bash `git commit`: "no, always run the tests before committing"',
      mistake: 'the user corrected Bash `git commit -m "wip"`',
      remediation: 'the user said: "no, always run the tests before committing"',
      command: 'git commit -m "wip"',
      paths: [],
      tags: ['tool:git', 'topic:user-correction', 'env:claude-code', 'severity:medium'],
      category: 'collaboration',
    },
    'universal',
    /always/,
  ],
  [
    'reading before editing (a #lesson block about the Edit tool)',
    {
      summary: 'Edit: edited a file without reading it → read the file before editing it',
      mistake: 'edited a file without reading it',
      remediation: 'read the file before editing it',
      paths: [],
      tags: ['tool:edit', 'env:claude-code', 'severity:medium'],
      category: 'technical',
    },
    'universal',
    /read the file before/,
  ],
  [
    'asking before deleting',
    {
      summary: 'User correction: "ask me before deleting anything"',
      mistake: 'the user corrected the agent',
      remediation: 'the user said: "ask me before deleting anything"',
      paths: [],
      tags: ['topic:user-correction', 'env:gemini', 'severity:medium'],
      category: 'collaboration',
    },
    'universal',
    /ask me/,
  ],
  [
    'a user correction naming a tool: the tool wins over "always"',
    {
      summary: 'User correction after Bash `npm install`: "no, always use pnpm"',
      remediation: 'the user said: "no, always use pnpm"',
      command: 'npm install',
      paths: [],
      tags: ['tool:npm', 'topic:user-correction', 'env:claude-code', 'severity:medium'],
      category: 'collaboration',
    },
    'user',
    /npm/,
  ],
  [
    'a vague correction: unclear stays in the project',
    {
      summary: 'User correction: "that\'s not right"',
      mistake: 'the user corrected the agent',
      remediation: 'the user said: "that\'s not right"',
      paths: [],
      tags: ['topic:user-correction', 'env:claude-code', 'severity:medium'],
      category: 'collaboration',
    },
    'project',
    /nothing says/,
  ],
  [
    'an unknown in-house command: unclear',
    {
      summary: '`acmectl deploy` failed (401 Unauthorized); what worked: `acmectl login && acmectl deploy`',
      remediation: 'what worked: `acmectl login && acmectl deploy`',
      command: 'acmectl deploy',
      paths: [],
      tags: ['tool:acmectl', 'env:codex', 'severity:medium'],
      category: 'technical',
    },
    'project',
    /nothing says/,
  ],
];

describe('classifyScope', () => {
  it.each(CASES)('%s -> %s', (_name, input, scope, reason) => {
    const decision = classifyScope(input);
    expect(decision.scope).toBe(scope);
    expect(decision.reason).toMatch(reason);
  });

  it('a path in installed dependencies is not a project path', () => {
    const decision = classifyScope({
      summary: "Cannot find module 'left-pad' from node_modules/jest-resolve/build/index.js: run npm ci",
      paths: [],
      tags: [],
    });
    expect(decision).toEqual({ scope: 'user', reason: 'it is about a tool or library (npm)' });
  });
});

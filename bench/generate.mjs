// Generates realistic, varied lesson stores for the benchmark, deterministically (seeded PRNG), and
// caches them under bench/.data/stores/ keyed by size, generator version and a fingerprint of what
// serializeLesson writes, so reruns skip generation and a format change regenerates.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { serializeLesson } from '../dist/core/lesson/lesson-yaml.js';
import { createLessonId, ID_RANDOM_BYTES, slugify } from '../dist/core/lesson/lesson-id.js';
import { initTier } from '../dist/store/workspace/init-tier.js';
import { tierLayout } from '../dist/store/fs/paths.js';

/** Bump when the generated content changes, so cached stores are rebuilt. */
export const GENERATOR_VERSION = 3;
const SEED = 0x10e5eed;

/** mulberry32: small, fast, good enough to vary test data reproducibly. */
export function createRng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo, hi) => lo + Math.floor(next() * (hi - lo + 1));
  const pick = (list) => list[Math.floor(next() * list.length)];
  const chance = (p) => next() < p;
  const some = (list, lo, hi) => {
    const n = Math.min(list.length, int(lo, hi));
    const pool = [...list];
    const out = [];
    for (let i = 0; i < n; i += 1) out.push(pool.splice(Math.floor(next() * pool.length), 1)[0]);
    return out;
  };
  const weighted = (entries) => {
    const total = entries.reduce((sum, [, w]) => sum + w, 0);
    let r = next() * total;
    for (const [value, w] of entries) {
      r -= w;
      if (r < 0) return value;
    }
    return entries[entries.length - 1][0];
  };
  return { next, int, pick, chance, some, weighted };
}

/**
 * Topics: each a coherent scope (tools, command regexes, path globs, tags, stack) and the words its
 * lessons are written with. `{x}` placeholders in problems/remedies are filled from `things`.
 */
export const TOPICS = [
  {
    name: 'pytest',
    category: 'testing',
    tools: ['Bash'],
    commands: [
      '^pytest\\b',
      '(^|\\s)pytest\\b(?!.*no:cacheprovider)',
      '\\bpython3?\\s+-m\\s+pytest\\b',
      '\\bpytest\\b.*\\s-n\\s+\\d+',
    ],
    paths: ['tests/**', '**/test_*.py', 'conftest.py', 'pytest.ini', 'pyproject.toml', 'tests/**/*.py'],
    tags: ['lang:python', 'tool:pytest', 'topic:testing', 'topic:flaky-tests'],
    stack: ['python'],
    things: [
      'fixture',
      'conftest.py',
      'tmp_path',
      'capsys',
      'monkeypatch',
      'pytest-xdist',
      'parametrize',
      'the session-scoped db fixture',
    ],
    problems: [
      'pytest hangs on a TTY prompt in agent shells',
      'pytest collects {x} from the wrong rootdir',
      'a {x} leaks state between tests under pytest-xdist',
      'pytest -k matches more tests than intended',
      'pytest swallows print output unless run with -s',
      'flaky test timeouts when {x} touches the network',
    ],
    remedies: [
      'run CI=1 pytest -p no:cacheprovider -q',
      'pass --rootdir explicitly',
      'scope the {x} to function, not session',
      'use --timeout 60 from pytest-timeout',
      'mark it with @pytest.mark.flaky and fix the race',
    ],
  },
  {
    name: 'mock',
    category: 'testing',
    tools: ['Edit', 'Write'],
    commands: [],
    paths: ['tests/**/*.py', '**/test_*.py', 'tests/unit/**'],
    tags: ['lang:python', 'tool:unittest-mock', 'topic:testing', 'topic:mocking'],
    stack: ['python'],
    things: [
      'requests.get',
      'myapp.billing.get',
      'datetime.now',
      'os.environ',
      'boto3.client',
      'MagicMock',
      'side_effect',
    ],
    problems: [
      'mock.patch the name where it is looked up, not where {x} is defined',
      'MagicMock with no spec hides typos in {x}',
      'patching {x} at class level leaks into other tests',
      'side_effect iterators run out after the first call to {x}',
    ],
    remedies: [
      'patch myapp.module.name instead of the library path',
      'use autospec=True so wrong signatures fail',
      'use mock.patch as a context manager inside the test',
      'reset_mock() between assertions',
    ],
  },
  {
    name: 'git',
    category: 'tooling',
    tools: ['Bash'],
    commands: [
      '\\bgit\\s+stash\\b',
      '\\bgit\\s+push\\s+(-f|--force)\\b',
      '\\bgit\\s+reset\\s+--hard\\b',
      '\\bgit\\s+clean\\s+-[a-z]*f',
      '\\bgit\\s+rebase\\b(?!.*--autostash)',
      '\\bgit\\s+checkout\\s+--\\s',
    ],
    paths: ['.gitignore', '.gitattributes', '.github/CODEOWNERS'],
    tags: ['tool:git', 'topic:vcs', 'topic:data-loss'],
    stack: [],
    things: [
      'untracked files',
      'the WIP branch',
      'submodules',
      'LFS objects',
      'the reflog',
      'a detached HEAD',
    ],
    problems: [
      'git stash drops {x} from the stash',
      'git push --force overwrote a teammate commit on the shared branch',
      'git reset --hard lost {x}',
      'git clean -fdx deleted {x} and local env files',
      'git rebase on a dirty tree aborts halfway with {x}',
    ],
    remedies: [
      'use git stash -u or commit to a WIP branch',
      'use --force-with-lease',
      'check git status and the reflog first',
      'run git clean -n as a dry run before -f',
      'pass --autostash',
    ],
  },
  {
    name: 'docker',
    category: 'tooling',
    tools: ['Bash', 'Edit'],
    commands: [
      '^docker\\s+build\\b',
      '\\bdocker\\s+compose\\s+up\\b',
      '\\bdocker\\s+run\\b(?!.*--rm)',
      '\\bdocker\\s+system\\s+prune\\b',
    ],
    paths: ['Dockerfile', '**/Dockerfile*', 'docker-compose.yml', 'compose.yaml', '.dockerignore'],
    tags: ['tool:docker', 'topic:containers', 'topic:build-cache'],
    stack: ['docker'],
    things: [
      'node_modules',
      'the build cache',
      'the .env file',
      'a named volume',
      'the base image',
      'BuildKit',
    ],
    problems: [
      'docker build copies {x} into the image and busts the layer cache',
      'docker compose up reuses a stale {x}',
      'containers started with docker run pile up without --rm',
      'docker system prune removed {x} with the test database',
      'the image runs as root because the Dockerfile forgot USER',
    ],
    remedies: [
      'add {x} to .dockerignore',
      'rebuild with --no-cache only for the changed stage',
      'always pass --rm to one-off containers',
      'pin the base image by digest',
      'add a USER line after installing packages',
    ],
  },
  {
    name: 'npm',
    category: 'tooling',
    tools: ['Bash'],
    commands: [
      '^npm\\s+(i|install)\\b',
      '\\bnpm\\s+run\\s+build\\b',
      '\\bnpx\\s+\\S+',
      '\\bnpm\\s+publish\\b',
      '\\bnpm\\s+audit\\s+fix\\b',
    ],
    paths: ['package.json', 'package-lock.json', '.npmrc', '**/package.json'],
    tags: ['lang:javascript', 'tool:npm', 'topic:dependencies'],
    stack: ['node'],
    things: [
      'package-lock.json',
      'peer dependencies',
      'a postinstall script',
      'the npm cache',
      'workspaces',
      'the engines field',
    ],
    problems: [
      'npm install rewrites {x} with a different lockfileVersion',
      'npm audit fix --force upgrades majors and breaks the build',
      'npx runs a different version than the one in {x}',
      'npm publish shipped {x} because files was not set',
      'npm ci fails on a mismatched {x}',
    ],
    remedies: [
      'use npm ci in CI and scripts',
      'pin the tool in devDependencies and call it through npm run',
      'set files in package.json and check npm pack --dry-run',
      'never run audit fix --force without reading the diff',
    ],
  },
  {
    name: 'typescript',
    category: 'technical',
    tools: ['Edit', 'Write', 'Bash'],
    commands: ['\\btsc\\b(?!.*--noEmit)', '\\bnpx\\s+tsc\\b'],
    paths: ['src/**/*.ts', '**/*.tsx', 'tsconfig.json', 'tsconfig.*.json', 'src/**/*.d.ts'],
    tags: ['lang:typescript', 'tool:tsc', 'topic:types', 'topic:esm'],
    stack: ['typescript', 'node'],
    things: [
      'tsconfig paths',
      'moduleResolution',
      'the .js extension',
      'strictNullChecks',
      'declaration files',
      'isolatedModules',
      'verbatimModuleSyntax',
    ],
    problems: [
      'tsconfig {x} are not rewritten at runtime, so imports fail under node',
      'ESM imports need {x} even for .ts sources',
      'as casts hide a missing null check under {x}',
      'tsc emits into src/ when outDir is missing',
      'a type-only import is emitted without {x}',
    ],
    remedies: [
      'use relative imports with .js extensions',
      'set moduleResolution to NodeNext',
      'narrow with a type guard instead of a cast',
      'use import type for types',
      'run tsc --noEmit in the check script',
    ],
  },
  {
    name: 'migrations',
    category: 'architecture',
    tools: ['Bash', 'Edit', 'Write'],
    commands: [
      '\\balembic\\s+(upgrade|downgrade)\\b',
      '\\bmanage\\.py\\s+migrate\\b',
      '\\bprisma\\s+migrate\\s+(dev|reset)\\b',
      '\\bknex\\s+migrate:',
    ],
    paths: [
      'migrations/*.sql',
      'db/migrations/**',
      'alembic/versions/*.py',
      'prisma/schema.prisma',
      '**/migrations/*.py',
    ],
    tags: ['topic:database', 'topic:migrations', 'lang:sql', 'tool:alembic', 'tool:prisma'],
    stack: ['postgres'],
    things: [
      'a NOT NULL column',
      'the index',
      'a large table',
      'the down migration',
      'the migration lock',
      'a data backfill',
    ],
    problems: [
      'adding {x} without a default locks the table in production',
      'prisma migrate reset wipes the dev database with {x}',
      'two branches created migrations with the same revision id',
      'editing an applied migration makes {x} diverge between environments',
      'CREATE INDEX without CONCURRENTLY blocks writes on {x}',
    ],
    remedies: [
      'add the column nullable, backfill, then set NOT NULL',
      'never edit an applied migration: add a new one',
      'create the index CONCURRENTLY outside a transaction',
      'run alembic merge heads after a rebase',
      'write and test the down migration',
    ],
  },
  {
    name: 'react',
    category: 'technical',
    tools: ['Edit', 'Write'],
    commands: [],
    paths: ['src/components/**/*.tsx', '**/*.jsx', 'src/hooks/*.ts', 'app/**/page.tsx'],
    tags: ['framework:react', 'lang:typescript', 'topic:frontend', 'topic:hooks'],
    stack: ['react'],
    things: [
      'useEffect',
      'the dependency array',
      'a key prop',
      'useMemo',
      'server components',
      'the context provider',
    ],
    problems: [
      '{x} without cleanup runs twice in StrictMode and leaks subscriptions',
      'a missing {x} causes stale closures',
      'list items keyed by index reorder state when {x} changes',
      'client hooks imported into {x} break the build',
    ],
    remedies: [
      'return a cleanup function from the effect',
      'use a stable id as the key',
      "add 'use client' to the component file",
      'lift state up instead of syncing with effects',
    ],
  },
  {
    name: 'cargo',
    category: 'technical',
    tools: ['Bash', 'Edit'],
    commands: ['^cargo\\s+(build|test|run)\\b', '\\bcargo\\s+update\\b', '\\bcargo\\s+clippy\\b'],
    paths: ['**/*.rs', 'Cargo.toml', 'Cargo.lock', 'src/main.rs', 'src/lib.rs'],
    tags: ['lang:rust', 'tool:cargo', 'topic:build'],
    stack: ['rust'],
    things: [
      'the borrow checker',
      'feature flags',
      'Cargo.lock',
      'a build.rs script',
      'unwrap()',
      'async runtimes',
    ],
    problems: [
      'cargo update bumps {x} across the workspace',
      'cargo test runs doc tests that need {x}',
      'unwrap() on a Result panics in the request path under {x}',
      'two crates enable conflicting {x}',
    ],
    remedies: [
      'use cargo update -p for one crate',
      'propagate errors with ? and anyhow::Context',
      'run cargo clippy -- -D warnings before committing',
    ],
  },
  {
    name: 'go',
    category: 'technical',
    tools: ['Bash', 'Edit'],
    commands: ['^go\\s+test\\b', '\\bgo\\s+mod\\s+tidy\\b', '\\bgo\\s+get\\b'],
    paths: ['**/*.go', 'go.mod', 'go.sum', 'cmd/**/main.go', 'internal/**'],
    tags: ['lang:go', 'tool:go', 'topic:concurrency'],
    stack: ['go'],
    things: [
      'goroutines',
      'the loop variable',
      'a nil map',
      'context cancellation',
      'the race detector',
      'go.sum',
    ],
    problems: [
      'goroutines capture {x} in a for loop',
      'go test caches results and hides {x}',
      'writing to {x} panics at runtime',
      'go mod tidy removes a tool dependency from {x}',
    ],
    remedies: [
      'run go test -race -count=1',
      'pass the value as a parameter to the goroutine',
      'initialise maps with make',
      'track tools in a tools.go file',
    ],
  },
  {
    name: 'ci',
    category: 'process',
    tools: ['Edit', 'Write'],
    commands: ['\\bgh\\s+workflow\\s+run\\b', '\\bact\\b'],
    paths: ['.github/workflows/*.yml', '.github/workflows/**', '.gitlab-ci.yml', 'Makefile'],
    tags: ['topic:ci', 'tool:github-actions', 'topic:release'],
    stack: [],
    things: [
      'the cache key',
      'secrets',
      'the matrix',
      'a pinned action',
      'the checkout depth',
      'concurrency groups',
    ],
    problems: [
      'the workflow cache never hits because {x} includes the run id',
      'pull requests from forks cannot read {x}',
      'shallow checkout breaks git describe because of {x}',
      'an unpinned action changed behaviour under {x}',
    ],
    remedies: [
      'key the cache on the lockfile hash',
      'pin actions by commit sha',
      'use fetch-depth: 0 for release jobs',
      'add a concurrency group that cancels superseded runs',
    ],
  },
  {
    name: 'kubernetes',
    category: 'tooling',
    tools: ['Bash'],
    commands: [
      '\\bkubectl\\s+(apply|delete)\\b',
      '\\bhelm\\s+(install|upgrade)\\b',
      '\\bkubectl\\s+.*--context\\s+prod',
    ],
    paths: ['k8s/**/*.yaml', 'charts/**', 'helm/**/values*.yaml', 'deploy/**'],
    tags: ['tool:kubectl', 'tool:helm', 'topic:deploy', 'topic:infra'],
    stack: ['kubernetes'],
    things: [
      'the current context',
      'resource limits',
      'the readiness probe',
      'a ConfigMap',
      'the namespace',
      'image tags',
    ],
    problems: [
      'kubectl apply ran against {x} pointing at production',
      'pods are OOM-killed because {x} are missing',
      'a rolling update serves errors without {x}',
      'helm upgrade reset {x} to chart defaults',
    ],
    remedies: [
      'always pass --context and --namespace explicitly',
      'set requests and limits on every container',
      'use helm upgrade --reuse-values only with care and diff first',
      'deploy immutable image tags, never latest',
    ],
  },
  {
    name: 'lint',
    category: 'tooling',
    tools: ['Bash', 'Edit'],
    commands: [
      '\\beslint\\b.*--fix',
      '\\bprettier\\s+--write\\b',
      '\\bruff\\s+(check|format)\\b',
      '\\bblack\\b',
    ],
    paths: ['eslint.config.js', '.eslintrc*', '.prettierrc*', 'ruff.toml', '.editorconfig'],
    tags: ['tool:eslint', 'tool:prettier', 'tool:ruff', 'topic:style'],
    stack: [],
    things: ['generated files', 'the whole repository', 'the flat config', 'vendored code', 'line endings'],
    problems: [
      'prettier --write reformatted {x} and buried the real diff',
      'eslint --fix rewrote {x}',
      'ruff and black disagree on {x}',
      'the linter ignores {x} after moving to the flat config',
    ],
    remedies: [
      'format only the files you changed',
      'add generated and vendored paths to the ignore file',
      'let one formatter own formatting',
    ],
  },
  {
    name: 'secrets',
    category: 'security',
    tools: ['Bash', 'Write', 'Edit', 'Read'],
    commands: [
      '\\bcurl\\b.*\\|\\s*(ba)?sh\\b',
      '\\bcat\\s+\\S*\\.env\\b',
      '\\bchmod\\s+777\\b',
      '\\becho\\s+\\$\\w*(TOKEN|KEY|SECRET)',
    ],
    paths: ['.env', '.env.*', '**/*.pem', '**/secrets/**', 'config/credentials*'],
    tags: ['topic:security', 'topic:secrets', 'severity:critical'],
    stack: [],
    things: ['API keys', 'the .env file', 'a private key', 'the session token', 'debug logs', 'the CI log'],
    problems: [
      'printing {x} to the terminal leaks them into the transcript',
      'curl piped to sh ran an unreviewed installer',
      'a test fixture committed {x}',
      'chmod 777 on {x} made it world-readable',
    ],
    remedies: [
      'read secrets from the environment and never echo them',
      'download, inspect, then run installers',
      'add secret files to .gitignore and rotate anything committed',
      'use the narrowest permissions that work',
    ],
  },
  {
    name: 'python-env',
    category: 'tooling',
    tools: ['Bash'],
    commands: [
      '^pip3?\\s+install\\b(?!.*-r\\s)',
      '\\bpython3?\\s+-m\\s+venv\\b',
      '\\bpoetry\\s+(add|lock)\\b',
      '\\buv\\s+(pip|sync|add)\\b',
    ],
    paths: ['pyproject.toml', 'requirements*.txt', 'poetry.lock', 'uv.lock', 'setup.cfg'],
    tags: ['lang:python', 'tool:pip', 'tool:poetry', 'tool:uv', 'topic:dependencies'],
    stack: ['python'],
    things: ['the system interpreter', 'the lockfile', 'an editable install', 'extras', 'the virtualenv'],
    problems: [
      'pip install outside {x} breaks the system Python',
      'poetry add rewrote {x} with unrelated upgrades',
      'an editable install hides missing package data in {x}',
      'requirements drift because {x} is not pinned',
    ],
    remedies: [
      'activate the project venv or use uv run',
      'lock with hashes and install with --require-hashes',
      'build a wheel and test the installed package',
    ],
  },
  {
    name: 'shell',
    category: 'anti-pattern',
    tools: ['Bash'],
    commands: [
      '\\brm\\s+-rf?\\s+/',
      '\\bsed\\s+-i\\b',
      '\\bfind\\b.*-delete\\b',
      '\\bxargs\\b(?!.*-0)',
      '\\bchown\\s+-R\\b',
    ],
    paths: ['scripts/**/*.sh', '**/*.sh', 'bin/**'],
    tags: ['lang:bash', 'topic:shell', 'topic:data-loss'],
    stack: ['bash'],
    things: [
      'an unset variable',
      'filenames with spaces',
      'the BSD sed',
      'glob expansion',
      'the working directory',
    ],
    problems: [
      'rm -rf "$DIR/" with {x} deletes from the root',
      'sed -i behaves differently on macOS because of {x}',
      'xargs splits {x}',
      'find -delete before -name removes everything in {x}',
    ],
    remedies: [
      'use set -euo pipefail and ${DIR:?}',
      'use find -print0 | xargs -0',
      'run find without -delete first to see what matches',
      'use perl -pi -e for portable in-place edits',
    ],
  },
  {
    name: 'jest',
    category: 'testing',
    tools: ['Bash', 'Edit'],
    commands: ['\\bnpx\\s+jest\\b', '\\bvitest\\b(?!.*\\brun\\b)', '\\bnpm\\s+(run\\s+)?test\\b'],
    paths: ['**/*.test.ts', '**/*.spec.ts', '__tests__/**', 'vitest.config.ts', 'jest.config.js'],
    tags: ['lang:typescript', 'tool:jest', 'tool:vitest', 'topic:testing'],
    stack: ['node'],
    things: ['watch mode', 'fake timers', 'snapshots', 'the module mock', 'globalSetup', 'jsdom'],
    problems: [
      'vitest starts in {x} and never exits in an agent shell',
      'updating {x} with -u hid a real regression',
      '{x} leak between test files',
      'jest.mock hoisting breaks {x}',
    ],
    remedies: [
      'run vitest run or CI=1 npm test',
      'review snapshot diffs before updating',
      'restore mocks in afterEach',
      'use vi.useRealTimers in teardown',
    ],
  },
  {
    name: 'terraform',
    category: 'architecture',
    tools: ['Bash'],
    commands: [
      '\\bterraform\\s+apply\\b(?!.*\\.tfplan)',
      '\\bterraform\\s+destroy\\b',
      '\\bterraform\\s+state\\s+rm\\b',
    ],
    paths: ['**/*.tf', 'infra/**', '*.tfvars', '.terraform.lock.hcl'],
    tags: ['tool:terraform', 'topic:infra', 'topic:iac'],
    stack: ['terraform'],
    things: ['the remote state', 'the lock table', 'a provider upgrade', 'workspaces', 'the plan file'],
    problems: [
      'terraform apply without {x} applied changes nobody reviewed',
      'a provider upgrade recreated {x}',
      'terraform state rm orphaned {x}',
    ],
    remedies: [
      'plan to a file and apply that file',
      'add lifecycle prevent_destroy on stateful resources',
      'pin provider versions in the lock file',
    ],
  },
  {
    name: 'django',
    category: 'performance',
    tools: ['Edit', 'Bash'],
    commands: [
      '\\bmanage\\.py\\s+runserver\\b',
      '\\bmanage\\.py\\s+shell\\b',
      '\\bmanage\\.py\\s+makemigrations\\b',
    ],
    paths: ['**/settings.py', '**/models.py', '**/views.py', 'manage.py', '**/serializers.py'],
    tags: ['framework:django', 'lang:python', 'topic:orm', 'topic:performance'],
    stack: ['python', 'django'],
    things: ['select_related', 'the queryset', 'DEBUG=True', 'signals', 'the ORM cache', 'a serializer'],
    problems: [
      'N+1 queries in list views because {x} is missing',
      'evaluating {x} twice hits the database twice',
      'logic in {x} runs on bulk operations unexpectedly',
      'makemigrations created an empty migration because of {x}',
    ],
    remedies: [
      'use select_related and prefetch_related',
      'assert query counts with assertNumQueries',
      'keep side effects out of signals',
    ],
  },
  {
    name: 'editing',
    category: 'process',
    tools: ['Edit', 'Write', 'Read'],
    commands: [],
    paths: ['src/**', 'lib/**', '**/*.md', 'docs/**', 'CHANGELOG.md'],
    tags: ['topic:workflow', 'topic:editing', 'agent:claude-code'],
    stack: [],
    things: [
      'the whole file',
      'a stale read',
      'generated code',
      'the changelog',
      'line numbers',
      'tabs and spaces',
    ],
    problems: [
      'Write replaced {x} instead of editing the one function',
      'an Edit based on {x} clobbered a concurrent change',
      'editing {x} by hand is lost on the next codegen run',
      'mixed {x} broke the YAML file',
    ],
    remedies: [
      'Read the file right before editing it',
      'change the generator input and regenerate',
      'keep edits small and run the tests after each',
      'add an entry to the changelog in the same change',
    ],
  },
];

const QUALIFIERS = [
  '',
  '',
  '',
  ' in CI',
  ' on macOS',
  ' inside the devcontainer',
  ' when the agent runs it non-interactively',
  ' on the monorepo',
  ' after the Node 20 upgrade',
  ' in the payments service',
  ' on Windows runners',
  ' during the release freeze',
];

const GENERIC_SENTENCES = [
  'This cost an afternoon of debugging the first time.',
  'The failure only shows up under load, so local runs look fine.',
  'CI caught it, but only after the merge.',
  'The agent retried the same command three times before giving up.',
  'Reviewers missed it because the diff looked harmless.',
  'See the linked commit for the minimal reproduction.',
  'The error message points somewhere else entirely, which makes it easy to misdiagnose.',
  'It happened again two weeks later in a different service.',
  'Check the logs under logs/app.log before assuming the code is wrong.',
  'The fix is one line; finding it is the hard part.',
  'Prefer the boring, explicit option even when it is more typing.',
  'Ask before doing this on a shared branch or a shared environment.',
];

const AREAS = [
  'billing',
  'auth',
  'search',
  'checkout',
  'inventory',
  'notifications',
  'reports',
  'ingest',
  'profile',
  'admin',
  'gateway',
  'scheduler',
  'export',
  'ledger',
  'catalog',
  'payments',
  'onboarding',
  'analytics',
  'media',
  'sync',
];
const ROLES = [
  'api',
  'worker',
  'service',
  'cli',
  'web',
  'cron',
  'consumer',
  'proxy',
  'sdk',
  'dashboard',
  'importer',
  'migrator',
];

/** A long tail of component names (`ledger-worker`), as a real codebase has. */
function area(rng) {
  return `${rng.pick(AREAS)}-${rng.pick(ROLES)}`;
}

const MODELS = ['claude-sonnet-4', 'claude-opus-4', 'gpt-5-codex', 'gemini-2.5-pro'];
const AUTHORS = [undefined, undefined, 'alice', 'bob', 'ci-bot', 'lore-capture'];
const EPOCH = Date.parse('2025-01-01T00:00:00Z');
const DAY = 86_400_000;

function fill(rng, text, topic) {
  return text.replace(/\{x\}/g, () => rng.pick(topic.things));
}

function capitalize(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function paragraph(rng, topic) {
  const sentences = [];
  sentences.push(`${capitalize(fill(rng, rng.pick(topic.problems), topic))}.`);
  if (topic.commands.length > 0 && rng.chance(0.5)) {
    const cmd = rng
      .pick(topic.commands)
      .replace(/\\[bsS]|[\^$()?!|*+\\]/g, ' ')
      .replace(/\s+/g, ' ')
      .trim();
    sentences.push(`Running \`${cmd}\` the usual way is what triggers it.`);
  }
  sentences.push(`${capitalize(fill(rng, rng.pick(topic.remedies), topic))}.`);
  for (let i = rng.int(0, 2); i > 0; i -= 1) sentences.push(rng.pick(GENERIC_SENTENCES));
  if (rng.chance(0.4))
    sentences.push(`Seen in ${area(rng)} (${rng.pick(['PR', 'incident', 'ticket'])} #${rng.int(10, 9999)}).`);
  if (rng.chance(0.3)) sentences.push(`Related: ${rng.some(topic.things, 1, 3).join(', ')}.`);
  return sentences.join(' ');
}

/** One lesson record, complete (as `lore add` writes it), for the topic drawn. */
export function makeLesson(rng, id, supersededBy) {
  const topic = rng.pick(TOPICS);
  const other = rng.chance(0.15) ? rng.pick(TOPICS) : undefined;
  const problem = fill(rng, rng.pick(topic.problems), topic);
  const remedy = fill(rng, rng.pick(topic.remedies), topic);
  const where = rng.chance(0.35) ? ` in ${area(rng)}` : rng.pick(QUALIFIERS);
  const summary = `${problem}${where}: ${remedy}`.slice(0, 280);
  const createdMs = EPOCH + rng.int(0, 690) * DAY + rng.int(0, DAY - 1);
  const updatedMs = rng.chance(0.4) ? createdMs + rng.int(1, 120) * DAY : createdMs;
  const paragraphs = rng.int(1, 3);
  const body = Array.from({ length: paragraphs }, () => paragraph(rng, topic)).join('\n\n');
  const lesson = {
    schemaVersion: 1,
    id,
    slug: slugify(summary),
    summary,
    body,
    ...(rng.chance(0.3) ? { mistake: capitalize(problem) + '.', remediation: capitalize(remedy) + '.' } : {}),
    ...(rng.chance(0.05)
      ? {
          context: `Working on ${rng.pick(topic.things)}${rng.pick(QUALIFIERS)}.`,
          observation: capitalize(problem) + '.',
          implication: rng.pick(GENERIC_SENTENCES),
          action: capitalize(remedy) + '.',
        }
      : {}),
    tools: rng.some(topic.tools, 1, Math.min(2, topic.tools.length)),
    commands: topic.commands.length > 0 && rng.chance(0.7) ? rng.some(topic.commands, 1, 2) : [],
    paths: rng.chance(0.75) ? rng.some(topic.paths, 1, 3) : [],
    tags: [...new Set([...rng.some(topic.tags, 1, 3), ...(other ? rng.some(other.tags, 1, 1) : [])])],
    stack: topic.stack.length > 0 && rng.chance(0.6) ? rng.some(topic.stack, 1, topic.stack.length) : [],
    symbols: [],
    category: rng.chance(0.85) ? topic.category : rng.pick(['technical', 'process', 'tooling', 'testing']),
    severity: rng.weighted([
      ['low', 2],
      ['medium', 5],
      ['high', 3],
      ['critical', 1],
    ]),
    type: rng.chance(0.1) ? 'guard' : 'hint',
    tier: 'project',
    priority: rng.weighted([
      [1, 1],
      [2, 1],
      [3, 2],
      [4, 3],
      [5, 6],
      [6, 4],
      [7, 3],
      [8, 2],
      [9, 1],
      [10, 1],
    ]),
    confidence: Math.round((0.5 + rng.next() * 0.5) * 100) / 100,
    needsReview: rng.chance(0.05),
    status: supersededBy ? 'superseded' : rng.chance(0.06) ? 'archived' : 'active',
    supersedes: [],
    ...(supersededBy ? { supersededBy } : {}),
    evidence: rng.chance(0.2)
      ? [
          rng.chance(0.5)
            ? { kind: 'commit', ref: createHash('sha1').update(`${id}c`).digest('hex').slice(0, 12) }
            : { kind: 'task', ref: `TASK-${rng.int(100, 9999)}`, note: 'found while fixing this' },
        ]
      : [],
    sourceSessions: [],
    occurrences: rng.weighted([
      [1, 8],
      [2, 2],
      [3, 1],
    ]),
    createdAt: new Date(createdMs).toISOString(),
    ...(() => {
      const by = rng.pick(AUTHORS);
      return by === undefined ? {} : { createdBy: by };
    })(),
    updatedAt: new Date(updatedMs).toISOString(),
  };
  // about a quarter of the command hints wait for their error, as the lessons capture finds do
  // (decided from the id's last character, so the random sequence of everything else is unchanged)
  if (lesson.type === 'hint' && lesson.commands.length > 0 && idDigit(id, 1) % 4 === 0)
    lesson.errors = [ERRORS[idDigit(id, 2) % ERRORS.length]];
  return lesson;
}

/**
 * The value (0-31) of the id's nth character from the end, in the id alphabet (Crockford base32:
 * `parseInt(c, 32)` is NaN for w, x, y and z, which made `ERRORS[NaN]` an `errors: [null]` lesson).
 */
const idDigit = (id, fromEnd) => '0123456789abcdefghjkmnpqrstvwxyz'.indexOf(id[id.length - fromEnd]);

/** Error words a waiting lesson looks for in a call's result. */
const ERRORS = [
  'No such file or directory',
  'command not found',
  'Permission denied',
  'ModuleNotFoundError',
  'connection refused',
  'exit code [1-9]',
];

function makeVotes(rng, lesson) {
  const lines = [];
  const base = Date.parse(lesson.createdAt);
  for (let i = rng.int(1, 5); i > 0; i -= 1) {
    const at = new Date(base + rng.int(0, 200) * DAY).toISOString();
    lines.push(JSON.stringify({ model: rng.pick(MODELS), task: `task-${rng.int(1, 5000)}`, at }));
  }
  return `${lines.join('\n')}\n`;
}

/** Writes `size` lessons into `<root>/.lore/lessons/<id>/` (+ votes.jsonl for ~15%). */
export function generateStore(root, size, seed = SEED) {
  const rng = createRng(seed ^ size);
  mkdirSync(join(root, '.git'), { recursive: true });
  const layout = tierLayout(join(root, '.lore'));
  initTier(layout);
  const ids = [];
  const seen = new Set();
  while (ids.length < size) {
    const bytes = new Uint8Array(ID_RANDOM_BYTES);
    for (let i = 0; i < bytes.length; i += 1) bytes[i] = rng.int(0, 255);
    const id = createLessonId(bytes);
    if (seen.has(id)) continue;
    seen.add(id);
    ids.push(id);
  }
  let votes = 0;
  ids.forEach((id, i) => {
    // ~4% superseded, each pointing at a later lesson.
    const supersededBy =
      i + 1 < ids.length && rng.chance(0.04) ? ids[rng.int(i + 1, ids.length - 1)] : undefined;
    const lesson = makeLesson(rng, id, supersededBy);
    const dir = join(layout.lessonsDir, id);
    mkdirSync(dir);
    writeFileSync(join(dir, 'lesson.yaml'), serializeLesson(lesson));
    if (rng.chance(0.15)) {
      writeFileSync(join(dir, 'votes.jsonl'), makeVotes(rng, lesson));
      votes += 1;
    }
  });
  return { lessons: size, votesFiles: votes };
}

/** A fingerprint of the file format: a change in serializeLesson output regenerates the stores. */
function formatFingerprint() {
  const rng = createRng(1);
  const sample = serializeLesson(makeLesson(rng, '0123456789', undefined));
  return createHash('sha1').update(sample).digest('hex').slice(0, 8);
}

/** The cached store for `size`, generated if missing. Returns its repository root. */
export function ensureStore(dataDir, size, log = () => {}) {
  const key = `${size}-g${GENERATOR_VERSION}-${formatFingerprint()}`;
  const root = join(dataDir, 'stores', key);
  const marker = join(root, '.bench-generated.json');
  if (existsSync(marker)) {
    const info = JSON.parse(readFileSync(marker, 'utf8'));
    return { root, key, cached: true, generateMs: info.generateMs, votesFiles: info.votesFiles };
  }
  rmSync(root, { recursive: true, force: true });
  const started = performance.now();
  log(`generating ${size} lessons in ${root} ...`);
  const info = generateStore(root, size);
  const generateMs = performance.now() - started;
  writeFileSync(marker, JSON.stringify({ ...info, generateMs, key }));
  return { root, key, cached: false, generateMs, votesFiles: info.votesFiles };
}

// ---------------------------------------------------------------------------------------------
// A store grown from capture: every lesson has its own trigger

/** Programs agents run, real ones first; the long tail is made of syllables. */
const PROGRAMS = [
  'git',
  'npm',
  'npx',
  'pnpm',
  'yarn',
  'node',
  'python',
  'python3',
  'pip',
  'pytest',
  'docker',
  'kubectl',
  'helm',
  'terraform',
  'cargo',
  'go',
  'make',
  'gradle',
  'mvn',
  'psql',
  'curl',
  'ssh',
  'gitleaks',
  'rg',
  'jq',
  'aws',
  'gcloud',
  'az',
  'gh',
  'brew',
  'apt-get',
  'systemctl',
  'rsync',
  'ruff',
  'mypy',
  'eslint',
  'tsc',
  'vitest',
  'jest',
  'poetry',
  'uv',
  'deno',
  'bun',
  'rustc',
];
const SYLLABLES = [
  'ka',
  'lo',
  'mi',
  'tor',
  'zen',
  'ver',
  'pa',
  'qui',
  'dex',
  'rho',
  'sta',
  'bul',
  'cor',
  'fin',
  'gra',
  'nix',
];
const SUBCOMMANDS = [
  'install',
  'build',
  'test',
  'run',
  'push',
  'pull',
  'apply',
  'plan',
  'deploy',
  'status',
  'sync',
  'migrate',
  'lint',
  'check',
  'exec',
  'logs',
  'login',
  'publish',
  'init',
  'upgrade',
  'rollout',
  'describe',
  'detect',
  'scan',
  'serve',
  'fmt',
  'clean',
  'reset',
  'stash',
  'rebase',
  'compose',
];
const FIXES = ['--no-verify', '--yes', '-y', '--force', '--dry-run', '-q', '--frozen-lockfile', '--ci'];
const TOPS = ['src', 'lib', 'app', 'tests', 'internal', 'pkg', 'services', 'scripts', 'web'];
const EXTS = [
  'py',
  'ts',
  'tsx',
  'js',
  'go',
  'rs',
  'java',
  'rb',
  'sql',
  'yaml',
  'json',
  'md',
  'sh',
  'tf',
  'proto',
  'kt',
];
const NAMES = [
  'handler',
  'models',
  'client',
  'server',
  'utils_io',
  'config',
  'routes',
  'schema',
  'worker',
  'views',
  'store',
  'auth',
];

/**
 * A 10,000-lesson store shaped like one that grew from real capture: each lesson has its own
 * command regex (capture's `commandTrigger` over a program and subcommand) or path glob (a file of
 * the project, `**\/dir/file.ext`, a few `**\/*.ext`), so the manifest files nearly every lesson
 * under its own literal key.
 */
export function generateDistinctStore(root, size, { commandTrigger }, seed = SEED) {
  const rng = createRng((seed ^ size) + 7);
  mkdirSync(join(root, '.git'), { recursive: true });
  const layout = tierLayout(join(root, '.lore'));
  initTier(layout);
  const synthetic = [];
  for (const a of SYLLABLES)
    for (const b of SYLLABLES) for (const c of ['', 'ctl', 'd', 'x']) synthetic.push(`${a}${b}${c}`);
  const usedKeys = new Set();
  const usedGlobs = new Set();
  const seenIds = new Set();
  for (let i = 0; i < size; i += 1) {
    let id;
    do {
      const bytes = new Uint8Array(ID_RANDOM_BYTES);
      for (let j = 0; j < bytes.length; j += 1) bytes[j] = rng.int(0, 255);
      id = createLessonId(bytes);
    } while (seenIds.has(id));
    seenIds.add(id);
    const base = makeLesson(rng, id, undefined);
    let summary;
    let body;
    let scope;
    if (rng.chance(0.6)) {
      let key;
      do {
        const program = rng.chance(0.35) ? rng.pick(PROGRAMS) : rng.pick(synthetic);
        key = rng.chance(0.8) ? `${program} ${rng.pick(SUBCOMMANDS)}` : program;
        if (usedKeys.has(key)) key = `${key} ${rng.pick(SUBCOMMANDS)}-${rng.int(1, 99)}`;
      } while (usedKeys.has(key));
      usedKeys.add(key);
      const diff = rng.chance(0.4) ? { removed: [], added: [rng.pick(FIXES)] } : undefined;
      const error = rng.pick(ERRORS);
      summary = `\`${key}\` fails with ${error.replace(/\[.*\]/, '1')}: ${diff ? `pass ${diff.added[0]}` : 'check its arguments first'}`;
      body = `The agent ran \`${key} ${rng.pick(FIXES)}\` in ${area(rng)} and got "${error}".`;
      scope = {
        tools: ['Bash'],
        commands: [commandTrigger(key, diff)],
        paths: [],
        ...(rng.chance(0.3) ? { errors: [error] } : {}),
      };
    } else {
      let glob;
      do {
        const kind = rng.next();
        const ext = rng.pick(EXTS);
        if (kind < 0.03) glob = `**/*.${ext}`;
        else if (kind < 0.25) glob = `**/${rng.pick(AREAS)}/${rng.pick(NAMES)}_${rng.int(1, 999)}.${ext}`;
        else glob = `${rng.pick(TOPS)}/${rng.pick(AREAS)}/${rng.pick(NAMES)}_${rng.int(1, 9999)}.${ext}`;
      } while (usedGlobs.has(glob));
      usedGlobs.add(glob);
      body = `An edit of ${glob} was reverted by the user: the generated twin must change with it.`;
      summary = `Editing ${glob} breaks the ${rng.pick(AREAS)} build unless its generated twin is updated too`;
      scope = { tools: rng.pick([['Edit', 'Write'], ['Edit'], ['Read'], []]), commands: [], paths: [glob] };
    }
    const lesson = {
      ...base,
      slug: slugify(summary),
      summary: summary.slice(0, 280),
      body,
      tags: base.tags.filter((tag) => tag.startsWith('topic:')),
      stack: [],
      type: base.type === 'guard' && !scope.errors ? 'guard' : 'hint',
      status: rng.chance(0.04) ? 'archived' : 'active',
      ...scope,
    };
    if (!scope.errors) delete lesson.errors;
    for (const field of ['mistake', 'remediation', 'context', 'observation', 'implication', 'action'])
      delete lesson[field];
    const dir = join(layout.lessonsDir, id);
    mkdirSync(dir);
    writeFileSync(join(dir, 'lesson.yaml'), serializeLesson(lesson));
  }
  return { lessons: size, votesFiles: 0 };
}

/** The cached distinct-trigger store for `size`, generated if missing. */
export async function ensureDistinctStore(dataDir, size, log = () => {}) {
  const { commandTrigger } = await import('../dist/core/capture/shell-command.js');
  const sample = commandTrigger('gitleaks detect', { removed: [], added: ['--no-verify'] });
  const fingerprint = createHash('sha1').update(`${formatFingerprint()}${sample}`).digest('hex').slice(0, 8);
  const key = `distinct-${size}-g${GENERATOR_VERSION}-${fingerprint}`;
  const root = join(dataDir, 'stores', key);
  const marker = join(root, '.bench-generated.json');
  if (existsSync(marker)) return { root, key, cached: true };
  rmSync(root, { recursive: true, force: true });
  const started = performance.now();
  log(`generating ${size} distinct-trigger lessons in ${root} ...`);
  const info = generateDistinctStore(root, size, { commandTrigger });
  writeFileSync(marker, JSON.stringify({ ...info, generateMs: performance.now() - started, key }));
  return { root, key, cached: false };
}

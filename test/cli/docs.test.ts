// `lore docs` and `lore search --kind doc` through the built binary, in a temporary repository.
import {
  cpSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createSandbox } from '../helpers/cli.js';
import type { ErrorJson, Sandbox } from '../helpers/cli.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/docs/', import.meta.url));

type DocJson = {
  path: string;
  type: string;
  summary: string;
  tags: string[];
  relatedFeatures: string[];
  source: string;
  problems: { file: string; line?: number; field?: string; message: string }[];
};

function write(sandbox: Sandbox, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(sandbox.inRepo(path)), { recursive: true });
    writeFileSync(sandbox.inRepo(path), text);
  }
}

function readTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const visit = (current: string) => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const path = join(current, entry.name);
      if (entry.isDirectory()) visit(path);
      else out[relative(dir, path)] = readFileSync(path, 'utf8');
    }
  };
  visit(dir);
  return out;
}

const DAY_ONE = {
  'docs/design/auth/login.md': '# Login flow\n\nTokens are refreshed by the gateway.\n',
  'docs/runbooks/db-restore.md': '<!-- owner: platform -->\n## Restoring the `orders` database\n',
  'docs/patterns/retry.md':
    '---\ntype: pattern\nsummary: Retry with jittered backoff\ntags: [network, auth-client]\n---\nNever retry a POST.\n',
  'docs/api.md': '',
  'docs/generated/out.md': '# generated\n',
  '.gitignore': 'docs/generated/\n',
};

describe('lore docs list', () => {
  it('lists existing Markdown docs with inferred metadata on day one', () => {
    const sandbox = createSandbox();
    write(sandbox, DAY_ONE);
    const run = sandbox.run(['docs', 'list']);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      [
        'context  docs/api.md  Api  (inferred)',
        'design   docs/design/auth/login.md  Login flow  [auth]  (inferred)',
        'pattern  docs/patterns/retry.md  Retry with jittered backoff  [network, auth-client]',
        'runbook  docs/runbooks/db-restore.md  Restoring the orders database  (inferred)',
        '',
      ].join('\n'),
    );
    expect(run.stderr).toContain(
      '3 doc(s) have no frontmatter (metadata inferred); `lore docs migrate` writes it',
    );
    const json = sandbox.run(['docs', 'list', '--json']).json<{ docs: DocJson[] }>();
    expect(json.docs.find((doc) => doc.path === 'docs/design/auth/login.md')).toMatchObject({
      type: 'design',
      summary: 'Login flow',
      relatedFeatures: ['auth'],
      source: 'inferred',
    });
  });

  it('filters by --type and --tag', () => {
    const sandbox = createSandbox();
    write(sandbox, DAY_ONE);
    const paths = (args: string[]) =>
      sandbox
        .run(['docs', 'list', ...args, '--json'])
        .json<{ docs: DocJson[] }>()
        .docs.map((doc) => doc.path);
    expect(paths(['--type', 'design'])).toEqual(['docs/design/auth/login.md']);
    expect(paths(['--tag', 'NETWORK'])).toEqual(['docs/patterns/retry.md']);
    expect(paths(['--tag', 'network', '--type', 'design'])).toEqual([]);
    const bad = sandbox.run(['docs', 'list', '--type', 'spec']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--type must be one of design, pattern, context, glossary, runbook');
  });

  it('reports broken frontmatter with file, line and field, and still lists the doc', () => {
    const sandbox = createSandbox();
    write(sandbox, {
      'docs/a.md': '---\ntype: design\nsummary: A\nrelated_artifacts: [JIRA-1]\n---\n',
      'docs/b.md': '---\ntype: [x\n---\nBody of b\n',
    });
    const run = sandbox.run(['docs', 'list']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('context  docs/b.md  Body of b  (inferred)');
    expect(run.stderr).toContain('docs/a.md:4: error (related_artifacts.0): "JIRA-1" has an unknown prefix');
    expect(run.stderr).toContain('docs/b.md:3: error: invalid YAML in the frontmatter');
  });

  it('names a frontmatter opened and never closed at line 1, as docs migrate does, not "no frontmatter"', () => {
    const sandbox = createSandbox();
    write(sandbox, { 'docs/open.md': '---\ntype: design\nsummary: Sessions\n\n# Sessions\n' });
    const text = sandbox.run(['docs', 'list']);
    expect(text.code).toBe(0);
    expect(text.stderr).toContain('docs/open.md:1: error: the frontmatter opened here is never closed');
    expect(text.stderr).not.toContain('no frontmatter');
    const json = sandbox.run(['docs', 'list', '--json']).json<{ docs: DocJson[] }>();
    expect(json.docs[0]?.problems).toEqual([
      expect.objectContaining({
        file: 'docs/open.md',
        line: 1,
        message: expect.stringContaining('never closed'),
      }),
    ]);
    const migrate = sandbox.run(['docs', 'migrate', '--json']).json<{ problems: DocJson['problems'] }>();
    expect(migrate.problems.map((problem) => problem.message)).toEqual(
      json.docs[0]?.problems.map((problem) => problem.message),
    );
  });

  it('says what to do when there are no docs, and rejects misplaced options', () => {
    const sandbox = createSandbox();
    const run = sandbox.run(['docs', 'list']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('no docs under the docs roots (docs)');
    expect(run.stderr).toBe('');
    write(sandbox, { 'docs/a.md': '---\ntype: context\nsummary: A\n---\n' });
    writeFileSync(sandbox.inRepo('.lore/config.yaml'), 'docs:\n  roots: [docs, wiki]\n');
    expect(sandbox.run(['docs', 'list']).stderr).toBe('lore: docs root "wiki": no such directory\n');
    const misplaced = sandbox.run(['docs', 'list', '--force']);
    expect(misplaced.code).toBe(2);
    expect(misplaced.stderr).toContain('--force does not go with lore docs list');
    expect(sandbox.run(['docs', 'frobnicate']).code).toBe(2);
    expect(sandbox.run(['docs', 'show']).stderr).toContain('lore docs show needs a PATH');
  });
});

describe('lore docs show', () => {
  it('shows metadata and text, relative to the working directory or the repository', () => {
    const sandbox = createSandbox();
    write(sandbox, DAY_ONE);
    const run = sandbox.run(['docs', 'show', 'docs/design/auth/login.md']);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      'docs/design/auth/login.md\ntype:     design (metadata inferred)\nsummary:  Login flow\ntags:     auth\n' +
        'features: auth\n\n# Login flow\n\nTokens are refreshed by the gateway.\n',
    );
    const json = sandbox
      .run(['docs', 'show', 'login.md', '--json'], { cwd: sandbox.inRepo('docs/design/auth') })
      .json<{ doc: DocJson; body: string }>();
    expect(json.doc.path).toBe('docs/design/auth/login.md');
    expect(json.body).toContain('Tokens are refreshed');
  });

  it('refuses paths outside the roots, under .lore/, or escaping by symlink', () => {
    const sandbox = createSandbox();
    const outside = mkdtempSync(join(tmpdir(), 'lore-outside-'));
    onTestFinished(() => rmSync(outside, { recursive: true, force: true }));
    writeFileSync(join(outside, 'secret.md'), 'secret');
    write(sandbox, { 'docs/a.md': '# A\n', 'src/notes.md': '# not a doc root\n', '.lore/x.md': 'data' });
    symlinkSync(join(outside, 'secret.md'), sandbox.inRepo('docs/escape.md'));
    symlinkSync(sandbox.inRepo('src/notes.md'), sandbox.inRepo('docs/sideways.md'));
    symlinkSync(sandbox.inRepo('.lore'), sandbox.inRepo('docs/lore'));
    const refusals: [string, RegExp][] = [
      ['src/notes.md', /src\/notes\.md is outside the docs roots \(docs\)/],
      ['.lore/x.md', /\.lore\/x\.md is under \.lore\//],
      ['docs/lore/x.md', /is a symlink leading outside the docs roots/],
      ['docs/escape.md', /docs\/escape\.md is a symlink leading outside the docs roots/],
      ['docs/sideways.md', /docs\/sideways\.md is a symlink leading outside the docs roots/],
      [join(outside, 'secret.md'), /is outside the repository/],
      ['../../etc/passwd', /is outside the repository/],
    ];
    for (const [path, message] of refusals) {
      const run = sandbox.run(['docs', 'show', path, '--json']);
      expect({ path, code: run.code }).toEqual({ path, code: 1 });
      expect(run.stderr).toMatch(message);
      expect(run.stderr).toContain(
        'lore docs show reads Markdown files under the docs roots (docs), never under .lore/',
      );
      expect(run.json<ErrorJson>().error.code).toBe('invalid');
    }
    const missing = sandbox.run(['docs', 'show', 'docs/nope.md']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('docs/nope.md does not exist');
  });
});

describe('lore docs add', () => {
  it('registers a root in .lore/config.yaml once, keeping the file, and refuses missing paths and .lore/', () => {
    const sandbox = createSandbox();
    write(sandbox, { 'handbook/onboarding.md': '# Onboarding\n', 'docs/a.md': '# A\n' });
    const before = readFileSync(sandbox.inRepo('.lore/config.yaml'), 'utf8');
    const added = sandbox.run(['docs', 'add', 'handbook']);
    expect(added.code).toBe(0);
    expect(added.stdout).toBe('added docs root handbook (.lore/config.yaml); docs roots: docs, handbook\n');
    const after = readFileSync(sandbox.inRepo('.lore/config.yaml'), 'utf8');
    expect(after.startsWith(before.trimEnd())).toBe(true);
    expect(after.slice(before.trimEnd().length)).toBe('\n\ndocs:\n  roots: [docs, handbook]\n');
    const again = sandbox.run(['docs', 'add', './handbook/', '--json']);
    expect(again.json()).toMatchObject({ root: 'handbook', added: false });
    expect(readFileSync(sandbox.inRepo('.lore/config.yaml'), 'utf8')).toBe(after);
    expect(
      sandbox
        .run(['docs', 'list', '--json'])
        .json<{ docs: DocJson[] }>()
        .docs.map((doc) => doc.path),
    ).toEqual(['docs/a.md', 'handbook/onboarding.md']);
    const missing = sandbox.run(['docs', 'add', 'nowhere']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('nowhere does not exist');
    const lore = sandbox.run(['docs', 'add', '.lore']);
    expect(lore.code).toBe(1);
    expect(lore.stderr).toContain(".lore is under .lore/, which holds lore's own data");
  });

  it('needs a project', () => {
    const sandbox = createSandbox({ init: false });
    write(sandbox, { 'docs/a.md': '# A\n' });
    const run = sandbox.run(['docs', 'add', 'docs']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('run `lore init` at your repository root first');
    expect(sandbox.run(['docs', 'list']).stdout).toBe('context  docs/a.md  A  (inferred)\n');
  });
});

describe('lore search --kind doc', () => {
  it('ranks by summary, tags and type, ties by path', () => {
    const sandbox = createSandbox();
    write(sandbox, {
      'docs/b.md': '---\ntype: context\nsummary: How auth works\n---\n',
      'docs/a.md': '---\ntype: context\nsummary: The auth model\n---\n',
      'docs/c.md': '---\ntype: context\nsummary: Tokens\ntags: [auth]\n---\n',
      'docs/d.md': '---\ntype: context\nsummary: Clients\ntags: [oauth]\n---\n',
      'docs/e.md': '---\ntype: design\nsummary: Nothing here\n---\nauth in the body only\n',
    });
    const run = sandbox.run(['search', '--kind', 'doc', 'auth', '--json']);
    expect(run.code).toBe(0);
    const results = run.json<{ mode: string; results: (DocJson & { score: number })[] }>();
    expect(results.mode).toBe('lexical');
    expect(results.results.map((doc) => [doc.path, doc.score])).toEqual([
      ['docs/c.md', 120],
      ['docs/a.md', 84],
      ['docs/b.md', 84],
      ['docs/d.md', 60],
    ]);
    expect(sandbox.run(['search', '--kind', 'doc', 'auth', '--limit', '1']).stdout).toBe(
      'context  docs/c.md  Tokens  [auth]  <- tag\n',
    );
    expect(sandbox.run(['search', '--kind', 'doc', 'zzz']).stdout).toBe('no docs match "zzz"\n');
  });

  it('--hybrid falls back with a clear message, then blends in the body index', () => {
    const sandbox = createSandbox();
    write(sandbox, {
      'docs/a.md': '---\ntype: pattern\nsummary: Retry policy\n---\nUse jittered exponential backoff.\n',
      'docs/b.md': '---\ntype: context\nsummary: Backoff numbers\n---\nTables.\n',
    });
    const fallback = sandbox.run(['search', '--kind', 'doc', '--hybrid', 'backoff', '--json']);
    expect(fallback.code).toBe(0);
    expect(fallback.stderr).toContain(
      'no body index yet: run `lore docs index` to build it; showing lexical results only',
    );
    expect(fallback.json()).toMatchObject({ mode: 'lexical', results: [{ path: 'docs/b.md' }] });
    const index = sandbox.run(['docs', 'index']);
    expect(index.stdout).toBe('body index: 2 doc(s) indexed, 0 unchanged, 0 removed (2 in all)\n');
    expect(sandbox.run(['docs', 'index']).stdout).toBe(
      'body index: 0 doc(s) indexed, 2 unchanged, 0 removed (2 in all)\n',
    );
    expect(sandbox.run(['docs', 'index', '--force']).stdout).toContain('2 doc(s) indexed');
    const hybrid = sandbox
      .run(['search', '--kind', 'doc', '--hybrid', 'backoff', '--json'])
      .json<{ mode: string; results: (DocJson & { score: number; matchedBy: string[] })[] }>();
    expect(hybrid.mode).toBe('hybrid');
    expect(hybrid.results.map((doc) => [doc.path, doc.matchedBy])).toEqual([
      ['docs/b.md', ['summary', 'body']],
      ['docs/a.md', ['body']],
    ]);
    // lessons take --hybrid too (issue 21): without embeddings it says how to turn them on
    const lessons = sandbox.run(['search', '--hybrid', 'backoff']);
    expect(lessons.code).toBe(0);
    expect(lessons.stderr).toContain('no embedding provider is configured');
  });
});

// eslint-disable-next-line no-control-regex -- these are what it finds
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/;

describe('lore docs: control characters in a summary', () => {
  it('never reach the terminal: an inferred summary drops them, a frontmatter one is reported with its line', () => {
    const sandbox = createSandbox();
    write(sandbox, {
      'docs/a.md': '# Deploy \u001b]0;pwned\u0007guide\u001b[2J\n\nbody\n',
      'docs/b.md': '---\ntype: runbook\nsummary: "Rotate \\e[31mkeys"\n---\n# Rotating keys\n',
    });
    const list = sandbox.run(['docs', 'list']);
    expect(list.code).toBe(0);
    expect(list.stdout).not.toMatch(CONTROL);
    expect(list.stdout).toContain('docs/a.md  Deploy ]0;pwnedguide[2J  (inferred)');
    expect(list.stdout).toContain('docs/b.md  Rotating keys  (partial)');
    const json = sandbox.run(['docs', 'list', '--json']).json<{ docs: DocJson[] }>();
    expect(json.docs[1]?.problems).toContainEqual(
      expect.objectContaining({
        line: 3,
        field: 'summary',
        message: expect.stringContaining('control character (U+001B)'),
      }),
    );
    const search = sandbox.run(['search', '--kind', 'doc', 'deploy']);
    expect(search.stdout).not.toMatch(CONTROL);
    // migrate writes the cleaned summary, not the escape sequences
    sandbox.run(['docs', 'migrate']);
    expect(readFileSync(sandbox.inRepo('docs/a.md'), 'utf8')).toMatch(
      /^---\ntype: context\nsummary: Deploy \]0;pwnedguide\[2J\n/,
    );
  });
});

describe('lore docs migrate', () => {
  it('matches the golden files: dry-run diff, the migrated tree, and an idempotent second run', () => {
    const sandbox = createSandbox();
    cpSync(join(FIXTURES, 'before'), sandbox.inRepo('docs'), { recursive: true });
    const dry = sandbox.run(['docs', 'migrate', '--dry-run']);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toBe(readFileSync(join(FIXTURES, 'dry-run.diff'), 'utf8'));
    expect(readTree(sandbox.inRepo('docs'))).toEqual(readTree(join(FIXTURES, 'before')));
    const run = sandbox.run(['docs', 'migrate', '--json']);
    expect(run.json()).toMatchObject({ dryRun: false, unchanged: 2 });
    expect(run.stderr).toContain('docs/broken.md:3: error: invalid YAML in the frontmatter');
    expect(readTree(sandbox.inRepo('docs'))).toEqual(readTree(join(FIXTURES, 'after')));
    const second = sandbox.run(['docs', 'migrate']);
    expect(second.stdout).toBe('every doc has a frontmatter (6 checked); nothing to migrate\n');
    expect(readTree(sandbox.inRepo('docs'))).toEqual(readTree(join(FIXTURES, 'after')));
  });

  it('a symlinked doc is planned once, under its own path: the dry run and the run agree, the link stays', () => {
    const sandbox = createSandbox();
    write(sandbox, { 'docs/runbooks/deploy.md': '# Deploying\n\nSteps.\n' });
    symlinkSync('runbooks/deploy.md', sandbox.inRepo('docs/deploy.md'));
    type Migration = { changed: { path: string; diff: string }[] };
    const dry = sandbox.run(['docs', 'migrate', '--dry-run', '--json']).json<Migration>();
    expect(dry.changed.map((doc) => doc.path)).toEqual(['docs/runbooks/deploy.md']);
    expect(dry.changed[0]?.diff).toContain('+type: runbook');
    const run = sandbox.run(['docs', 'migrate', '--json']).json<Migration>();
    expect(run.changed).toEqual(dry.changed);
    expect(readFileSync(sandbox.inRepo('docs/runbooks/deploy.md'), 'utf8')).toMatch(/^---\ntype: runbook\n/);
    expect(lstatSync(sandbox.inRepo('docs/deploy.md')).isSymbolicLink()).toBe(true);
  });

  it('leaves a doc whose opening --- is never closed alone instead of stacking a second frontmatter on it', () => {
    const sandbox = createSandbox();
    const text = '---\ntype: design\nsummary: Sessions\n\n# Sessions\n';
    write(sandbox, { 'docs/open.md': text, 'docs/rule.md': '---\n# Rule first\n' });
    type Migration = {
      changed: { path: string }[];
      problems: { file: string; line?: number; message: string }[];
    };
    const run = sandbox.run(['docs', 'migrate', '--json']);
    expect(run.code).toBe(0);
    const result = run.json<Migration>();
    // a doc that only starts with a --- rule still gets its frontmatter
    expect(result.changed.map((doc) => doc.path)).toEqual(['docs/rule.md']);
    expect(result.problems).toContainEqual(
      expect.objectContaining({
        file: 'docs/open.md',
        line: 1,
        message: expect.stringContaining('never closed'),
      }),
    );
    expect(run.stderr).toContain('docs/open.md:1');
    expect(readFileSync(sandbox.inRepo('docs/open.md'), 'utf8')).toBe(text);
  });

  it('leaves a doc that is not UTF-8 byte for byte, and names it, instead of rewriting its bytes as U+FFFD', () => {
    const sandbox = createSandbox();
    const latin1 = Buffer.from('# Caf\xe9 notes\n\nna\xefve r\xe9sum\xe9\n', 'latin1');
    mkdirSync(sandbox.inRepo('docs'), { recursive: true });
    writeFileSync(sandbox.inRepo('docs/latin.md'), latin1);
    write(sandbox, { 'docs/ok.md': '# Fine\n' });
    type Migration = { changed: { path: string }[]; problems: { file: string; message: string }[] };
    const dry = sandbox.run(['docs', 'migrate', '--dry-run', '--json']).json<Migration>();
    expect(dry.changed.map((doc) => doc.path)).toEqual(['docs/ok.md']);
    const run = sandbox.run(['docs', 'migrate', '--json']);
    expect(run.code).toBe(0);
    const result = run.json<Migration>();
    expect(result.changed.map((doc) => doc.path)).toEqual(['docs/ok.md']);
    expect(result.problems).toContainEqual(
      expect.objectContaining({ file: 'docs/latin.md', message: expect.stringContaining('not UTF-8') }),
    );
    expect(run.stderr).toContain('docs/latin.md');
    expect(readFileSync(sandbox.inRepo('docs/latin.md')).equals(latin1)).toBe(true);
  });
});

describe('lore prompt --features', () => {
  it('adds the docs whose related_features name a feature, after the lessons, and nothing when none match', () => {
    const sandbox = createSandbox();
    write(sandbox, {
      'docs/design/auth/login.md': '# Login flow\n',
      'docs/runbooks/keys.md':
        '---\ntype: runbook\nsummary: Rotating signing keys\nrelated_features: [Auth, billing]\n---\n',
      'docs/design/billing/invoices.md': '# Invoices\n',
    });
    const id = sandbox.add(['--summary', 'never log tokens', '--path', 'src/auth/**']);
    const run = sandbox.run(['prompt', '--features', 'auth', '--files', 'src/auth/session.ts']);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      [
        '<system-reminder>',
        "Lessons from this repository's past mistakes that apply to this task:",
        `- [${id}] never log tokens (path:src/auth/**)`,
        'Read a lesson in full with `lore show <id>` (or the MCP tool lore_show). After using one, say LEARNING_HELPFUL: <id> or LEARNING_NOT_HELPFUL: <id>.',
        "Project docs about this task's features:",
        '- [docs/design/auth/login.md] (design) Login flow (feature:auth)',
        '- [docs/runbooks/keys.md] (runbook) Rotating signing keys (feature:Auth)',
        'Read a doc with `lore docs show <path>` (or the MCP tool lore_docs_show).',
        '</system-reminder>',
        '',
      ].join('\n'),
    );
    const json = sandbox
      .run(['prompt', '--features', 'billing', '--json'])
      .json<{ docs: { path: string }[] }>();
    expect(json.docs.map((doc) => doc.path)).toEqual([
      'docs/design/billing/invoices.md',
      'docs/runbooks/keys.md',
    ]);
    const markdown = sandbox.run(['prompt', '--features', 'billing', '--format', 'markdown']);
    expect(markdown.stdout).toContain(
      '## Project docs for this task\n\n- `docs/design/billing/invoices.md` (design) Invoices',
    );
    expect(markdown.stdout).not.toContain('## Lessons');
    expect(sandbox.run(['prompt', '--features', 'search']).stdout).toBe('');
  });
});

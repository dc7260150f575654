// The pure docs core: strict frontmatter errors per field, tolerant inference, summaries,
// artifact ids, lexical scoring, the hybrid blend and the migration planner.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classifyArtifact } from '../../src/core/docs/artifact-ref.js';
import { blendDocScores, normalizeMinMax } from '../../src/core/docs/blend-doc-scores.js';
import type { DocRecord } from '../../src/core/docs/doc-schema.js';
import { extractSummary, UNTITLED_DOC } from '../../src/core/docs/extract-summary.js';
import { indexDoc } from '../../src/core/docs/index-doc.js';
import { inferDocLayout } from '../../src/core/docs/infer-doc-layout.js';
import {
  NO_FRONTMATTER,
  parseDocFrontmatter,
  UNCLOSED_FRONTMATTER,
} from '../../src/core/docs/parse-doc-frontmatter.js';
import { planDocMigration } from '../../src/core/docs/plan-doc-migration.js';
import { scoreDocs } from '../../src/core/docs/score-docs.js';
import { splitFrontmatter } from '../../src/core/docs/split-frontmatter.js';

const FILE = 'docs/guide.md';
const OPTIONS = { taskPrefixes: ['PROJ'] };
const fm = (yaml: string, body = 'Body.\n'): string => `---\n${yaml}---\n${body}`;

describe('parseDocFrontmatter (strict)', () => {
  it('accepts the six fields', () => {
    const text = fm(
      'type: design\nsummary: Login flow\ntags: [auth]\npaths: ["src/auth/**"]\nrelated_features: [login]\n' +
        'related_artifacts: [ADR-0042, PROJ-17, 0123456789]\n',
    );
    expect(parseDocFrontmatter(FILE, text, OPTIONS)).toEqual({
      ok: true,
      frontmatter: {
        type: 'design',
        summary: 'Login flow',
        tags: ['auth'],
        paths: ['src/auth/**'],
        related_features: ['login'],
        related_artifacts: ['ADR-0042', 'PROJ-17', '0123456789'],
      },
    });
  });

  it.each([
    { name: 'no frontmatter', text: '# Title\n', line: 1, field: undefined, message: NO_FRONTMATTER },
    {
      name: 'unclosed frontmatter',
      text: '---\ntype: design\n',
      line: 1,
      field: undefined,
      message: UNCLOSED_FRONTMATTER,
    },
    {
      name: 'a --- rule, then prose',
      text: '---\n# Title\n',
      line: 1,
      field: undefined,
      message: NO_FRONTMATTER,
    },
    { name: 'bad YAML', text: fm('type: [design\n'), line: 3, field: undefined, message: /invalid YAML/ },
    {
      name: 'a list, not a mapping',
      text: fm('- a\n'),
      line: 2,
      field: undefined,
      message: /must be a mapping/,
    },
    { name: 'type missing', text: fm('summary: S\n'), line: 2, field: 'type', message: /type is required/ },
    {
      name: 'summary missing',
      text: fm('type: design\n'),
      line: 2,
      field: 'summary',
      message: /summary is required/,
    },
    {
      name: 'unknown type',
      text: fm('type: spec\nsummary: S\n'),
      line: 2,
      field: 'type',
      message: /type must be one of design, pattern, context, glossary, runbook/,
    },
    {
      name: 'empty summary',
      text: fm('type: design\nsummary: "  "\n'),
      line: 3,
      field: 'summary',
      message: /non-empty/,
    },
    {
      name: 'two-line summary',
      text: fm('type: design\nsummary: "a\\nb"\n'),
      line: 3,
      field: 'summary',
      message: /one line/,
    },
    {
      name: 'tags not a list',
      text: fm('type: design\nsummary: S\ntags: auth\n'),
      line: 4,
      field: 'tags',
      message: /list of strings/,
    },
    {
      name: 'an empty tag',
      text: fm('type: design\nsummary: S\ntags: [a, ""]\n'),
      line: 4,
      field: 'tags.1',
      message: /non-empty/,
    },
    {
      name: 'unknown artifact prefix',
      text: fm('type: design\nsummary: S\nrelated_artifacts:\n  - ADR-0001\n  - JIRA-9\n'),
      line: 6,
      field: 'related_artifacts.1',
      message: /"JIRA-9" has an unknown prefix.*add "JIRA" to docs.taskPrefixes/,
    },
    {
      name: 'short ADR id',
      text: fm('type: design\nsummary: S\nrelated_artifacts: [ADR-7]\n'),
      line: 4,
      field: 'related_artifacts.0',
      message: /ADR- and four digits/,
    },
    {
      name: 'unknown field',
      text: fm('type: design\nsummary: S\nowner: me\n'),
      line: 4,
      field: 'owner',
      message: /unknown field "owner"/,
    },
  ])('$name: an error naming the file, line $line and field $field', ({ text, line, field, message }) => {
    const result = parseDocFrontmatter(FILE, text, OPTIONS);
    expect(result.ok).toBe(false);
    const problems = result.ok ? [] : result.problems;
    expect(problems[0]).toMatchObject({ file: FILE, line, severity: 'error', ...(field ? { field } : {}) });
    expect(problems[0]?.message).toMatch(message);
  });
});

describe('inferDocLayout', () => {
  it.each([
    ['docs/design/auth/login.md', 'docs', { type: 'design', tags: ['auth'], relatedFeatures: ['auth'] }],
    ['docs/design/overview.md', 'docs', { type: 'design', tags: [], relatedFeatures: [] }],
    [
      'docs/designs/billing/api/refunds.md',
      'docs',
      { type: 'design', tags: ['billing', 'api'], relatedFeatures: ['billing'] },
    ],
    ['docs/patterns/retry.md', 'docs', { type: 'pattern', tags: [], relatedFeatures: [] }],
    ['docs/ops/runbooks/restore.md', 'docs', { type: 'runbook', tags: ['ops'], relatedFeatures: [] }],
    ['docs/glossary.md', 'docs', { type: 'glossary', tags: [], relatedFeatures: [] }],
    ['docs/Glossaries/terms.md', 'docs', { type: 'glossary', tags: [], relatedFeatures: [] }],
    ['docs/api/intro.md', 'docs', { type: 'context', tags: ['api'], relatedFeatures: [] }],
    ['README.md', '.', { type: 'context', tags: [], relatedFeatures: [] }],
    ['docs/design/auth/x.md', '.', { type: 'design', tags: ['auth'], relatedFeatures: ['auth'] }],
    [
      'packages/web/docs/design/cart/flow.md',
      'packages/web/docs',
      { type: 'design', tags: ['cart'], relatedFeatures: ['cart'] },
    ],
  ])('%s under %s', (path, root, expected) => {
    expect(inferDocLayout(path, root)).toEqual(expected);
  });
});

describe('extractSummary', () => {
  it.each([
    ['# Login flow\n\nText.', 'Login flow'],
    ['\n\n## `retry()` policy ##\n', 'retry() policy'],
    ['<!-- generated, do not edit -->\n# Title', 'Title'],
    ['<!--\nmulti\nline\n-->\nFirst line', 'First line'],
    ['```sh\nnpm test\n```\nAfter the fence', 'After the fence'],
    ['---\n\n> Quoted intro', 'Quoted intro'],
    ['- a list item first', 'a list item first'],
    ['Title\n=====\n', 'Title'],
    [`# ${'x'.repeat(300)}`, `${'x'.repeat(199)}…`],
  ])('%j -> %j', (body, expected) => {
    expect(extractSummary(body, 'docs/a.md')).toBe(expected);
  });

  it.each([
    ['docs/db-restore_steps.md', 'Db Restore Steps'],
    ['docs/API.md', 'Api'],
    ['docs/.md', UNTITLED_DOC],
    ['docs/---.markdown', UNTITLED_DOC],
  ])('an empty body falls back to the file name: %s -> %s', (path, expected) => {
    expect(extractSummary('\n<!-- only a comment -->\n``\n', path)).toBe(expected);
  });
});

describe('classifyArtifact', () => {
  it.each([
    ['0123456789', ['PROJ'], 'lesson'],
    ['ADR-0001', [], 'adr'],
    ['PROJ-12', ['PROJ'], 'task'],
    ['ops_2-ab12', ['ops_2'], 'task'],
  ])('%s is a %s id', (id, prefixes, kind) => {
    expect(classifyArtifact(id, prefixes)).toEqual({ ok: true, kind, id });
  });
  it.each([
    ['PROJ-12', []],
    ['adr-0001', []],
    ['ADR-12345', []],
    ['free text', ['PROJ']],
    ['012345678', []],
  ])('%s is refused with prefixes %j', (id, prefixes) => {
    expect(classifyArtifact(id, prefixes).ok).toBe(false);
  });
});

describe('indexDoc (tolerant)', () => {
  it('infers everything for a file without frontmatter', () => {
    const { record, body, problems } = indexDoc(
      'docs/design/auth/login.md',
      'docs',
      '# Login\nText\n',
      OPTIONS,
    );
    expect(record).toEqual({
      path: 'docs/design/auth/login.md',
      type: 'design',
      summary: 'Login',
      tags: ['auth'],
      paths: [],
      relatedFeatures: ['auth'],
      relatedArtifacts: [],
      source: 'inferred',
      bodyLine: 1,
    });
    expect(body).toBe('# Login\nText\n');
    expect(problems.map((p) => p.message)).toEqual([NO_FRONTMATTER]);
  });

  it('keeps the body of a doc whose frontmatter is broken YAML', () => {
    const { record, body } = indexDoc('docs/a.md', 'docs', fm('type: [x\n', 'Real body line\n'), OPTIONS);
    expect(record).toMatchObject({
      type: 'context',
      summary: 'Real body line',
      source: 'inferred',
      bodyLine: 4,
    });
    expect(body).toBe('Real body line\n');
  });

  it('keeps valid fields and infers the rest (partial)', () => {
    const text = fm('type: spec\nsummary: Kept summary\ntags: [a]\nrelated_artifacts: [ADR-0001, NOPE-1]\n');
    const { record, problems } = indexDoc('docs/runbooks/r.md', 'docs', text, OPTIONS);
    expect(record).toMatchObject({
      type: 'runbook',
      summary: 'Kept summary',
      tags: ['a'],
      relatedArtifacts: ['ADR-0001'],
      source: 'partial',
    });
    expect(problems.map((p) => p.field)).toEqual(['type', 'related_artifacts.1']);
  });

  it('marks a valid frontmatter as such', () => {
    expect(indexDoc(FILE, 'docs', fm('type: glossary\nsummary: Terms\n'), OPTIONS).record.source).toBe(
      'frontmatter',
    );
  });
});

describe('splitFrontmatter', () => {
  it('handles CRLF, a BOM and the ... terminator', () => {
    const split = splitFrontmatter('\uFEFF---\r\ntype: design\r\n...\r\nbody\r\n');
    expect(split).toMatchObject({ frontmatter: 'type: design\r\n', body: 'body\r\n', bodyLine: 4 });
  });
});

const doc = (
  path: string,
  summary: string,
  tags: string[] = [],
  type: DocRecord['type'] = 'context',
): DocRecord => ({
  path,
  type,
  summary,
  tags,
  paths: [],
  relatedFeatures: [],
  relatedArtifacts: [],
  source: 'frontmatter',
  bodyLine: 1,
});

describe('scoreDocs', () => {
  it('scores summary 80 + query length, exact tag 120, tag substring 60, type 30; drops zeros; ties by path', () => {
    const records = [
      doc('b.md', 'About auth tokens'),
      doc('a.md', 'Auth in depth'),
      doc('c.md', 'Unrelated', ['auth']),
      doc('d.md', 'Unrelated', ['oauth']),
      doc('e.md', 'Unrelated', [], 'design'),
      doc('f.md', 'Nothing'),
    ];
    expect(scoreDocs(records, 'AUTH').map((hit) => [hit.record.path, hit.score, hit.matchedBy])).toEqual([
      ['c.md', 120, ['tag']],
      ['a.md', 84, ['summary']],
      ['b.md', 84, ['summary']],
      ['d.md', 60, ['tag~']],
    ]);
    expect(scoreDocs(records, 'design').map((hit) => [hit.record.path, hit.score])).toEqual([['e.md', 30]]);
    expect(scoreDocs(records, '  ')).toEqual([]);
  });
});

describe('blendDocScores', () => {
  it('min-max normalises each scorer and blends by weight', () => {
    const hits = blendDocScores([
      {
        name: 'lexical',
        weight: 0.5,
        scores: new Map([
          ['a', 120],
          ['b', 60],
        ]),
      },
      {
        name: 'body',
        weight: 0.5,
        scores: new Map([
          ['b', 4],
          ['c', 2],
        ]),
      },
    ]);
    expect(hits).toEqual([
      { path: 'b', score: 0.75, parts: { lexical: 0.5, body: 1 } },
      { path: 'a', score: 0.5, parts: { lexical: 1, body: 0 } },
      { path: 'c', score: 0.25, parts: { lexical: 0, body: 0.5 } },
    ]);
  });

  it('weight 0 leaves a scorer out of the order', () => {
    const hits = blendDocScores([
      { name: 'lexical', weight: 1, scores: new Map([['a', 1]]) },
      { name: 'body', weight: 0, scores: new Map([['b', 9]]) },
    ]);
    expect(hits.map((hit) => hit.path)).toEqual(['a']);
  });

  it('normalised scores stay within 0..1 and found docs stay above 0', () => {
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.string({ minLength: 1, maxLength: 4 }),
          fc.double({ min: 0.001, max: 1e6, noNaN: true }),
        ),
        (raw) => {
          const scores = new Map(Object.entries(raw));
          const normalized = normalizeMinMax(scores, [...scores.keys()]);
          for (const value of normalized.values()) {
            expect(value).toBeGreaterThan(0);
            expect(value).toBeLessThanOrEqual(1);
          }
        },
      ),
    );
  });
});

describe('planDocMigration', () => {
  it('adds a frontmatter to a file without one, and is idempotent', () => {
    const first = planDocMigration('docs/design/auth/login.md', 'docs', '# Login\n', OPTIONS);
    expect(first.text).toBe(
      '---\ntype: design\nsummary: Login\ntags: [auth]\nrelated_features: [auth]\n---\n# Login\n',
    );
    expect(first.added).toEqual(['type', 'summary', 'tags', 'related_features']);
    const second = planDocMigration('docs/design/auth/login.md', 'docs', first.text, OPTIONS);
    expect(second).toMatchObject({ changed: false, text: first.text, added: [] });
  });

  it('fills missing fields through the document model, keeping comments and other fields', () => {
    const text = fm('# owned by the platform team\ntags: [x]   # keep me\npaths:\n  - "src/**"\n');
    const plan = planDocMigration('docs/runbooks/r.md', 'docs', text, OPTIONS);
    expect(plan.text).toBe(
      '---\n# owned by the platform team\ntype: runbook\nsummary: Body.\ntags: [x] # keep me\npaths:\n  - "src/**"\n---\nBody.\n',
    );
  });

  it('puts summary after type, and type first below a leading comment', () => {
    const withType = planDocMigration(FILE, 'docs', fm('# top\ntype: design\ntags: [a]\n'), OPTIONS);
    expect(withType.text).toBe('---\n# top\ntype: design\nsummary: Body.\ntags: [a]\n---\nBody.\n');
    const without = planDocMigration(FILE, 'docs', fm('# top\ntags: [a]\n'), OPTIONS);
    expect(without.text).toBe('---\n# top\ntype: context\nsummary: Body.\ntags: [a]\n---\nBody.\n');
    const empty = planDocMigration(FILE, 'docs', fm(''), OPTIONS);
    expect(empty.text).toBe('---\ntype: context\nsummary: Body.\n---\nBody.\n');
  });

  it('leaves a frontmatter it cannot read alone, and reports it', () => {
    const text = fm('type: [x\n');
    const plan = planDocMigration(FILE, 'docs', text, OPTIONS);
    expect(plan).toMatchObject({ changed: false, text });
    expect(plan.problems[0]?.message).toMatch(/invalid YAML/);
  });

  it('keeps CRLF line endings', () => {
    const plan = planDocMigration(FILE, 'docs', '# T\r\nx\r\n', OPTIONS);
    expect(plan.text).toBe('---\r\ntype: context\r\nsummary: T\r\n---\r\n# T\r\nx\r\n');
  });
});

// lore import PATH [--from FORMAT] and lore export --to FORMAT through the built binary: every
// format's fixture imports (detected), twice without duplicates, with --dry-run writing nothing;
// an export to each format imports into a fresh repository with the same lessons; ADD ids resolve
// as aliases; ADD Markdown is backed up and rewritten; COIA goes through a SQLite database.
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createSandbox, lessonDirs, listIds, walkFiles } from '../helpers/cli.js';
import type { ExportJson, Sandbox } from '../helpers/cli.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/interop/', import.meta.url));

type Report = {
  format: string;
  added: { id: string; tier: string; from: string }[];
  unchanged: unknown[];
  conflicts: unknown[];
  invalid: number;
  votesAdded: number;
  problems: { file: string; field?: string; line?: number; message: string }[];
  markdown: { file: string; backup?: string; rewritten: boolean; mismatches: string[]; kept?: string }[];
};

/** Each fixture, copied into the repository, the path to import, and what it holds. */
const CASES = [
  { format: 'orbit', fixture: 'orbit/good', path: '.orbit', lessons: 3, votes: 2, userTier: 0 },
  {
    format: 'lessons-learned',
    fixture: 'lessons-learned/good',
    path: 'data/lessons.json',
    lessons: 3,
    votes: 0,
    userTier: 0,
  },
  { format: 'add', fixture: 'add/good', path: '.', lessons: 5, votes: 0, userTier: 2 },
  { format: 'add-md', fixture: 'add-md/generated', path: '.add', lessons: 2, votes: 0, userTier: 0 },
  { format: 'coia', fixture: 'coia/good', path: 'learnings.json', lessons: 3, votes: 0, userTier: 0 },
  { format: 'cursor', fixture: 'cursor/good', path: '.cursor/rules', lessons: 3, votes: 0, userTier: 0 },
] as const;

function withFixture(fixture: string): Sandbox {
  const sandbox = createSandbox();
  cpSync(join(FIXTURES, fixture), sandbox.repo, { recursive: true });
  return sandbox;
}

function exportLore(sandbox: Sandbox): ExportJson['lessons'] {
  const run = sandbox.run(['export', '--json']);
  expect(run.code, run.stderr).toBe(0);
  return run.json<ExportJson>().lessons;
}

/** What an import into another repository must keep: the content, not lore's ids or dates of import. */
function content(lesson: ExportJson['lessons'][number]) {
  const { summary, body, mistake, remediation, paths, tags, tier, status } = lesson as Record<
    string,
    unknown
  >;
  return JSON.stringify({ summary, body, mistake, remediation, paths, tags, tier, status });
}

describe.each(CASES)('lore import of $format', (c) => {
  it('detects the format, imports every lesson once, and a second import adds nothing', () => {
    const sandbox = withFixture(c.fixture);
    const run = sandbox.run(['import', c.path, '--json']);
    expect(run.code, run.stderr).toBe(0);
    const report = run.json<Report>();
    expect(report).toMatchObject({ format: c.format, invalid: 0, votesAdded: c.votes });
    expect(report.added).toHaveLength(c.lessons);
    expect(listIds(sandbox)).toHaveLength(c.lessons);
    expect(lessonDirs(sandbox.userTier)).toHaveLength(c.userTier);
    expect(sandbox.run(['check']).code).toBe(0);

    const again = sandbox.run(['import', c.path, '--json']).json<Report>();
    expect(again.added).toEqual([]);
    expect(again.unchanged).toHaveLength(c.lessons);
    expect(again.votesAdded).toBe(0);
  });

  it('--dry-run reports the same and writes nothing', () => {
    const sandbox = withFixture(c.fixture);
    const before = walkFiles(sandbox.repo).sort();
    const run = sandbox.run(['import', c.path, '--dry-run', '--json']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.json<Report>().added).toHaveLength(c.lessons);
    expect(lessonDirs(join(sandbox.repo, '.lore'))).toEqual([]);
    expect(lessonDirs(sandbox.userTier)).toEqual([]);
    expect(
      walkFiles(sandbox.repo)
        .filter((f) => !f.startsWith('.lore/cache/'))
        .sort(),
    ).toEqual(before.filter((f) => !f.startsWith('.lore/cache/')));
  });

  it('an export to the format imports into a fresh repository with the same lessons', () => {
    const source = withFixture(c.fixture);
    expect(source.run(['import', c.path]).code).toBe(0);
    const out = join(source.base, `export-${c.format}`);
    const exported = source.run(['export', '--to', c.format, '--out', out]);
    expect(exported.code, exported.stderr).toBe(0);
    const target = createSandbox();
    const run = target.run(['import', out, '--from', c.format, '--json']);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const kept = exportLore(source).filter((lesson) => c.format !== 'cursor' || lesson.status === 'active');
    expect(exportLore(target).map(content).sort()).toEqual(kept.map(content).sort());
  });
});

describe('lore import: broken entries', () => {
  it.each([
    ['orbit/broken', '.orbit', 1, /L-0002\/learning\.yaml.*summary/],
    ['lessons-learned/broken', 'data/lessons.json', 1, /lessons\[1\].*commands\.0.*backtrack/],
    ['add/broken', '.add', 1, /entries\[1\] \(L-002\).*no title/],
    ['coia/broken', 'learnings.json', 1, /learn_notitle/],
    ['cursor/broken', '.cursor/rules', 1, /unclosed\.mdc.*closing ---/],
  ])(
    '%s: each is reported with file, entry and reason and skipped; the rest imports',
    (fixture, path, count, pattern) => {
      const sandbox = withFixture(fixture);
      const run = sandbox.run(['import', path]);
      expect(run.code).toBe(1);
      expect(run.stdout).toMatch(pattern);
      expect(run.stdout).toMatch(/invalid/);
      expect(listIds(sandbox)).toHaveLength(count);
      expect(sandbox.run(['check']).code).toBe(0);
    },
  );
});

describe('ADD', () => {
  it('keeps L-NNN / WL-NNN ids as aliases that lore show resolves', () => {
    const sandbox = withFixture('add/good');
    expect(sandbox.run(['import', '.']).code).toBe(0);
    const show = sandbox.run(['show', 'L-002', '--json']);
    expect(show.code, show.stderr).toBe(0);
    expect(show.json<{ lesson: { summary: string; aliases: string[] } }>().lesson).toMatchObject({
      summary: 'Feature flags are read once per request',
      aliases: ['L-002'],
    });
    expect(sandbox.run(['show', 'wl-001']).stdout).toContain('Docker Desktop file sharing');
    expect(sandbox.run(['show', 'L-099']).code).toBe(1);
    expect(listIds(sandbox, ['--tier', 'user'])).toHaveLength(2);
  });

  it('freeform learnings.md is backed up as .bak, rewritten as the generated view, and reads back the same', () => {
    const sandbox = withFixture('add-md/freeform');
    const original = readFileSync(sandbox.inRepo('.add/learnings.md'), 'utf8');
    const dry = sandbox.run(['import', '.add/learnings.md', '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(existsSync(sandbox.inRepo('.add/learnings.md.bak'))).toBe(false);

    const run = sandbox.run(['import', '.add/learnings.md', '--rewrite-source', '--json']);
    expect(run.code, run.stderr).toBe(0);
    const report = run.json<Report>();
    expect(report.format).toBe('add-md');
    expect(report.added.map((ref) => ref.from)).toEqual(['L-001', 'L-002', 'L-003', 'L-004']);
    expect(report.markdown).toEqual([
      { file: '.add/learnings.md', backup: '.add/learnings.md.bak', rewritten: true, mismatches: [] },
    ]);
    expect(readFileSync(sandbox.inRepo('.add/learnings.md.bak'), 'utf8')).toBe(original);
    const rewritten = readFileSync(sandbox.inRepo('.add/learnings.md'), 'utf8');
    expect(rewritten).toContain(
      '- **[high] Mocking the payment SDK hid a breaking change in its error codes.** (L-003, ',
    );
    expect(rewritten).toContain('## Anti-Patterns');

    const again = sandbox.run(['import', '.add/learnings.md', '--json']).json<Report>();
    expect(again.added).toEqual([]);
    expect(again.unchanged).toHaveLength(4);
    expect(sandbox.run(['show', 'L-004']).stdout).toContain('Checkpoint: Post-Verify');
  });

  it('never rewrites learnings.md without --rewrite-source, nor with it when entries conflict', () => {
    const sandbox = withFixture('add-md/freeform');
    const file = sandbox.inRepo('.add/learnings.md');
    const original = readFileSync(file, 'utf8');
    const first = sandbox.run(['import', '.add/learnings.md', '--json']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.json<Report>().added).toHaveLength(4);
    expect(first.json<Report>().markdown[0]).toMatchObject({
      rewritten: false,
      kept: expect.stringContaining('--rewrite-source'),
    });
    expect(readFileSync(file, 'utf8')).toBe(original);
    // The entries changed since: three conflicts, nothing imported. Rewriting would number them
    // L-001... in the file, ids that in the store belong to the lessons they conflict with.
    const edited = original
      .replace('strips EXIF orientation', 'drops EXIF orientation')
      .replace('caches 301 redirects', 'keeps 301 redirects')
      .replace('hid a breaking change', 'masked a breaking change');
    writeFileSync(file, edited);
    const again = sandbox.run(['import', '.add/learnings.md', '--rewrite-source', '--json']);
    expect(again.code, again.stderr).toBe(0);
    const report = again.json<Report>();
    expect(report.added).toEqual([]);
    expect(report.conflicts).toHaveLength(3);
    expect(report.markdown[0]).toMatchObject({
      rewritten: false,
      kept: expect.stringContaining('3 of its entries conflict'),
    });
    expect(readFileSync(file, 'utf8')).toBe(edited);
    expect(existsSync(`${file}.bak`)).toBe(false);
  });

  it('the same ADD ids from two projects import as two lessons, each also aliased project/L-NNN', () => {
    const sandbox = withFixture('add/good');
    const json = readFileSync(sandbox.inRepo('.add/learnings.json'), 'utf8');
    const other = json
      .replaceAll('shop-api', 'shop-web')
      .replace('Seed data must not', 'Seed data should not');
    writeFileSync(sandbox.inRepo('web-learnings.json'), other);
    expect(sandbox.run(['import', '.add/learnings.json']).code).toBe(0);
    const second = sandbox.run(['import', 'web-learnings.json', '--json']);
    expect(second.code, second.stderr).toBe(0);
    const report = second.json<Report>();
    expect(report.conflicts).toEqual([]);
    expect(report.added.length).toBeGreaterThan(0);
    const web = sandbox.run(['show', 'shop-web/L-001', '--json']);
    expect(web.code, web.stderr).toBe(0);
    expect(web.json<{ lesson: { summary: string; aliases: string[] } }>().lesson).toMatchObject({
      summary: 'Seed data should not depend on the current date',
      aliases: ['L-001', 'shop-web/L-001'],
    });
    const bare = sandbox.run(['show', 'L-001']);
    expect(bare.code).not.toBe(0);
    expect(bare.stderr).toContain('shop-web/L-001');
    // Importing either project again adds nothing.
    expect(sandbox.run(['import', 'web-learnings.json', '--json']).json<Report>().added).toEqual([]);
    expect(sandbox.run(['import', '.add/learnings.json', '--json']).json<Report>().added).toEqual([]);
  });

  it('an export to add writes learnings.json and library.json, which ADD ids survive', () => {
    const sandbox = withFixture('add/good');
    expect(sandbox.run(['import', '.']).code).toBe(0);
    expect(sandbox.run(['export', '--to', 'add']).code).toBe(2);
    const run = sandbox.run(['export', '--to', 'add', '--out', 'out']);
    expect(run.code, run.stderr).toBe(0);
    const learnings = JSON.parse(readFileSync(sandbox.inRepo('out/learnings.json'), 'utf8')) as {
      entries: unknown[];
    };
    const original = JSON.parse(readFileSync(sandbox.inRepo('.add/learnings.json'), 'utf8')) as {
      entries: unknown[];
    };
    expect(learnings).toEqual(original);
    expect(existsSync(sandbox.inRepo('out/library.json'))).toBe(true);
  });
});

describe('COIA', () => {
  it('exports into the learnings table of a SQLite database and imports from it', () => {
    const source = withFixture('coia/good');
    expect(source.run(['import', 'learnings.json']).code).toBe(0);
    const db = join(source.base, 'coia.db');
    const exported = source.run(['export', '--to', 'coia', '--out', db]);
    expect(exported.code, exported.stderr).toBe(0);
    const target = createSandbox();
    const run = target.run(['import', db, '--json']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.json<Report>()).toMatchObject({ format: 'coia', invalid: 0 });
    expect(exportLore(target).map(content).sort()).toEqual(exportLore(source).map(content).sort());
    const shown = target.run(['show', 'learn_a1b2c3']);
    expect(shown.stdout).toContain('observation: The webhook that marks the order paid');
  });
});

describe('detection', () => {
  it('a folder holding two formats asks for --from, and --from picks one', () => {
    const sandbox = withFixture('orbit/good');
    cpSync(join(FIXTURES, 'cursor/good'), sandbox.repo, { recursive: true });
    const ambiguous = sandbox.run(['import', '.']);
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr).toMatch(/orbit and cursor/);
    expect(ambiguous.stderr).toMatch(/--from/);
    const run = sandbox.run(['import', '.', '--from', 'cursor', '--json']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.json<Report>().added).toHaveLength(3);
  });

  it('a folder with nothing lore reads is an error that names the formats', () => {
    const sandbox = createSandbox();
    const run = sandbox.run(['import', '.']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/no lessons lore can import/);
  });

  it('a bare list of lore lessons with COIA fields is still read as lore JSON, keeping ids', () => {
    const source = createSandbox();
    const id = source.add(['--summary', 'coia-shaped lore lesson']);
    const lessons = exportLore(source).map((lesson) => ({ ...lesson, context: 'c', observation: 'o' }));
    writeFileSync(join(source.base, 'bare.json'), JSON.stringify(lessons));
    const target = createSandbox();
    const run = target.run(['import', join(source.base, 'bare.json')]);
    expect(run.code, run.stderr).toBe(0);
    expect(listIds(target)).toEqual([id]);
  });

  it("--from lore reads lore's own export as before", () => {
    const source = createSandbox();
    const id = source.add(['--summary', 'still lore json']);
    expect(source.run(['export', '--out', join(source.base, 'lore.json')]).code).toBe(0);
    const target = createSandbox();
    expect(target.run(['import', join(source.base, 'lore.json'), '--from', 'lore']).code).toBe(0);
    expect(listIds(target)).toEqual([id]);
  });
});

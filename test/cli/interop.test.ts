// lore import PATH [--from FORMAT] and lore export --to FORMAT through the built binary: every
// format's fixture imports (detected), twice without duplicates, with --dry-run writing nothing;
// an export to each format imports into a fresh repository with the same lessons; ADD ids resolve
// as aliases; ADD Markdown is backed up and rewritten; COIA goes through a SQLite database.
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
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

describe('lore export --out over files that are already there', () => {
  const teammateLearning = [
    'id: L-0001',
    'schemaVersion: 1',
    'status: active',
    "summary: TEAMMATE'S ORBIT LEARNING (never imported into lore)",
    'body: precious text',
    'created_at: 2026-01-01T00:00:00Z',
    'updated_at: 2026-01-01T00:00:00Z',
    '',
  ].join('\n');

  it('refuses to replace files lore did not write, names them, writes nothing; --force overwrites', () => {
    const sandbox = createSandbox();
    sandbox.add(['--summary', 'Run migrations inside a transaction', '--path', 'db/**']);
    sandbox.add(['--summary', 'Use CI=1 with pytest', '--path', 'tests/**']);
    const learning = sandbox.inRepo('.orbit/learnings/L-0001/learning.yaml');
    mkdirSync(dirname(learning), { recursive: true });
    writeFileSync(learning, teammateLearning);
    const rule = sandbox.inRepo('.cursor/rules/use-ci-1-pytest.mdc');
    mkdirSync(dirname(rule), { recursive: true });
    writeFileSync(rule, '---\ndescription: TEAM RULE\nalwaysApply: true\n---\nhand-written team rule\n');
    const add = sandbox.inRepo('.add/learnings.json');
    mkdirSync(dirname(add), { recursive: true });
    const addText = JSON.stringify({
      version: '1.0.0',
      project: 'p',
      entries: [{ id: 'L-001', title: 'MY ADD ENTRY' }],
    });
    writeFileSync(add, addText);
    // a new Orbit id is one the folder never used: the teammate's L-0001 is left alone
    expect(sandbox.run(['export', '--to', 'orbit', '--out', '.orbit']).code).toBe(0);
    expect(walkFiles(sandbox.inRepo('.orbit')).sort()).toEqual([
      'learnings/.lore-ids.json',
      'learnings/L-0001/learning.yaml',
      'learnings/L-0002/learning.yaml',
      'learnings/L-0003/learning.yaml',
    ]);
    const before = walkFiles(sandbox.repo).filter((file) => !file.startsWith('.lore/'));

    const cursor = sandbox.run(['export', '--to', 'cursor', '--out', '.cursor/rules']);
    expect(cursor.code).toBe(1);
    expect(cursor.stderr).toContain(`${join('.cursor/rules', 'use-ci-1-pytest.mdc')} (not written by lore)`);
    const addRun = sandbox.run(['export', '--to', 'add', '--out', '.add/learnings.json']);
    expect(addRun.code).toBe(1);
    expect(addRun.stderr).toContain('.add/learnings.json (not written by lore)');
    expect(walkFiles(sandbox.repo).filter((file) => !file.startsWith('.lore/'))).toEqual(before);
    expect(readFileSync(learning, 'utf8')).toBe(teammateLearning);
    expect(readFileSync(add, 'utf8')).toBe(addText);

    expect(sandbox.run(['export', '--to', 'cursor', '--out', '.cursor/rules', '--force']).code).toBe(0);
    expect(readFileSync(rule, 'utf8')).toContain('description: Use CI=1 with pytest');
  });

  it('replaces what it wrote itself, but not once someone edited it', () => {
    const sandbox = createSandbox();
    const id = sandbox.add(['--summary', 'Use CI=1 with pytest', '--path', 'tests/**']);
    mkdirSync(sandbox.inRepo('.cursor'));
    expect(sandbox.run(['export', '--to', 'cursor', '--out', '.cursor/rules']).code).toBe(0);
    const update = sandbox.run(['update', id, '--summary', 'Always use CI=1 with pytest']);
    expect(update.code, update.stderr).toBe(0);
    expect(sandbox.run(['export', '--to', 'cursor', '--out', '.cursor/rules']).code).toBe(0);
    const rule = sandbox.inRepo('.cursor/rules/use-ci-1-pytest.mdc');
    expect(readFileSync(rule, 'utf8')).toContain('description: Always use CI=1 with pytest');
    writeFileSync(rule, `${readFileSync(rule, 'utf8')}\nmy own note\n`);
    const run = sandbox.run(['export', '--to', 'cursor', '--out', '.cursor/rules']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('use-ci-1-pytest.mdc (changed since lore wrote it)');
    expect(readFileSync(rule, 'utf8')).toContain('my own note');
  });

  it("lore's own JSON: a foreign file is refused, lore's own export replaced", () => {
    const sandbox = createSandbox();
    sandbox.add(['--summary', 'a lesson']);
    writeFileSync(sandbox.inRepo('notes.json'), '{"mine": true}\n');
    const refused = sandbox.run(['export', '--out', 'notes.json']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('notes.json (not written by lore)');
    expect(readFileSync(sandbox.inRepo('notes.json'), 'utf8')).toBe('{"mine": true}\n');
    writeFileSync(sandbox.inRepo('old.json'), JSON.stringify({ format: 'lore', version: 1, lessons: [] }));
    expect(sandbox.run(['export', '--out', 'old.json']).code).toBe(0);
    expect(sandbox.run(['export', '--out', 'old.json']).code).toBe(0);
  });

  it.each([
    { format: 'orbit', fixture: 'orbit/good', path: '.orbit', file: '.orbit/learnings/L-0002/learning.yaml' },
    { format: 'cursor', fixture: 'cursor/good', path: '.cursor/rules', file: '.cursor/rules/migrations.mdc' },
    {
      format: 'lessons-learned',
      fixture: 'lessons-learned/good',
      path: 'data/lessons.json',
      file: 'data/lessons.json',
    },
    { format: 'coia', fixture: 'coia/good', path: 'learnings.json', file: 'learnings.json' },
  ])(
    '$format: an export back over the source it imported whole goes through; a source edited since does not',
    (c) => {
      const sandbox = withFixture(c.fixture);
      expect(sandbox.run(['import', c.path]).code).toBe(0);
      const back = sandbox.run(['export', '--to', c.format, '--out', c.path]);
      expect(back.code, back.stderr).toBe(0);
      expect(sandbox.run(['export', '--to', c.format, '--out', c.path]).code).toBe(0);
      writeFileSync(sandbox.inRepo(c.file), `${readFileSync(sandbox.inRepo(c.file), 'utf8')}\n`);
      const edited = sandbox.run(['export', '--to', c.format, '--out', c.path]);
      expect(edited.code).toBe(1);
      expect(edited.stderr).toContain('(changed since lore wrote it)');
    },
  );
});

describe('a source id is never a path out of the export folder', () => {
  it('an Orbit id or a lore JSON origin.id that is not a file name is reported and skipped; exports stay inside --out', () => {
    const sandbox = createSandbox();
    const learning = join(sandbox.base, 'theirs/.orbit/learnings/L-0001/learning.yaml');
    mkdirSync(dirname(learning), { recursive: true });
    writeFileSync(
      learning,
      'id: ../../../../escaped-orbit\nschemaVersion: 1\nstatus: active\nsummary: from a cloned repository\nbody: b\n' +
        'created_at: 2026-01-01T00:00:00Z\nupdated_at: 2026-01-01T00:00:00Z\n',
    );
    const orbit = sandbox.run(['import', join(sandbox.base, 'theirs/.orbit')]);
    expect(orbit.code).toBe(1);
    expect(orbit.stdout).toContain('"../../../../escaped-orbit" cannot be a file name');
    expect(orbit.stdout).toContain('imported 0 new');

    const id = sandbox.add(['--summary', 'rule from a teammate export', '--path', 'src/**']);
    const document = sandbox.run(['export']).json<ExportJson>();
    const shared = join(sandbox.base, 'shared.json');
    writeFileSync(
      shared,
      JSON.stringify({
        ...document,
        lessons: document.lessons.map((lesson) => ({
          ...lesson,
          id: 'abcdefghjk',
          origin: { format: 'cursor', id: '../../../escaped-cursor' },
        })),
      }),
    );
    const json = sandbox.run(['import', shared]);
    expect(json.code).toBe(1);
    expect(json.stdout).toMatch(
      /lessons\[0\]\.origin\.id.*"\.\.\/\.\.\/\.\.\/escaped-cursor" cannot be a file name/,
    );
    expect(listIds(sandbox)).toEqual([id]);

    mkdirSync(sandbox.inRepo('out'));
    expect(sandbox.run(['export', '--to', 'orbit', '--out', 'out/.orbit']).code).toBe(0);
    expect(sandbox.run(['export', '--to', 'cursor', '--out', 'out/rules']).code).toBe(0);
    expect(walkFiles(sandbox.base).filter((file) => file.includes('escaped'))).toEqual([]);
  });
});

describe('Orbit ids across exports to one folder', () => {
  type Ref = { id: string; from: string };
  type Refs = { added: Ref[]; replaced: Ref[]; unchanged: Ref[] };
  /** lesson summary to the Orbit id (folder name) of its learning in .orbit */
  const orbitIds = (sandbox: Sandbox): Record<string, string> =>
    Object.fromEntries(
      walkFiles(sandbox.inRepo('.orbit'))
        .filter((file) => file.endsWith('learning.yaml'))
        .map((file) => [
          /^summary: (.*)$/m.exec(readFileSync(sandbox.inRepo('.orbit', file), 'utf8'))![1]!,
          file.split('/').at(-2)!,
        ]),
    );

  it('a lesson keeps its id, a new one gets an id never used there, and an import maps each learning back', () => {
    const sandbox = createSandbox();
    const add = (summary: string) =>
      sandbox.run(['add', '--summary', summary, '--json']).json<{ id: string }>().id;
    const names = ['lesson one', 'lesson two', 'lesson three', 'lesson four'];
    const ids = names.map(add);
    const nameOf = (id: string) => names[ids.indexOf(id)]!;
    // lessons export in id order: delete the first (the old numbering shifted every other one) and
    // archive the last (the old numbering gave its number to the next new lesson)
    const sorted = [...ids].sort();
    const [deleted, archived] = [sorted[0]!, sorted[3]!];
    const survivors = ids.filter((id) => id !== deleted && id !== archived);
    expect(sandbox.run(['export', '--to', 'orbit', '--out', '.orbit']).code).toBe(0);
    const first = orbitIds(sandbox);
    expect(Object.values(first).sort()).toEqual(['L-0001', 'L-0002', 'L-0003', 'L-0004']);

    rmSync(sandbox.inRepo('.lore', 'lessons', deleted), { recursive: true });
    expect(sandbox.run(['archive', archived]).code).toBe(0);
    add('a new lesson');
    add('another new lesson');
    expect(sandbox.run(['export', '--to', 'orbit', '--out', '.orbit']).code).toBe(0);
    const second = orbitIds(sandbox);
    for (const id of survivors) expect(second[nameOf(id)]).toBe(first[nameOf(id)]);
    expect([second['a new lesson'], second['another new lesson']].sort()).toEqual(['L-0005', 'L-0006']);

    // an import of the export, edited in Orbit, updates the lessons it came from
    const edited = survivors[0]!;
    const learning = sandbox.inRepo('.orbit', 'learnings', second[nameOf(edited)]!, 'learning.yaml');
    writeFileSync(learning, readFileSync(learning, 'utf8').replace(nameOf(edited), 'edited in Orbit'));
    const report = sandbox.run(['import', '.orbit', '--replace', '--json']).json<Refs>();
    const lessonOf = (orbitId: string) =>
      [...report.added, ...report.replaced, ...report.unchanged].find((ref) => ref.from === orbitId)?.id;
    for (const id of [...survivors, archived]) expect(lessonOf(first[nameOf(id)]!)).toBe(id);
    expect(report.replaced.map((ref) => ref.id)).toContain(edited);
    // the deleted lesson's learning is still in the folder: it comes back as a new lesson
    expect(report.added.map((ref) => ref.from)).toEqual([first[nameOf(deleted)]]);
    expect(sandbox.run(['show', edited]).stdout).toContain('edited in Orbit');
  });
  // the record of which lesson holds which id lives in the exported folder, not in one machine's
  // ~/.lore: a teammate exporting the same lessons to the same (committed) folder keeps the ids
  it('a second machine exporting the same lessons to the same folder gives them the same ids', () => {
    const sandbox = createSandbox();
    for (const summary of ['lesson one', 'lesson two', 'lesson three']) sandbox.add(['--summary', summary]);
    expect(sandbox.run(['export', '--to', 'orbit', '--out', '.orbit']).code).toBe(0);
    const first = orbitIds(sandbox);
    const other = { env: { HOME: join(sandbox.base, 'other-machine') } };
    mkdirSync(other.env.HOME);
    sandbox.add(['--summary', 'lesson four'], other);
    const exported = sandbox.run(['export', '--to', 'orbit', '--out', '.orbit'], other);
    expect([exported.code, exported.stderr]).toEqual([0, '']);
    expect(orbitIds(sandbox)).toEqual({ ...first, 'lesson four': 'L-0004' });
    const imported = sandbox.run(['import', '.orbit', '--replace', '--json'], other).json<Refs>();
    expect(imported.added).toEqual([]);
  });
});

describe('lore import of files saved on Windows', () => {
  /** The lessons of a repository, without lore's ids and dates, by summary. */
  function lessonsOf(sandbox: Sandbox): string[] {
    return exportLore(sandbox)
      .map((lesson) => {
        const { summary, body, paths, category, severity, aliases } = lesson as Record<string, unknown>;
        return JSON.stringify({ summary, body, paths, category, severity, aliases });
      })
      .sort();
  }

  /** Each text file under `dir` rewritten with CRLF line ends. */
  function toCrlf(dir: string): void {
    for (const file of walkFiles(dir).map((name) => join(dir, name)))
      writeFileSync(file, readFileSync(file, 'utf8').replaceAll('\r\n', '\n').replaceAll('\n', '\r\n'));
  }

  it.each([
    { fixture: 'cursor/good', path: '.cursor/rules', lessons: 3 },
    { fixture: 'add-md/generated', path: '.add', lessons: 2 },
  ])('$path with CRLF line ends imports the same lessons as with LF', ({ fixture, path, lessons }) => {
    const lf = withFixture(fixture);
    expect(lf.run(['import', path]).code).toBe(0);
    const crlf = withFixture(fixture);
    toCrlf(crlf.inRepo(path));
    const run = crlf.run(['import', path, '--json']);
    expect(run.code, run.stdout).toBe(0);
    expect(run.json<Report>()).toMatchObject({ invalid: 0, problems: [] });
    expect(lessonsOf(crlf)).toHaveLength(lessons);
    expect(lessonsOf(crlf)).toEqual(lessonsOf(lf));
  });

  it.each([
    { fixture: 'lessons-learned/good', path: 'data/lessons.json', lessons: 3 },
    { fixture: 'add/good', path: '.add/learnings.json', lessons: 3 },
    { fixture: 'coia/good', path: 'learnings.json', lessons: 3 },
  ])('$path with a byte order mark imports like without one', ({ fixture, path, lessons }) => {
    const plain = withFixture(fixture);
    expect(plain.run(['import', path]).code).toBe(0);
    const marked = withFixture(fixture);
    writeFileSync(marked.inRepo(path), `\uFEFF${readFileSync(marked.inRepo(path), 'utf8')}`);
    const run = marked.run(['import', path, '--json']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.json<Report>()).toMatchObject({ invalid: 0, problems: [] });
    expect(lessonsOf(marked)).toHaveLength(lessons);
    expect(lessonsOf(marked)).toEqual(lessonsOf(plain));
  });

  it("lore's own export with a byte order mark imports, from a file and from stdin", () => {
    const source = createSandbox();
    const id = source.add(['--summary', 'saved by PowerShell']);
    const text = `\uFEFF${source.run(['export']).stdout}`;
    writeFileSync(join(source.base, 'lore.json'), text);
    const fromFile = createSandbox();
    const run = fromFile.run(['import', join(source.base, 'lore.json')]);
    expect(run.code, run.stderr).toBe(0);
    expect(listIds(fromFile)).toEqual([id]);
    const fromStdin = createSandbox();
    expect(fromStdin.run(['import', '-'], { input: text }).code).toBe(0);
    expect(listIds(fromStdin)).toEqual([id]);
  });

  it("a CRLF rule imported whole is lore's: an export may replace it", () => {
    const sandbox = withFixture('cursor/good');
    toCrlf(sandbox.inRepo('.cursor/rules'));
    expect(sandbox.run(['import', '.cursor/rules']).code).toBe(0);
    const run = sandbox.run(['export', '--to', 'cursor', '--out', '.cursor/rules']);
    expect(run.code, run.stderr).toBe(0);
    expect(readFileSync(sandbox.inRepo('.cursor/rules/api-errors.mdc'), 'utf8')).not.toContain('\r');
  });
});

describe('lore import of a file that is not UTF-8', () => {
  const latin1Rule = Buffer.from(
    '---\ndescription: Caf\xe9 rules for the d\xe9p\xf4t\nglobs: src/**\n---\nbody\n',
    'latin1',
  );

  it('is named with its line and skipped; the other files of the folder import; exit 1', () => {
    const sandbox = withFixture('cursor/good');
    writeFileSync(sandbox.inRepo('.cursor/rules/latin1.mdc'), latin1Rule);
    const run = sandbox.run(['import', '.cursor/rules', '--json']);
    expect(run.code).toBe(1);
    const report = run.json<Report>();
    expect(report.invalid).toBe(1);
    expect(report.problems).toEqual([
      expect.objectContaining({ file: '.cursor/rules/latin1.mdc', line: 2, severity: 'error' }),
    ]);
    expect(report.problems[0]?.message).toMatch(/not UTF-8/);
    expect(report.added).toHaveLength(3);
    expect(JSON.stringify(exportLore(sandbox))).not.toContain('\uFFFD');
  });

  it("lore's JSON that is not UTF-8 is refused whole, naming the file and line", () => {
    const source = createSandbox();
    source.add(['--summary', 'caf\u00e9 lesson']);
    const file = join(source.base, 'lore.json');
    const text = source.run(['export']).stdout;
    const line = text.split('\n').findIndex((row) => row.includes('caf\u00e9')) + 1;
    writeFileSync(file, Buffer.from(text, 'latin1'));
    const target = createSandbox();
    const run = target.run(['import', file]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`lore.json:${line}: not UTF-8 text`);
    expect(listIds(target)).toEqual([]);
  });
});

describe('lore import of a file saved as UTF-16 (Windows PowerShell redirection)', () => {
  it('reads it by its byte order mark, little- or big-endian, as the same lessons as UTF-8', () => {
    const source = createSandbox();
    source.add(['--summary', 'caf\u00e9 lesson: run `pytest -p no:cacheprovider` in CI']);
    const text = source.run(['export']).stdout;
    const big = (utf16le: Buffer) => {
      const swapped = Buffer.from(utf16le);
      return swapped.swap16();
    };
    const le = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from(text.replaceAll('\n', '\r\n'), 'utf16le'),
    ]);
    const be = Buffer.concat([Buffer.from([0xfe, 0xff]), big(Buffer.from(text, 'utf16le'))]);
    for (const [name, bytes] of [
      ['le', le],
      ['be', be],
    ] as const) {
      const file = join(source.base, `lore-${name}.json`);
      writeFileSync(file, bytes);
      const target = createSandbox();
      const run = target.run(['import', file]);
      expect(run.code, run.stderr).toBe(0);
      expect(JSON.stringify(exportLore(target))).toContain(
        'caf\u00e9 lesson: run `pytest -p no:cacheprovider` in CI',
      );
    }
  });
});

describe('lore import of a Cursor rule saved as UTF-16', () => {
  it('imports it like its UTF-8 neighbours, with no problem reported', () => {
    const sandbox = withFixture('cursor/good');
    const rule = sandbox.inRepo('.cursor/rules/api-errors.mdc');
    writeFileSync(
      rule,
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(readFileSync(rule, 'utf8'), 'utf16le')]),
    );
    const run = sandbox.run(['import', '.cursor/rules', '--json']);
    expect(run.code, run.stderr).toBe(0);
    const report = run.json<Report>();
    expect(report.problems).toEqual([]);
    expect(report.added.map((ref) => ref.from).sort()).toEqual(['api-errors', 'commit-style', 'migrations']);
  });
});

describe('lore import of a folder with links', () => {
  it('imports a rule that is a link to a file, skips a dangling link, and an export leaves the link alone', () => {
    const sandbox = withFixture('cursor/good');
    const shared = join(sandbox.base, 'shared', 'team.mdc');
    mkdirSync(dirname(shared));
    const team = '---\ndescription: Team rule shared by every repository\nglobs: src/**\n---\nShared body.\n';
    writeFileSync(shared, team);
    symlinkSync(shared, sandbox.inRepo('.cursor/rules/team.mdc'));
    symlinkSync(join(sandbox.base, 'gone.mdc'), sandbox.inRepo('.cursor/rules/gone.mdc'));
    const run = sandbox.run(['import', '.cursor/rules', '--json']);
    expect(run.code, run.stderr).toBe(0);
    const report = run.json<Report>();
    expect(report.added.map((ref) => ref.from).sort()).toEqual([
      'api-errors',
      'commit-style',
      'migrations',
      'team',
    ]);
    const id = report.added.find((ref) => ref.from === 'team')?.id ?? '';
    expect(sandbox.run(['update', id, '--summary', 'Team rule, edited in lore']).code).toBe(0);
    const exported = sandbox.run(['export', '--to', 'cursor', '--out', '.cursor/rules']);
    expect(exported.code).toBe(1);
    expect(exported.stderr).toContain('team.mdc (not written by lore)');
    expect(lstatSync(sandbox.inRepo('.cursor/rules/team.mdc')).isSymbolicLink()).toBe(true);
    expect(readFileSync(shared, 'utf8')).toBe(team);
  });
});

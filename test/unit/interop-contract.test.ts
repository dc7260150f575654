// One contract suite run against every import/export format (src/core/interop): detection picks
// the format of each fixture, a broken entry is reported and skipped while the others import, an
// export of the imported lessons reads back the same (lossless for the format's own data), and an
// export of rich lore lessons reads back every field the format can carry.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { detectInteropFormat, INTEROP_FORMAT_LIST } from '../../src/core/interop/interop-formats.js';
import type { ExportLesson, InteropFormatName } from '../../src/core/interop/interop-format.js';
import { readSources } from '../../src/store/interop/read-sources.js';
import type { Lesson } from '../../src/core/lesson/schema.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/interop/', import.meta.url));
const NOW = '2026-11-23T12:00:00.000Z';
const RENDER = { nowIso: NOW, projectName: 'shop-web' };

function sources(dir: string) {
  return readSources(`${FIXTURES}${dir}`, dir);
}

/** The fixture of each format, how many lessons it holds, and its broken sibling. */
const CASES: {
  format: InteropFormatName;
  good: string[];
  lessons: number;
  broken: string;
  brokenImported: number;
  brokenProblems: string[];
}[] = [
  {
    format: 'orbit',
    good: ['orbit/good'],
    lessons: 3,
    broken: 'orbit/broken',
    brokenImported: 1,
    brokenProblems: ['L-0002/learning.yaml', 'L-0003/learning.yaml'],
  },
  {
    format: 'lessons-learned',
    good: ['lessons-learned/good'],
    lessons: 3,
    broken: 'lessons-learned/broken',
    brokenImported: 1,
    brokenProblems: ['lessons[1]', 'lessons[2]'],
  },
  {
    format: 'add',
    good: ['add/good'],
    lessons: 5,
    broken: 'add/broken',
    brokenImported: 1,
    brokenProblems: ['entries[1]', 'entries[2]'],
  },
  {
    format: 'add-md',
    good: ['add-md/freeform', 'add-md/generated'],
    lessons: 6,
    broken: 'add-md/broken',
    brokenImported: 2,
    brokenProblems: ['line 6', 'line 7'],
  },
  {
    format: 'coia',
    good: ['coia/good'],
    lessons: 3,
    broken: 'coia/broken',
    brokenImported: 1,
    brokenProblems: ['learn_notitle', '[2]'],
  },
  {
    format: 'cursor',
    good: ['cursor/good'],
    lessons: 3,
    broken: 'cursor/broken',
    brokenImported: 1,
    brokenProblems: ['unclosed.mdc', 'bad-always.mdc'],
  },
];

function formatOf(name: InteropFormatName) {
  const format = INTEROP_FORMAT_LIST.find((candidate) => candidate.name === name);
  expect(format).toBeDefined();
  return format as NonNullable<typeof format>;
}

function asExport(lessons: readonly Lesson[]): ExportLesson[] {
  return lessons.map((lesson, index) => ({ ...lesson, id: `l${String(index).padStart(9, '0')}`, votes: [] }));
}

/** A lesson as a format round trip should keep it: everything but lore's own id. */
function comparable(lesson: Lesson): Record<string, unknown> {
  const { id: _id, ...rest } = lesson;
  void _id;
  return rest;
}

describe.each(CASES)('$format', (c) => {
  const format = formatOf(c.format);

  it('is detected from the fixture by name and shape', () => {
    for (const dir of c.good) {
      const detection = detectInteropFormat(sources(dir).files);
      expect(detection).toMatchObject({ ok: true, format: { name: c.format } });
    }
  });

  it('imports every entry of the fixture with no problem', () => {
    const parsed = c.good.map((dir) => {
      const read = sources(dir);
      return format.parse(read.files, { nowIso: NOW, fileDates: read.fileDates });
    });
    expect(parsed.flatMap((p) => p.problems)).toEqual([]);
    expect(parsed.flatMap((p) => p.lessons)).toHaveLength(c.lessons);
    for (const entry of parsed.flatMap((p) => p.lessons)) {
      expect(entry.lesson.origin?.format).toBe(c.format);
      expect(entry.where).not.toBe('');
    }
  });

  it('reports each broken entry with file, entry and reason, and imports the others', () => {
    const read = sources(c.broken);
    const parsed = format.parse(read.files, { nowIso: NOW, fileDates: read.fileDates });
    expect(parsed.lessons).toHaveLength(c.brokenImported);
    const errors = parsed.problems.filter((p) => p.severity === 'error' || c.format === 'add-md');
    for (const needle of c.brokenProblems) {
      expect(
        errors.some((p) => `${p.file} ${p.field ?? ''} line ${p.line ?? ''}`.includes(needle)),
        `${needle} in ${JSON.stringify(errors)}`,
      ).toBe(true);
    }
    for (const problem of errors) expect(problem.message).not.toBe('');
  });

  it('exports the imported lessons so that they import again unchanged', () => {
    for (const dir of c.good) {
      const read = sources(dir);
      const first = format.parse(read.files, { nowIso: NOW, fileDates: read.fileDates }).lessons;
      const exported = asExport(first.map((entry) => entry.lesson));
      const votes = new Map(first.map((entry, i) => [exported[i]?.id, entry.votes]));
      const withVotes = exported.map((lesson) => ({ ...lesson, votes: votes.get(lesson.id) ?? [] }));
      const rendered = format.render(withVotes, RENDER);
      const again = format.parse(rendered.files, { nowIso: NOW, fileDates: read.fileDates });
      expect(again.problems).toEqual([]);
      const key = (l: Lesson) => l.origin?.id ?? l.summary;
      const before = new Map(first.map((entry) => [key(entry.lesson), entry]));
      expect(again.lessons).toHaveLength(first.length);
      for (const entry of again.lessons) {
        const original = before.get(key(entry.lesson));
        expect(original, key(entry.lesson)).toBeDefined();
        const { origin: originAfter, ...after } = comparable(entry.lesson);
        const { origin: originBefore, ...expected } = comparable(original?.lesson as Lesson);
        expect(after).toEqual(expected);
        expect((originAfter as Lesson['origin'])?.id).toEqual((originBefore as Lesson['origin'])?.id);
        expect(entry.votes).toEqual(original?.votes);
        expect(entry.links).toEqual(original?.links);
      }
    }
  });

  it('a retired lesson never comes back active: it is left out with a note, or comes back retired', () => {
    const [template] = richLessons();
    const lesson = (id: string, summary: string, status: Lesson['status']): ExportLesson =>
      ({ ...template, id, slug: summary.replace(/\W+/g, '-'), summary, status }) as ExportLesson;
    const lessons = [
      lesson('r000000001', 'Use make deploy not deploy.sh', 'active'),
      { ...lesson('r000000002', 'Use the old deploy script', 'superseded'), supersededBy: 'r000000001' },
      lesson('r000000003', 'Pin node 16', 'archived'),
    ];
    lessons[0] = { ...(lessons[0] as ExportLesson), supersedes: ['r000000002'] };
    const rendered = format.render(lessons, RENDER);
    const back = format.parse(rendered.files, { nowIso: NOW }).lessons;
    for (const original of lessons.slice(1)) {
      const noted = rendered.skipped.some((skip) => skip.id === original.id);
      const again = back.find((entry) => entry.lesson.summary === original.summary);
      expect(noted || again !== undefined, original.summary).toBe(true);
      if (again)
        expect(
          again.lesson.status !== 'active' || again.links.supersededBy !== undefined,
          original.summary,
        ).toBe(true);
    }
    expect(
      back.find((entry) => entry.lesson.summary === 'Use make deploy not deploy.sh')?.lesson.status,
    ).toBe('active');
  });

  it('an export of rich lore lessons keeps every field the format carries', () => {
    const lessons: ExportLesson[] = richLessons();
    const rendered = format.render(lessons, RENDER);
    const kept = lessons.filter((lesson) => !rendered.skipped.some((s) => s.id === lesson.id));
    const again = format.parse(rendered.files, { nowIso: NOW }).lessons;
    expect(again).toHaveLength(kept.length);
    for (const original of kept) {
      const back = again.find((entry) => entry.lesson.summary === original.summary)?.lesson as Lesson;
      expect(back, original.summary).toBeDefined();
      for (const field of format.carries) {
        const want = original[field];
        if (want === undefined) continue;
        const got = back[field];
        if (field === 'createdAt' || field === 'updatedAt')
          expect(Date.parse(String(got))).toBe(Date.parse(String(want)));
        else if (field === 'aliases') expect(got).toBeDefined();
        else expect(got, `${c.format} ${field}`).toEqual(want);
      }
    }
  });
});

describe('lessons-learned: a checkpoint (a type lessons-learned does not have)', () => {
  const format = formatOf('lessons-learned');
  const [rich] = richLessons();
  const checkpoint: ExportLesson = { ...(rich as ExportLesson), type: 'checkpoint' };

  it('goes out as its closest type, a hint, with loreType, and comes back a checkpoint', () => {
    const rendered = format.render([checkpoint], RENDER);
    const record = (JSON.parse(rendered.files[0]?.text ?? '{}') as { lessons: Record<string, unknown>[] })
      .lessons[0];
    expect([record?.type, record?.loreType]).toEqual(['hint', 'checkpoint']);
    const back = format.parse(rendered.files, { nowIso: NOW }).lessons[0]?.lesson;
    expect(back?.type).toBe('checkpoint');
    expect(back?.origin?.fields?.extra).toBeUndefined();
  });

  it('an imported lesson made a checkpoint in lore keeps its source keys and gains loreType', () => {
    const read = sources('lessons-learned/good');
    const first = format.parse(read.files, { nowIso: NOW, fileDates: read.fileDates }).lessons;
    const exported = asExport(first.map((entry) => ({ ...entry.lesson, type: 'checkpoint' as const })));
    const again = format.parse(format.render(exported, RENDER).files, { nowIso: NOW }).lessons;
    expect(again.map((entry) => entry.lesson.type)).toEqual(first.map(() => 'checkpoint'));
  });
});

/** Source files an export of their own import gives back as they were (same data, any layout). */
const SAME_FILES: [InteropFormatName, string, string, string][] = [
  ['lessons-learned', 'lessons-learned/good', 'data/lessons.json', 'lessons.json'],
  ['lessons-learned', 'lessons-learned/content', 'data/lessons.json', 'lessons.json'],
  ['add', 'add/good', '.add/learnings.json', 'learnings.json'],
  ['add', 'add/good', '.claude/add/library.json', 'library.json'],
  ['coia', 'coia/good', 'learnings.json', 'learnings.json'],
  ['orbit', 'orbit/good', '.orbit/learnings/L-0001/learning.yaml', 'learnings/L-0001/learning.yaml'],
  ['orbit', 'orbit/good', '.orbit/learnings/L-0002/learning.yaml', 'learnings/L-0002/learning.yaml'],
  ['orbit', 'orbit/good', '.orbit/learnings/L-0003/learning.yaml', 'learnings/L-0003/learning.yaml'],
  ['orbit', 'orbit/good', '.orbit/learnings/L-0001/votes.jsonl', 'learnings/L-0001/votes.jsonl'],
];

describe('lessons-learned contentPatterns', () => {
  it("become the lesson's contents, nested or flat, and come back as contentPatterns", () => {
    const format = formatOf('lessons-learned');
    const parsed = format.parse(sources('lessons-learned/content').files, { nowIso: NOW });
    expect(parsed.problems).toEqual([]);
    const bySlug = new Map(parsed.lessons.map((entry) => [entry.lesson.slug, entry.lesson]));
    expect(bySlug.get('no-debug-print-in-src-t7w2')?.contents).toEqual(['^\\s*print\\(']);
    expect(bySlug.get('no-debug-print-in-src-t7w2')?.paths).toEqual(['src/**/*.py']);
    expect(bySlug.get('no-hardcoded-aws-keys-r4d1')?.contents).toEqual(['AKIA[0-9A-Z]{16}']);
    expect(bySlug.get('no-hardcoded-aws-keys-r4d1')?.type).toBe('guard');
    // a pattern added in lore goes out even into a row that had no contentPatterns key
    const lesson = {
      ...bySlug.get('no-debug-print-in-src-t7w2')!,
      contents: ['TODO'],
      id: 'l000000001',
      votes: [],
    };
    const { triggers: _t, ...origin } = (lesson.origin?.fields ?? {}) as Record<string, unknown>;
    void _t;
    const out = format.render(
      [{ ...lesson, origin: { ...lesson.origin!, fields: { ...origin, triggerKeys: ['toolNames'] } } }],
      RENDER,
    );
    const record = (
      JSON.parse(out.files[0]?.text ?? '{}') as { lessons: { triggers: Record<string, unknown> }[] }
    ).lessons[0];
    expect(record?.triggers.contentPatterns).toEqual(['TODO']);
  });

  it('refuses a content pattern that can backtrack catastrophically, like a command pattern', () => {
    const format = formatOf('lessons-learned');
    const text = JSON.stringify({
      type: 'lessons-learned-store',
      version: 1,
      lessons: [{ summary: 'x', mistake: 'm', remediation: 'r', triggers: { contentPatterns: ['(a+)+$'] } }],
    });
    const parsed = format.parse([{ path: 'data/lessons.json', text }], { nowIso: NOW });
    expect(parsed.lessons).toEqual([]);
    expect(parsed.problems.map((p) => `${p.field ?? ''} ${p.message}`).join('\n')).toMatch(/contents/);
  });
});

describe('an export of an imported source gives the source back', () => {
  it.each(SAME_FILES)('%s: %s/%s', (name, dir, source, rendered) => {
    const format = formatOf(name);
    const read = sources(dir);
    const parsed = format.parse(read.files, { nowIso: NOW }).lessons;
    const byOrigin = new Map(parsed.map((entry, i) => [`l${String(i).padStart(9, '0')}`, entry]));
    // lore would have resolved the supersede links to its own ids; do the same here
    const ids = new Map(
      parsed.map((entry, i) => [entry.lesson.origin?.id, `l${String(i).padStart(9, '0')}`]),
    );
    const lessons = [...byOrigin].map(([id, entry]) => ({
      ...entry.lesson,
      id,
      votes: entry.votes,
      supersedes: entry.links.supersedes.map((old) => ids.get(old) ?? ''),
      ...(entry.links.supersededBy === undefined ? {} : { supersededBy: ids.get(entry.links.supersededBy) }),
    }));
    const out = format.render(lessons, RENDER).files.find((file) => file.path === rendered);
    const original = readFileSync(`${FIXTURES}${dir}/${source}`, 'utf8');
    const load = (text: string) =>
      source.endsWith('.jsonl')
        ? text
            .trim()
            .split('\n')
            .map((line) => JSON.parse(line) as unknown)
        : source.endsWith('.json')
          ? (JSON.parse(text) as unknown)
          : (parseYaml(text) as unknown);
    expect(load(out?.text ?? '')).toEqual(load(original));
  });
});

function richLessons(): ExportLesson[] {
  const base = {
    schemaVersion: 1 as const,
    tools: [],
    commands: [],
    paths: [],
    contents: [],
    errors: [],
    tags: [],
    stack: [],
    agents: [],
    symbols: [],
    type: 'hint' as const,
    priority: 5,
    confidence: 0.9,
    needsReview: false,
    supersedes: [],
    evidence: [],
    sourceSessions: [],
    occurrences: 1,
    votes: [],
  };
  return [
    {
      ...base,
      id: 'a000000001',
      slug: 'pytest-needs-no-cacheprovider',
      summary: 'pytest needs -p no:cacheprovider on read-only checkouts',
      body: 'Otherwise it writes .pytest_cache.\n\nSee the CI logs.',
      mistake: 'ran pytest in the read-only CI checkout',
      remediation: 'pass -p no:cacheprovider',
      tools: ['Bash'],
      commands: ['^pytest\\b'],
      paths: ['tests/**', 'src/**/*.{ts,tsx}'],
      contents: ['^\\s*breakpoint\\(\\)'],
      errors: ['ModuleNotFoundError'],
      tags: ['lang:python', 'tool:pytest'],
      stack: ['python'],
      category: 'anti-pattern',
      severity: 'high',
      tier: 'project',
      priority: 8,
      confidence: 0.6,
      status: 'active',
      evidence: [{ kind: 'task', ref: 'PROJ-42' }],
      sourceSessions: ['sess-1'],
      occurrences: 3,
      contentHash: 'sha256:abc',
      createdAt: '2026-05-01T10:00:00Z',
      updatedAt: '2026-05-02T10:00:00Z',
      createdBy: 'alice',
    },
    {
      ...base,
      id: 'a000000002',
      slug: 'webhooks-before-redirect',
      summary: 'Webhooks can arrive before the redirect',
      context: 'building the confirmation page',
      observation: 'the paid webhook lands late',
      implication: 'the page shows pending',
      action: 'poll the status for ten seconds',
      tags: ['payments'],
      category: 'architecture',
      severity: 'medium',
      tier: 'project',
      status: 'active',
      type: 'guard',
      needsReview: true,
      createdAt: '2026-05-03T10:00:00Z',
      updatedAt: '2026-05-03T10:00:00Z',
    },
    {
      ...base,
      id: 'a000000003',
      slug: 'docker-volumes-for-node-modules',
      summary: 'Keep node_modules in a named volume',
      body: 'Bind mounts are slow on Docker Desktop.',
      stack: ['docker', 'node'],
      category: 'performance',
      severity: 'low',
      tier: 'user',
      status: 'archived',
      createdAt: '2026-05-04T10:00:00Z',
      updatedAt: '2026-05-04T10:00:00Z',
    },
  ];
}

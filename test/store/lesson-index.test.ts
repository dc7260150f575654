/**
 * The SQLite index as commands see it: through openWorkspace and the write functions. The index
 * is a cache of the files, so every test changes the files and checks that the index follows.
 */
import { spawnSync } from 'node:child_process';
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { parseLessonYaml, patchLessonYaml } from '../../src/core/lesson/lesson-yaml.js';
import type { Lesson, Tier } from '../../src/core/lesson/schema.js';
import { initTier } from '../../src/store/workspace/init-tier.js';
import { tierLayout } from '../../src/store/fs/paths.js';
import { openWorkspace } from '../../src/store/workspace/workspace.js';
import type { Workspace } from '../../src/store/workspace/workspace.js';
import {
  addLesson,
  resolveLesson,
  setStatus,
  supersedeLesson,
  updateLesson,
  upvoteLesson,
} from '../../src/store/lessons/lesson-writes.js';
import type { LessonDraft, ResolvedLesson } from '../../src/store/lessons/lesson-writes.js';

const NOW = Date.parse('2025-01-01T00:00:00.000Z');
const DAY_MS = 86_400_000;

type Sandbox = {
  base: string;
  repo: string;
  home: string;
  loreHome: string;
  /** Opens a workspace the way a command does; closed when the test finishes. */
  open(env?: Record<string, string>): Promise<Workspace>;
};

function sandbox(tier: Tier = 'project'): Sandbox {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'lore-index-')));
  const repo = join(base, 'repo');
  const plain = join(base, 'plain');
  const home = join(base, 'home');
  const loreHome = join(base, 'lore-home');
  mkdirSync(join(repo, '.git'), { recursive: true });
  mkdirSync(plain);
  mkdirSync(home);
  initTier(tierLayout(tier === 'project' ? join(repo, '.lore') : loreHome));
  const opened: Workspace[] = [];
  onTestFinished(() => {
    for (const ws of opened) ws.close();
    rmSync(base, { recursive: true, force: true });
  });
  return {
    base,
    repo,
    home,
    loreHome,
    async open(env = {}) {
      const ws = await openWorkspace({
        cwd: tier === 'project' ? repo : plain,
        env: { LORE_HOME: loreHome, ...env },
        home,
      });
      opened.push(ws);
      return ws;
    },
  };
}

function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '']);
  expect(child.status).toBe(0);
  return child.pid;
}

const add = (ws: Workspace, draft: LessonDraft, tier: Tier = 'project', nowMs = NOW) =>
  addLesson(ws, draft, { tier, nowMs });

const ids = (items: readonly { lesson: Lesson }[]) => items.map((item) => item.lesson.id);

function readLesson(file: string): Lesson {
  const parsed = parseLessonYaml(readFileSync(file, 'utf8'), file);
  expect(parsed.ok).toBe(true);
  return (parsed as { ok: true; lesson: Lesson }).lesson;
}

function lineOf(text: string, prefix: string): number {
  const index = text.split('\n').findIndex((line) => line.startsWith(prefix));
  expect(index).toBeGreaterThanOrEqual(0);
  return index + 1;
}

/** Moves a file's mtime well away from its current value, so that only the mtime tells of a change. */
function touchLater(file: string): void {
  const stat = statSync(file);
  const later = new Date(stat.mtimeMs + 10_000);
  utimesSync(file, later, later);
}

describe.each([
  { tier: 'project' as const, tiers: ['project', 'user'] },
  { tier: 'user' as const, tiers: ['user'] },
])('lesson index over the $tier tier', ({ tier, tiers }) => {
  it('lists, gets and searches the lessons added', async () => {
    const box = sandbox(tier);
    const ws = await box.open();
    const a = await add(ws, { summary: 'pytest hangs on a TTY without -p no:cacheprovider' }, tier);
    const b = await add(ws, { summary: 'use npm ci in CI, never npm install' }, tier);
    expect(ws.tiers.map((t) => t.tier)).toEqual(tiers);
    expect(ids(await ws.index.list({}, NOW, 0)).sort()).toEqual([a.id, b.id].sort());
    expect((await ws.index.get(tier, a.id))?.lesson).toEqual(a.lesson);
    expect(ids(await ws.index.search('pytest', { limit: 10 }, ws.config.search.weights, NOW, 0))).toEqual([
      a.id,
    ]);
  });

  it('notices a lesson file edited behind its back', async () => {
    const box = sandbox(tier);
    const ws = await box.open();
    const a = await add(ws, { summary: 'pytest hangs on a TTY', slug: 'first-lesson' }, tier);
    expect(ids(await ws.index.search('docker', { limit: 10 }, ws.config.search.weights, NOW, 0))).toEqual([]);
    writeFileSync(
      a.file,
      readFileSync(a.file, 'utf8').replace('pytest hangs on a TTY', 'docker build needs a cache mount'),
    );
    const later = await box.open();
    expect((await later.index.get(tier, a.id))?.lesson.summary).toBe('docker build needs a cache mount');
    expect(ids(await later.index.search('docker', { limit: 10 }, ws.config.search.weights, NOW, 0))).toEqual([
      a.id,
    ]);
    expect(ids(await later.index.search('pytest', { limit: 10 }, ws.config.search.weights, NOW, 0))).toEqual(
      [],
    );
  });

  it('notices an in-place edit that keeps the size and the inode (only the mtime changes)', async () => {
    const box = sandbox(tier);
    const ws = await box.open();
    const a = await add(ws, { summary: 'pytest hangs on a TTY', priority: 5 }, tier);
    expect((await ws.index.list({}, NOW, 0))[0]?.lesson.priority).toBe(5);
    const before = statSync(a.file);
    writeFileSync(a.file, readFileSync(a.file, 'utf8').replace('priority: 5', 'priority: 7'));
    touchLater(a.file);
    const after = statSync(a.file);
    expect([after.size, after.ino]).toEqual([before.size, before.ino]);
    const report = await ws.index.refresh();
    expect(report).toMatchObject({ fresh: false, parsed: 1, removed: 0 });
    expect((await ws.index.list({}, NOW, 0))[0]?.lesson.priority).toBe(7);
  });

  it('answers from the cache when nothing changed', async () => {
    const box = sandbox(tier);
    const ws = await box.open();
    await add(ws, { summary: 'pytest hangs on a TTY' }, tier);
    await ws.index.list({}, NOW, 0);
    expect(await ws.index.refresh()).toMatchObject({ fresh: true, parsed: 0, removed: 0, rebuilt: false });
  });

  it('notices a deleted lesson', async () => {
    const box = sandbox(tier);
    const ws = await box.open();
    const a = await add(ws, { summary: 'pytest hangs on a TTY' }, tier);
    const b = await add(ws, { summary: 'npm ci not npm install' }, tier);
    await upvoteLesson(ws, a.id, { model: 'm', task: 't', at: new Date(NOW).toISOString() });
    expect(ids(await ws.index.list({}, NOW, 0)).sort()).toEqual([a.id, b.id].sort());
    rmSync(ws.store(tier).lessonDir(a.id).dir, { recursive: true });
    expect(await ws.index.refresh()).toMatchObject({ fresh: false, removed: 2 });
    expect(ids(await ws.index.list({ status: 'any' }, NOW, 0))).toEqual([b.id]);
    expect(await ws.index.get(tier, a.id)).toBeUndefined();
    expect(await ws.index.search('pytest', { limit: 10 }, ws.config.search.weights, NOW, 0)).toEqual([]);
  });

  it('notices a vote appended by hand', async () => {
    const box = sandbox(tier);
    const ws = await box.open();
    const a = await add(ws, { summary: 'pytest hangs on a TTY' }, tier);
    expect((await ws.index.list({}, NOW, 0))[0]?.votes.count).toBe(0);
    const at = new Date(NOW - DAY_MS).toISOString();
    appendFileSync(
      ws.store(tier).lessonDir(a.id).votesPath,
      `${JSON.stringify({ model: 'm', task: 't', at })}\n`,
    );
    await ws.index.refresh();
    const [listed] = await ws.index.list({}, NOW, 0);
    expect(listed?.votes).toEqual({ count: 1, lastVotedAt: at, times: [at] });
    expect(listed?.voteScore).toBe(1);
  });

  it('reports a broken lesson file with its line while the others still list and search', async () => {
    const box = sandbox(tier);
    const ws = await box.open();
    const good = await add(ws, { summary: 'pytest hangs on a TTY', tags: ['tool:pytest'] }, tier);
    const bad = await add(ws, { summary: 'pytest flakes under xdist' }, tier);
    const text = readFileSync(bad.file, 'utf8').replace('priority: 5', 'priority: 11');
    writeFileSync(bad.file, text);
    const later = await box.open();
    expect(await later.index.problems()).toEqual([
      expect.objectContaining({
        file: later.displayPath(bad.file),
        line: lineOf(text, 'priority:'),
        field: 'priority',
        severity: 'error',
      }),
    ]);
    expect(ids(await later.index.list({ status: 'any' }, NOW, 0))).toEqual([good.id]);
    expect(
      ids(await later.index.search('pytest', { limit: 10 }, later.config.search.weights, NOW, 0)),
    ).toEqual([good.id]);
    await expect(resolveLesson(later, bad.id)).rejects.toMatchObject({ code: 'invalid' });
  });

  it('reports broken YAML with its line, and forgets the problem once the file is fixed', async () => {
    const box = sandbox(tier);
    const ws = await box.open();
    const a = await add(ws, { summary: 'pytest hangs on a TTY' }, tier);
    const original = readFileSync(a.file, 'utf8');
    const broken = original.replace(/^slug: .*$/m, 'slug: @bad');
    writeFileSync(a.file, broken);
    await ws.index.refresh();
    expect(await ws.index.problems()).toEqual([
      expect.objectContaining({
        file: ws.displayPath(a.file),
        line: lineOf(broken, 'slug:'),
        severity: 'error',
      }),
    ]);
    expect(await ws.index.list({}, NOW, 0)).toEqual([]);
    writeFileSync(a.file, original);
    touchLater(a.file);
    await ws.index.refresh();
    expect(await ws.index.problems()).toEqual([]);
    expect(ids(await ws.index.list({}, NOW, 0))).toEqual([a.id]);
  });
});

describe('lesson index: reads between full scans', () => {
  const vote = (at: number) =>
    `${JSON.stringify({ model: 'm', task: `t${at}`, at: new Date(at).toISOString() })}\n`;

  async function settled(box: Sandbox) {
    const ws = await box.open();
    const a = await add(ws, { summary: 'pytest hangs on a TTY' });
    const b = await add(ws, { summary: 'npm ci, never npm install' });
    await upvoteLesson(ws, a.id, { model: 'm', task: 't', at: new Date(NOW).toISOString() });
    // lore's own write scanned everything: the next read is a lite one
    expect(await (await box.open()).ready()).toMatchObject({ fresh: true, scan: 'lite' });
    return { ws, a, b };
  }

  it('a read after a full scan stats only the votes files it knew of, and still notices edits', async () => {
    const box = sandbox();
    const { ws, a } = await settled(box);
    expect(await (await box.open()).ready()).toMatchObject({ fresh: true, scan: 'lite' });
    // a lesson edited in place, and a vote appended to a votes file that existed
    writeFileSync(
      a.file,
      readFileSync(a.file, 'utf8').replace('pytest hangs on a TTY', 'pytest hangs forever'),
    );
    touchLater(a.file);
    appendFileSync(ws.store('project').lessonDir(a.id).votesPath, vote(NOW - DAY_MS));
    const later = await box.open();
    expect(await later.ready()).toMatchObject({ fresh: false, scan: 'full' });
    const got = await later.index.get('project', a.id);
    expect([got?.lesson.summary, got?.votes.count]).toEqual(['pytest hangs forever', 2]);
  });

  it('git activity (the git index rewritten) makes the next read look for new votes files', async () => {
    const box = sandbox();
    const { ws, b } = await settled(box);
    appendFileSync(ws.store('project').lessonDir(b.id).votesPath, vote(NOW));
    writeFileSync(join(box.repo, '.git', 'index'), 'DIRC');
    const later = await box.open();
    expect(await later.ready()).toMatchObject({ fresh: false, scan: 'full' });
    expect((await later.index.get('project', b.id))?.votes.count).toBe(1);
    expect(await (await box.open()).ready()).toMatchObject({ fresh: true, scan: 'lite' });
  });

  const storedForm = (ws: Workspace) =>
    ws.index.query(
      ({ db }) =>
        db.get<{ kind: string }>("SELECT typeof(value) AS kind FROM meta WHERE key = 'liteForm'")?.kind,
    );

  it('a full scan stores the lite form; one that saw a stray file removes it, and reads check the listings', async () => {
    const box = sandbox();
    const { ws, a } = await settled(box);
    expect(await storedForm(ws)).toBe('blob');
    const stray = join(ws.store('project').layout.lessonsDir, 'NOTES.txt');
    writeFileSync(stray, 'notes\n');
    const saw = await box.open();
    expect(await saw.ready()).toMatchObject({ fresh: true, scan: 'full' });
    expect(await storedForm(saw)).toBeUndefined();
    expect(await (await box.open()).ready()).toMatchObject({ fresh: true, scan: 'lite' });
    writeFileSync(
      a.file,
      readFileSync(a.file, 'utf8').replace('pytest hangs on a TTY', 'pytest hangs again'),
    );
    touchLater(a.file);
    const edited = await box.open();
    expect(await edited.ready()).toMatchObject({ fresh: false, scan: 'full' });
    expect((await edited.index.get('project', a.id))?.lesson.summary).toBe('pytest hangs again');
    rmSync(stray);
    const cleared = await box.open();
    expect(await cleared.ready()).toMatchObject({ fresh: true, scan: 'full' });
    expect(await storedForm(cleared)).toBe('blob');
  });

  it('a full scan that finds nothing changed keeps the form of the same files, and replaces one of others', async () => {
    const box = sandbox();
    const { ws, a } = await settled(box);
    const formBytes = (w: Workspace) =>
      w.index.query(
        ({ db }) => db.get<{ n: number }>("SELECT length(value) AS n FROM meta WHERE key = 'liteForm'")?.n,
      );
    const full = await formBytes(ws);
    // a stand-in form, marked as the current scan's: a full scan with nothing changed leaves it
    await ws.index.query(({ db }) => db.run("UPDATE meta SET value = x'00010203' WHERE key = 'liteForm'"));
    await ws.index.refresh();
    expect(await formBytes(ws)).toBe(4);
    // and a read with a form it cannot use still reads lite (from the listings) and notices edits
    expect(await (await box.open()).ready()).toMatchObject({ fresh: true, scan: 'lite' });
    writeFileSync(
      a.file,
      readFileSync(a.file, 'utf8').replace('pytest hangs on a TTY', 'pytest hangs again'),
    );
    touchLater(a.file);
    const edited = await box.open();
    expect(await edited.ready()).toMatchObject({ fresh: false, scan: 'full' });
    expect(await formBytes(edited)).toBe(full);
    // a form marked as another scan's (an older lore's scan wrote the aggregate) is written again
    await edited.index.query(({ db }) => db.run("UPDATE meta SET value = 'other' WHERE key = 'liteFormOf'"));
    await edited.index.query(({ db }) =>
      db.run("UPDATE meta SET value = x'00010203' WHERE key = 'liteForm'"),
    );
    await edited.index.refresh();
    expect(await formBytes(edited)).toBe(full);
  });

  it('an index without the form (an older lore wrote it) reads lite from the listings, and notices edits', async () => {
    const box = sandbox();
    const { ws, a } = await settled(box);
    await ws.index.query(({ db }) => db.run("DELETE FROM meta WHERE key = 'liteForm'"));
    expect(await (await box.open()).ready()).toMatchObject({ fresh: true, scan: 'lite' });
    appendFileSync(ws.store('project').lessonDir(a.id).votesPath, vote(NOW - DAY_MS));
    const later = await box.open();
    expect(await later.ready()).toMatchObject({ fresh: false, scan: 'full' });
    expect((await later.index.get('project', a.id))?.votes.count).toBe(2);
    expect(await storedForm(later)).toBe('blob');
  });

  it('a lesson directory removed behind the back of lore makes the next read a full scan', async () => {
    const box = sandbox();
    const { ws, b } = await settled(box);
    rmSync(ws.store('project').lessonDir(b.id).dir, { recursive: true });
    const later = await box.open();
    expect(await later.ready()).toMatchObject({ fresh: false, scan: 'full', removed: 1 });
  });

  it('a write by lore looks at every votes file', async () => {
    const box = sandbox();
    const { ws, b } = await settled(box);
    await upvoteLesson(ws, b.id, { model: 'm', task: 'first', at: new Date(NOW).toISOString() });
    expect((await (await box.open()).index.get('project', b.id))?.votes.count).toBe(1);
  });
});

describe('lesson index: a long-lived reader (lore mcp, lore serve)', () => {
  const pathIds = async (ws: Workspace, path: string) => ids(await ws.index.list({ path }, NOW, 0)).sort();
  const topIds = async (ws: Workspace, path: string) =>
    ids(await ws.index.list({ path, injectable: { minConfidence: 0.5 } }, NOW, 0, 5)).sort();
  const searchIds = async (ws: Workspace, query: string, path?: string) =>
    ids(await ws.index.search(query, { limit: 10, path }, ws.config.search.weights, NOW, 0));

  it('sees lessons another process added, edited and removed, for paths and words it asked about before', async () => {
    const box = sandbox();
    const reader = await box.open();
    const first = await add(reader, { summary: 'pytest hangs on a TTY', paths: ['tests/**'] });
    // asked twice, so that the reader keeps globs, path answers and word counts in memory
    for (let i = 0; i < 2; i += 1) {
      expect(await pathIds(reader, 'tests/unit/test_a.py')).toEqual([first.id]);
      expect(await pathIds(reader, 'src/app.py')).toEqual([]);
      expect(await topIds(reader, 'tests/unit/test_a.py')).toEqual([first.id]);
      expect(await searchIds(reader, 'pytest hangs', 'tests/unit/test_a.py')).toEqual([first.id]);
    }
    const writer = await box.open();
    const second = await add(writer, { summary: 'pytest needs -p no:cacheprovider', paths: ['**/*.py'] });
    await updateLesson(writer, first.id, { paths: ['docs/**'] }, { nowMs: NOW });
    // the reader's next refresh (lore mcp refreshes when its watcher fires or every 30 s)
    await reader.index.refresh();
    expect(await pathIds(reader, 'tests/unit/test_a.py')).toEqual([second.id]);
    expect(await pathIds(reader, 'src/app.py')).toEqual([second.id]);
    expect(await topIds(reader, 'tests/unit/test_a.py')).toEqual([second.id]);
    expect(await searchIds(reader, 'pytest hangs', 'tests/unit/test_a.py')).toEqual([second.id]);
    expect(await searchIds(reader, 'pytest hangs')).toEqual([first.id, second.id]);
    rmSync(writer.store('project').lessonDir(second.id).dir, { recursive: true });
    await reader.index.refresh();
    expect(await pathIds(reader, 'src/app.py')).toEqual([]);
    expect(await searchIds(reader, 'pytest hangs')).toEqual([first.id]);
  });

  it('answers path queries right after a rebuild gave every lesson a new rowid', async () => {
    const box = sandbox();
    const ws = await box.open();
    const made: string[] = [];
    for (let i = 0; i < 12; i += 1)
      made.push(
        (await add(ws, { summary: `lesson ${i} about yaml`, paths: [i % 3 === 0 ? 'a/**' : 'b/**'] })).id,
      );
    const expected = made.filter((_, i) => i % 3 === 0).sort();
    for (let i = 0; i < 2; i += 1) expect(await pathIds(ws, 'a/x.ts')).toEqual(expected);
    await ws.index.rebuild();
    expect(await pathIds(ws, 'a/x.ts')).toEqual(expected);
    expect((await searchIds(ws, 'yaml', 'a/x.ts')).sort()).toEqual(expected);
  });

  it('a search with a path ranks exactly as the same search without it, cut to the lessons the path matches', async () => {
    const box = sandbox();
    const ws = await box.open();
    const vocabulary = [
      'pytest',
      'hangs',
      'docker',
      'cache',
      'lockfile',
      'npm',
      'migration',
      'timeout',
      'flaky',
    ];
    const globs = ['src/**', 'tests/**', '**/*.py', '*.md', 'src/api/**', 'Dockerfile'];
    // deterministic variety: every lesson a different mix of words, globs and priority
    let seed = 7;
    const next = (n: number) => {
      seed = (Math.imul(seed, 48271) >>> 0) % 2147483647;
      return Math.floor((seed / 2147483647) * n);
    };
    for (let i = 0; i < 60; i += 1) {
      const words = Array.from({ length: 2 + next(5) }, () => vocabulary[next(vocabulary.length)]!);
      await add(ws, {
        summary: `${words.join(' ')} case ${i}`,
        paths: [globs[next(globs.length)]!, ...(next(3) === 0 ? [globs[next(globs.length)]!] : [])],
        priority: 1 + next(9),
      });
    }
    const all = await ws.index.list({}, NOW, 0);
    const ranked = ids(all);
    for (const path of ['src/api/users.py', 'tests/test_x.py', 'README.md', 'Dockerfile', 'lib/none.go']) {
      const matched = new Set(ids(await ws.index.list({ path }, NOW, 0)));
      expect(matched.size).toBeLessThan(all.length);
      // the first list with a limit reads SQLite, the next ones the columns kept in memory
      for (let i = 0; i < 3; i += 1)
        expect(ids(await ws.index.list({ path }, NOW, 0, 4))).toEqual(
          ranked.filter((id) => matched.has(id)).slice(0, 4),
        );
      for (const query of ['pytest hangs', 'docker cache timeout', 'flaky', 'npm lockfile migration']) {
        for (let limit = 1; limit <= 12; limit += 5) {
          const wide = await ws.index.search(query, { limit: 100 }, ws.config.search.weights, NOW, 0);
          const narrow = await ws.index.search(query, { limit, path }, ws.config.search.weights, NOW, 0);
          const expected = wide.filter((r) => matched.has(r.lesson.id)).slice(0, limit);
          expect(narrow.map((r) => [r.lesson.id, r.relevance])).toEqual(
            expected.map((r) => [r.lesson.id, r.relevance]),
          );
          for (const r of narrow) expect(r.matchedBy.some((reason) => reason.startsWith('path:'))).toBe(true);
        }
      }
    }
  });
});

describe('lesson index: a corrupt index.db', () => {
  it.each([
    { name: 'garbage bytes', bytes: Buffer.from('not a database, only garbage '.repeat(200)) },
    {
      name: 'a SQLite header over garbage',
      bytes: Buffer.concat([Buffer.from('SQLite format 3\u0000'), Buffer.alloc(8192, 0xab)]),
    },
  ])('holding $name is rebuilt transparently', async ({ bytes }) => {
    const box = sandbox();
    const ws = await box.open();
    const a = await add(ws, { summary: 'pytest hangs on a TTY' });
    expect(ids(await ws.index.list({}, NOW, 0))).toEqual([a.id]);
    ws.close();
    const dbPath = join(ws.cacheDir, 'index.db');
    for (const suffix of ['-wal', '-shm']) rmSync(`${dbPath}${suffix}`, { force: true });
    writeFileSync(dbPath, bytes);
    const later = await box.open();
    expect(await later.ready()).toMatchObject({ rebuilt: true });
    expect(ids(await later.index.list({}, NOW, 0))).toEqual([a.id]);
    expect(
      ids(await later.index.search('pytest', { limit: 5 }, later.config.search.weights, NOW, 0)),
    ).toEqual([a.id]);
    expect(await later.index.problems()).toEqual([]);
  });
});

describe('lesson index: search ranking', () => {
  const SAME = { summary: 'flaky network timeouts in integration tests', slug: 'flaky-network-timeouts' };

  const vote = (ws: Workspace, id: string, task: string, at = NOW) =>
    upvoteLesson(ws, id, { model: 'm', task, at: new Date(at).toISOString() });

  it('ranks by BM25, then votes, then priority', async () => {
    const box = sandbox();
    const ws = await box.open({ LORE_VOTE_HALF_LIFE_DAYS: '0' });
    expect(ws.halfLifeDays).toBe(0);
    const best = await add(ws, {
      ...SAME,
      slug: 'flaky-network',
      tags: ['flaky', 'network'],
      body: 'flaky network, flaky network',
      priority: 1,
    });
    const twoVotes = await add(ws, { ...SAME, priority: 3 });
    const oneVoteHigh = await add(ws, { ...SAME, priority: 9 });
    const oneVoteLow = await add(ws, { ...SAME, priority: 5 });
    const noVotes = await add(ws, { ...SAME, priority: 10 });
    await add(ws, { summary: 'docker layer cache misses', priority: 10 });
    await vote(ws, twoVotes.id, 't1', NOW - 400 * DAY_MS);
    await vote(ws, twoVotes.id, 't2', NOW - 400 * DAY_MS);
    await vote(ws, oneVoteHigh.id, 't1');
    await vote(ws, oneVoteLow.id, 't1');

    const results = await ws.index.search('flaky network', { limit: 10 }, ws.config.search.weights, NOW, 0);
    expect(ids(results)).toEqual([best.id, twoVotes.id, oneVoteHigh.id, oneVoteLow.id, noVotes.id]);
    // the premise: the four lessons with the same text score the same
    expect(new Set(results.slice(1).map((r) => r.relevance.toPrecision(6))).size).toBe(1);
    expect(results[0]!.relevance).toBeGreaterThan(results[1]!.relevance);
    expect(results.map((r) => r.voteScore)).toEqual([0, 2, 1, 1, 0]);
    expect(results[0]?.matchedBy).toEqual(expect.arrayContaining(['text:summary', 'text:tags', 'text:body']));
  });

  it('decays votes with LORE_VOTE_HALF_LIFE_DAYS', async () => {
    const box = sandbox();
    const ws = await box.open({ LORE_VOTE_HALF_LIFE_DAYS: '1' });
    expect(ws.halfLifeDays).toBe(1);
    const oldVotes = await add(ws, { ...SAME, priority: 5 });
    const newVote = await add(ws, { ...SAME, priority: 5 });
    await vote(ws, oldVotes.id, 't1', NOW - 10 * DAY_MS);
    await vote(ws, oldVotes.id, 't2', NOW - 10 * DAY_MS);
    await vote(ws, newVote.id, 't1', NOW);
    const results = await ws.index.search(
      'flaky',
      { limit: 10 },
      ws.config.search.weights,
      NOW,
      ws.halfLifeDays,
    );
    expect(ids(results)).toEqual([newVote.id, oldVotes.id]);
    expect(results[1]?.voteScore).toBeCloseTo(2 / 1024, 12);
  });

  it('honours the limit after ranking', async () => {
    const box = sandbox();
    const ws = await box.open();
    const low = await add(ws, { ...SAME, priority: 2 });
    const high = await add(ws, { ...SAME, priority: 8 });
    expect(ids(await ws.index.search('flaky', { limit: 1 }, ws.config.search.weights, NOW, 0))).toEqual([
      high.id,
    ]);
    expect(ids(await ws.index.search('flaky', { limit: 2 }, ws.config.search.weights, NOW, 0))).toEqual([
      high.id,
      low.id,
    ]);
  });

  it('votes break ties even among more equal lessons than the candidate pool', async () => {
    const box = sandbox();
    const ws = await box.open({ LORE_VOTE_HALF_LIFE_DAYS: '0' });
    const added: ResolvedLesson[] = [];
    for (let i = 0; i < 60; i += 1) added.push(await add(ws, { ...SAME, priority: 5 }));
    // the index inserts lessons in id order, so the largest id is the last of the equal-score rows
    const voted = [...added].sort((a, b) => a.id.localeCompare(b.id)).at(-1)!;
    await vote(ws, voted.id, 't1');
    const results = await ws.index.search('flaky', { limit: 1 }, ws.config.search.weights, NOW, 0);
    expect(ids(results)).toEqual([voted.id]);
  });

  it('a path filter does not hide a matching lesson behind more relevant ones', async () => {
    const box = sandbox();
    const ws = await box.open();
    for (let i = 0; i < 55; i += 1) await add(ws, { summary: 'flaky network', slug: 'flaky-network' });
    const target = await add(ws, {
      summary: 'flaky network timeouts in the integration suite on shared ci runners',
      slug: 'shared-runners',
      paths: ['src/**'],
    });
    const results = await ws.index.search(
      'flaky network',
      { limit: 1, path: 'src/app.ts' },
      ws.config.search.weights,
      NOW,
      0,
    );
    expect(ids(results)).toEqual([target.id]);
    expect(results[0]?.matchedBy).toContain('path:src/**');
  });

  it('widens the candidate pool when a status filter drops the best-scoring lessons', async () => {
    const box = sandbox();
    const ws = await box.open();
    const archived: ResolvedLesson[] = [];
    for (let i = 0; i < 45; i += 1) {
      archived.push(await add(ws, { summary: 'flaky network flaky network', slug: 'flaky-network' }));
    }
    for (const lesson of archived) await setStatus(ws, lesson.id, 'archived', NOW);
    const active = await add(ws, { summary: 'flaky network timeouts on the shared runners in ci' });
    const results = await ws.index.search('flaky network', { limit: 1 }, ws.config.search.weights, NOW, 0);
    expect(ids(results)).toEqual([active.id]);
    const any = await ws.index.search(
      'flaky network',
      { limit: 50, status: 'any' },
      ws.config.search.weights,
      NOW,
      0,
    );
    expect(any).toHaveLength(46);
    expect(ids(any).at(-1)).toBe(active.id);
  });

  it('a word in most lessons does not order results, and still finds lessons when nothing else does', async () => {
    const box = sandbox();
    const ws = await box.open();
    for (let i = 0; i < 6; i += 1) await add(ws, { summary: `run the linter on package ${i}` });
    const pytest = await add(ws, { summary: 'pytest hangs without --no-header', tags: ['tool:pytest'] });
    const both = await add(ws, { summary: 'run pytest with -p no:cacheprovider' });
    // "run" is in 7 of 8 lessons: its BM25 weight is nil, so "pytest" alone decides the order
    const results = await ws.index.search('run pytest', { limit: 2 }, ws.config.search.weights, NOW, 0);
    expect(new Set(ids(results))).toEqual(new Set([pytest.id, both.id]));
    // fewer strong matches than the limit: the common word brings in the rest, ranked after
    const wide = await ws.index.search('run pytest', { limit: 5 }, ws.config.search.weights, NOW, 0);
    expect(wide).toHaveLength(5);
    expect(new Set(ids(wide).slice(0, 2))).toEqual(new Set([pytest.id, both.id]));
    expect(wide[1]!.relevance).toBeGreaterThan(wide[2]!.relevance);
    // a query of the common word alone still answers
    expect(await ws.index.search('run', { limit: 10 }, ws.config.search.weights, NOW, 0)).toHaveLength(7);
  });

  it.each(['', '  ', '-- :: ""', 'AND OR NOT', 'summary:"x'])(
    'treats the query %j as text',
    async (query) => {
      const box = sandbox();
      const ws = await box.open();
      await add(ws, { summary: 'pytest hangs on a TTY' });
      await expect(ws.index.search(query, { limit: 5 }, ws.config.search.weights, NOW, 0)).resolves.toEqual(
        [],
      );
    },
  );
});

describe('lesson index: filters', () => {
  it('filters by path and says which globs matched', async () => {
    const box = sandbox();
    const ws = await box.open();
    const api = await add(ws, {
      summary: 'api handlers validate input',
      paths: ['src/api/', '*.py', 'lib/**'],
    });
    const docs = await add(ws, { summary: 'docs use sentence case', paths: ['docs/**'] });
    await add(ws, { summary: 'no paths at all' });
    expect(
      (await ws.index.list({ path: 'src/api/users.py' }, NOW, 0)).map((l) => [l.lesson.id, l.matchedBy]),
    ).toEqual([[api.id, ['path:src/api/', 'path:*.py']]]);
    expect(
      (await ws.index.list({ path: 'docs/guide/intro.md' }, NOW, 0)).map((l) => [l.lesson.id, l.matchedBy]),
    ).toEqual([[docs.id, ['path:docs/**']]]);
    expect(await ws.index.list({ path: 'README.md' }, NOW, 0)).toEqual([]);
    expect(
      ids(await ws.index.search('api', { limit: 5, path: 'docs/a.md' }, ws.config.search.weights, NOW, 0)),
    ).toEqual([]);
  });

  it('matches a bare tag value against category:value tags', async () => {
    const box = sandbox();
    const ws = await box.open();
    const categorized = await add(ws, { summary: 'one', tags: ['lang:python', 'tool:pytest'] });
    const bare = await add(ws, { summary: 'two', tags: ['python'] });
    const lookalike = await add(ws, { summary: 'three', tags: ['lang:pythonic', 'snake:python:x'] });
    const byTags = async (tags: string[]) =>
      (await ws.index.list({ tags }, NOW, 0)).map((l) => [l.lesson.id, l.matchedBy]);
    const sorted = (rows: unknown[][]) => [...rows].sort((a, b) => String(a[0]).localeCompare(String(b[0])));
    expect(sorted(await byTags(['python']))).toEqual(
      sorted([
        [categorized.id, ['tag:lang:python']],
        [bare.id, ['tag:python']],
      ]),
    );
    expect(sorted(await byTags(['PYTHON']))).toEqual(sorted(await byTags(['python'])));
    expect(await byTags(['lang:python'])).toEqual([[categorized.id, ['tag:lang:python']]]);
    expect(await byTags(['python', 'pytest'])).toEqual([
      [categorized.id, ['tag:lang:python', 'tag:tool:pytest']],
    ]);
    expect(await byTags(['lang:py'])).toEqual([]);
    expect(await byTags(['pythonic'])).toEqual([[lookalike.id, ['tag:lang:pythonic']]]);
  });

  it('filters by status: active by default, any, or one status', async () => {
    const box = sandbox();
    const ws = await box.open();
    const active = await add(ws, { summary: 'still true' });
    const archived = await add(ws, { summary: 'no longer true' });
    expect(await setStatus(ws, archived.id, 'archived', NOW + 1000)).toMatchObject({ changed: true });
    expect(await setStatus(ws, archived.id, 'archived', NOW + 2000)).toMatchObject({ changed: false });
    expect(ids(await ws.index.list({}, NOW, 0))).toEqual([active.id]);
    expect(ids(await ws.index.list({ status: 'archived' }, NOW, 0))).toEqual([archived.id]);
    expect(ids(await ws.index.list({ status: 'any' }, NOW, 0)).sort()).toEqual(
      [active.id, archived.id].sort(),
    );
    expect(readLesson(archived.file)).toMatchObject({
      status: 'archived',
      updatedAt: new Date(NOW + 1000).toISOString(),
    });
  });
});

describe('lesson writes through the index', () => {
  it('resolves an id, a unique prefix and a slug; reports ambiguous and unknown refs', async () => {
    const box = sandbox();
    const ws = await box.open();
    const a = await add(ws, { summary: 'pytest hangs on a TTY', slug: 'pytest-tty' });
    await add(ws, { summary: 'another lesson', slug: 'other' });
    const found = (r: ResolvedLesson) => r.id;
    expect(found(await resolveLesson(ws, a.id))).toBe(a.id);
    expect(found(await resolveLesson(ws, a.id.toUpperCase()))).toBe(a.id);
    expect(found(await resolveLesson(ws, 'pytest-tty'))).toBe(a.id);
    await expect(resolveLesson(ws, 'nothing-like-it')).rejects.toMatchObject({ code: 'not-found' });
    await expect(resolveLesson(ws, '')).rejects.toMatchObject({ code: 'usage' });
  });

  it('reports an ambiguous prefix with its candidates', async () => {
    const box = sandbox();
    const ws = await box.open();
    const store = ws.store('project');
    const header = (id: string, slug: string) =>
      `schemaVersion: 1\nid: ${id}\nslug: ${slug}\nsummary: ${slug}\ncreatedAt: 2024-01-01T00:00:00Z\nupdatedAt: 2024-01-01T00:00:00Z\n`;
    store.createLessonWithId('abcd000000', header('abcd000000', 'first'));
    store.createLessonWithId('abcd111111', header('abcd111111', 'second'));
    await expect(resolveLesson(ws, 'abcd')).rejects.toMatchObject({
      code: 'ambiguous',
      details: [expect.objectContaining({ id: 'abcd000000' }), expect.objectContaining({ id: 'abcd111111' })],
    });
    expect((await resolveLesson(ws, 'abcd1')).id).toBe('abcd111111');
  });

  it('updateLesson keeps hand-written comments and unknown fields, and the index follows', async () => {
    const box = sandbox();
    const ws = await box.open();
    const a = await add(ws, { summary: 'pytest hangs on a TTY', tags: ['tool:pytest'] });
    writeFileSync(
      a.file,
      `${readFileSync(a.file, 'utf8')}# reviewed by the platform team\nowner: platform\n`,
    );
    const updated = await updateLesson(
      ws,
      a.id,
      { priority: 8, summary: 'pytest hangs without a TTY' },
      {
        nowMs: NOW + 5000,
        unset: ['tags'],
      },
    );
    expect(updated.lesson).toMatchObject({ priority: 8, tags: [], owner: 'platform' });
    const text = readFileSync(a.file, 'utf8');
    expect(text).toContain('# reviewed by the platform team');
    expect(text).toContain('owner: platform');
    expect(text).not.toContain('tags:');
    const listed = await ws.index.get('project', a.id);
    expect(listed?.lesson).toMatchObject({
      summary: 'pytest hangs without a TTY',
      priority: 8,
      tags: [],
      updatedAt: new Date(NOW + 5000).toISOString(),
    });
  });

  it('upvoteLesson records one vote per (model, task)', async () => {
    const box = sandbox();
    const ws = await box.open();
    const a = await add(ws, { summary: 'pytest hangs on a TTY' });
    const at = new Date(NOW).toISOString();
    expect((await upvoteLesson(ws, a.id, { model: 'm', task: 't', at })).recorded).toBe(true);
    expect((await upvoteLesson(ws, a.id, { model: 'm', task: 't', at })).recorded).toBe(false);
    expect((await ws.index.get('project', a.id))?.votes.count).toBe(1);
    await expect(upvoteLesson(ws, a.id, { model: 'm', task: ' ', at })).rejects.toMatchObject({
      code: 'usage',
    });
  });

  it('supersedeLesson updates both files and leaves no journal entry', async () => {
    const box = sandbox();
    const ws = await box.open();
    const old = await add(ws, { summary: 'use npm install' });
    const replacement = await add(ws, { summary: 'use npm ci' });
    await supersedeLesson(ws, old.id, replacement.id, NOW + 1000);
    const stamp = new Date(NOW + 1000).toISOString();
    expect(readLesson(old.file)).toMatchObject({
      status: 'superseded',
      supersededBy: replacement.id,
      updatedAt: stamp,
    });
    expect(readLesson(replacement.file)).toMatchObject({
      status: 'active',
      supersedes: [old.id],
      updatedAt: stamp,
    });
    const journal = join(ws.cacheDir, 'journal');
    expect(readdirSync(journal)).toEqual([]);
    expect(ids(await ws.index.list({}, NOW, 0))).toEqual([replacement.id]);
    expect(ids(await ws.index.list({ status: 'superseded' }, NOW, 0))).toEqual([old.id]);
    expect(await ws.index.problems()).toEqual([]);
    await expect(supersedeLesson(ws, replacement.id, replacement.id, NOW)).rejects.toMatchObject({
      code: 'usage',
    });
    await expect(supersedeLesson(ws, replacement.id, old.id, NOW)).rejects.toMatchObject({
      code: 'conflict',
    });
  });

  it('journal recovery: ready() replays the entry of a dead writer and removes it', async () => {
    const box = sandbox();
    const ws = await box.open();
    const a = await add(ws, { summary: 'use npm install' });
    const b = await add(ws, { summary: 'use yarn' });
    const journal = join(ws.cacheDir, 'journal');
    mkdirSync(journal, { recursive: true });
    const aText = patchLessonYaml(readFileSync(a.file, 'utf8'), { summary: 'recovered a' });
    const bText = patchLessonYaml(readFileSync(b.file, 'utf8'), { summary: 'recovered b' });
    const entry = join(journal, '1700000000000-deadbeef.json');
    writeFileSync(
      entry,
      JSON.stringify({
        pid: deadPid(),
        writes: [
          { path: a.file, content: aText },
          { path: b.file, content: bText },
        ],
      }),
    );
    const later = await box.open();
    await later.ready();
    expect(readFileSync(a.file, 'utf8')).toBe(aText);
    expect(readFileSync(b.file, 'utf8')).toBe(bText);
    expect(existsSync(entry)).toBe(false);
    expect((await later.index.list({}, NOW, 0)).map((l) => l.lesson.summary).sort()).toEqual([
      'recovered a',
      'recovered b',
    ]);
  });

  it('journal recovery leaves the entry of a live writer alone', async () => {
    const box = sandbox();
    const ws = await box.open();
    const a = await add(ws, { summary: 'use npm install' });
    const original = readFileSync(a.file, 'utf8');
    const journal = join(ws.cacheDir, 'journal');
    mkdirSync(journal, { recursive: true });
    const entry = join(journal, '1700000000000-0badf00d.json');
    const pending = patchLessonYaml(original, { summary: 'not yet' });
    writeFileSync(entry, JSON.stringify({ pid: process.pid, writes: [{ path: a.file, content: pending }] }));
    const later = await box.open();
    await later.ready();
    expect(readFileSync(a.file, 'utf8')).toBe(original);
    expect(existsSync(entry)).toBe(true);
  });

  it('ready() refuses the legacy flat layout', async () => {
    const box = sandbox();
    const ws = await box.open();
    writeFileSync(join(ws.store('project').layout.lessonsDir, '01abcdefgh.yaml'), 'summary: old\n');
    await expect(ws.ready()).rejects.toMatchObject({ code: 'legacy-layout' });
  });

  it('a ref that is not an id prefix is not blamed on an unrelated broken file', async () => {
    const box = sandbox();
    const ws = await box.open();
    const bad = await add(ws, { summary: 'will break' });
    writeFileSync(bad.file, readFileSync(bad.file, 'utf8').replace('priority: 5', 'priority: 11'));
    const later = await box.open();
    await expect(resolveLesson(later, 'lessons')).rejects.toMatchObject({ code: 'not-found' });
    await expect(resolveLesson(later, '')).rejects.toMatchObject({
      code: expect.stringMatching(/^(not-found|usage)$/) as string,
    });
    await expect(resolveLesson(later, bad.id.slice(0, 6))).rejects.toMatchObject({ code: 'invalid' });
  });

  it('the project copy of a lesson wins over the user copy', async () => {
    const box = sandbox();
    initTier(tierLayout(box.loreHome));
    const ws = await box.open();
    const a = await add(ws, { summary: 'project version' });
    const userText = readFileSync(a.file, 'utf8').replace('project version', 'user version');
    expect(ws.store('user').createLessonWithId(a.id, userText)).toBe(true);
    ws.index.invalidate();
    const resolved = await resolveLesson(ws, a.id.slice(0, 5));
    expect([resolved.tier, resolved.lesson.summary]).toEqual(['project', 'project version']);
    expect((await ws.index.list({ status: 'any' }, NOW, 0)).map((l) => l.lesson.tier).sort()).toEqual([
      'project',
      'user',
    ]);
  });

  it('a lesson whose id does not match its directory is a problem, not a lesson', async () => {
    const box = sandbox();
    const ws = await box.open();
    const a = await add(ws, { summary: 'original' });
    const copy = ws.store('project').lessonDir('0000000001');
    expect(ws.store('project').createLessonWithId(copy.id, readFileSync(a.file, 'utf8'))).toBe(true);
    ws.index.invalidate();
    expect(ids(await ws.index.list({ status: 'any' }, NOW, 0))).toEqual([a.id]);
    expect(await ws.index.problems()).toEqual([
      expect.objectContaining({ file: ws.displayPath(copy.yamlPath), field: 'id', severity: 'error' }),
    ]);
  });

  it.each(['abc', '-1', 'NaN'])('refuses LORE_VOTE_HALF_LIFE_DAYS=%s', async (value) => {
    const box = sandbox();
    await expect(box.open({ LORE_VOTE_HALF_LIFE_DAYS: value })).rejects.toMatchObject({ code: 'usage' });
  });
});

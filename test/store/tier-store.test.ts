/**
 * The contract of a tier store, run on both tiers: the project tier (`<repo>/.lore`) and the user
 * tier (`$LORE_HOME`). Both use the same layout and the same implementation, so any difference in
 * behaviour here is a bug.
 */
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { ID_PATTERN } from '../../src/core/lesson/constants.js';
import { createTierStore, isOrphanedLessonDir } from '../../src/store/lessons/tier-store.js';
import type { TierStore } from '../../src/store/lessons/tier-store.js';
import type { Tier } from '../../src/core/lesson/schema.js';

type TierSetup = { tier: Tier; dirOf: (base: string) => string };

const TIERS: TierSetup[] = [
  {
    tier: 'project',
    dirOf: (base) => {
      const repo = join(base, 'repo');
      mkdirSync(join(repo, '.git'), { recursive: true });
      return join(repo, '.lore');
    },
  },
  { tier: 'user', dirOf: (base) => join(base, 'lore-home') },
];

function tempBase(): string {
  const base = mkdtempSync(join(tmpdir(), 'lore-tier-store-'));
  onTestFinished(() => rmSync(base, { recursive: true, force: true }));
  return base;
}

/** The pid of a process that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '']);
  expect(child.status).toBe(0);
  return child.pid;
}

const vote = (task: string, at: string, model = 'claude') => ({ model, task, at });
const lessonText = (id: string) => `id: ${id}\nsummary: lesson ${id}\n`;

describe.each(TIERS)('tier store contract: $tier tier', ({ tier, dirOf }) => {
  const open = (): { store: TierStore; dir: string } => {
    const dir = dirOf(tempBase());
    return { store: createTierStore(tier, dir), dir };
  };

  it('lays out lessons under <dir>/lessons and reports its tier', () => {
    const { store, dir } = open();
    expect(store.tier).toBe(tier);
    expect(store.layout.lessonsDir).toBe(join(dir, 'lessons'));
    expect(store.lessonDir('01abcdefgh')).toEqual({
      tier,
      id: '01abcdefgh',
      dir: join(dir, 'lessons', '01abcdefgh'),
      yamlPath: join(dir, 'lessons', '01abcdefgh', 'lesson.yaml'),
      votesPath: join(dir, 'lessons', '01abcdefgh', 'votes.jsonl'),
    });
  });

  it('is empty before anything is written', () => {
    const { store } = open();
    expect(store.exists()).toBe(false);
    expect(store.list()).toEqual({ dirs: [], legacyFiles: [] });
    expect(store.readLessonText('01abcdefgh')).toBeUndefined();
    expect(store.readVotes('01abcdefgh')).toEqual({ votes: [], problems: [] });
    expect(store.sweep()).toBe(0);
  });

  it('createLesson allocates distinct valid ids and writes what render returns', () => {
    const { store } = open();
    const ids = Array.from({ length: 25 }, () => store.createLesson(lessonText));
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) {
      expect(id).toMatch(ID_PATTERN);
      expect(store.readLessonText(id)).toBe(lessonText(id));
    }
    expect(store.exists()).toBe(true);
    expect(store.list().dirs.map((d) => d.id)).toEqual([...ids].sort());
  });

  it('createLesson leaves no temporary files behind', () => {
    const { store } = open();
    const ids = [store.createLesson(lessonText), store.createLesson(lessonText)];
    for (const id of ids) expect(readdirSync(store.lessonDir(id).dir)).toEqual(['lesson.yaml']);
    expect(readdirSync(store.layout.lessonsDir).sort()).toEqual([...ids].sort());
  });

  it('createLesson removes its claim when render throws', () => {
    const { store } = open();
    expect(() =>
      store.createLesson(() => {
        throw new Error('render failed');
      }),
    ).toThrow('render failed');
    expect(readdirSync(store.layout.lessonsDir)).toEqual([]);
  });

  it('writeLessonText replaces a lesson atomically', () => {
    const { store } = open();
    const id = store.createLesson(lessonText);
    store.writeLessonText(id, 'changed\n');
    expect(store.readLessonText(id)).toBe('changed\n');
    expect(readdirSync(store.lessonDir(id).dir)).toEqual(['lesson.yaml']);
  });

  it('createLessonWithId writes a new id and refuses an existing one', () => {
    const { store } = open();
    expect(store.createLessonWithId('01abcdefgh', 'first\n')).toBe(true);
    expect(store.createLessonWithId('01abcdefgh', 'second\n')).toBe(false);
    expect(store.readLessonText('01abcdefgh')).toBe('first\n');
    expect(readdirSync(store.lessonDir('01abcdefgh').dir)).toEqual(['lesson.yaml']);
  });

  it('createLessonWithId refuses an id whose directory exists even without lesson.yaml', () => {
    const { store } = open();
    mkdirSync(store.lessonDir('01abcdefgh').dir, { recursive: true });
    expect(store.createLessonWithId('01abcdefgh', 'text\n')).toBe(false);
    expect(store.readLessonText('01abcdefgh')).toBeUndefined();
  });

  it('createLessonWithId completes the directory of a writer that died before lesson.yaml, keeping its votes', () => {
    const { store } = open();
    const target = store.lessonDir('01abcdefgh');
    mkdirSync(target.dir, { recursive: true });
    writeFileSync(join(target.dir, `.lesson.yaml.${deadPid()}.0badf00d.tmp`), 'half');
    writeFileSync(target.votesPath, `${JSON.stringify(vote('T-1', '2026-01-01T00:00:00Z'))}\n`);
    expect(store.createLessonWithId('01abcdefgh', 'text\n')).toBe(true);
    expect(store.readLessonText('01abcdefgh')).toBe('text\n');
    expect(readdirSync(target.dir).sort()).toEqual(['lesson.yaml', 'votes.jsonl']);
    expect(store.readVotes('01abcdefgh').votes).toEqual([vote('T-1', '2026-01-01T00:00:00Z')]);
  });

  it('createLessonWithId leaves a directory without lesson.yaml that holds files of someone else', () => {
    const { store } = open();
    const target = store.lessonDir('01abcdefgh');
    mkdirSync(target.dir, { recursive: true });
    writeFileSync(join(target.dir, 'notes.md'), 'mine');
    const old = new Date(Date.now() - 3_600_000);
    utimesSync(target.dir, old, old);
    expect(store.createLessonWithId('01abcdefgh', 'text\n')).toBe(false);
    expect(readdirSync(target.dir)).toEqual(['notes.md']);
  });

  it('list() sorts lesson directories by id and reports legacy flat files', () => {
    const { store } = open();
    for (const id of ['zzzzzzzzzz', '0000000000', 'mmmmmmmmmm']) store.createLessonWithId(id, lessonText(id));
    const lessons = store.layout.lessonsDir;
    writeFileSync(join(lessons, 'b0legacy00.yaml'), 'summary: old\n');
    writeFileSync(join(lessons, 'a0legacy00.yml'), 'summary: old\n');
    writeFileSync(join(lessons, 'README.md'), 'not a lesson\n');
    writeFileSync(join(lessons, '.hidden.yaml'), 'summary: hidden\n');
    mkdirSync(join(lessons, '.trash'));
    const listing = store.list();
    expect(listing.dirs.map((d) => d.id)).toEqual(['0000000000', 'mmmmmmmmmm', 'zzzzzzzzzz']);
    expect(listing.dirs.every((d) => d.tier === tier)).toBe(true);
    expect(listing.legacyFiles).toEqual([join(lessons, 'a0legacy00.yml'), join(lessons, 'b0legacy00.yaml')]);
  });

  it('appendVote records a vote once per (model, task)', () => {
    const { store } = open();
    const id = store.createLesson(lessonText);
    expect(store.appendVote(id, vote('t1', '2024-01-01T00:00:00.000Z'))).toBe(true);
    expect(store.appendVote(id, vote('t1', '2024-01-05T00:00:00.000Z'))).toBe(false);
    expect(store.appendVote(id, vote('t1', '2024-01-05T00:00:00.000Z', 'gpt'))).toBe(true);
    expect(store.appendVote(id, vote('t2', '2024-01-06T00:00:00.000Z'))).toBe(true);
    expect(store.readVotes(id)).toEqual({
      votes: [
        vote('t1', '2024-01-01T00:00:00.000Z'),
        vote('t1', '2024-01-05T00:00:00.000Z', 'gpt'),
        vote('t2', '2024-01-06T00:00:00.000Z'),
      ],
      problems: [],
    });
    expect(readFileSync(store.lessonDir(id).votesPath, 'utf8').trimEnd().split('\n')).toHaveLength(3);
  });

  it('appendVote keeps the earliest time of a (model, task) even when the earlier vote comes second', () => {
    const { store } = open();
    const id = store.createLesson(lessonText);
    store.appendVote(id, vote('t1', '2024-03-01T00:00:00.000Z'));
    store.appendVote(id, vote('t1', '2024-01-01T00:00:00.000Z'));
    expect(store.readVotes(id).votes).toEqual([vote('t1', '2024-01-01T00:00:00.000Z')]);
  });

  it('readVotes keeps the earliest of duplicate lines (e.g. after a merge)', () => {
    const { store } = open();
    const id = store.createLesson(lessonText);
    const lines = [
      vote('t1', '2024-03-01T00:00:00.000Z'),
      vote('t1', '2024-01-01T00:00:00.000Z'),
      vote('t1', '2024-02-01T00:00:00.000Z'),
    ].map((v) => JSON.stringify(v));
    writeFileSync(store.lessonDir(id).votesPath, `${lines.join('\n')}\n`);
    expect(store.readVotes(id).votes).toEqual([vote('t1', '2024-01-01T00:00:00.000Z')]);
    expect(store.appendVote(id, vote('t1', '2024-04-01T00:00:00.000Z'))).toBe(false);
  });

  it('readVotes tolerates a torn last line, and the next vote lands on a line of its own', () => {
    const { store } = open();
    const id = store.createLesson(lessonText);
    const path = store.lessonDir(id).votesPath;
    writeFileSync(path, `${JSON.stringify(vote('t1', '2024-01-01T00:00:00.000Z'))}\n{"model":"claude","ta`);
    expect(store.readVotes(id)).toEqual({
      votes: [vote('t1', '2024-01-01T00:00:00.000Z')],
      problems: [expect.objectContaining({ file: path, line: 2, severity: 'warning' })],
    });
    expect(store.appendVote(id, vote('t2', '2024-01-02T00:00:00.000Z'))).toBe(true);
    const after = store.readVotes(id);
    expect(after.votes).toEqual([
      vote('t1', '2024-01-01T00:00:00.000Z'),
      vote('t2', '2024-01-02T00:00:00.000Z'),
    ]);
    expect(after.problems).toEqual([expect.objectContaining({ line: 2 })]);
  });

  it('sweep() removes temp files of dead writers and keeps those of live ones, and files not its own', () => {
    const { store } = open();
    const id = store.createLesson(lessonText);
    const dir = store.lessonDir(id).dir;
    const dead = `.lesson.yaml.${deadPid()}.0a1b2c3d.tmp`;
    const deadVotes = `.votes.jsonl.${deadPid()}.deadbeef.tmp`;
    const live = `.lesson.yaml.${process.pid}.12345678.tmp`;
    // not lore's pattern (no writer's pid): someone else's file (an editor's, a person's notes)
    const notOurs = '.lesson.yaml.tmp';
    for (const name of [dead, deadVotes, live, notOurs]) writeFileSync(join(dir, name), 'partial');
    expect(store.sweep()).toBe(2);
    expect(readdirSync(dir).sort()).toEqual([live, notOurs, 'lesson.yaml'].sort());
    expect(store.readLessonText(id)).toBe(lessonText(id));
  });

  const ageDir = (dir: string): void => {
    const longAgo = new Date(Date.now() - 10 * 60_000);
    utimesSync(dir, longAgo, longAgo);
  };

  it('sweep() removes an abandoned empty lesson directory but not a fresh claim', () => {
    const { store } = open();
    const keep = store.createLesson(lessonText);
    const old = store.lessonDir('0abandoned');
    const fresh = store.lessonDir('1freshc1am');
    mkdirSync(old.dir, { recursive: true });
    ageDir(old.dir);
    mkdirSync(fresh.dir);
    ageDir(store.lessonDir(keep).dir);
    expect(store.sweep()).toBe(1);
    expect(existsSync(old.dir)).toBe(false);
    expect(existsSync(fresh.dir)).toBe(true);
    expect(store.list().dirs.map((d) => d.id)).toEqual([fresh.id, keep].sort());
  });

  it('sweep() lists again only the directories changed since it found them clean, and still finds what a crash left', () => {
    const { store } = open();
    const ids = [
      store.createLesson(lessonText),
      store.createLesson(lessonText),
      store.createLesson(lessonText),
    ];
    for (const id of ids) ageDir(store.lessonDir(id).dir);
    const state = join(store.layout.cacheDir, 'sweep.json');
    expect(store.sweep()).toBe(0);
    const remembered = (JSON.parse(readFileSync(state, 'utf8')) as { clean: Record<string, number> }).clean;
    expect(Object.keys(remembered).sort()).toEqual([...ids].sort());
    // a writer killed mid-write leaves a temp file: the directory's mtime moves with it
    const dir = store.lessonDir(ids[1]!).dir;
    const dead = `.lesson.yaml.${deadPid()}.0a1b2c3d.tmp`;
    writeFileSync(join(dir, dead), 'partial');
    expect(store.sweep()).toBe(1);
    expect(readdirSync(dir)).toEqual(['lesson.yaml']);
    // just changed: not remembered as clean until a later sweep sees it settled
    expect(Object.keys((JSON.parse(readFileSync(state, 'utf8')) as { clean: object }).clean).sort()).toEqual(
      [ids[0]!, ids[2]!].sort(),
    );
    // a damaged state file only costs a full listing
    writeFileSync(state, '{not json');
    writeFileSync(join(store.lessonDir(ids[0]!).dir, `.votes.jsonl.${deadPid()}.deadbeef.tmp`), 'partial');
    expect(store.sweep()).toBe(1);
  });

  it('sweep() removes, in one pass, an old lesson directory holding only a dead writer temp file', () => {
    const { store } = open();
    const old = store.lessonDir('0abandoned');
    mkdirSync(old.dir, { recursive: true });
    writeFileSync(join(old.dir, `.lesson.yaml.${deadPid()}.00000000.tmp`), 'partial');
    ageDir(old.dir);
    expect(store.sweep()).toBe(2);
    expect(existsSync(old.dir)).toBe(false);
  });
});

describe('isOrphanedLessonDir: a dead writer leftover, never a live claim or files of someone else', () => {
  const dead = `.lesson.yaml.${deadPid()}.0badf00d.tmp`;
  const live = `.lesson.yaml.${process.pid}.0badf00d.tmp`;
  const MINUTE = 60_000;
  it.each([
    { names: [dead], age: 0, orphaned: true, why: "a dead writer's temporary file" },
    { names: [dead, 'votes.jsonl'], age: 0, orphaned: true, why: 'and votes a re-run added' },
    {
      names: ['votes.jsonl', 'feedback.jsonl'],
      age: 2 * MINUTE,
      orphaned: true,
      why: 'sidecars only, long ago',
    },
    { names: [], age: 2 * MINUTE, orphaned: true, why: 'empty, long ago' },
    { names: [], age: 1_000, orphaned: false, why: "empty, just now: another writer's fresh claim" },
    { names: ['votes.jsonl'], age: 1_000, orphaned: false, why: 'sidecars only, just now' },
    { names: [live], age: 2 * MINUTE, orphaned: false, why: 'a live writer is writing it' },
    { names: ['lesson.yaml'], age: 2 * MINUTE, orphaned: false, why: 'the lesson is there' },
    { names: [dead, 'notes.md'], age: 2 * MINUTE, orphaned: false, why: 'a file lore does not write' },
  ])('$why: $orphaned', ({ names, age, orphaned }) => {
    expect(isOrphanedLessonDir(names, age)).toBe(orphaned);
  });
});

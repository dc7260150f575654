// Processes killed with SIGKILL in the middle of writes: the store still loads, `lore sync` cleans
// up after them, `lore check` is clean, and a half-finished supersede is completed by the next
// command from .lore/cache/journal/.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import {
  createSandbox,
  deadPid,
  exited,
  lessonDirs,
  LORE_MAIN_URL,
  seedLessons,
  walkFiles,
} from '../helpers/cli.js';
import type { CheckJson, ListJson, Sandbox, ShowJson } from '../helpers/cli.js';

/**
 * A writer that never stops: it calls the CLI entry point in a loop (add, update, upvote,
 * supersede, in both tiers) and prints one line per finished command, so the test can kill it
 * at a moment of its choosing without sleeping.
 */
const WRITER = `
const [mainUrl, repo, name, seedsJson] = process.argv.slice(1);
const { runCli } = await import(mainUrl);
const seeds = JSON.parse(seedsJson);
const mine = [];
const lore = async (argv) => {
  let out = '';
  const code = await runCli({
    argv, cwd: repo, env: process.env, isTTY: false, readStdin: async () => '',
    stdout: (text) => { out += text; }, stderr: () => {},
  });
  return { code, out: out.trim() };
};
for (let n = 0; ; n += 1) {
  const pick = (list) => list[n % list.length];
  const op = n < 2 ? 0 : n % 5;
  let result;
  if (op === 0 || op === 1) {
    const tier = n % 3 === 0 ? 'user' : 'project';
    result = await lore(['add', '-q', '--summary', name + ' lesson ' + n, '--tier', tier, '--tag', name,
      '--body', 'written by ' + name + '\\nat step ' + n]);
    if (result.code === 0) mine.push(result.out);
  } else if (op === 2) {
    result = await lore(['update', pick([...mine, ...seeds]), '--priority', String(1 + (n % 10)), '--tag', name,
      '--tag', 'step-' + n, '--body', 'updated at ' + n]);
  } else if (op === 3) {
    result = await lore(['upvote', pick(seeds.concat(mine)), '--model', name, '--task', 'task-' + n]);
  } else {
    const [old, replacement] = mine.slice(-2);
    result = await lore(['supersede', old, '--with', replacement]);
    if (result.code === 0) mine.splice(mine.indexOf(old), 1);
  }
  process.stdout.write(op + ' ' + result.code + '\\n');
}
`;

function startWriter(sandbox: Sandbox, name: string, seeds: readonly string[]): ChildProcess {
  return spawn(
    process.execPath,
    ['--input-type=module', '-e', WRITER, LORE_MAIN_URL, sandbox.repo, name, JSON.stringify(seeds)],
    { cwd: sandbox.repo, env: sandbox.env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
}

/**
 * Counts the lines all writers print, kills writer i with SIGKILL once the total reaches
 * thresholds[i] (so each one dies at a different point of its own command), and resolves when
 * every writer has exited. Also kills `bystanders` (plain lore processes) at the first line.
 */
function killAfterLines(writers: ChildProcess[], thresholds: number[], bystanders: ChildProcess[]) {
  let lines = 0;
  const stderr: string[] = writers.map(() => '');
  writers.forEach((child, i) => {
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr[i] += chunk));
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      lines += chunk.split('\n').length - 1;
      for (const victim of bystanders) victim.kill('SIGKILL');
      writers.forEach((other, j) => {
        if (lines >= (thresholds[j] ?? 0)) other.kill('SIGKILL');
      });
    });
  });
  return Promise.all([...writers, ...bystanders].map(exited)).then((exits) => ({
    exits: exits.slice(0, writers.length),
    lines,
    stderr,
  }));
}

function tempFiles(sandbox: Sandbox): string[] {
  return [...walkFiles(sandbox.inRepo('.lore')), ...walkFiles(sandbox.userTier)].filter((file) =>
    file.endsWith('.tmp'),
  );
}

function lessonFiles(sandbox: Sandbox): string[] {
  return [
    ...lessonDirs(sandbox.inRepo('.lore')).map((id) => sandbox.lessonFile(id)),
    ...lessonDirs(sandbox.userTier).map((id) => sandbox.lessonFile(id, 'user')),
  ].filter((file) => readdirSync(join(file, '..')).includes('lesson.yaml'));
}

/** Both sides of every supersede agree. */
function supersedeLinks(lessons: ListJson['lessons']): {
  forward: [string, boolean][];
  backward: [string, boolean][];
} {
  const byId = new Map(lessons.map((lesson) => [lesson.id, lesson]));
  return {
    forward: lessons
      .filter((lesson) => lesson.supersededBy !== undefined)
      .map((lesson): [string, boolean] => [
        lesson.id,
        byId.get(lesson.supersededBy ?? '')?.supersedes.includes(lesson.id) ?? false,
      ]),
    backward: lessons.flatMap((lesson) =>
      lesson.supersedes.map((old): [string, boolean] => [
        old,
        byId.get(old)?.supersededBy === lesson.id && byId.get(old)?.status === 'superseded',
      ]),
    ),
  };
}

const ROUNDS = 10;
const WRITERS = 3;

describe('SIGKILL in the middle of writes', () => {
  // ten rounds of some eight lore processes each: over the 60 s default on a loaded 2-core machine
  it(`${ROUNDS} rounds of ${WRITERS} writers killed at staggered moments leave a store that loads and checks clean`, async () => {
    const sandbox = createSandbox({ loreHome: true });
    const seeds = ['ddddddddd1', 'ddddddddd2', 'ddddddddd3'];
    seedLessons(sandbox, [
      { id: seeds[0]!, summary: 'seed project one' },
      { id: seeds[1]!, summary: 'seed project two' },
      { id: seeds[2]!, summary: 'seed user three', tier: 'user' },
    ]);

    const report: { round: number; lines: number; signals: (string | null)[]; writerErrors: string[] }[] = [];
    const checks: {
      round: number;
      list: number | null;
      listErrors: string;
      sync: number | null;
      check: boolean;
      temps: string[];
    }[] = [];
    const links: { round: number; forward: [string, boolean][]; backward: [string, boolean][] }[] = [];

    for (let round = 0; round < ROUNDS; round += 1) {
      const writers = Array.from({ length: WRITERS }, (_, i) =>
        startWriter(sandbox, `r${round}w${i}`, seeds),
      );
      const bystanders = [
        sandbox.spawn(['add', '--summary', `bystander ${round}`]),
        sandbox.spawn([
          'upvote',
          seeds[round % seeds.length]!,
          '--model',
          'bystander',
          '--task',
          `round-${round}`,
        ]),
      ];
      const thresholds = writers.map((_, i) => 3 + ((round * 7 + i * 5) % 13));
      const { exits, lines, stderr } = await killAfterLines(writers, thresholds, bystanders);
      report.push({
        round,
        lines,
        signals: exits.map((exit) => exit.signal),
        writerErrors: stderr.filter((s) => s !== ''),
      });

      // The first command after the crash: completes half-done supersedes, reads past temp files.
      const list = sandbox.run(['list', '--status', 'any', '--json']);
      const listed = list.json<ListJson>();
      links.push({ round, ...supersedeLinks(listed.lessons) });
      const sync = sandbox.run(['sync', '--json']);
      const check = sandbox.run(['check', '--json']);
      checks.push({
        round,
        list: list.code,
        listErrors: list.stderr,
        sync: sync.code,
        check: check.code === 0 && check.json<CheckJson>().ok,
        temps: tempFiles(sandbox),
      });
    }

    expect(report.map((r) => ({ round: r.round, signals: r.signals, writerErrors: r.writerErrors }))).toEqual(
      report.map((r) => ({ round: r.round, signals: repeat(WRITERS, 'SIGKILL'), writerErrors: [] })),
    );
    expect(checks).toEqual(
      checks.map((c) => ({ round: c.round, list: 0, listErrors: '', sync: 0, check: true, temps: [] })),
    );
    expect(links.flatMap((l) => [...l.forward, ...l.backward]).filter(([, ok]) => ok !== true)).toEqual([]);

    // Every lesson file on disk parses on its own, and names the directory it is in.
    const files = lessonFiles(sandbox);
    const parsed = files.map((file) => (parse(readFileSync(file, 'utf8')) as { id: string }).id);
    expect(parsed).toEqual(files.map((file) => file.split('/').at(-2)));
    const check = sandbox.run(['check', '--json']).json<CheckJson>();
    expect(check.lessons).toBeGreaterThan(seeds.length + ROUNDS);
    expect(check.problems.filter((problem) => problem.severity === 'error')).toEqual([]);
    // no journal entry left behind (no folder at all when no writer got as far as a supersede)
    const journal = sandbox.inRepo('.lore/cache/journal');
    expect(existsSync(journal) ? readdirSync(journal) : []).toEqual([]);
  }, 180_000);
});

function repeat(count: number, signal: string): string[] {
  return Array.from({ length: count }, () => signal);
}

describe('what a killed process leaves behind', () => {
  it('temporary files of dead writers are ignored by reads and removed by lore sync; a live writer’s are kept', () => {
    const sandbox = createSandbox({ loreHome: true });
    const id = sandbox.add(['--summary', 'has debris']);
    const user = sandbox.add(['--summary', 'user debris', '--tier', 'user']);
    const dead = deadPid();
    const dir = sandbox.inRepo('.lore/lessons', id);
    const debris = [
      join(dir, `.lesson.yaml.${dead}.0badf00d.tmp`),
      join(dir, `.votes.jsonl.${dead}.12345678.tmp`),
      join(sandbox.userTier, 'lessons', user, `.lesson.yaml.${dead}.abcdef01.tmp`),
    ];
    for (const file of debris) writeFileSync(file, 'schemaVersion: 1\nid: half-writ');
    const live = join(dir, `.lesson.yaml.${process.pid}.deadbeef.tmp`);
    writeFileSync(live, 'being written right now');
    // a person's own file that happens to end in .tmp is theirs: never swept
    writeFileSync(join(dir, '.review-notes.tmp'), 'my notes');

    const list = sandbox.run(['list', '--json']);
    expect(list.code).toBe(0);
    expect(list.stderr).toBe('');
    expect(
      list
        .json<ListJson>()
        .lessons.map((lesson) => lesson.id)
        .sort(),
    ).toEqual([id, user].sort());
    expect(sandbox.run(['check']).code).toBe(0);

    const sync = sandbox.run(['sync', '--json']);
    expect(sync.code).toBe(0);
    expect(sync.json<{ swept: number }>().swept).toBe(debris.length);
    expect(tempFiles(sandbox).sort()).toEqual(
      [`lessons/${id}/.lesson.yaml.${process.pid}.deadbeef.tmp`, `lessons/${id}/.review-notes.tmp`].sort(),
    );
    expect(readFileSync(join(dir, '.review-notes.tmp'), 'utf8')).toBe('my notes');
  });

  it('a lesson directory claimed by a writer killed before writing lesson.yaml is not an error', () => {
    const sandbox = createSandbox();
    const id = sandbox.add(['--summary', 'complete lesson']);
    const claimed = sandbox.inRepo('.lore/lessons', 'eeeeeeeeee');
    mkdirSync(claimed);
    writeFileSync(join(claimed, `.lesson.yaml.${deadPid()}.00000000.tmp`), 'schema');
    const list = sandbox.run(['list', '--status', 'any', '--json']);
    expect(list.code).toBe(0);
    expect(list.json<ListJson>().lessons.map((lesson) => lesson.id)).toEqual([id]);
    expect(sandbox.run(['check']).code).toBe(0);
    expect(sandbox.run(['sync']).code).toBe(0);
  });

  it('a half-finished supersede is completed from the journal by the next command', () => {
    const sandbox = createSandbox();
    const old = sandbox.add(['--summary', 'the old way']);
    const replacement = sandbox.add(['--summary', 'the new way']);
    const [oldFile, newFile] = [sandbox.lessonFile(old), sandbox.lessonFile(replacement)];
    const before = { old: readFileSync(oldFile, 'utf8'), new: readFileSync(newFile, 'utf8') };
    expect(sandbox.run(['supersede', old, '--with', replacement]).code).toBe(0);
    const after = { old: readFileSync(oldFile, 'utf8'), new: readFileSync(newFile, 'utf8') };
    // Killed after the journal entry and the first file, before the second.
    writeFileSync(newFile, before.new);
    const journal = sandbox.inRepo('.lore/cache/journal');
    mkdirSync(journal, { recursive: true });
    writeFileSync(
      join(journal, `${Date.now()}-0a1b2c3d.json`),
      JSON.stringify({
        pid: deadPid(),
        writes: [
          { path: oldFile, content: after.old },
          { path: newFile, content: after.new },
        ],
      }),
    );
    writeFileSync(join(journal, `.${Date.now()}-99999999.json.${deadPid()}.0f0f0f0f.tmp`), '{"pid":');

    const list = sandbox.run(['list', '--status', 'any', '--json']);
    expect(list.code).toBe(0);
    const byId = new Map(list.json<ListJson>().lessons.map((lesson) => [lesson.id, lesson]));
    expect(byId.get(old)).toMatchObject({ status: 'superseded', supersededBy: replacement });
    expect(byId.get(replacement)).toMatchObject({ status: 'active', supersedes: [old] });
    expect(readFileSync(newFile, 'utf8')).toBe(after.new);
    expect(readdirSync(journal)).toEqual([]);
    expect(sandbox.run(['check']).code).toBe(0);
  });

  it('a journal entry of a process still running is left alone', () => {
    const sandbox = createSandbox();
    const id = sandbox.add(['--summary', 'in flight']);
    const file = sandbox.lessonFile(id);
    const journal = sandbox.inRepo('.lore/cache/journal');
    mkdirSync(journal, { recursive: true });
    const entry = join(journal, `${Date.now()}-11111111.json`);
    writeFileSync(
      entry,
      JSON.stringify({ pid: process.pid, writes: [{ path: file, content: 'not: applied\n' }] }),
    );
    expect(sandbox.run(['list']).code).toBe(0);
    expect(sandbox.run(['sync']).code).toBe(0);
    expect(readFileSync(file, 'utf8')).toContain(`id: ${id}`);
    expect(readdirSync(journal)).toEqual([entry.split('/').at(-1)]);
  });

  it('a lock left by a killed process does not block the next write', () => {
    const sandbox = createSandbox();
    const id = sandbox.add(['--summary', 'was locked']);
    const locks = sandbox.inRepo('.lore/cache/locks');
    mkdirSync(locks, { recursive: true });
    writeFileSync(join(locks, `${id}.lock`), String(deadPid()));
    writeFileSync(join(locks, `${id}-votes.lock`), String(deadPid()));
    const update = sandbox.run(['update', id, '--severity', 'high']);
    expect(update.code, update.stderr).toBe(0);
    expect(sandbox.run(['upvote', id, '--model', 'm', '--task', 't']).code).toBe(0);
    const shown = sandbox.run(['show', id, '--json']).json<ShowJson>();
    expect(shown.lesson.severity).toBe('high');
    expect(shown.votes.count).toBe(1);
  });

  it('an empty lock file (killed between creating it and writing its pid) does not block the next write', () => {
    const sandbox = createSandbox();
    const id = sandbox.add(['--summary', 'was locked']);
    const locks = sandbox.inRepo('.lore/cache/locks');
    mkdirSync(locks, { recursive: true });
    writeFileSync(join(locks, `${id}.lock`), '');
    const update = sandbox.run(['update', id, '--severity', 'high']);
    expect(update.code, update.stderr).toBe(0);
  });
});

// lore promote / lore demote: a lesson moves between the project tier, the user tier and
// "universal", keeping its id, votes and feedback; a process killed mid-move leaves the lesson in
// exactly one tier once the next command has run.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { createSandbox, deadPid, exited, lessonDirs, LORE_MAIN_URL } from '../helpers/cli.js';
import type { CheckJson, ListJson, Sandbox, ShowJson } from '../helpers/cli.js';

type MoveJson = {
  id: string;
  from: string;
  to: string;
  changed: boolean;
  tier: string;
  file: string;
  moved: string[];
};

const FEEDBACK = '{"helpful":true,"task":"PROJ-1","at":"2026-11-01T00:00:00.000Z"}\n';

function yamlOf(file: string): Record<string, unknown> {
  return parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
}

/** A project lesson with one vote and one feedback line. */
function seeded(sandbox: Sandbox): string {
  const id = sandbox.add(['--summary', 'pytest hangs on a TTY: run CI=1 pytest', '--tag', 'tool:pytest']);
  expect(sandbox.run(['upvote', id, '--model', 'claude', '--task', 'T-1']).code).toBe(0);
  writeFileSync(sandbox.inRepo('.lore', 'lessons', id, 'feedback.jsonl'), FEEDBACK);
  return id;
}

function placesOf(sandbox: Sandbox, id: string): string[] {
  return [
    ...(lessonDirs(sandbox.inRepo('.lore')).includes(id) ? ['project'] : []),
    ...(lessonDirs(sandbox.userTier).includes(id) ? ['user'] : []),
  ];
}

describe('promote and demote', () => {
  it('walks project -> user -> universal and back, moving lesson.yaml, votes and feedback, id unchanged', () => {
    const sandbox = createSandbox({ loreHome: true });
    const id = seeded(sandbox);
    const votes = readFileSync(sandbox.inRepo('.lore', 'lessons', id, 'votes.jsonl'), 'utf8');

    const up = sandbox.run(['promote', id.slice(0, 5), '--json']);
    expect(up.code, up.stderr).toBe(0);
    expect(up.json<MoveJson>()).toMatchObject({
      id,
      from: 'project',
      to: 'user',
      changed: true,
      tier: 'user',
      moved: ['feedback.jsonl', 'lesson.yaml', 'votes.jsonl'],
    });
    expect(placesOf(sandbox, id)).toEqual(['user']);
    const userDir = join(sandbox.userTier, 'lessons', id);
    expect(readdirSync(userDir).sort()).toEqual(['feedback.jsonl', 'lesson.yaml', 'votes.jsonl']);
    expect(readFileSync(join(userDir, 'votes.jsonl'), 'utf8')).toBe(votes);
    expect(readFileSync(join(userDir, 'feedback.jsonl'), 'utf8')).toBe(FEEDBACK);
    expect(yamlOf(join(userDir, 'lesson.yaml'))).toMatchObject({ id, tier: 'user', classifiedBy: 'human' });
    const shown = sandbox.run(['show', id, '--json']).json<ShowJson>();
    expect(shown.lesson.tier).toBe('user');
    expect(shown.votes.count).toBe(1);

    const universal = sandbox.run(['promote', id]);
    expect(universal.code).toBe(0);
    expect(universal.stdout).toContain('user -> universal');
    expect(yamlOf(join(userDir, 'lesson.yaml'))).toMatchObject({ tier: 'user', universal: true });
    expect(sandbox.run(['show', id]).stdout).toContain('tier: user (universal) (classified by human)');
    expect(sandbox.run(['list']).stdout).toContain('(universal)');

    const top = sandbox.run(['promote', id]);
    expect(top.code).toBe(2);
    expect(top.stderr).toContain('already universal');
    expect(top.stderr).toContain(`lore demote ${id}`);

    expect(sandbox.run(['demote', id]).code).toBe(0);
    expect(yamlOf(join(userDir, 'lesson.yaml'))).not.toHaveProperty('universal');
    const down = sandbox.run(['demote', id, '--json']);
    expect(down.json<MoveJson>()).toMatchObject({ from: 'user', to: 'project', tier: 'project' });
    expect(placesOf(sandbox, id)).toEqual(['project']);
    const back = sandbox.inRepo('.lore', 'lessons', id);
    expect(readFileSync(join(back, 'votes.jsonl'), 'utf8')).toBe(votes);
    expect(readFileSync(join(back, 'feedback.jsonl'), 'utf8')).toBe(FEEDBACK);
    expect(yamlOf(join(back, 'lesson.yaml'))).toMatchObject({ tier: 'project', classifiedBy: 'human' });
    expect(sandbox.run(['demote', id]).stderr).toContain('already in the project tier');
    expect(sandbox.run(['check']).code).toBe(0);
  });

  it('--to jumps steps; the wrong direction is a usage error; the same place changes nothing', () => {
    const sandbox = createSandbox({ loreHome: true });
    const id = sandbox.add(['--summary', 'write the failing test first']);
    const jump = sandbox.run(['promote', id, '--to', 'universal', '--json']).json<MoveJson>();
    expect(jump).toMatchObject({ from: 'project', to: 'universal', tier: 'user' });
    expect(yamlOf(sandbox.lessonFile(id, 'user'))).toMatchObject({ universal: true, classifiedBy: 'human' });
    const wrong = sandbox.run(['promote', id, '--to', 'user']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain(`lore demote ${id} --to user`);
    expect(sandbox.run(['promote', id, '--to', 'project']).code).toBe(2);
    const same = sandbox.run(['promote', id, '--to', 'universal', '--json']).json<MoveJson>();
    expect(same.changed).toBe(false);
    expect(sandbox.run(['demote', id, '--to', 'project']).code).toBe(0);
    expect(placesOf(sandbox, id)).toEqual(['project']);
  });

  it('refuses to overwrite a lesson with the same id in the target tier, and moves nothing', () => {
    const sandbox = createSandbox({ loreHome: true });
    const id = seeded(sandbox);
    const copy = join(sandbox.userTier, 'lessons', id);
    mkdirSync(copy, { recursive: true });
    writeFileSync(
      join(copy, 'lesson.yaml'),
      readFileSync(sandbox.lessonFile(id), 'utf8').replace('tier: project', 'tier: user'),
    );
    const refused = sandbox.run(['promote', id]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`a lesson ${id} already exists in the user tier`);
    expect(readdirSync(sandbox.inRepo('.lore', 'lessons', id)).sort()).toEqual([
      'feedback.jsonl',
      'lesson.yaml',
      'votes.jsonl',
    ]);
    expect(readdirSync(copy)).toEqual(['lesson.yaml']);
    // Meanwhile the project copy wins: show resolves to it.
    expect(sandbox.run(['show', id, '--json']).json<ShowJson>().lesson.tier).toBe('project');
  });

  it('lore check warns about universal on a project lesson', () => {
    const sandbox = createSandbox();
    const id = sandbox.add(['--summary', 'marked by hand']);
    writeFileSync(sandbox.lessonFile(id), `${readFileSync(sandbox.lessonFile(id), 'utf8')}universal: true\n`);
    const check = sandbox.run(['check', '--json']);
    expect(check.code).toBe(0);
    expect(check.json<CheckJson>().problems).toEqual([
      expect.objectContaining({ field: 'universal', severity: 'warning' }),
    ]);
  });

  it('needs a project to demote into', () => {
    const sandbox = createSandbox({ loreHome: true, init: false });
    const id = sandbox.add(['--summary', 'personal lesson', '--tier', 'user']);
    const refused = sandbox.run(['demote', id]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('lore init');
    expect(placesOf(sandbox, id)).toEqual(['user']);
  });
});

describe('a move killed half-way', () => {
  it('is completed from the journal by the next command: one tier, nothing lost', () => {
    const sandbox = createSandbox({ loreHome: true });
    const id = seeded(sandbox);
    const source = sandbox.inRepo('.lore', 'lessons', id);
    const target = join(sandbox.userTier, 'lessons', id);
    const names = readdirSync(source).sort();
    const texts = Object.fromEntries(names.map((name) => [name, readFileSync(join(source, name), 'utf8')]));
    const moved = texts['lesson.yaml']?.replace('tier: project', 'tier: user') ?? '';
    // Killed after the journal entry and the first file written in the target tier.
    mkdirSync(target, { recursive: true });
    writeFileSync(join(target, 'feedback.jsonl'), FEEDBACK);
    const journal = sandbox.inRepo('.lore', 'cache', 'journal');
    mkdirSync(journal, { recursive: true });
    writeFileSync(
      join(journal, `${Date.now()}-0a1b2c3d.json`),
      JSON.stringify({
        pid: deadPid(),
        writes: names.map((name) => ({
          path: join(target, name),
          content: name === 'lesson.yaml' ? moved : texts[name],
        })),
        removeFiles: names.map((name) => join(source, name)),
        removeDirs: [source],
      }),
    );

    const list = sandbox.run(['list', '--status', 'any', '--json']);
    expect(list.code).toBe(0);
    expect(list.json<ListJson>().lessons.map((lesson) => [lesson.id, lesson.tier])).toEqual([[id, 'user']]);
    expect(placesOf(sandbox, id)).toEqual(['user']);
    expect(existsSync(source)).toBe(false);
    for (const name of names) {
      expect(readFileSync(join(target, name), 'utf8')).toBe(name === 'lesson.yaml' ? moved : texts[name]);
    }
    expect(readdirSync(journal)).toEqual([]);
    expect(sandbox.run(['show', id, '--json']).json<ShowJson>().votes.count).toBe(1);
    expect(sandbox.run(['check']).code).toBe(0);
  });

  it('a file edited after the crash, before recovery, is kept: recovery does not put the older text over it', () => {
    const sandbox = createSandbox({ loreHome: true });
    const id = seeded(sandbox);
    const source = sandbox.inRepo('.lore', 'lessons', id);
    const target = join(sandbox.userTier, 'lessons', id);
    const names = readdirSync(source).sort();
    const texts = Object.fromEntries(names.map((name) => [name, readFileSync(join(source, name), 'utf8')]));
    const moved = texts['lesson.yaml']?.replace('tier: project', 'tier: user') ?? '';
    const hash = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 32);
    // Killed after the journal entry and the lesson written in the target tier ...
    mkdirSync(target, { recursive: true });
    writeFileSync(join(target, 'lesson.yaml'), moved);
    const journal = sandbox.inRepo('.lore', 'cache', 'journal');
    mkdirSync(journal, { recursive: true });
    writeFileSync(
      join(journal, `${Date.now()}-0a1b2c3d.json`),
      JSON.stringify({
        pid: deadPid(),
        writes: names.map((name) => ({
          path: join(target, name),
          content: name === 'lesson.yaml' ? moved : texts[name],
          before: null,
        })),
        removeFiles: names.map((name) => join(source, name)),
        removeHashes: names.map((name) => hash(texts[name] ?? '')),
        removeDirs: [source],
      }),
    );
    // ... then someone edited the moved lesson before any lore command ran.
    const edited = moved.replace(/^summary: .*$/m, 'summary: edited after the crash');
    writeFileSync(join(target, 'lesson.yaml'), edited);

    const list = sandbox.run(['list', '--status', 'any', '--json']);
    expect(list.code).toBe(0);
    expect(readFileSync(join(target, 'lesson.yaml'), 'utf8')).toBe(edited);
    expect(list.stderr).toContain('changed after an interrupted write');
    expect(readFileSync(join(target, 'feedback.jsonl'), 'utf8')).toBe(FEEDBACK);
    expect(existsSync(source)).toBe(false);
    expect(readdirSync(journal)).toEqual([]);
    expect(list.json<ListJson>().lessons.map((lesson) => [lesson.id, lesson.tier])).toEqual([[id, 'user']]);
  });

  /**
   * A process that promotes and demotes one lesson forever, printing a line after each move, is
   * killed with SIGKILL after `lines` moves: wherever the kill lands, the next command finds the
   * lesson in exactly one tier with its vote and its feedback.
   */
  const MOVER = `
const [mainUrl, repo, id] = process.argv.slice(1);
const { runCli } = await import(mainUrl);
for (let n = 0; ; n += 1) {
  const code = await runCli({
    argv: [n % 2 === 0 ? 'promote' : 'demote', id], cwd: repo, env: process.env, isTTY: false,
    readStdin: async () => '', stdout: () => {}, stderr: (text) => process.stderr.write(text),
  });
  process.stdout.write(code + '\\n');
}
`;

  it.each([1, 2, 3, 5])(
    'SIGKILL after %i move(s): exactly one tier, votes and feedback intact',
    async (lines) => {
      const sandbox = createSandbox({ loreHome: true });
      const id = seeded(sandbox);
      const child = spawn(
        process.execPath,
        ['--input-type=module', '-e', MOVER, LORE_MAIN_URL, sandbox.repo, id],
        {
          cwd: sandbox.repo,
          env: sandbox.env,
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let seen = 0;
      const codes: string[] = [];
      child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
        codes.push(...chunk.split('\n').filter((line) => line !== ''));
        seen = codes.length;
        if (seen >= lines) child.kill('SIGKILL');
      });
      await exited(child);
      expect(codes.every((code) => code === '0')).toBe(true);

      const list = sandbox.run(['list', '--status', 'any', '--json']);
      expect(list.code, list.stderr).toBe(0);
      const found = list.json<ListJson>().lessons.filter((lesson) => lesson.id === id);
      expect(found).toHaveLength(1);
      expect(placesOf(sandbox, id)).toEqual([found[0]?.tier]);
      const dir =
        found[0]?.tier === 'user'
          ? join(sandbox.userTier, 'lessons', id)
          : sandbox.inRepo('.lore', 'lessons', id);
      expect(
        readdirSync(dir)
          .filter((name) => !name.startsWith('.'))
          .sort(),
      ).toEqual(['feedback.jsonl', 'lesson.yaml', 'votes.jsonl']);
      expect(readFileSync(join(dir, 'feedback.jsonl'), 'utf8')).toBe(FEEDBACK);
      expect(found[0]?.votes.count).toBe(1);
      expect(readdirSync(sandbox.inRepo('.lore', 'cache', 'journal'))).toEqual([]);
      expect(sandbox.run(['check']).code).toBe(0);
    },
    60_000,
  );
});

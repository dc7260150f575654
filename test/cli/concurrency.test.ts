// Several lore processes writing at once: nothing is lost, nothing is duplicated, every file stays
// valid, and no temporary or lock file is left behind.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSandbox, lessonDirs, seedLessons, walkFiles } from '../helpers/cli.js';
import type { CheckJson, Run, Sandbox, ShowJson } from '../helpers/cli.js';

const WORKERS = 6;
const ADDS_PER_WORKER = 8;
/** Iterations that also vote: the first SHARED_TASKS vote a pair every worker votes, the rest a pair of their own. */
const VOTES_PER_WORKER = 5;
const SHARED_TASKS = 4;

const SEEDS = [
  { id: 'ccccccccc1', summary: 'seed one', tier: 'project' as const },
  { id: 'ccccccccc2', summary: 'seed two', tier: 'project' as const },
  { id: 'ccccccccc3', summary: 'seed three', tier: 'user' as const },
];

type Vote = { lesson: string; model: string; task: string; run: Run };

/** One worker: a chain of lore processes, run one after the other. */
async function worker(sandbox: Sandbox, w: number) {
  const adds: { tier: 'project' | 'user'; run: Run }[] = [];
  const votes: Vote[] = [];
  for (let i = 0; i < ADDS_PER_WORKER; i += 1) {
    const tier = (w + i) % 3 === 0 ? 'user' : 'project';
    adds.push({
      tier,
      run: await sandbox.runAsync(['add', '--summary', `worker ${w} lesson ${i}`, '--tier', tier, '--json']),
    });
    if (i >= VOTES_PER_WORKER) continue;
    const lesson = SEEDS[(w + i) % SEEDS.length]!.id;
    const [model, task] =
      i < SHARED_TASKS ? ['shared-model', `shared-${i}`] : [`model-${w}`, `task-${w}-${i}`];
    votes.push({
      lesson,
      model,
      task,
      run: await sandbox.runAsync(['upvote', lesson, '--model', model, '--task', task, '--json']),
    });
  }
  return { adds, votes };
}

function rawVoteKeys(sandbox: Sandbox, seed: (typeof SEEDS)[number]): string[] {
  const dir =
    seed.tier === 'user'
      ? join(sandbox.userTier, 'lessons', seed.id)
      : sandbox.inRepo('.lore/lessons', seed.id);
  return readFileSync(join(dir, 'votes.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const vote = JSON.parse(line) as { model: string; task: string };
      return `${vote.model}/${vote.task}`;
    })
    .sort();
}

describe('concurrent writers', () => {
  it(`${WORKERS} processes adding ${ADDS_PER_WORKER} lessons each and voting at once lose nothing`, async () => {
    const sandbox = createSandbox({ loreHome: true });
    seedLessons(sandbox, SEEDS);
    const results = await Promise.all(Array.from({ length: WORKERS }, (_, w) => worker(sandbox, w)));
    const adds = results.flatMap((result) => result.adds);
    const votes = results.flatMap((result) => result.votes);

    expect(adds.filter((add) => add.run.code !== 0).map((add) => add.run.stderr)).toEqual([]);
    expect(votes.filter((vote) => vote.run.code !== 0).map((vote) => vote.run.stderr)).toEqual([]);

    const printed = adds.map((add) => ({ id: add.run.json<{ id: string }>().id, tier: add.tier }));
    expect(new Set(printed.map((p) => p.id)).size).toBe(WORKERS * ADDS_PER_WORKER);
    const byTier = (tier: 'project' | 'user') =>
      [...SEEDS.filter((s) => s.tier === tier), ...printed.filter((p) => p.tier === tier)]
        .map((p) => p.id)
        .sort();
    expect(lessonDirs(sandbox.inRepo('.lore'))).toEqual(byTier('project'));
    expect(lessonDirs(sandbox.userTier)).toEqual(byTier('user'));

    const check = sandbox.run(['check', '--json']);
    expect(check.code, check.stdout).toBe(0);
    expect(check.json<CheckJson>()).toMatchObject({
      ok: true,
      errors: 0,
      lessons: SEEDS.length + WORKERS * ADDS_PER_WORKER,
    });

    // Every distinct (lesson, model, task) is on disk exactly once; contested ones were recorded once.
    for (const seed of SEEDS) {
      const expected = [
        ...new Set(votes.filter((v) => v.lesson === seed.id).map((v) => `${v.model}/${v.task}`)),
      ].sort();
      expect(rawVoteKeys(sandbox, seed), seed.id).toEqual(expected);
      expect(sandbox.run(['show', seed.id, '--json']).json<ShowJson>().votes.count).toBe(expected.length);
    }
    const recorded = votes.filter((v) => v.run.json<{ recorded: boolean }>().recorded);
    expect(recorded.length).toBe(new Set(votes.map((v) => `${v.lesson}/${v.model}/${v.task}`)).size);

    const leftovers = [...walkFiles(sandbox.inRepo('.lore')), ...walkFiles(sandbox.userTier)].filter((file) =>
      /\.tmp$|\.lock$|\/journal\//.test(file),
    );
    expect(leftovers).toEqual([]);
  });

  it('concurrent updates of the same lesson on different fields all land', async () => {
    const sandbox = createSandbox();
    const id = sandbox.add(['--summary', 'raced over', '--body', 'original body']);
    const rounds = [
      [
        ['--severity', 'critical'],
        ['--priority', '9'],
        ['--tag', 'raced'],
        ['--category', 'security'],
        ['--confidence', '0.5'],
        ['--stack', 'rust'],
        ['--tool', 'Bash'],
        ['--path', 'src/**'],
      ],
      [
        ['--severity', 'low'],
        ['--priority', '2'],
        ['--tag', 'raced-again'],
        ['--category', 'testing'],
        ['--confidence', '0.25'],
        ['--stack', 'go'],
        ['--tool', 'Edit'],
        ['--path', 'lib/**'],
      ],
    ];
    const after = [];
    for (const round of rounds) {
      const runs = await Promise.all([
        ...round.map((flags) => sandbox.runAsync(['update', id, ...flags])),
        sandbox.runAsync(['upvote', id, '--model', 'm', '--task', `during-${after.length}`]),
      ]);
      expect(runs.map((run) => run.code)).toEqual(runs.map(() => 0));
      after.push(sandbox.run(['show', id, '--json']).json<ShowJson>());
    }
    expect(after[0]?.lesson).toMatchObject({
      severity: 'critical',
      priority: 9,
      tags: ['raced'],
      category: 'security',
      confidence: 0.5,
      stack: ['rust'],
      tools: ['Bash'],
      paths: ['src/**'],
      body: 'original body',
    });
    expect(after[1]?.lesson).toMatchObject({
      severity: 'low',
      priority: 2,
      tags: ['raced-again'],
      category: 'testing',
      confidence: 0.25,
      stack: ['go'],
      tools: ['Edit'],
      paths: ['lib/**'],
      body: 'original body',
    });
    expect(after[1]?.votes.count).toBe(2);
    expect(sandbox.run(['check']).code).toBe(0);
    expect(walkFiles(sandbox.inRepo('.lore')).filter((file) => /\.tmp$|\.lock$/.test(file))).toEqual([]);
  });

  it('two processes superseding lessons that share a replacement both land', async () => {
    const sandbox = createSandbox();
    const [old1, old2, old3, replacement] = ['one', 'two', 'three', 'replacement'].map((word) =>
      sandbox.add(['--summary', `lesson ${word}`]),
    );
    const runs = await Promise.all(
      [old1, old2, old3].map((old) => sandbox.runAsync(['supersede', old!, '--with', replacement!])),
    );
    expect(runs.map((run) => run.code)).toEqual([0, 0, 0]);
    const shown = sandbox.run(['show', replacement!, '--json']).json<ShowJson>();
    expect([...shown.lesson.supersedes].sort()).toEqual([old1, old2, old3].sort());
    for (const old of [old1, old2, old3]) {
      expect(sandbox.run(['show', old!, '--json']).json<ShowJson>().lesson.supersededBy).toBe(replacement);
    }
    expect(sandbox.run(['check']).code).toBe(0);
  });
});

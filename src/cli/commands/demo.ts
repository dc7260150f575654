import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { flagOption } from '../command.js';
import type { Command } from '../command.js';
import { DEMO_LESSONS } from '../demo-lessons.js';
import { initTier } from '../../store/workspace/init-tier.js';
import { tierLayout } from '../../store/fs/paths.js';
import { openWorkspace } from '../../store/workspace/workspace.js';
import { addLesson, upvoteLesson } from '../../store/lessons/lesson-writes.js';

type Step = { title: string; argv: string[] };

export const command: Command = {
  spec: {
    usage: 'lore demo [--keep] [--json]',
    description:
      'Builds a throw-away repository in a temporary directory with a few real-world lessons, then runs\n' +
      'lore list, a search by path, a search by text and show on it, printing each command and its output.\n' +
      'Nothing outside the temporary directory is touched. --keep leaves it in place to explore.',
    options: { keep: { type: 'boolean', description: 'keep the demo repository and print its path' } },
    positionals: { min: 0, max: 0, names: '' },
    json: true,
  },
  async run(ctx, args) {
    const base = mkdtempSync(join(tmpdir(), 'lore-demo-'));
    const repo = join(base, 'repo');
    const env: NodeJS.ProcessEnv = {
      ...ctx.env,
      HOME: join(base, 'home'),
      LORE_HOME: join(base, 'home', '.lore'),
    };
    delete env.LORE_VOTE_HALF_LIFE_DAYS;
    mkdirSync(join(repo, '.git'), { recursive: true });
    initTier(tierLayout(join(repo, '.lore')));
    const ws = await openWorkspace({ cwd: repo, env });
    const ids: string[] = [];
    try {
      for (const draft of DEMO_LESSONS) {
        const added = await addLesson(ws, draft, {
          tier: 'project',
          nowMs: ctx.now(),
          createdBy: 'lore demo',
        });
        ids.push(added.id);
      }
      await upvoteLesson(ws, ids[0] ?? '', {
        model: 'claude-sonnet-4-5',
        task: 'PROJ-101',
        at: new Date(ctx.now()).toISOString(),
      });
    } finally {
      ws.close();
    }
    const steps: Step[] = [
      { title: 'Every active lesson, best first', argv: ['list'] },
      {
        title: 'What applies to a file the agent is about to edit',
        argv: ['list', '--path', 'tests/unit/test_billing.py'],
      },
      { title: 'Full-text search, with why each result matched', argv: ['search', 'pytest', 'hangs'] },
      {
        title: 'One lesson in full (any unique id prefix works)',
        argv: ['show', (ids[0] ?? '').slice(0, 4)],
      },
    ];
    const transcript: { command: string; output: string; code: number }[] = [];
    for (const step of steps) {
      const { output, code } = await ctx.runCommand(step.argv, repo, env);
      transcript.push({ command: `lore ${step.argv.join(' ')}`, output, code });
    }
    const keep = flagOption(args, 'keep');
    if (!keep) rmSync(base, { recursive: true, force: true });
    const lines = [`lore demo: a throw-away repository with ${ids.length} lessons in ${repo}`, ''];
    steps.forEach((step, i) => {
      const entry = transcript[i];
      lines.push(`# ${step.title}`, `$ ${entry?.command ?? ''}`, (entry?.output ?? '').trimEnd(), '');
    });
    lines.push(
      keep
        ? `The demo repository is kept: cd ${repo} and try lore search, lore add, lore check (HOME=${env.HOME}).`
        : 'The demo repository was removed (run with --keep to explore it).',
      'In your own repository: lore init, then lore add --summary "..." --command REGEX --path GLOB --tag T.',
    );
    return {
      data: { repo: keep ? repo : null, lessons: ids, steps: transcript },
      text: lines.join('\n'),
      exitCode: transcript.every((entry) => entry.code === 0) ? 0 : 1,
    };
  },
};

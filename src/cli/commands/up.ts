import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { flagOption, numberOption, stringOption } from '../command.js';
import type { Command, CommandContext } from '../command.js';
import { DEMO_LESSONS } from '../demo-lessons.js';
import { writeSampleMeasures } from '../sample-measures.js';
import { startDashboard } from '../start-dashboard.js';
import { DEFAULT_PORT } from './serve.js';
import { appendAudit } from '../../store/hook-state/audit-log.js';
import { explainCall } from '../../store/inject/explain-call.js';
import type { ExplainRequest } from '../../store/inject/explain-call.js';
import { appendFeedback } from '../../store/lessons/feedback.js';
import { initTier } from '../../store/workspace/init-tier.js';
import { addLesson, upvoteLesson } from '../../store/lessons/lesson-writes.js';
import { tierLayout } from '../../store/fs/paths.js';
import { openWorkspace } from '../../store/workspace/workspace.js';
import type { Workspace } from '../../store/workspace/workspace.js';
import type { Lesson } from '../../core/lesson/schema.js';
import { listCandidates } from '../../store/candidates/candidate-actions.js';

/** The sample corpus shipped with lore (samples/transcripts/, beside dist/). */
export const SAMPLES_DIR = fileURLToPath(new URL('../../../samples/transcripts/', import.meta.url));

type ScanSummary = { files: number; newCount: number; mergedCount: number; waiting: number };

async function scan(
  ws: Workspace,
  ctx: CommandContext,
  home: string,
  roots?: string[],
): Promise<ScanSummary> {
  const { captureCandidates, captureTargetOf } = await import('../../capture/capture-candidates.js');
  const { defaultRoots } = await import('../../capture/default-roots.js');
  const { recordMarkerFeedback } = await import('../../store/lessons/feedback.js');
  const result = await captureCandidates(captureTargetOf(ws), {
    roots: roots ? roots.map((path) => ({ path })) : defaultRoots(ctx.env, home),
    explicit: roots !== undefined,
    nowMs: ctx.now(),
    home,
    // as `lore scan` does: the markers this scan reads are not read again by the next
    beforeSave: async (captured) => {
      await recordMarkerFeedback(ws, captured.report.markers, ctx.now(), 'scan');
    },
  });
  return {
    files: result.report.files,
    newCount: result.newCount,
    mergedCount: result.mergedCount,
    waiting: listCandidates(ws).length,
  };
}

/** Calls an agent makes every day, replayed through the hook's pipeline to fill a sample audit log. */
const SAMPLE_CALLS: ExplainRequest[] = [
  { cwd: '', tool: 'Bash', command: 'pytest -v tests/' },
  { cwd: '', tool: 'Bash', command: 'python -m pytest tests/unit -x' },
  { cwd: '', tool: 'Edit', paths: ['tests/unit/test_billing.py'] },
  { cwd: '', tool: 'Bash', command: 'git stash' },
  { cwd: '', tool: 'Bash', command: 'npm install' },
  { cwd: '', tool: 'Edit', paths: ['migrations/versions/0042_add_index.py'] },
  { cwd: '', tool: 'Write', paths: ['src/generated/client.ts'] },
];

/**
 * A throw-away workspace with lore's demo lessons, the sample transcripts scanned into its review
 * queue, and two weeks of hook activity (the sample calls run through the real pipeline), so every
 * page of the dashboard has something to show.
 */
async function sampleWorkspace(
  ctx: CommandContext,
): Promise<{ base: string; repo: string; env: NodeJS.ProcessEnv; summary: ScanSummary }> {
  const base = mkdtempSync(join(tmpdir(), 'lore-up-sample-'));
  const repo = join(base, 'repo');
  const home = join(base, 'home');
  mkdirSync(join(repo, '.git'), { recursive: true });
  mkdirSync(home, { recursive: true });
  const env: NodeJS.ProcessEnv = { ...ctx.env, HOME: home, LORE_HOME: join(home, '.lore') };
  initTier(tierLayout(join(repo, '.lore')));
  const ws = await openWorkspace({ cwd: repo, env });
  try {
    const now = ctx.now();
    const ids: string[] = [];
    const lessons: Lesson[] = [];
    for (const draft of DEMO_LESSONS) {
      const added = await addLesson(ws, draft, { tier: 'project', nowMs: now - 20 * 86_400_000 });
      ids.push(added.id);
      lessons.push(added.lesson);
    }
    await upvoteLesson(ws, ids[0] ?? '', {
      model: 'claude-sonnet-4-5',
      task: 'PROJ-101',
      at: new Date(now).toISOString(),
    });
    const summary = await scan(ws, { ...ctx, env }, home, [SAMPLES_DIR]);
    for (let day = 13; day >= 0; day -= 1) {
      for (const [i, call] of SAMPLE_CALLS.entries()) {
        // a deterministic, uneven rhythm: some calls most days, some rarely
        if ((day * 7 + i * 3) % (i + 2) !== 0) continue;
        const at = now - day * 86_400_000 - (i + 1) * 1_800_000;
        const explained = await explainCall(ws, { ...call, cwd: repo }, at);
        if (explained.included.length + explained.denied.length === 0) continue;
        appendAudit(ws.cacheDir, {
          time: new Date(at).toISOString(),
          host: day % 3 === 0 ? 'codex' : 'claude-code',
          session: `sample-session-${day}`,
          agent: '',
          event: explained.event,
          tool: explained.tool,
          source: null,
          lessons: explained.included.map((item) => ({
            id: item.id,
            matched_by: item.matched_by,
            form: item.form,
          })),
          denied: explained.denied.map((item) => ({ id: item.id, matched_by: item.matched_by })),
          bytes: (explained.additionalContext ?? explained.permissionDecisionReason ?? '').length,
          dropped: explained.dropped.slice(0, 20).map((item) => ({ id: item.id, reason: item.reason })),
          dropped_count: explained.dropped.length,
        });
      }
    }
    // a hand-made last replay and the sample injections' outcomes: the Replay page and the weekly charts
    writeSampleMeasures(ws.cacheDir, lessons, now);
    for (const [i, id] of ids.slice(0, 4).entries()) {
      await appendFeedback(ws, id, {
        helpful: i !== 2,
        task: `PROJ-${120 + i}`,
        at: new Date(now - i * 86_400_000).toISOString(),
      });
    }
    return { base, repo, env, summary };
  } finally {
    ws.close();
  }
}

export const command: Command = {
  spec: {
    usage: 'lore up [--port 4777] [--host 127.0.0.1] [--no-open] [--keep]',
    description:
      "lore's main job in one command: scans this machine's agent transcripts (Claude Code, Codex, Gemini)\n" +
      'for mistakes into the review queue, then serves the dashboard and prints its URL, until Ctrl-C.\n' +
      'With no transcripts on this machine it says so and shows a throw-away workspace made from the\n' +
      'sample sessions shipped with lore (removed on exit unless --keep). The browser opens on a terminal.',
    options: {
      port: {
        type: 'string',
        value: 'N',
        description: `port (default ${DEFAULT_PORT}, or the next free one; 0: any free port)`,
      },
      host: { type: 'string', value: 'ADDR', description: 'address to listen on (default 127.0.0.1)' },
      'no-open': { type: 'boolean', description: 'do not open a browser (the default without a terminal)' },
      open: { type: 'boolean', description: 'open a browser even without a terminal' },
      keep: { type: 'boolean', description: 'keep the sample workspace when lore exits' },
    },
    positionals: { min: 0, max: 0, names: '' },
    json: false,
    examples: ['lore up', 'lore up --port 0 --no-open'],
  },
  async run(ctx, args) {
    const port = numberOption(args, 'port', { integer: true, min: 0, max: 65535 });
    const host = stringOption(args, 'host') ?? '127.0.0.1';
    const open =
      flagOption(args, 'open') ||
      (ctx.isTTY && process.stdout.isTTY === true && !flagOption(args, 'no-open'));
    const home = ctx.env.HOME ?? homedir();

    const { openCommandWorkspace } = await import('../open-workspace.js');
    const ws = await openCommandWorkspace(ctx);
    let real: ScanSummary;
    try {
      ctx.note("lore up: scanning this machine's agent transcripts ...");
      real = await scan(ws, ctx, home);
    } finally {
      ws.close();
    }

    let cwd = ctx.cwd;
    let root = ctx.root;
    let env = ctx.env;
    let notice: string | undefined;
    let sampleBase: string | undefined;
    if (real.files === 0) {
      process.stdout.write(
        'lore up: no agent transcripts on this machine (~/.claude/projects, ~/.codex/sessions, ~/.gemini/tmp);\n' +
          '         showing a throw-away sample workspace built from the sessions shipped with lore instead\n',
      );
      const sample = await sampleWorkspace(ctx);
      sampleBase = sample.base;
      cwd = sample.repo;
      root = undefined;
      env = sample.env;
      notice = `Sample data: no agent transcripts were found on this machine, so this is a throw-away workspace (${sample.repo}) made from ${sample.summary.files} sample sessions shipped with lore.`;
      process.stdout.write(
        `lore up: scanned ${sample.summary.files} sample transcript(s): ${sample.summary.waiting} candidate(s) waiting for review\n`,
      );
    } else {
      process.stdout.write(
        `lore up: scanned ${real.files} transcript file(s): ${real.newCount} new candidate(s), ${real.mergedCount} merged; ${real.waiting} waiting for review\n`,
      );
    }
    const dashboard = await startDashboard(ctx, {
      port: port ?? DEFAULT_PORT,
      host,
      open,
      fallback: port === undefined,
      cwd,
      ...(root !== undefined ? { root } : {}),
      env,
      ...(notice ? { notice } : {}),
    });
    await dashboard.closed;
    if (sampleBase && !flagOption(args, 'keep') && existsSync(sampleBase))
      rmSync(sampleBase, { recursive: true, force: true });
    return { data: { url: dashboard.url }, text: 'lore: stopped' };
  },
};

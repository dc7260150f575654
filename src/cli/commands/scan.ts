import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { getPriority, homedir, setPriority } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AGENTS } from '../../core/capture/events.js';
import { LoreError } from '../../core/errors.js';
import { choiceOption, existingPaths, flagOption, stringOption } from '../command.js';
import type { Command, CommandContext } from '../command.js';
import { signWatched, stampPlace, writeScanStamp } from '../../capture/scan-stamp.js';
import { openCommandWorkspace } from '../open-workspace.js';
import type { Tier } from '../../core/lesson/schema.js';
import type { Workspace } from '../../store/workspace/workspace.js';
import { scanCandidateJson } from '../candidate-view.js';
import { openBackgroundLog } from '../../store/fs/background-log.js';
import { ranWithin } from '../../core/utc-time.js';

function parseSince(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const ms = Date.parse(raw);
  if (raw.trim() === '' || Number.isNaN(ms)) {
    throw new LoreError('usage', `--since must be a date (2026-11-01 or an ISO time), got "${raw}"`);
  }
  return new Date(ms).toISOString();
}

function megabytes(bytes: number): string {
  return `${(bytes / 1048576).toFixed(1)} MB`;
}

/** A one-line progress bar on stderr, redrawn in place: only on a TTY and never with --json. */
function progressBar() {
  let last = 0;
  return {
    update({ done, total, bytes }: { done: number; total: number; bytes: number }) {
      const now = Date.now();
      if (now - last < 80 && done < total) return;
      last = now;
      const width = 24;
      const filled = total === 0 ? width : Math.round((done / total) * width);
      process.stderr.write(
        `\r[${'#'.repeat(filled)}${' '.repeat(width - filled)}] ${done}/${total} files, ${megabytes(bytes)}`,
      );
    },
    done() {
      if (last > 0) process.stderr.write('\r\u001b[2K');
    },
  };
}

/**
 * `--background`: start a detached scan unless one ran within the interval (a stamp file in the
 * cache), and return at once. The stamp is claimed before the child starts, so two hooks firing
 * together start one scan.
 */
function startBackground(ctx: CommandContext, cacheDir: string, intervalHours: number, args: string[]) {
  const dir = join(cacheDir, 'capture');
  mkdirSync(dir, { recursive: true });
  const stamp = join(dir, 'background.stamp');
  const now = ctx.now();
  const last = statSync(stamp, { throwIfNoEntry: false })?.mtimeMs;
  if (last !== undefined && ranWithin(last, now, intervalHours * 3600_000)) {
    return { started: false, reason: 'ran-recently', lastRun: new Date(last).toISOString() };
  }
  writeFileSync(stamp, `${process.pid}\n`);
  utimesSync(stamp, new Date(now), new Date(now));
  const log = openBackgroundLog(join(dir, 'background.log'));
  const bin = fileURLToPath(new URL('../bin.js', import.meta.url));
  const child = spawn(process.execPath, [bin, 'scan', ...args], {
    cwd: ctx.cwd,
    env: { ...ctx.env, LORE_SCAN_BACKGROUND_CHILD: '1' },
    detached: true,
    stdio: ['ignore', log, log],
  });
  child.unref();
  closeSync(log);
  return { started: true, pid: child.pid ?? null };
}

/** How nice a detached scan is to the agent working beside it (0 normal, 19 the least urgent). */
const BACKGROUND_PRIORITY = 10;

/**
 * A detached scan (`--background`, which the hooks start) runs at a low priority and on this
 * thread only: it leaves the agent at least one core. On two cores, a worker beside this thread
 * makes a scan about 10% sooner for about 30% more CPU time.
 */
function lowerPriority(): void {
  try {
    setPriority(BACKGROUND_PRIORITY);
  } catch {
    // not allowed here: it still runs on one thread
  }
}

/** How a detached scan ran, for its log. */
function howItRan(workers: number): string {
  let priority: string;
  try {
    priority = `, priority ${getPriority()}`;
  } catch {
    priority = '';
  }
  return `background scan: ${workers === 0 ? 'one thread' : `${workers} worker thread(s)`}${priority}`;
}

/**
 * The session start's background scan also asks for a background `lore pull` when an organisation
 * remote is set up (rate-limited on its own); trouble there never fails the scan.
 */
async function pullAlongside(ctx: CommandContext): Promise<void> {
  try {
    const { startBackgroundPull } = await import('./pull.js');
    startBackgroundPull(ctx, []);
  } catch (error) {
    ctx.note(`lore scan: no background pull: ${(error as Error).message}`);
  }
}

/** The distillation step of `scan --distill`, loaded only when asked for. */
async function openDistiller(ws: Workspace, env: NodeJS.ProcessEnv) {
  const [{ openDistillProvider }, { distillCandidates }, { formatDistillRun }] = await Promise.all([
    import('../../store/distill/distill-settings.js'),
    import('../../store/distill/distill-candidates.js'),
    import('../distill-view.js'),
  ]);
  const settings = openDistillProvider(ws, env);
  return {
    async run(only: { tier: Tier; id: string }[], options: { nowMs: number; names: string[] }) {
      const run = await distillCandidates(ws, settings, { only, ...options });
      return { run, text: formatDistillRun(run) };
    },
  };
}

/**
 * Outcome-linked feedback after the scan: what came of the injections the audit logs hold. Trouble
 * there is told and never fails the scan (the candidates are already stored).
 */
async function judgeAfterScan(ctx: CommandContext, ws: Workspace) {
  const { judgeOutcomes, emptyOutcomeReport } = await import('../../capture/judge-outcomes.js');
  try {
    return await judgeOutcomes(ws, {
      nowMs: ctx.now(),
      statePath: resolve(ws.cacheDir, 'capture', 'scan-state.json'),
    });
  } catch (error) {
    if (!(error instanceof LoreError)) throw error;
    ctx.note(`lore scan: outcomes not judged: ${error.message}`);
    return emptyOutcomeReport();
  }
}

type Outcomes = Awaited<ReturnType<typeof judgeAfterScan>>;

/**
 * No injection left open: none judged now (the next scan finds it judged), none pending or of an
 * unknown lesson, no session without its transcript. Then a later scan over the same audit logs
 * and outcome records has nothing to judge either (scan-stamp.ts).
 */
function quietOutcomes(outcomes: Outcomes): boolean {
  return (
    outcomes.judged === 0 &&
    outcomes.pending === 0 &&
    outcomes.unknownLessons === 0 &&
    outcomes.sessionsWithoutTranscript === 0 &&
    outcomes.heldForReview.length === 0 &&
    outcomes.guardProposals.length === 0
  );
}

/**
 * No lesson has the repeats a guard proposal needs, whatever its type: the proposals then stay
 * none while the outcome records do not change, however the lessons are edited.
 */
async function noGuardInReach(ws: Workspace): Promise<boolean> {
  const [{ workspaceOutcomes }, { guardProposals }] = await Promise.all([
    import('../../store/feedback/outcome-log.js'),
    import('../../core/feedback/outcome-floor.js'),
  ]);
  return guardProposals(workspaceOutcomes(ws), () => false).length === 0;
}

/** The human summary of outcome feedback: one line, and what to do when lessons were held or proposed. */
function outcomeLines(outcomes: Outcomes): string[] {
  const lines: string[] = [];
  if (outcomes.judged > 0 || outcomes.pending > 0 || outcomes.malformedAuditLines > 0) {
    const unlinked =
      outcomes.unlinked > 0 ? `, ${outcomes.unlinked} unlinked (call not found in its transcript)` : '';
    const pending = outcomes.pending > 0 ? `, ${outcomes.pending} waiting for their session to go on` : '';
    const bad =
      outcomes.malformedAuditLines > 0
        ? `, ${outcomes.malformedAuditLines} malformed audit line(s) skipped`
        : '';
    lines.push(
      `outcomes: judged ${outcomes.judged} injection(s): ${outcomes.prevented} prevented, ${outcomes.repeated} repeated, ${outcomes.noise} noise${unlinked}${pending}${bad}`,
    );
  }
  if (outcomes.heldForReview.length > 0)
    lines.push(
      `held for review (their mistake kept coming back): ${outcomes.heldForReview.join(', ')}; see \`lore review\``,
    );
  if (outcomes.guardProposals.length > 0)
    lines.push(
      `proposed as guards (repeated after advisory delivery): ${outcomes.guardProposals.join(', ')}; \`lore update ID --type guard\``,
    );
  return lines;
}

export const command: Command = {
  spec: {
    usage:
      'lore scan [--source claude-code|codex|gemini] [--path DIR]... [--since DATE] [--background | --distill] [--force] [--json]',
    description:
      'Mines agent transcripts for mistake -> fix episodes and #lesson blocks, and stores them as candidates\n' +
      'for review (.lore/candidates/, kept out of git, or the user tier for transcripts of other projects). Only bytes added\n' +
      'since the last scan are read. Default folders: $CLAUDE_CONFIG_DIR/projects (~/.claude/projects),\n' +
      '$CODEX_HOME/sessions (~/.codex/sessions), ~/.gemini/tmp. Secrets are redacted before anything is written.\n' +
      "Then judges what came of lore's injections (the audit log) in the sessions read: a repeat of the lesson's\n" +
      'mistake is an automatic not-helpful (-0.05), a prevented one an automatic helpful (+0.02), once per injection\n' +
      '(<cache>/outcomes.jsonl); lessons whose mistake keeps coming back are held for review (`lore review`).\n' +
      'A scan of the default folders that finds nothing new, judges nothing and notes nothing leaves a stamp\n' +
      '(<cache>/capture/scan-stamp.json); the next `lore scan` or `lore scan --json` prints its answer again without\n' +
      'opening the workspace when every file below the folders has the mtime, size and inode it had, and the scan\n' +
      'state, configs, audit logs, outcome records and lesson folders are unchanged. --force runs the scan regardless.',
    options: {
      source: { type: 'string', value: AGENTS.join('|'), description: "only this agent's transcripts" },
      path: {
        type: 'string',
        multiple: true,
        value: 'DIR',
        description: 'scan this folder or file instead of the default folders; repeatable',
      },
      since: {
        type: 'string',
        value: 'DATE',
        description: 'skip transcripts and events older than DATE, for this run only',
      },
      background: {
        type: 'boolean',
        description:
          'start a detached scan and return at once; at most once per capture.backgroundIntervalHours',
      },
      force: {
        type: 'boolean',
        description: 'run the whole scan even when the stamp of the last one says nothing changed',
      },
      distill: {
        type: 'boolean',
        description:
          'then distill the new and changed candidates with the configured model (see `lore distill`); not with --background',
      },
    },
    positionals: { min: 0, max: 0, names: '' },
    json: true,
    examples: [
      'lore scan',
      'lore scan --source codex --since 2026-11-01',
      'lore scan --path ./transcripts --json',
    ],
  },
  async run(outer, args) {
    const source = choiceOption(args, 'source', AGENTS);
    const since = parseSince(stringOption(args, 'since'));
    const given = existingPaths(args, 'path', outer.cwd);
    const paths = given.map((p) => p.shownAs);
    const home = outer.env.HOME ?? homedir();
    const distill = flagOption(args, 'distill');
    // The hooks start `lore scan --background`: a model is never called from there.
    if (distill && (flagOption(args, 'background') || outer.env.LORE_SCAN_BACKGROUND_CHILD === '1')) {
      throw new LoreError('usage', '--distill does not run in the background (nor from a hook)', {
        hint: 'run `lore scan --distill` or `lore distill` yourself',
      });
    }
    // A scan of the default folders that finds nothing new leaves a stamp for the next one
    // (scan-stamp.ts), with the signatures of what it reads taken before it reads them.
    const plain =
      !source && !since && paths.length === 0 && !distill && !flagOption(args, 'background') && !outer.root;
    const place = plain ? stampPlace(outer.cwd, outer.env) : undefined;
    const watched = place ? signWatched(place) : undefined;
    let notes = 0;
    const ctx: CommandContext = {
      ...outer,
      note: (line) => {
        notes += 1;
        outer.note(line);
      },
    };
    const ws = await openCommandWorkspace(ctx);
    try {
      // Off or misconfigured: say so before scanning, not after.
      const distiller = distill ? await openDistiller(ws, ctx.env) : undefined;
      if (flagOption(args, 'background')) {
        const forward = [
          ...(source ? ['--source', source] : []),
          ...(since ? ['--since', since] : []),
          ...paths.flatMap((p) => ['--path', resolve(ctx.cwd, p)]),
          ...(ctx.root !== undefined ? ['--root', resolve(ctx.cwd, ctx.root)] : []),
        ];
        const result = startBackground(ctx, ws.cacheDir, ws.config.capture.backgroundIntervalHours, forward);
        await pullAlongside(ctx);
        const text = result.started
          ? `lore scan: started in the background (pid ${result.pid}); log in ${ws.displayPath(join(ws.cacheDir, 'capture', 'background.log'))}`
          : `lore scan: skipped; the last background scan started at ${result.lastRun}`;
        return { data: result, text };
      }
      const background = ctx.env.LORE_SCAN_BACKGROUND_CHILD === '1';
      if (background) lowerPriority();
      const roots = given.length > 0 ? given : undefined;
      const capture = await import('../../capture/capture-candidates.js');
      const { defaultRoots } = await import('../../capture/default-roots.js');
      const bar = ctx.isTTY && !ctx.json && !background ? progressBar() : undefined;
      const target = capture.captureTargetOf(ws);
      const options = {
        roots: roots ?? defaultRoots(ctx.env, home, source),
        explicit: roots !== undefined,
        ...(source ? { source } : {}),
        ...(since ? { since } : {}),
        nowMs: ctx.now(),
        home,
        ...(bar ? { onProgress: bar.update } : {}),
        ...(place ? { tree: true } : {}),
        ...(background ? { threads: 'never' as const } : {}),
      };
      const { recordMarkerFeedback } = await import('../../store/lessons/feedback.js');
      let feedback = { recorded: 0, repeated: 0, unknown: 0 };
      let result;
      try {
        result = await capture.captureCandidates(target, {
          ...options,
          // before the scan state: a scan killed first is read again, and a marker counts once
          beforeSave: async (captured) => {
            feedback = await recordMarkerFeedback(ws, captured.report.markers, ctx.now(), 'scan');
          },
        });
      } finally {
        bar?.done();
      }
      const { report, touched } = result;
      const candidates = touched.map((c) => scanCandidateJson(c.record, c.evidence));
      const outcomes = await judgeAfterScan(ctx, ws);
      const distilled = distiller
        ? await distiller.run(
            touched.map((c) => ({ tier: c.tier, id: c.id })),
            { nowMs: ctx.now(), names: capture.localNames(home) },
          )
        : undefined;
      const data = {
        files: report.files,
        bytes: report.bytes,
        skipped: report.skipped,
        episodes: report.episodeCount,
        new: result.newCount,
        merged: result.mergedCount,
        decided: result.decided,
        dropped: result.dropped,
        candidates,
        capped: result.capped,
        feedback,
        // The recent tool calls kept for the breadth check (null: nothing new was read).
        callCache: report.callCache ?? null,
        outcomes,
        // folders left out (unreadable), then the first malformed lines and unreadable files
        problems: report.problems.map((problem) => ({
          file: problem.file,
          line: problem.line ?? null,
          message: problem.message,
        })),
        ...(distilled ? { distill: distilled.run } : {}),
      };
      const shown = report.problems.slice(0, 5);
      for (const problem of shown)
        ctx.note(
          `lore scan: ${problem.file}${problem.line === undefined ? '' : `:${problem.line}`}: ${problem.message}`,
        );
      // A candidate file broken by hand: its episodes were held back (not merged, not made again).
      const { surveyCandidates } = await import('../../store/candidates/candidate-actions.js');
      for (const c of surveyCandidates(ws).broken)
        ctx.note(
          `lore scan: ${ws.displayPath(c.file)}${c.line !== undefined ? `:${c.line}` : ''}: ${c.problem}; its pattern is held (nothing merged into it, no second candidate) until you fix the file or delete its folder`,
        );
      const more = Math.max(report.skipped + report.skippedPaths, report.problems.length) - shown.length;
      if (more > 0) ctx.note(`lore scan: ... and ${more} more malformed line(s)`);
      const lines = [
        ...(background ? [howItRan(report.workers)] : []),
        `scanned ${report.files} transcript file(s) (${report.changedFiles} changed), read ${megabytes(report.bytes)}, skipped ${report.skipped} malformed line(s)`,
        `found ${report.episodeCount} episode(s): ${result.newCount} new candidate(s), ${result.mergedCount} merged into existing ones${result.decided > 0 ? `, ${result.decided} already approved or rejected (or held by a broken candidate file)` : ''}${result.dropped > 0 ? `, ${result.dropped} dropped (no advice: the fix repeats the failure or changes nothing nameable)` : ''}${result.capped > 0 ? `, ${result.capped} left for the next scan (capture.maxCandidatesPerScan)` : ''}`,
        ...touched.map(
          (c) =>
            `  ${c.id}  ${c.change === 'new' ? 'new   ' : 'merged'}  ${c.record.confidence.toFixed(2)}  p${c.record.priority}  ${c.record.summary.slice(0, 100)}${c.record.needsReview ? '  (needs review)' : ''}`,
        ),
        ...(touched.length > 0 ? ['review them with `lore review` or `lore candidates list`'] : []),
        ...(feedback.recorded > 0
          ? [`recorded ${feedback.recorded} LEARNING_HELPFUL / LEARNING_NOT_HELPFUL marker(s) as feedback`]
          : []),
        ...outcomeLines(outcomes),
        ...(distilled ? [distilled.text] : []),
      ];
      const text = lines.join('\n');
      // nothing new read (the tree comes with that answer only), nothing noted, nothing left to judge
      const tree = result.tree;
      const stampable =
        place !== undefined &&
        watched !== undefined &&
        tree !== undefined &&
        notes === 0 &&
        place.cacheDir === ws.cacheDir &&
        quietOutcomes(outcomes) &&
        (await noGuardInReach(ws));
      if (stampable) writeScanStamp(place, { watched, tree, atMs: ctx.now(), output: { data, text } });
      return { data, text };
    } finally {
      ws.close();
    }
  },
};

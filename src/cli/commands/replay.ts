import { homedir } from 'node:os';
import { claudeCodeAdapter } from '../../adapters/claude-code/hook-adapter.js';
import { codexAdapter } from '../../adapters/codex/hook-adapter.js';
import { geminiAdapter } from '../../adapters/gemini/hook-adapter.js';
import { AGENTS } from '../../core/capture/events.js';
import type { Agent } from '../../core/capture/events.js';
import { LoreError } from '../../core/errors.js';
import { DELIVERY_FORMS } from '../../core/replay/replay-report.js';
import type { LessonReplay, ReplayReport } from '../../core/replay/replay-report.js';
import { choiceOption, existingPaths, flagOption, listOption, stringOption } from '../command.js';
import type { Command, CommandContext } from '../command.js';
import { truncate } from '../output.js';
import { openCommandWorkspace } from '../open-workspace.js';

function parseSince(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const ms = Date.parse(raw);
  if (raw.trim() === '' || Number.isNaN(ms)) {
    throw new LoreError('usage', `--since must be a date (2026-11-01 or an ISO time), got "${raw}"`);
  }
  return new Date(ms).toISOString();
}

/** A one-line progress note on stderr, redrawn in place: only on a TTY and never with --json. */
function progress(ctx: CommandContext, what: string) {
  let last = 0;
  const on = ctx.isTTY && !ctx.json;
  return {
    update(done: number, total: number) {
      if (!on) return;
      const now = Date.now();
      if (now - last < 80 && done < total) return;
      last = now;
      process.stderr.write(`\r${what} ${done}/${total}`);
    },
    done() {
      if (on && last > 0) process.stderr.write('\r\u001b[2K');
    },
  };
}

export const command: Command = {
  spec: {
    usage:
      'lore replay [--source claude-code|codex|gemini|all] [--path DIR]... [--since DATE] [--as-of] [--lesson ID]... [--json]',
    description:
      "Replays this machine's agent transcripts through the hook's own pipeline (this workspace's lessons,\n" +
      'matching, budgets and per-session dedup, in process: no session state or audit log is touched) and\n' +
      'reports, per lesson and delivery form (guard, checkpoint, before-call, after-call): fires, hits (fired on\n' +
      "a call that failed with the lesson's mistake), misses (its mistake happened and it had not fired on or\n" +
      'before that call), noise (fired and nothing of the kind went wrong on that call or the next attempt of the\n' +
      'same kind), prevented (the repeats it could have stopped), with suggestions: narrow a noisy trigger,\n' +
      'retire a lesson that never fires, make a repeating mistake a guard or a checkpoint. The report is kept in\n' +
      "the cache (replay/last.json) for the dashboard. The default folders are `lore scan`'s.",
    options: {
      source: {
        type: 'string',
        value: 'claude-code|codex|gemini|all',
        description: "only this agent's transcripts (default all)",
      },
      path: {
        type: 'string',
        multiple: true,
        value: 'DIR',
        description: 'replay this folder or file instead of the default folders; repeatable',
      },
      since: {
        type: 'string',
        value: 'DATE',
        description: 'skip transcripts, calls and prompts older than DATE',
      },
      'as-of': {
        type: 'boolean',
        description:
          'a lesson fires only after it existed (its createdAt, or the failure it was captured from); reports recurrences',
      },
      lesson: {
        type: 'string',
        multiple: true,
        value: 'ID',
        description: 'report only this lesson (id, prefix or slug); repeatable',
      },
    },
    positionals: { min: 0, max: 0, names: '' },
    json: true,
    examples: [
      'lore replay',
      'lore replay --source codex --since 2026-11-01',
      'lore replay --path ~/old-transcripts --as-of --json',
      'lore replay --lesson 01jq3kz2ab',
    ],
  },
  async run(ctx, args) {
    const choice = choiceOption(args, 'source', [...AGENTS, 'all'] as const);
    const source: Agent | undefined = choice === 'all' ? undefined : choice;
    const paths = existingPaths(args, 'path', ctx.cwd).map((p) => p.path);
    const since = parseSince(stringOption(args, 'since'));
    const asOf = flagOption(args, 'as-of');
    const home = ctx.env.HOME ?? homedir();
    const ws = await openCommandWorkspace(ctx);
    try {
      const { resolveLesson } = await import('../../store/lessons/lesson-writes.js');
      const lessons: string[] = [];
      for (const ref of listOption(args, 'lesson') ?? []) lessons.push((await resolveLesson(ws, ref)).id);
      const { defaultRoots } = await import('../../capture/default-roots.js');
      const { readReplayTranscripts } = await import('../../capture/replay-transcripts.js');
      const { replayWorkspace } = await import('../../store/replay/run-replay.js');
      const { writeLastReplay } = await import('../../store/replay/last-replay.js');
      const roots = paths.length > 0 ? paths.map((path) => ({ path })) : defaultRoots(ctx.env, home, source);
      const reading = progress(ctx, 'reading transcripts');
      const transcripts = readReplayTranscripts(roots, {
        ...(source === undefined ? {} : { source }),
        ...(since === undefined ? {} : { since }),
        onProgress: (done, total) => reading.update(done, total),
      });
      reading.done();
      const replaying = progress(ctx, 'replaying sessions');
      const { report } = await replayWorkspace(ws, transcripts, {
        options: {
          sources: source === undefined ? [...AGENTS] : [source],
          paths: roots.map((root) => root.path),
          since: since ?? null,
          asOf,
          lessons,
        },
        hosts: { 'claude-code': claudeCodeAdapter, codex: codexAdapter, gemini: geminiAdapter },
        nowMs: ctx.now(),
        onProgress: (done, total) => replaying.update(done, total),
      });
      replaying.done();
      const file = writeLastReplay(ws.cacheDir, report);
      return { data: report, text: formatReplay(report, ws.displayPath(file)) };
    } finally {
      ws.close();
    }
  },
};

const pct = (value: number | null) => (value === null ? '-' : `${Math.round(value * 100)}%`);

const FORM_LABEL: Record<string, string> = {
  guard: 'guard',
  checkpoint: 'checkpoint',
  'before-call': 'before',
  'after-call': 'after',
};

function formsOf(lesson: LessonReplay): string {
  return DELIVERY_FORMS.flatMap((form) => {
    const f = lesson.byForm[form];
    return f === undefined ? [] : [`${FORM_LABEL[form]} ${f.fires}/${f.hits}/${f.noise}/${f.prevented}`];
  }).join(', ');
}

export function formatReplay(report: ReplayReport, file: string): string {
  const c = report.counts;
  const lines = [
    `replayed ${report.calls} tool call(s) in ${c.sessions} session(s) from ${c.files} file(s)` +
      (report.options.asOf ? ' (as of each lesson’s creation)' : ''),
    `${report.callsWithInjection} call(s) got a lesson; ${report.injections} injection(s), ` +
      `${report.injectionsPer100Calls} per 100 calls, ${Math.round(report.bytesPer100Calls)} bytes per 100 calls; ` +
      `${report.guardDenials} guard and ${report.checkpointDenials} checkpoint denial(s)`,
  ];
  const odd = [
    [c.brokenLines, 'broken line(s) skipped'],
    [c.missingResults, 'call(s) without a result'],
    [c.orphanResults, 'result(s) without a call'],
    [c.clockBackwards, 'clock(s) going backwards'],
    [c.unknownTools, "call(s) of tools the hook doesn't see"],
    [c.subagentCalls, 'subagent call(s)'],
  ].filter(([n]) => (n as number) > 0);
  if (odd.length > 0) lines.push(odd.map(([n, what]) => `${n} ${what}`).join(', '));
  const where = report.options.paths.join(', ') || 'the default folders';
  if (c.files === 0 && report.options.since !== null)
    // files older than --since are left out: they may be there
    lines.push(
      `no transcripts written since ${report.options.since} found in ${where}: try an earlier --since, or pass --path DIR`,
    );
  else if (c.files === 0)
    lines.push(
      `no transcripts found in ${where}: pass --path DIR (a folder of Claude Code, Codex or Gemini CLI transcripts), or another --source`,
    );
  if (report.lessons.length === 0) {
    lines.push(
      '',
      'no active lessons to replay: add some (lore add) or approve candidates (lore candidates)',
    );
  } else {
    const idWidth = Math.max(10, ...report.lessons.map((l) => l.id.length));
    lines.push(
      '',
      `${'lesson'.padEnd(idWidth)}  ${'fires'.padStart(5)} ${'hits'.padStart(5)} ${'miss'.padStart(5)} ${'noise'.padStart(5)} ${'prev'.padStart(5)} ${'prec'.padStart(5)}${report.options.asOf ? ` ${'recur'.padStart(5)}` : ''}  summary`,
    );
    for (const l of report.lessons) {
      const flags = [
        l.type === 'hint' ? '' : `[${l.type}]`,
        l.toolOnly ? '[tool only]' : '',
        l.waits === true ? '[waits for error]' : '',
      ]
        .filter((f) => f !== '')
        .join(' ');
      lines.push(
        `${l.id.padEnd(idWidth)}  ${String(l.fires).padStart(5)} ${String(l.hits).padStart(5)} ${String(l.misses).padStart(5)} ${String(l.noise).padStart(5)} ${String(l.prevented).padStart(5)} ${pct(l.precision).padStart(5)}${report.options.asOf ? ` ${String(l.recurrences).padStart(5)}` : ''}  ${truncate(`${flags === '' ? '' : `${flags} `}${l.summary}`, 60)}`,
      );
      const forms = formsOf(l);
      if (forms !== '') lines.push(`${''.padEnd(idWidth)}  by form (fires/hits/noise/prevented): ${forms}`);
    }
  }
  if (report.suggestions.length > 0) {
    lines.push('', 'suggestions:');
    for (const s of report.suggestions) lines.push(`  ${s.kind.padEnd(10)} ${s.lesson}  ${s.text}`);
  }
  lines.push('', `kept in ${file} (the dashboard's Replay page reads it)`);
  return lines.join('\n');
}

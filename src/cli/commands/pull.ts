import { closeSync, mkdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LoreError } from '../../core/errors.js';
import { orgTierDir, resolveLoreHome, tierLayout } from '../../store/fs/paths.js';
import { openBackgroundLog } from '../../store/fs/background-log.js';
import { chooseRemote, readRemotes, requireToken } from '../../store/org-client/remote-config.js';
import type { Remote } from '../../store/org-client/remote-config.js';
import type { PullReport } from '../../store/org-client/pull-org.js';
import { flagOption, listOption, stringOption } from '../command.js';
import { refreshOrgTier } from '../refresh-org-tier.js';
import type { Command, CommandContext, CommandOutput } from '../command.js';
import { ranWithin } from '../../core/utc-time.js';

/** `--background` pulls at most once per this many minutes (LORE_PULL_INTERVAL_MINUTES). */
export const DEFAULT_PULL_INTERVAL_MINUTES = 15;

function intervalMinutes(env: NodeJS.ProcessEnv): number {
  const raw = env.LORE_PULL_INTERVAL_MINUTES;
  if (raw === undefined || raw.trim() === '') return DEFAULT_PULL_INTERVAL_MINUTES;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0)
    throw new LoreError('usage', `LORE_PULL_INTERVAL_MINUTES must be a number of minutes >= 0; got "${raw}"`);
  return value;
}

/**
 * Starts a detached `lore pull` (of every remote unless `forward` names one) unless one started within the interval (a stamp claimed before the
 * child starts, so two sessions starting together pull once), and returns at once.
 */
export function startBackgroundPull(ctx: CommandContext, forward: string[]) {
  if (ctx.env.LORE_NO_PULL === '1') return { started: false, reason: 'LORE_NO_PULL=1' };
  const home = resolveLoreHome(ctx.env);
  if (readRemotes(home).length === 0) return { started: false, reason: 'no-remote' };
  const dir = join(tierLayout(orgTierDir(home)).cacheDir, 'pull');
  mkdirSync(dir, { recursive: true });
  const stamp = join(dir, 'background.stamp');
  const now = ctx.now();
  const last = statSync(stamp, { throwIfNoEntry: false })?.mtimeMs;
  if (last !== undefined && ranWithin(last, now, intervalMinutes(ctx.env) * 60_000))
    return { started: false, reason: 'ran-recently', lastRun: new Date(last).toISOString() };
  writeFileSync(stamp, `${process.pid}\n`);
  utimesSync(stamp, new Date(now), new Date(now));
  const log = openBackgroundLog(join(dir, 'background.log'));
  const bin = fileURLToPath(new URL('../bin.js', import.meta.url));
  // nothing named: every remote (`lore pull` alone refuses to choose among several)
  const child = spawn(process.execPath, [bin, 'pull', ...(forward.length > 0 ? forward : ['--all'])], {
    cwd: ctx.cwd,
    env: ctx.env,
    detached: true,
    stdio: ['ignore', log, log],
  });
  child.unref();
  closeSync(log);
  return { started: true, pid: child.pid ?? null };
}

export const command: Command = {
  spec: {
    usage:
      'lore pull [--remote NAME | --all] [--project NAME]... [--drop-project NAME]... [--background] [--json]',
    description:
      "Brings the organisation's accepted lessons down into the org tier ($LORE_HOME/org), which every\n" +
      'repository on this machine reads (project > user > org when two share an id or slug) and lore\n' +
      'never edits. Only changed lessons are fetched; ones the organisation dropped are removed. The\n' +
      "hooks and every read work from this copy, offline. --project adds that project's lessons, and\n" +
      'later pulls (the background one too) keep bringing them until --drop-project removes it.\n' +
      '--all pulls every remote in turn (each with the projects it remembers). --background pulls\n' +
      'detached (every remote, unless --remote names one), at most once per\n' +
      'LORE_PULL_INTERVAL_MINUTES (default 15); each session start asks for one when a remote is set\n' +
      'up (LORE_NO_PULL=1: never in the background).',
    options: {
      remote: { type: 'string', value: 'NAME', description: 'the remote (default: the only one)' },
      all: { type: 'boolean', description: 'pull every remote, one after another' },
      project: {
        type: 'string',
        multiple: true,
        value: 'NAME',
        description: "also pull this project's lessons, now and in every later pull",
      },
      'drop-project': {
        type: 'string',
        multiple: true,
        value: 'NAME',
        description: "stop pulling this project's lessons (removes them here)",
      },
      background: { type: 'boolean', description: 'pull detached, rate-limited, and return at once' },
    },
    positionals: { min: 0, max: 0, names: '' },
    json: true,
    examples: [
      'lore pull',
      'lore pull --all',
      'lore pull --remote acme --project billing',
      'lore pull --drop-project billing',
    ],
  },
  async run(ctx, args) {
    const remoteName = stringOption(args, 'remote');
    const projects = listOption(args, 'project') ?? [];
    const dropProjects = listOption(args, 'drop-project') ?? [];
    const all = flagOption(args, 'all');
    const home = resolveLoreHome(ctx.env);
    if (all && (remoteName !== undefined || projects.length + dropProjects.length > 0))
      throw new LoreError(
        'usage',
        '--all pulls every remote as it is; it takes no --remote, --project or --drop-project',
        {
          hint: 'add or drop a project on one remote: lore pull --remote NAME --project NAME',
        },
      );
    if (flagOption(args, 'background')) {
      // A project belongs to one remote: with several, which must be said now, not found out by
      // the detached pull, whose error only its log would show.
      if (remoteName === undefined && projects.length + dropProjects.length > 0)
        chooseRemote(home, undefined);
      const forward = [
        ...(remoteName ? ['--remote', remoteName] : []),
        ...projects.flatMap((name) => ['--project', name]),
        ...dropProjects.flatMap((name) => ['--drop-project', name]),
      ];
      const result = startBackgroundPull(ctx, forward);
      return {
        data: result,
        text: result.started
          ? `lore pull: started in the background (pid ${result.pid})`
          : `lore pull: skipped (${result.reason})`,
      };
    }
    if (all) return pullAll(ctx, home);
    const remote = chooseRemote(home, remoteName);
    const report = await pullOne(ctx, home, remote, { projects, dropProjects });
    await refreshOrgTier(ctx, home);
    return { data: report, text: pullLine(report) };
  },
};

async function pullOne(
  ctx: CommandContext,
  home: string,
  remote: Remote,
  options: { projects: string[]; dropProjects: string[] },
): Promise<PullReport> {
  const token = requireToken(home, remote);
  const [{ createOrgClient }, { pullOrg }] = await Promise.all([
    import('../../store/org-client/org-client.js'),
    import('../../store/org-client/pull-org.js'),
  ]);
  const client = createOrgClient({ url: remote.url, token });
  const report = await pullOrg(home, remote, client, {
    ...options,
    nowIso: new Date(ctx.now()).toISOString(),
  });
  for (const skipped of report.skipped.slice(0, 5))
    ctx.note(`lore pull: skipped ${skipped.id}: ${skipped.reason}`);
  return report;
}

function pullLine(report: PullReport): string {
  return (
    `pulled from ${report.remote}${report.projects.length > 0 ? ` (with project ${report.projects.join(', ')})` : ''}: ${report.total} organisation lesson(s); ${report.added.length} new, ${report.updated.length} changed, ` +
    `${report.removed.length} removed, ${report.unchanged} unchanged${report.skipped.length > 0 ? `, ${report.skipped.length} skipped` : ''}`
  );
}

/**
 * `lore pull --all` (and the background pull when no remote is named): every remote in name order.
 * One that fails (offline, a token revoked) is reported and the others still pull; exit 1 then.
 */
async function pullAll(ctx: CommandContext, home: string): Promise<CommandOutput> {
  const remotes = [...readRemotes(home)].sort((a, b) => a.name.localeCompare(b.name));
  if (remotes.length === 0) chooseRemote(home, undefined); // says how to add one
  const pulled: Array<PullReport | { remote: string; url: string; error: string }> = [];
  const lines: string[] = [];
  for (const remote of remotes) {
    try {
      const report = await pullOne(ctx, home, remote, { projects: [], dropProjects: [] });
      pulled.push(report);
      lines.push(pullLine(report));
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      pulled.push({ remote: remote.name, url: remote.url, error: message });
      lines.push(`${remote.name}: not pulled: ${message}`);
    }
  }
  const failed = pulled.some((report) => 'error' in report);
  // the org tier changed only if a remote pulled: one that failed wrote nothing (as `lore pull` of it)
  if (pulled.some((report) => !('error' in report))) await refreshOrgTier(ctx, home);
  return { data: { remotes: pulled }, text: lines.join('\n'), ...(failed ? { exitCode: 1 as const } : {}) };
}

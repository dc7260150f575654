/**
 * Starts the background manifest rebuilder (plugin/bin/lore-manifest.cjs) as a detached child,
 * unless one is already running for that cache (an O_EXCL lock file, considered dead after a
 * minute). The hook never waits for it. node:child_process is loaded only here, when needed: it
 * costs ~5 ms to load, more than the rest of the hook.
 */
import { closeSync, existsSync, mkdirSync, openSync, statSync, unlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { manifestDir } from '../store/hook-state/manifest-files.js';
import type { RebuildRequest, ScanRequest } from './run-hook.js';

export const REBUILD_LOCK = 'rebuild.lock';
const LOCK_STALE_MS = 60_000;

function takeLock(path: string, nowMs: number): boolean {
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      closeSync(openSync(path, 'wx', 0o644));
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return false;
      const age = nowMs - (statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? nowMs);
      if (age < LOCK_STALE_MS) return false;
      try {
        unlinkSync(path);
      } catch {
        return false;
      }
    }
  }
  return false;
}

/**
 * Starts `node ARGS` detached with stdio ignored, once the hook's own work is done (a microtask
 * later). child_process is loaded only then, and without import(), which the hook's launcher
 * (vm.Script) cannot serve on Node 20.
 */
function startDetached(args: string[], options: { env: NodeJS.ProcessEnv; cwd?: string }): void {
  void Promise.resolve()
    .then(() => {
      const { spawn } = process.getBuiltinModule('node:child_process');
      const child = spawn(process.execPath, args, {
        ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
        detached: true,
        stdio: 'ignore',
        env: { ...options.env, NODE_EXTRA_CA_CERTS: '' },
      });
      child.on('error', () => undefined);
      child.unref();
    })
    .catch(() => undefined);
}

export function createRebuildStarter(
  builder: string,
  env: NodeJS.ProcessEnv,
  nowMs: number,
): (request: RebuildRequest) => void {
  let started = false;
  return (request) => {
    if (started) return;
    started = true;
    try {
      const dir = manifestDir(request.cacheDir);
      mkdirSync(dir, { recursive: true });
      const lock = join(dir, REBUILD_LOCK);
      if (!takeLock(lock, nowMs)) return;
      const args = [
        builder,
        '--cwd',
        request.start,
        '--lock',
        lock,
        ...(request.onlyIfChanged ? ['--if-changed'] : []),
      ];
      startDetached(args, { env });
    } catch {
      // a rebuild that cannot start costs freshness, never the hook's answer
    }
  };
}

/**
 * The lore CLI next to the hook, when there is one: `<plugin>/bin/lore-hook.cjs` in the npm package
 * (or a built checkout) has `<package>/dist/cli/bin.js` two levels up; a plugin copied on its own
 * (a marketplace install) has none.
 */
function cliNextTo(hookFile: string): string | undefined {
  const cli = join(dirname(hookFile), '..', '..', 'dist', 'cli', 'bin.js');
  return existsSync(cli) ? cli : undefined;
}

/**
 * Starts `lore scan --background` detached, with stdio ignored, if the lore CLI sits next to the
 * hook: `<plugin>/bin/lore-hook.cjs` in the npm package (or a built checkout) has
 * `<package>/dist/cli/bin.js` two levels up. A plugin copied on its own (a marketplace install)
 * has no CLI next to it: then nothing starts. The CLI checks its stamp again and writes it.
 */
export function createScanStarter(
  hookFile: string,
  env: NodeJS.ProcessEnv,
): (request: ScanRequest) => boolean {
  return (request) => {
    const cli = cliNextTo(hookFile);
    if (cli === undefined) return false;
    startDetached([cli, 'scan', '--background'], { env, cwd: request.cwd });
    return true;
  };
}

/** `lore pull --background` detached, like the scan (the CLI next to the hook, or nothing). */
export function createPullStarter(
  hookFile: string,
  env: NodeJS.ProcessEnv,
): (request: { cwd: string }) => boolean {
  return (request) => {
    const cli = cliNextTo(hookFile);
    if (cli === undefined) return false;
    startDetached([cli, 'pull', '--background'], { env, cwd: request.cwd });
    return true;
  };
}

/**
 * Starts `lore feedback REF --helpful|--not-helpful --session S --source hook` for each marker of a
 * Stop hook, one after another in one detached shell-free chain: the CLI next to the hook when
 * there is one (npm package, built checkout), else `lore` on PATH. Markers are rare, so the cost
 * of a CLI start only falls on the turns that judged a lesson.
 */
export function createFeedbackStarter(
  hookFile: string,
  env: NodeJS.ProcessEnv,
): (request: { cwd: string; session: string; markers: { ref: string; helpful: boolean }[] }) => boolean {
  return (request) => {
    const local = cliNextTo(hookFile);
    const [command, prefix] = local === undefined ? ['lore', []] : [process.execPath, [local]];
    const calls = request.markers.map((marker) => [
      command,
      ...prefix,
      'feedback',
      marker.ref,
      marker.helpful ? '--helpful' : '--not-helpful',
      '--session',
      request.session,
      '--source',
      'hook',
    ]);
    // One detached node process runs the CLI calls in turn (no shell: the session id is data).
    const runner = `const {spawnSync}=require('node:child_process');for(const c of ${JSON.stringify(calls)})spawnSync(c[0],c.slice(1),{stdio:'ignore'});`;
    startDetached(['-e', runner], { env, cwd: request.cwd });
    return true;
  };
}

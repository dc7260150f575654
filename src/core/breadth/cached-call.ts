/**
 * One tool call as the call cache keeps it (`lore scan` writes the newest `CALL_CACHE_LIMIT` of
 * them, for the breadth check at authoring): where and when it ran, what it acted on (the shell
 * command cut short, or the files), what became of it and the class of its error. Built from the
 * shared `ReplayCall`; the capture side redacts it before it is written. Pure.
 */
import type { Agent } from '../capture/events.js';
import type { CallOutcomeKind, ReplayCall } from '../outcome/call-outcome.js';
import type { ErrorClass } from '../outcome/error-class.js';
import { resolvePath, toolPaths } from '../inject/parse-hook-input.js';

/** How many calls the cache keeps: the newest, whatever the number of files they came from. */
export const CALL_CACHE_LIMIT = 5000;
/** A shell command is kept up to this many characters (lessons' command patterns run over it). */
export const CACHED_COMMAND_CHARS = 1000;
const CACHED_PATHS = 8;

export type CachedCall = {
  /** The call's id in its transcript (with `session`, what makes a call unique). */
  id: string;
  time?: string;
  agent: Agent;
  session: string;
  /** The session's working directory, when the transcript says. */
  project?: string;
  /** As the transcript names it (`Bash`, `exec_command`, `read_file`, ...). */
  tool: string;
  /** Shell calls: the command, cut to `CACHED_COMMAND_CHARS`. */
  command?: string;
  /** File calls: the paths, relative to `project` when inside it, else absolute. */
  paths?: string[];
  /** Command keys (`git push`) or the file, as `ReplayCall.keys`. */
  keys: string[];
  outcome: CallOutcomeKind;
  errorClass?: ErrorClass;
  /** A failed call: its error gist, cut to `CACHED_ERROR_CHARS` (lessons' `errors` run over it). */
  error?: string;
};

/** The error gist is kept up to this many characters. */
export const CACHED_ERROR_CHARS = 300;

function relativeTo(project: string | undefined, path: string): string {
  if (project === undefined || !project.startsWith('/')) return path;
  const root = resolvePath('/', project);
  const absolute = resolvePath(root, path);
  return absolute.startsWith(`${root}/`) ? absolute.slice(root.length + 1) : absolute;
}

/** The paths a call acts on: its file (file tools), else what the hook would read from its input. */
function pathsOf(call: ReplayCall): string[] {
  if (call.family === 'shell') return [];
  const cwd = call.project?.startsWith('/') === true ? call.project : '/';
  const fromKeys = call.family === 'edit' || call.family === 'read' ? call.keys.filter((k) => k !== '?') : [];
  const found = fromKeys.length > 0 ? fromKeys : toolPaths(call.tool, call.input, cwd);
  return [...new Set(found.map((path) => relativeTo(call.project, path)))].slice(0, CACHED_PATHS);
}

export function cachedCallOf(call: ReplayCall): CachedCall {
  const paths = pathsOf(call);
  return {
    id: call.callId,
    ...(call.time !== undefined ? { time: call.time } : {}),
    agent: call.agent,
    session: call.session,
    ...(call.project !== undefined ? { project: call.project } : {}),
    tool: call.tool,
    ...(call.command !== undefined ? { command: call.command.slice(0, CACHED_COMMAND_CHARS) } : {}),
    ...(paths.length > 0 ? { paths } : {}),
    keys: call.keys.slice(0, CACHED_PATHS),
    outcome: call.outcome,
    ...(call.errorClass !== undefined ? { errorClass: call.errorClass } : {}),
    // The exit code leads, as the hook's result text has it: a lesson that waits for its
    // command to fail (a non-zero exit) counts this failure too.
    ...(call.gist !== undefined && call.outcome === 'failed'
      ? {
          error:
            `${call.exitCode !== undefined && call.exitCode !== 0 ? `Exit code ${call.exitCode}\n` : ''}${call.gist}`.slice(
              0,
              CACHED_ERROR_CHARS,
            ),
        }
      : {}),
  };
}

const keyOf = (call: CachedCall) => `${call.session}\u0000${call.id}`;

/**
 * The cache after a scan: the calls it kept and the calls the scan found, one entry per call (a
 * file read again from the start finds its calls again: the newer entry wins, it may have its
 * result now), in time order (calls without a time keep their place after the ones before
 * them), the newest `limit`.
 */
export function mergeCachedCalls(
  kept: readonly CachedCall[],
  added: readonly CachedCall[],
  limit = CALL_CACHE_LIMIT,
): CachedCall[] {
  const byKey = new Map<string, CachedCall>();
  for (const call of kept) byKey.set(keyOf(call), call);
  for (const call of added) {
    byKey.delete(keyOf(call));
    byKey.set(keyOf(call), call);
  }
  const all = [...byKey.values()];
  let last = '';
  const times = all.map((call) => (last = call.time ?? last));
  const order = all
    .map((_, i) => i)
    .sort((a, b) => {
      const ta = times[a] ?? '';
      const tb = times[b] ?? '';
      return ta < tb ? -1 : ta > tb ? 1 : a - b;
    });
  return order.slice(Math.max(0, order.length - limit)).map((i) => all[i] as CachedCall);
}

/**
 * The time below which a call cannot be among the newest `limit` the cache keeps, from calls known
 * to be merged into it (the cache read before the scan, the calls of the files scanned so far):
 * once `limit` calls with a time are known, one older than the `limit`-th newest of them is ranked
 * below all of those (`mergeCachedCalls` orders by time first). A scan hands the floor to the
 * files it reads next, which then leave older calls out of what they collect (collecting calls
 * cost about a quarter of a scan: a slimmed copy of each, its outcome, a failure's gist and class);
 * a long history's old files then collect nothing. Only calls with a time count here. The floor
 * only rises; it is worked out again each time `limit` more calls are known.
 */
export function createCallFloor(limit = CALL_CACHE_LIMIT): {
  add(calls: readonly CachedCall[]): void;
  /** The time calls must reach to be collected; undefined while fewer than `limit` are known. */
  floor(): string | undefined;
} {
  const times = new Map<string, string>();
  let floor: string | undefined;
  return {
    add(calls) {
      for (const call of calls) {
        if (call.time === undefined || (floor !== undefined && call.time < floor)) continue;
        times.set(keyOf(call), call.time);
      }
      if (times.size < (floor === undefined ? limit : 2 * limit)) return;
      const sorted = [...times.values()].sort();
      floor = sorted[sorted.length - limit] as string;
      for (const [key, time] of times) if (time < floor) times.delete(key);
    },
    floor: () => floor,
  };
}

/**
 * A failure waiting for its fix, and what each later tool result means for it. Both verdicts are
 * pure: `judgeFailure` says whether a failed call is noise, a first failure, another attempt at
 * an open one, or a new story; `judgeSuccess` says whether a successful call fixed an open
 * failure, settled it some other way, or leaves it waiting (perhaps as the step that enables the
 * fix). The detector (`detect-episodes.ts`) applies them to its state.
 */
import { isShellTool } from './classify-result.js';
import { commandOf } from './call-target.js';
import type { CallTarget } from './call-target.js';
import type { Attempt } from './episode.js';
import type { ToolCall, ToolResult } from './events.js';
import { commandKeys, segmentKey, segments } from './shell-command.js';

export type PendingFailure = {
  /** Failed attempts at one target, oldest first (never empty). */
  attempts: Attempt[];
  keys: string[];
  family: string;
  /** Event index of the newest attempt (or user correction): the window counts from it. */
  lastIndex: number;
  diagnosis: string | undefined;
  userText: string | undefined;
  /** The most recent successful different call since the last attempt. */
  enabler: ToolCall | undefined;
};

/** Commands that look something up: their failure is an answer, not a mistake. */
const PROBES = new Set([
  'which',
  'where',
  'where.exe',
  'type',
  'command',
  'test',
  '[',
  'ls',
  'dir',
  'find',
  'grep',
  'rg',
  'stat',
  'file',
  'pgrep',
  'fd',
  'tasklist',
  'Get-Command',
  'Test-Path',
  'Get-ChildItem',
]);

/** Build and test tools: a failure they report is usually in the code, fixed by editing it. */
const BUILDERS =
  /^(tsc|npx tsc|npx vitest|npx jest|jest|vitest|pytest|python -m|cargo|go|make|mvn|gradle|\.\/gradlew|dotnet|npm run|npm test|pnpm run|pnpm test|yarn|bun|eslint|npx eslint|ruff|mypy|swift)\b/;

/** The network or a remote said no: the environment, not the agent's usage. */
const ENVIRONMENT =
  /\b(Request timed out|Connection timed out|Connection refused|Network is unreachable|No route to host|Could not resolve host|Name or service not known|Temporary failure in name resolution|status code (403|404|429|5\d\d)|Permission denied \(publickey|Host key verification failed|ECONNREFUSED|ETIMEDOUT|ENOTFOUND|EAI_AGAIN|cygheap|child_copy|dofork|Command failed: cygpath)\b/;

/** The first failure at a target. */
export function openFailure(
  call: ToolCall,
  result: ToolResult,
  target: CallTarget,
  index: number,
): PendingFailure {
  return {
    attempts: [{ call, result }],
    keys: target.keys,
    family: target.family,
    lastIndex: index,
    diagnosis: undefined,
    userText: undefined,
    enabler: undefined,
  };
}

export function lastAttempt(pending: PendingFailure): Attempt {
  return pending.attempts[pending.attempts.length - 1] as Attempt;
}

/** A lookup (`which`, `ls`, `tool --version`): asking, not doing. */
export function isProbe(call: ToolCall): boolean {
  if (!isShellTool(call.tool)) return false;
  const command = commandOf(call);
  if (command === undefined) return false;
  const keys = commandKeys(command);
  if (keys.length > 0 && keys.every((key) => PROBES.has(key.split(' ')[0] ?? ''))) return true;
  // `tool --version`, `which x && x -V`: asking what is installed.
  return segments(command).every((segment) => {
    const key = segmentKey(segment);
    if (key === undefined) return true;
    if (PROBES.has(key[0] ?? '')) return true;
    const rest = segment.slice(segment.indexOf(key[0] ?? '') + 1);
    return rest.length > 0 && rest.every((arg) => /^(--version|-V|-v|version|--help|-h)$/.test(arg));
  });
}

/** Failures that teach nothing: lookups, the network, the harness itself. */
export function isNoise(call: ToolCall, result: ToolResult): boolean {
  if (isProbe(call)) return true;
  return ENVIRONMENT.test(result.text.slice(0, 3000));
}

/** The line of an error that says what went wrong, to tell one failure from another. */
export function failureGist(text: string): string {
  const line =
    text.split('\n').find((l) => /error|not found|no module|cannot|failed/i.test(l)) ??
    text.split('\n')[0] ??
    '';
  return line.replace(/\d+/g, '#').trim().slice(0, 120);
}

export function sameInput(a: ToolCall, b: ToolCall): boolean {
  return JSON.stringify(a.input) === JSON.stringify(b.input);
}

/** Whether a call at `target` is another go at the pending failure's target. */
export function relatedTo(pending: PendingFailure, target: CallTarget, tool?: string): boolean {
  if (pending.family !== target.family) return false;
  if (target.keys.some((key) => pending.keys.includes(key))) return true;
  // A harness error ("File does not exist", a missing parameter) is about how the tool was used:
  // a later success of the same tool on another target is the corrected use.
  const first = pending.attempts[0];
  return first !== undefined && first.result.failure === 'tool-use-error' && first.call.tool === tool;
}

/** The file a call acts on, by basename (for a shell command that writes or lists it instead). */
function baseName(path: string): string {
  const parts = path.split(/[\\/]/).filter((p) => p !== '');
  return parts[parts.length - 1] ?? '';
}

/** A later successful call that deals with the same file another way (Read, a heredoc, ls). */
export function touchesSameFile(pending: PendingFailure, call: ToolCall, target: CallTarget): boolean {
  if (pending.family !== 'edit' && pending.family !== 'read') return false;
  const path = pending.keys[0];
  if (path === undefined || path === '?') return false;
  if ((target.family === 'edit' || target.family === 'read') && target.keys.includes(path)) return true;
  const name = baseName(path);
  const command = commandOf(call);
  return command !== undefined && name.length >= 5 && command.includes(name);
}

export type FailureVerdict =
  /** A lookup or the environment: nothing to learn, nothing changes. */
  | { kind: 'noise' }
  /** No open failure at this target: a new one opens. */
  | { kind: 'first' }
  /** One more attempt at the open failure. */
  | { kind: 'retry'; open: PendingFailure }
  /**
   * The step in between (an install, a config change) cured the open failure's error; the retry
   * now fails for another reason, which is a new story: the open one closes as fixed by that step.
   */
  | { kind: 'cured'; open: PendingFailure };

/** What a failed call means for the failures waiting for a fix (`pending`, oldest first). */
export function judgeFailure(
  pending: readonly PendingFailure[],
  call: ToolCall,
  result: ToolResult,
  target: CallTarget,
): FailureVerdict {
  if (isNoise(call, result)) return { kind: 'noise' };
  const open = [...pending].reverse().find((p) => relatedTo(p, target, call.tool));
  if (open === undefined) return { kind: 'first' };
  const previous = open.attempts[open.attempts.length - 1];
  const cured =
    previous !== undefined &&
    open.enabler !== undefined &&
    open.family === 'shell' &&
    failureGist(previous.result.text) !== failureGist(result.text);
  return cured ? { kind: 'cured', open } : { kind: 'retry', open };
}

export type SuccessVerdict =
  /**
   * Not a go at the same target: the failure keeps waiting. `enabler`: the call becomes its
   * enabler; `clearEdited`: a later run of the same shell tool ends "edited since the failure".
   */
  | { close: false; enabler: boolean; clearEdited: boolean }
  /** The failure is settled, as an episode of this kind (`error-fix`: this call is the fix) or as none. */
  | { close: true; episode: 'error-fix' | 'retry-loop' | undefined };

/**
 * What a successful call at `target` means for one pending failure. `edited`: files were edited
 * since this (shell) failure.
 */
export function judgeSuccess(
  pending: PendingFailure,
  call: ToolCall,
  target: CallTarget,
  edited: boolean,
): SuccessVerdict {
  const last = lastAttempt(pending).call;
  if (!relatedTo(pending, target, call.tool)) {
    if (touchesSameFile(pending, call, target)) return { close: true, episode: 'error-fix' };
    return {
      close: false,
      // Any successful call of the same family counts, lookups included; for a failed file or
      // tool call, any call at all.
      enabler: target.family === pending.family || pending.family !== 'shell',
      clearEdited: isShellTool(call.tool) && call.tool === last.tool && pending.family === 'shell',
    };
  }
  if (
    edited &&
    pending.family === 'shell' &&
    commandKeys(commandOf(last) ?? '').some((key) => BUILDERS.test(key))
  ) {
    // The command was right; the code was wrong and got fixed: ordinary iteration.
    return { close: true, episode: undefined };
  }
  if (!sameInput(call, last) || pending.enabler !== undefined) return { close: true, episode: 'error-fix' };
  // The same call worked when simply repeated: a transient failure, unless it looped.
  return { close: true, episode: pending.attempts.length >= 3 ? 'retry-loop' : undefined };
}

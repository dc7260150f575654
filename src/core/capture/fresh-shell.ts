/**
 * Gemini CLI and Codex start every shell command in a new shell, in the workspace folder: a `cd`
 * on its own changes nothing for the calls after it. Such a call is a failure its output never
 * shows (the detector, the call outcomes of replay and the call cache all count it as one), and its
 * lesson fires on any shell command that only changes folder.
 */
import { commandOf } from './call-target.js';
import { isShellTool } from './classify-result.js';
import type { ToolCall, ToolResult } from './events.js';
import type { Host } from '../inject/types.js';
import { escapeRegex, stripQuotes } from './shell-command.js';

/** Agents whose shell tool runs each command in a new shell, in the workspace folder: the lesson's `agents`. */
export const FRESH_SHELL_AGENTS: readonly Host[] = ['gemini', 'codex'];
const FRESH_SHELLS: ReadonlySet<string> = new Set(FRESH_SHELL_AGENTS);

/** A command that only changes folder (`cd Gemini-Playground`). */
const CD_ALONE = /^\s*cd\s+("[^"\n]+"|'[^'\n]+'|[^\s;&|"'<>]+)\s*;?\s*$/;

/** The trigger of its lesson: any shell command that only changes folder. */
export const CD_ALONE_TRIGGER = CD_ALONE.source;

/** What of a call the rules below read. */
type CallLike = Pick<ToolCall, 'agent' | 'tool' | 'input'>;

/**
 * The folder of a shell call that only changes into it, in an agent whose next call starts in a
 * new shell anyway: a `cd` that changes nothing. Undefined for any other call.
 */
export function cdAlone(call: CallLike): string | undefined {
  if (!FRESH_SHELLS.has(call.agent) || !isShellTool(call.tool)) return undefined;
  const word = CD_ALONE.exec(commandOf(call) ?? '')?.[1];
  const folder = word === undefined ? undefined : stripQuotes(word);
  return folder === undefined || /^(-|~|\.{1,2})$/.test(folder) ? undefined : folder;
}

/**
 * The result of a `cd` on its own as the failure it was (its output never says so: `foundLater`,
 * so its lesson speaks before the call, not after an error); undefined for any other result.
 */
export function cdAloneFailure(call: CallLike, result: ToolResult): ToolResult | undefined {
  const folder = result.ok ? cdAlone(call) : undefined;
  if (folder === undefined) return undefined;
  return {
    ...result,
    ok: false,
    failure: 'error-output',
    text: `cd ${folder} changed nothing: the next call starts in a new shell, in the workspace folder`,
    exitCode: undefined,
    foundLater: true,
  };
}

/** Whether a call reaches into a folder by its path, or changes into it for the same command. */
export function usesFolder(folder: string, call: CallLike): boolean {
  if (cdAlone(call) !== undefined) return false;
  const bare = escapeRegex(folder.replace(/[\\/]+$/, ''));
  const path = new RegExp(`(^|[\\s"'=])(\\.[\\\\/])?${bare}([\\\\/]|["'\\s;&|]|$)`);
  return Object.values(call.input).some((value) => typeof value === 'string' && path.test(value));
}

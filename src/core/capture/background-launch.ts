/**
 * A program started in the background (`cosmic-applet-battery &`) always "succeeds": the shell
 * returns before it runs. Whether it stayed up shows only when the agent looks for it afterwards
 * (`ps aux | grep cosmic-applet-battery`, `pgrep -f x`) and finds nothing. That check turns the
 * launch into the failure it was, so three launches that each died are a loop, and the launch
 * that a later check finds running is the fix.
 */
import { commandOf } from './call-target.js';
import { errorGist, isShellTool } from './classify-result.js';
import type { Attempt } from './episode.js';
import type { ToolCall, ToolResult } from './events.js';
import { commandKeys, segmentKey, segments, sshRemote, stripQuotes, tokenize } from './shell-command.js';

/** A launch the detector remembers until a check looks for it (or it grows too old). */
export type Launch = { program: string; attempt: Attempt; index: number };

/** Checks farther than this many events from their launch say nothing about it. */
export const LAUNCH_WINDOW = 12;

/** The program a shell call starts in the background, if its last command ends with `&`. */
export function backgroundProgram(call: ToolCall): string | undefined {
  if (!isShellTool(call.tool)) return undefined;
  const command = commandOf(call);
  // Every successful shell call comes through here: only a line that ends in one `&` can qualify.
  if (command === undefined || !/(^|[^&])&[\s;]*$/.test(command)) return undefined;
  const tokens = tokenize(command).filter((token) => token !== ';');
  if (tokens[tokens.length - 1] !== '&') return undefined;
  const last = segments(command).at(-1);
  const key = last === undefined ? undefined : segmentKey(last);
  return key?.[0] === undefined || key[0] === 'ssh' ? undefined : key[0];
}

/** Programs that list processes: a search over their output asks whether something runs. */
const PROCESS_LISTS = new Set(['ps', 'pgrep', 'pidof', 'tasklist', 'get-process']);

/** The names a process check looks for: `ps aux | grep NAME`, `pgrep [-f] NAME`, `pidof NAME`. */
export function checkedNames(call: ToolCall): string[] {
  if (!isShellTool(call.tool)) return [];
  let command = commandOf(call) ?? '';
  const first = segments(command)[0];
  if (first !== undefined && segmentKey(first)?.[0] === 'ssh') command = sshRemote(first.slice(1)) ?? '';
  const stages = segments(command);
  const programs = stages.map((stage) => stripQuotes(stage[0] ?? '').toLowerCase());
  if (!programs.some((program) => PROCESS_LISTS.has(program))) return [];
  return stages.flatMap((stage, i) => {
    const program = programs[i];
    if (program !== 'grep' && program !== 'pgrep' && program !== 'pidof') return [];
    if (stage.includes('-v')) return [];
    const words = stage.slice(1).filter((word) => !word.startsWith('-'));
    return words.slice(0, 1).map((word) => stripQuotes(word).replace(/^\[(.)\]/, '$1'));
  });
}

/** A check that found nothing: exit code 1 and no output (`grep` and `pgrep` alike). */
export function foundNothing(result: ToolResult): boolean {
  return !result.ok && result.exitCode === 1 && errorGist(result.text) === 'failed without output';
}

/** Whether a check for `names` looks for the program a launch started. */
export function looksFor(names: readonly string[], launch: Launch): boolean {
  const program = launch.program.toLowerCase();
  return names.some((name) => {
    const wanted = name.toLowerCase();
    return wanted.length >= 3 && (program === wanted || program.includes(wanted) || wanted.includes(program));
  });
}

/**
 * What the launch's failure says. The words are the same for every check, so that each launch
 * that died is one more attempt at the same failure.
 */
export function diedText(launch: Launch): string {
  return `${launch.program} was not running soon after it was started in the background`;
}

/** The key a launch is pending under, as a failed call of the same command would be. */
export function launchKeys(launch: Launch): string[] {
  return commandKeys(commandOf(launch.attempt.call) ?? '');
}

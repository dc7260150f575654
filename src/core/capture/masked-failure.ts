/**
 * Shell calls that failed although their result says nothing of it: the exit code a pipe into
 * `head` hid, with the command's own error on the first line of its output; errors a program
 * reported further down and went on past, to exit 0; or `cmd /c` that printed its banner and ran
 * nothing. The detector and replay's call outcomes read a result through `resultOfCall`, so both
 * count these, and a `cd` on its own, as failures.
 */
import { commandOf } from './call-target.js';
import { isShellTool, openingError } from './classify-result.js';
import type { ToolCall, ToolResult } from './events.js';
import { cdAloneFailure } from './fresh-shell.js';
import { commandKeys } from './shell-command.js';

/** What a call read from a transcript was, `cd` on its own and hidden failures counted. */
export function resultOfCall(
  call: Pick<ToolCall, 'agent' | 'tool' | 'input'>,
  result: ToolResult,
): ToolResult {
  return cdAloneFailure(call, result) ?? maskedFailure(call, result) ?? result;
}

/** cmd.exe's banner and prompt, and nothing else: it started, read no command, and stopped. */
const CMD_BANNER_ONLY =
  /^\s*Microsoft Windows \[Version [\d.]+\]\s+\(c\) Microsoft Corporation\. All rights reserved\.\s+[A-Z]:\\[^\n>]*>\s*$/;

/** The failure a successful-looking shell result hid, or undefined when it hid none. */
export function maskedFailure(
  call: Pick<ToolCall, 'tool' | 'input'>,
  result: ToolResult,
): ToolResult | undefined {
  if (!result.ok || !isShellTool(call.tool) || (result.exitCode ?? 0) !== 0) return undefined;
  const failed = (text: string): ToolResult => ({ ...result, ok: false, failure: 'error-output', text });
  if (CMD_BANNER_ONLY.test(result.text.slice(0, 400)))
    return failed(`cmd printed its banner and ran no command\n${result.text}`);
  const colon = result.text.indexOf(': ');
  const opening = colon >= 0 && colon <= 600;
  // Most output holds neither an error-shaped first line nor an error report: passed unparsed.
  const reports = reportsErrors(result.text);
  if (!opening && !reports) return undefined;
  const command = commandOf(call);
  if (command === undefined) return undefined;
  let keys: string[] | undefined;
  const ran = () => (keys ??= commandKeys(command)).map((key) => key.split(' ')[0] ?? key);
  if (opening && openingError(result.text, ran) !== undefined) return failed(result.text);
  return reports && !(keys ??= commandKeys(command)).some(showsWhatItReads) ? failed(result.text) : undefined;
}

/**
 * A line a program writes for an error it met and went on past, exiting 0: `Error processing
 * a.jsonl: bad escape \U at position 2`, `ERROR: ...`, `FATAL: ...`, a bracketed level
 * (`[ERROR] ...`) or Python logging's `ERROR:root:...`, behind a level (`Warning: Error ...`) or
 * Gemini CLI's `Output: `. Never Gemini CLI's own `Error: (none)`.
 */
const REPORTED_ERROR =
  /^(?:Output:\s+)?(?:(?:[Ww]arn(?:ing)?|WARN(?:ING)?|[Ii]nfo|INFO)\s*:\s*)?(?:(?:Error|ERROR|Fatal|FATAL|CRITICAL)\b(?: [^\s:]+){0,6}: (?!\(none\))\S|\[(?:ERROR|FATAL|CRITICAL)\]\s+\S|(?:ERROR|CRITICAL):[\w.]+:\S)/m;

/** A literal every REPORTED_ERROR line holds: most output is passed after this one scan. */
const MAY_REPORT = /rror|RROR|atal|ATAL|CRITICAL/;

function reportsErrors(text: string): boolean {
  const head = text.length <= 3000 ? text : text.slice(0, 3000);
  return MAY_REPORT.test(head) && REPORTED_ERROR.test(head);
}

/**
 * Programs whose output is what they read (a file, a log, a search's matches): an error line in it
 * is the data they showed, not an error of theirs.
 */
const READERS = new Set([
  ...['cat', 'head', 'tail', 'less', 'more', 'grep', 'egrep', 'rg', 'sed', 'awk', 'jq', 'strings'],
  ...['journalctl', 'logread', 'dmesg', 'echo', 'printf', 'type', 'get-content', 'select-string'],
  ...['docker logs', 'podman logs', 'kubectl logs', 'git log', 'git show', 'git diff'],
]);

/** Whether a command key (`ssh logread`, `sudo journalctl` read as `journalctl`) runs a reader. */
function showsWhatItReads(key: string): boolean {
  const words = key.toLowerCase().split(' ');
  const local = words[0] === 'ssh' ? words.slice(1) : words;
  return READERS.has(local[0] ?? '') || READERS.has(local.slice(0, 2).join(' '));
}

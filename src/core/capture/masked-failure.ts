/**
 * Shell calls that failed although their result says nothing of it: the exit code a pipe into
 * `head` hid, with the command's own error on the first line of its output; or `cmd /c` that
 * printed its banner and ran nothing. The detector and replay's call outcomes read a result
 * through `resultOfCall`, so both count these, and a `cd` on its own, as failures.
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
  const command = commandOf(call);
  const colon = result.text.indexOf(': ');
  if (command === undefined || colon < 0 || colon > 600) return undefined;
  // The command is parsed only for output that opens with an error-shaped line.
  let programs: string[] | undefined;
  const ran = () => (programs ??= commandKeys(command).map((key) => key.split(' ')[0] ?? key));
  return openingError(result.text, ran) === undefined ? undefined : failed(result.text);
}

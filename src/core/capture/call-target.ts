/**
 * What a tool call acts on: the command keys of a shell call, the file of a file tool, else the
 * tool itself. The detector relates a later call to an earlier failure by it; drafting turns it
 * into a lesson's trigger.
 */
import { isShellTool } from './classify-result.js';
import type { ToolCall } from './events.js';
import { commandKeys } from './shell-command.js';

/** `family` groups calls that can fix each other (`shell`, `edit`, `read`, else the tool). */
export type CallTarget = { family: string; keys: string[] };

const FILE_TOOLS: Record<string, string> = {
  edit: 'edit',
  multiedit: 'edit',
  write: 'edit',
  replace: 'edit',
  write_file: 'edit',
  notebookedit: 'edit',
  str_replace_editor: 'edit',
  apply_patch: 'edit',
  read: 'read',
  read_file: 'read',
  read_many_files: 'read',
  view: 'read',
};

function inputPath(input: Record<string, unknown>): string | undefined {
  for (const key of ['file_path', 'path', 'absolute_path', 'notebook_path', 'filePath', 'dir_path']) {
    const value = input[key];
    if (typeof value === 'string' && value !== '') return value;
  }
  const patch = typeof input.input === 'string' ? input.input : undefined;
  const file = patch ? /\*\*\* (?:Update|Add|Delete) File: (.+)/.exec(patch)?.[1] : undefined;
  return file?.trim();
}

export function commandOf(call: Pick<ToolCall, 'input'>): string | undefined {
  const value = call.input.command ?? call.input.cmd;
  return typeof value === 'string' ? value : undefined;
}

/** What a call acts on: its command keys (shell), its file (file tools), else the tool itself. */
export function targetOf(call: ToolCall): CallTarget {
  const tool = call.tool.toLowerCase();
  if (isShellTool(call.tool)) {
    const command = commandOf(call);
    return { family: 'shell', keys: command === undefined ? ['?'] : commandKeys(command) };
  }
  const fileFamily = FILE_TOOLS[tool];
  const path = inputPath(call.input);
  if (fileFamily !== undefined) return { family: fileFamily, keys: [path ?? '?'] };
  return { family: tool, keys: [tool] };
}

/**
 * Parameters that describe a call to people and change nothing it runs (Claude Code's Bash
 * `description`, a tool's `explanation` or `reason`): the same command retried under other words is
 * the same call.
 */
export const DESCRIBING = new Set(['description', 'explanation', 'justification', 'reason', 'title']);

/** A call's input as what it does: every parameter but the ones that only describe it, in order. */
function effectiveInput(call: Pick<ToolCall, 'input'>): string {
  return JSON.stringify(Object.entries(call.input).filter(([key]) => !DESCRIBING.has(key)));
}

/** Whether two calls ask for the same thing, whatever words describe them. */
export function sameInput(a: Pick<ToolCall, 'input'>, b: Pick<ToolCall, 'input'>): boolean {
  return effectiveInput(a) === effectiveInput(b);
}

/** How many different things a list of calls asked for, describing words aside. */
export function distinctInputs(calls: readonly Pick<ToolCall, 'input'>[]): number {
  return new Set(calls.map(effectiveInput)).size;
}

/** A path from the root or home: `/x`, `\\x`, `~/x`, `C:\\x`, `C:/x`; else given from the working folder. */
export function isAbsolutePath(path: string): boolean {
  return /^([\\/~]|[A-Za-z]:)/.test(path);
}

/** Whether `full` is the relative `path` given from some folder (`/r/src/a.py` of `src/a.py` or `./src/a.py`). */
export function givenFrom(full: string, path: string): boolean {
  const slash = (text: string) => text.replace(/\\/g, '/');
  return slash(full).endsWith(`/${slash(path).replace(/^\.\//, '')}`);
}

/** The file a call acts on, when its target is one (never for shell calls). */
export function targetPath(call: ToolCall | undefined): string | undefined {
  if (!call) return undefined;
  const key = targetOf(call);
  const first = key.keys[0];
  return key.family === 'shell' || first === undefined || first === '?' || first === call.tool.toLowerCase()
    ? undefined
    : first;
}

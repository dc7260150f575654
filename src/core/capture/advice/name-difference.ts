/**
 * What a fix did differently from the call that failed, in words a lesson can name: the flags and
 * words a shell command gained or lost, the path a file tool was pointed at instead, the
 * parameters added, dropped or set to another small value, or another tool altogether. When the
 * only change is free text (another `old_string`, another prompt), nothing can be named, and a
 * lesson that says "the same tool with different input" teaches nothing.
 */
import { DESCRIBING, commandOf, targetPath } from '../call-target.js';
import { isShellTool } from '../classify-result.js';
import type { ToolCall } from '../events.js';
import { diffCommands } from '../shell-command.js';

export type Difference =
  /** The fix ran another command line: the distinctive words it gained and lost. */
  | { kind: 'command'; failed: string; fixed: string; added: string[]; removed: string[] }
  /** The same tool on another path. */
  | { kind: 'path'; failed: string; fixed: string }
  /**
   * The same tool with parameters added, dropped, set to another number, flag or short word, or
   * with a few words of a text parameter changed (a URL without its quotes).
   */
  | { kind: 'parameters'; added: string[]; removed: string[]; changed: string[]; edited: TextEdit[] }
  /** Another tool did what the failed one could not. */
  | { kind: 'tool'; failed: string; fixed: string; what: string | undefined };

/** A few words of a text parameter, changed. */
export type TextEdit = { key: string; added: string[]; removed: string[] };

/**
 * Parameters a lesson never names as the difference: the describing ones, and Gemini CLI's
 * `is_background` (how long the harness waits, not what runs).
 */
const INERT = new Set([...DESCRIBING, 'is_background']);

/** Parameters that carry a file's content: another text there is another edit, not another way. */
const CONTENT = new Set([
  'old_string',
  'new_string',
  'content',
  'edits',
  'new_source',
  'instruction',
  'input',
  'patch',
]);

/** The words of a text that another text dropped and added, when only a few changed. */
export function textEdit(key: string, failed: string, fixed: string): TextEdit | undefined {
  const a = failed.split(/\s+/).filter((word) => word !== '');
  const b = fixed.split(/\s+/).filter((word) => word !== '');
  const removed = [...new Set(a.filter((word) => !b.includes(word)))];
  const added = [...new Set(b.filter((word) => !a.includes(word)))];
  const count = removed.length + added.length;
  if (count === 0 || count > 4 || [...removed, ...added].some((word) => word.length > 80)) return undefined;
  return { key, added, removed };
}

/** A value short and plain enough to name (`2`, `true`, `utf-8`), never free text. */
function nameable(value: unknown): value is number | boolean | string {
  if (typeof value === 'number' || typeof value === 'boolean') return true;
  return typeof value === 'string' && value.length <= 24 && /^[\w.:/@+-]+$/.test(value);
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function flat(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** The parameters the fix added, dropped or changed to another nameable value. */
export function parameterChanges(
  failed: Record<string, unknown>,
  fixed: Record<string, unknown>,
): { added: string[]; removed: string[]; changed: string[]; edited: TextEdit[] } {
  const keys = (input: Record<string, unknown>) => Object.keys(input).filter((key) => !INERT.has(key));
  const added = keys(fixed).filter((key) => !(key in failed));
  const removed = keys(failed).filter((key) => !(key in fixed));
  const changed = keys(fixed)
    .filter((key) => key in failed && !sameValue(failed[key], fixed[key]))
    .filter((key) => nameable(fixed[key]) && nameable(failed[key]))
    .map((key) => `${key}: ${String(fixed[key])}`);
  const edited = keys(fixed)
    .filter((key) => key in failed && !CONTENT.has(key) && !(nameable(fixed[key]) && nameable(failed[key])))
    .flatMap((key) => {
      const [before, after] = [failed[key], fixed[key]];
      const edit =
        typeof before === 'string' && typeof after === 'string' ? textEdit(key, before, after) : undefined;
      return edit === undefined ? [] : [edit];
    });
  return { added, removed, changed, edited };
}

/** Whether two calls differ in nothing a lesson could name: the same tool and input but for `INERT`. */
export function sameEffect(a: ToolCall, b: ToolCall): boolean {
  const strip = (input: Record<string, unknown>) =>
    JSON.stringify(Object.entries(input).filter(([key]) => !INERT.has(key)));
  return a.tool === b.tool && strip(a.input) === strip(b.input);
}

/** What the fix changed that a lesson can name, or undefined when nothing can be named. */
export function nameDifference(failed: ToolCall, fix: ToolCall): Difference | undefined {
  const failedCommand = commandOf(failed);
  const fixCommand = commandOf(fix);
  if (failed.tool !== fix.tool && !(isShellTool(failed.tool) && isShellTool(fix.tool))) {
    // A search tool's pattern says what it was asked, as a path or command says it of the others.
    const pattern = typeof fix.input.pattern === 'string' ? fix.input.pattern : undefined;
    return {
      kind: 'tool',
      failed: failed.tool,
      fixed: fix.tool,
      what: fixCommand ?? targetPath(fix) ?? pattern,
    };
  }
  // a command read from a line cut short is only its beginning: what follows it cannot be compared
  const cut = failed.inputCut === true || fix.inputCut === true;
  if (
    !cut &&
    failedCommand !== undefined &&
    fixCommand !== undefined &&
    flat(failedCommand) !== flat(fixCommand)
  ) {
    const { added, removed } = diffCommands(failedCommand, fixCommand);
    return { kind: 'command', failed: failedCommand, fixed: fixCommand, added, removed };
  }
  const failedPath = targetPath(failed);
  const fixedPath = targetPath(fix);
  if (failedPath !== undefined && fixedPath !== undefined && failedPath !== fixedPath)
    return { kind: 'path', failed: failedPath, fixed: fixedPath };
  // a call read from a cut line: only the parameters the failure still shows whole can be
  // compared (never its cut command)
  const comparable = ([key]: [string, unknown]) => key in failed.input && !(cut && key === 'command');
  const params = cut
    ? parameterChanges(
        Object.fromEntries(Object.entries(failed.input).filter(comparable)),
        Object.fromEntries(Object.entries(fix.input).filter(comparable)),
      )
    : parameterChanges(failed.input, fix.input);
  if (params.added.length + params.removed.length + params.changed.length + params.edited.length > 0)
    return { kind: 'parameters', ...params };
  return undefined;
}

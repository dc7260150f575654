/**
 * Decides what a tool result means: success, a failure (and which signal said so), or not the
 * agent's doing at all (the user interrupted, a person or a hook refused the call). Readers pass
 * what the transcript recorded; the same rules then apply to every agent.
 */
import type { FailureSignal } from './events.js';

export type ResultFacts = {
  tool: string | undefined;
  text: string;
  /** The transcript's own error flag (Claude `is_error`, Gemini `status: error`). */
  errorFlag?: boolean;
  /** Claude `toolUseResult` as a string ("Error: ..."). */
  errorPrefix?: boolean;
  exitCode?: number;
  /** The tool ran in the background or was cut short by the user. */
  interrupted?: boolean;
  /** Gemini `status: cancelled`. */
  cancelled?: boolean;
};

export type ResultVerdict =
  | { kind: 'result'; ok: boolean; failure: FailureSignal; exitCode: number | undefined }
  | { kind: 'interruption' }
  | { kind: 'rejection' };

const SHELL_TOOLS = new Set([
  'bash',
  'shell',
  'exec_command',
  'local_shell',
  'run_shell_command',
  'container.exec',
  'powershell',
]);

export function isShellTool(tool: string | undefined): boolean {
  return tool !== undefined && SHELL_TOOLS.has(tool.toLowerCase());
}

const INTERRUPTED = /^\[Request interrupted by user/;
const REJECTED = [
  /The user doesn't want to (proceed with this tool use|take this action)/,
  /^User rejected /i,
  /requested permissions? to .{0,300} but you haven't granted it/s,
  /^Permission (to use \S+ )?(has been )?(auto-)?denied/i,
  /^\S+ hook error:/,
  /hook (blocked|denied) (this|the) (tool|call)/i,
  /^PreToolUse:\S+ hook error/,
  /operation was cancelled by the user/i,
  /^Tool call cancelled by user/i,
  /^aborted by user/i,
];

/** Exit codes written into the text: Claude "Exit code 2", Codex "Process exited with code 1", Gemini "Exit Code: 1". */
const EXIT_PATTERNS = [
  /^(?:Error: )?Exit code (\d+)/,
  /Process exited with code (\d+)/,
  /(?:^|\n)Exit Code: (\d+)/,
  /(?:^|\n)exit(?:ed)? (?:with )?(?:status|code):? (\d+)\s*$/i,
];

const TIMEOUT = [
  /^Command timed out after/i,
  /\bcommand timed out\b/i,
  /\btimed out after \d+/i,
  /^Error: Command timed out/i,
  /\bTimeoutError\b/,
  /\bdeadline exceeded\b/i,
];

/**
 * An interactive prompt waiting for input that will never come: the call "succeeds" with a
 * question and no result (create-next-app, npm init, git rebase -i, ssh host key, sudo).
 */
const INTERACTIVE = [
  // eslint-disable-next-line no-control-regex -- ANSI escapes are what a stalled prompt prints
  /\u001b\[\d+m\?\u001b\[\d+m \u001b\[1m[^\n]{3,200}\?/,
  /^\s*\?\s+[^\n]{3,160}\?\s*(›|\(y\/n\)|\(Y\/n\)|\(y\/N\))/im,
  /\(y\/n\)\s*$/im,
  /\[y\/N\]\s*$/im,
  /^\s*Password:\s*$/im,
  /\[sudo\] password for/i,
  /Are you sure you want to continue connecting/i,
  /Press (Enter|any key) to continue/i,
];

/** The command got past its prompts and finished after all. */
const COMPLETED =
  /(^|\n)\s*(Success!|Successfully (created|installed|initialized)|Done in \d|✔ (Done|Created))/;

/** Output that means failure even when the call carried no flag (shell tools only). */
const ERROR_OUTPUT = [
  /(^|\n)\S*: (line \d+: )?\S+: command not found/,
  /(^|\n)(bash|sh|zsh): [^\n]*(command not found|No such file or directory|syntax error)/,
  /(^|\n)Traceback \(most recent call last\):/,
  /(^|\n)(fatal|error): /,
  /(^|\n)npm (ERR!|error) /,
  /(^|\n)ERR_PNPM_/,
  /(^|\n)(ModuleNotFoundError|ImportError|SyntaxError|NameError|TypeError|ReferenceError): /,
  /(^|\n)Error: Cannot find module /,
  /(^|\n)The term '[^']+' is not recognized as the name of a cmdlet/,
  /is not recognized as an internal or external command/,
];

/**
 * Cheap first tests before the patterns above run over a 2-3 KB sample. Each one is implied by
 * every pattern of its list (a literal that pattern requires), so it never hides a match; it only
 * spares the patterns on the ordinary output that cannot match them.
 */
const MAY_TIME_OUT = /timed out|TimeoutError|deadline exceeded/i;
const MAY_PROMPT = /\?|assword|Press |\[y\/|\(y\/n\)|continue connecting/i;
const MAY_FAIL =
  /command not found|No such file or directory|syntax error|Traceback \(most recent call last\):|(fatal|error|Error): |npm ERR!|npm error |ERR_PNPM_|is not recognized as/;

export function exitCodeFromText(text: string): number | undefined {
  for (const pattern of EXIT_PATTERNS) {
    const match = pattern.exec(text);
    if (match?.[1] !== undefined) return Number(match[1]);
  }
  return undefined;
}

function head(text: string, size: number): string {
  return text.length <= size ? text : text.slice(0, size);
}

export function classifyResult(facts: ResultFacts): ResultVerdict {
  const text = facts.text;
  const start = head(text.trimStart(), 600);
  if (facts.interrupted === true || INTERRUPTED.test(start)) return { kind: 'interruption' };
  if (facts.cancelled === true) return { kind: 'rejection' };
  if (REJECTED.some((pattern) => pattern.test(start))) return { kind: 'rejection' };

  const exitCode =
    facts.exitCode ?? (/xit/.test(head(text, 4000)) ? exitCodeFromText(head(text, 4000)) : undefined);
  const shell = isShellTool(facts.tool);
  const fail = (failure: FailureSignal): ResultVerdict => ({ kind: 'result', ok: false, failure, exitCode });

  const early = head(text, 2000);
  if (MAY_TIME_OUT.test(early) && TIMEOUT.some((pattern) => pattern.test(early))) return fail('timeout');
  if (start.includes('<tool_use_error>')) return fail('tool-use-error');
  if (exitCode !== undefined && exitCode !== 0) return fail('exit-code');
  if (facts.errorFlag === true) return fail('error-flag');
  if (facts.errorPrefix === true) return fail('error-prefix');
  if (shell && exitCode === undefined) {
    const sample = head(text, 3000);
    if (
      MAY_PROMPT.test(sample) &&
      INTERACTIVE.some((pattern) => pattern.test(sample)) &&
      !COMPLETED.test(text.slice(-2000))
    )
      return fail('interactive-prompt');
    if (MAY_FAIL.test(sample) && ERROR_OUTPUT.some((pattern) => pattern.test(sample)))
      return fail('error-output');
  }
  return { kind: 'result', ok: true, failure: 'none', exitCode };
}

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
 * Cheap first tests, so the lists above run only on text that could match them. Each is implied by
 * every pattern it stands for (a literal that pattern requires, matched case-insensitively), so it
 * never hides a match; ordinary output is classified after two scans instead of twenty.
 */
const MAY_TIME_OUT = /timed out|timeouterror|deadline exceeded/i;
/** For shell output without an exit code: timeouts and prompts in one pass. */
const MAY_STALL =
  /timed out|timeouterror|deadline exceeded|\?|assword|press |\[y\/|\(y\/n\)|continue connecting/i;
const MAY_BE_REJECTED =
  /doesn't want to|^user rejected |requested permission|^permission |hook error|hook (blocked|denied)|cancelled by|^aborted by user/i;
/** The ERROR_OUTPUT patterns as one regex (any of them): one scan, mostly from line start to line start. */
const ANY_ERROR_OUTPUT = new RegExp(ERROR_OUTPUT.map((pattern) => `(?:${pattern.source})`).join('|'));

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
  const first = text.search(/\S/);
  const start = first <= 0 ? head(text, 600) : text.slice(first, first + 600);
  if (facts.interrupted === true || INTERRUPTED.test(start)) return { kind: 'interruption' };
  if (facts.cancelled === true) return { kind: 'rejection' };
  if (MAY_BE_REJECTED.test(start) && REJECTED.some((pattern) => pattern.test(start)))
    return { kind: 'rejection' };

  const exitCode =
    facts.exitCode ?? (/xit/.test(head(text, 4000)) ? exitCodeFromText(head(text, 4000)) : undefined);
  const shell = isShellTool(facts.tool);
  const fail = (failure: FailureSignal): ResultVerdict => ({ kind: 'result', ok: false, failure, exitCode });

  // Shell output without an exit code gets every text rule, so one pass over its sample decides
  // whether any can apply; other results only need the timeout test.
  const sample = head(text, 3000);
  const shellText = shell && exitCode === undefined;
  const suspect = shellText ? MAY_STALL.test(sample) : undefined;
  const early = head(text, 2000);
  if ((suspect ?? MAY_TIME_OUT.test(early)) && TIMEOUT.some((pattern) => pattern.test(early)))
    return fail('timeout');
  if (start.includes('<tool_use_error>')) return fail('tool-use-error');
  if (exitCode !== undefined && exitCode !== 0) return fail('exit-code');
  if (facts.errorFlag === true) return fail('error-flag');
  if (facts.errorPrefix === true) return fail('error-prefix');
  if (
    suspect === true &&
    INTERACTIVE.some((pattern) => pattern.test(sample)) &&
    !COMPLETED.test(text.slice(-2000))
  )
    return fail('interactive-prompt');
  if (shellText && ANY_ERROR_OUTPUT.test(sample)) return fail('error-output');
  return { kind: 'result', ok: true, failure: 'none', exitCode };
}

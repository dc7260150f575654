/**
 * Decides what a tool result means: success, a failure (and which signal said so), or not the
 * agent's doing at all (the user interrupted, a person or a hook refused the call). Readers pass
 * what the transcript recorded; the same rules then apply to every agent.
 */
import type { FailureSignal } from './events.js';
import { normalizeTool } from '../inject/tool-names.js';

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

/**
 * The tool name a captured lesson is scoped to: the hooks' spelling (`Bash`, `Edit`) of a
 * transcript's name for the same tool (Codex `exec_command`, `apply_patch`, ...), so the lesson
 * reads as it fires. The equivalence itself is the matcher's (`normalizeTool`).
 */
export function hookToolName(tool: string): string {
  const name = normalizeTool(tool);
  if (name === 'bash') return 'Bash';
  if (name === 'edit') return 'Edit';
  return tool;
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
  // Codex, when the person declines its approval prompt.
  /^(patch|exec command) rejected by user/i,
  // Claude Code's permission checks where no one can approve (background agents, print mode).
  /^This (Bash )?command (requires approval|contains multiple operations\. The following parts? requires? approval)/,
  /\bwas blocked\. For security, Claude Code may only\b/,
  // Gemini CLI's shell tool, when its own parser cannot vet the command: the harness said no.
  /^Command rejected because it could not be parsed safely/,
];

/** Exit codes written into the text: Claude "Exit code 2", Codex "Process exited with code 1", Gemini "Exit Code: 1". */
const EXIT_PATTERNS = [
  /^(?:Error: )?Exit code (\d+)/,
  /Process exited with code (\d+)/,
  /(?:^|\n)Exit Code: (\d+)/,
  /(?:^|\n)exit(?:ed)? (?:with )?(?:status|code):? (\d+)\s*$/i,
];

/**
 * A non-zero exit code as the agents' shell tools print it in a result (Claude Code's `Exit code 2`,
 * Gemini CLI's `Exit Code: 1`, a Codex transcript's `Process exited with code 1`): the regex a
 * lesson waits on when no words name its error. Codex's hook payload carries the output alone, so
 * there such a lesson stays silent.
 */
export const NONZERO_EXIT = /(?:^|\n)(?:Error: )?Exit code:? [1-9]|Process exited with code [1-9]/i;

const TIMEOUT = [
  /^Command timed out after/i,
  /\bcommand timed out\b/i,
  /\btimed out after \d+/i,
  /^Error: Command timed out/i,
  /\bTimeoutError\b/,
  /\bdeadline exceeded\b/i,
  // Gemini CLI: "Command was automatically cancelled because it exceeded the timeout of 5.0 minutes"
  /^Command was automatically cancelled because it exceeded the timeout/i,
];

/**
 * An interactive prompt waiting for input that will never come: the call "succeeds" with a
 * question and no result (create-next-app, npm init, git rebase -i, ssh host key, sudo).
 */
const INTERACTIVE = [
  // eslint-disable-next-line no-control-regex -- ANSI escapes are what a stalled prompt prints
  /\u001b\[\d+m\?\u001b\[\d+m \u001b\[1m[^\n]{3,200}\?/,
  /^\s*\?\s+[^\n]{3,160}\?\s*(\u203a|\(y\/n\)|\(Y\/n\)|\(y\/N\))/im,
  /\(y\/n\)\s*$/im,
  /\[y\/N\]\s*$/im,
  /^\s*Password:\s*$/im,
  /\[sudo\] password for/i,
  /Are you sure you want to continue connecting/i,
  /Press (Enter|any key) to continue/i,
];

/**
 * Whether the output stops at a question: one of its last three lines (the harness's frame aside)
 * is the prompt, the choices of a menu prompt below it, and it never says it finished. A prompt
 * with more output after it was answered, as `pacman -S --noconfirm` answers its own "Proceed
 * with installation? [Y/n]" and goes on to install.
 */
function endsInPrompt(text: string): boolean {
  if (COMPLETED.test(text.slice(-2000))) return false;
  const tail = text
    .slice(-1500)
    .split(/\r?\n/)
    .filter((line) => line.trim() !== '' && !FRAME.test(line.trim()))
    .slice(-3)
    .join('\n');
  return INTERACTIVE.some((pattern) => pattern.test(tail));
}

/** The command got past its prompts and finished after all. */
const COMPLETED =
  /(^|\n)\s*(Success!|Successfully (created|installed|initialized)|Done in \d|\u2714 (Done|Created))/;

/**
 * PowerShell's "The term 'x' is not recognized as the name of a cmdlet", at a line's start or after
 * the expression that failed (`x.Name : The term ...`): one literal search, not a pattern tried at
 * every line.
 */
const NOT_A_CMDLET = "' is not recognized as the name of a cmdlet";

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
  /is not recognized as an internal or external command/,
];

/**
 * Cheap first tests, so the lists above run only on text that could match them. Each is implied by
 * every pattern it stands for (a literal that pattern requires, matched case-insensitively), so it
 * never hides a match; ordinary output is classified after two scans instead of twenty.
 */
const MAY_TIME_OUT = /timed out|timeouterror|deadline exceeded|exceeded the timeout/i;
/** For shell output without an exit code: timeouts and prompts in one pass. */
const MAY_STALL =
  /timed out|timeouterror|deadline exceeded|exceeded the timeout|\?|assword|press |\[y\/|\(y\/n\)|continue connecting/i;
const MAY_BE_REJECTED =
  /doesn't want to|^user rejected |requested permission|^permission |hook error|hook (blocked|denied)|cancelled by|^aborted by user|rejected by user|requires? approval|was blocked\. for security|could not be parsed safely/i;
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
  if (suspect === true && INTERACTIVE.some((pattern) => pattern.test(sample)) && endsInPrompt(text))
    return fail('interactive-prompt');
  if (shellText && (ANY_ERROR_OUTPUT.test(sample) || sample.includes(NOT_A_CMDLET)))
    return fail('error-output');
  return { kind: 'result', ok: true, failure: 'none', exitCode };
}

// eslint-disable-next-line no-control-regex -- stripping ANSI escapes
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]|\u001b\][^\u0007]*\u0007/g;

/** The frame a harness puts around output (Claude, Codex, Gemini), never the error itself. */
const FRAME =
  /^(?:(?:Error: )?Exit code:? -?\d+|Wall time:.*|Chunk ID:.*|Process Group PGID:.*|Original token count:.*|Command: .*|Directory: .*|Error: \(none\)|Signal: .*|Background PIDs:.*|Output:\s*(?:\(empty\))?|\(empty\))$/i;

/** Where PowerShell says an error stopped it: the error's own words are the lines above. */
const POWERSHELL_WHERE = /^\s*At line:\d+ char:\d+/;

/** Whether PowerShell reported an error in this text (its `At line:N char:N` report). */
export function powershellReported(text: string): boolean {
  return POWERSHELL_REPORTED.test(text);
}
const POWERSHELL_REPORTED = new RegExp(POWERSHELL_WHERE.source, 'm');

/**
 * A PowerShell error's report below its message (`At line:1 char:1`, the command repeated under
 * `+ `, the indented `CategoryInfo` and `FullyQualifiedErrorId` record, wrapped onto more indented
 * lines): it names the command and the error record, never what went wrong.
 */
function withoutPowershellReports(lines: readonly string[]): string[] {
  let inReport = false;
  return lines.filter((line) => {
    if (POWERSHELL_WHERE.test(line)) inReport = true;
    else if (inReport && !/^\s+\S|^\+ /.test(line)) inReport = false;
    return !inReport;
  });
}

/** What a harness writes before the output on the same line (Gemini `Output: ...`). */
const FRAME_PREFIX = /^Output:\s+(?=\S)/i;

/** A line of output as the program wrote it: trimmed, the harness's `Output: ` in front of it taken off. */
function unframed(line: string): string {
  return line.trim().replace(FRAME_PREFIX, '').trim();
}

/** What a BusyBox applet prints above its usage: the version, never the error. */
const BUSYBOX_BANNER = /^BusyBox v\d[\w.-]* .*multi-call binary/;

/** What OpenSSH 10 prints on every connection to an older server: a banner, never the error. */
const SSH_BANNER =
  /^\*\* (WARNING: connection is not using a post-quantum|This session may be vulnerable|The server may need to be upgraded)/;

/** A line drawn inside a box's sides (`║ ... ║`, `│ ... │`). */
const BOXED = /^[\u2502\u2503\u2551]\s.*\s[\u2502\u2503\u2551]$/;

/**
 * Cygwin's fork retries (Git Bash on Windows): bash tried again and went on, so what else the
 * output says is the command's own.
 */
export const FORK_RETRY = /child_copy: cygheap|dofork: child|fork: retry: Resource temporarily unavailable/;

/**
 * Lines that say nothing about what went wrong: progress meters (curl's `0 0 0 0 --:--:--`, pip's
 * and npm's bars, percentages), rules and box drawing, banners of `=`/`*`/`#`, curl's header,
 * OpenSSH's banner and Cygwin's fork retries.
 */
function isNoiseLine(line: string): boolean {
  // PowerShell's error record under a parser error's message: where, never what.
  if (/^\+ (CategoryInfo|FullyQualifiedErrorId)\s*:/.test(line)) return true;
  if (/--:--:--|^\s*%\s+Total\s+%\s+Received|\bcopyright\b|all rights reserved|^welcome to\b/i.test(line))
    return true;
  if (SSH_BANNER.test(line) || FORK_RETRY.test(line) || BUSYBOX_BANNER.test(line)) return true;
  // A title in a box (`║ macOS Security Audit ║`): a script's banner, whatever its words.
  if (BOXED.test(line)) return true;
  const letters = line.replace(/[^A-Za-z]/g, '').length;
  if (letters < 3) return true;
  // Mostly digits, units and bar characters (`45% ━━━━ 1.2/3.4 MB 5.6 MB/s eta 0:00:01`).
  return letters < line.replace(/\s/g, '').length * 0.25 && !ERROR_WORDS.test(line);
}

/** Tags of a web page (never `<command>` in a usage line). */
const HTML_TAG =
  /<\/?(?:!doctype|html|head|body|title|div|span|p|h[1-6]|a|pre|code|script|style|meta|link|center|hr|br|table|tr|td|ul|li)\b[^>]*>/i;

/** An HTML line reduced to its text (`<title>404 Not Found</title>` → `404 Not Found`), else the line. */
function htmlText(line: string): string {
  if (!HTML_TAG.test(line)) return line;
  return line
    .replace(/<(script|style)\b[^>]*>.*?<\/\1>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The line a failing program writes last when it dies of an exception (Python, Java, Node). */
const EXCEPTION = /^(?:[\w.]+\.)?[A-Z]\w*(?:Error|Exception|Interrupt|Exit)\b(?::|$)/;
const ERROR_WORDS =
  /error|is not a valid|\berr!|\bfailed\b|\bfailure\b|not found|not recognized|\bcannot\b|can't|\bunable to\b|could not|couldn't|denied|\binvalid\b|no such|\bunknown\b|\bmissing\b|refused|rejected|timed out|unexpected|exception|does not exist|doesn't exist|not allowed|forbidden|not permitted|\bfatal\b|\bpanic/i;

/**
 * The first error line that the failed command's own program wrote, by its name at the start
 * (`Python was not found`, `curl: (6) ...`), when other programs wrote errors above it
 * (`refreshenv; python --version`, where refreshenv's `wmic` is missing first).
 */
function ownErrorLine(lines: readonly string[], programs: readonly string[]): number {
  const names = programs
    .filter((name) => /^[\w.-]{2,}$/.test(name))
    .map((name) => name.replace(/\.exe$/i, ''));
  if (names.length === 0) return -1;
  const starts = new RegExp(
    `^(?:${names.map((name) => name.replace(/[.-]/g, '\\$&')).join('|')})(?:\\.exe)?\\b`,
    'i',
  );
  return lines.findIndex((line) => starts.test(line) && saysError(line));
}

/**
 * The error a shell command's output opens with although nothing flagged it (`x 2>&1 | head` hides
 * the exit code): its first line is an error of one of the command's own programs (`dir: cannot
 * access '/s': No such file or directory`), or a program's `Error: ...`. Undefined otherwise.
 * `programs` (the command's) is asked for only when the line could be one of theirs.
 */
export function openingError(text: string, programs: () => readonly string[]): string | undefined {
  const first = firstLine(text);
  if (first === undefined || !/^[\w.-]+: /.test(first)) return undefined;
  if (/^Error: (?!\(none\))\S/.test(first)) return first;
  return ownErrorLine([first], programs()) === 0 ? first : undefined;
}

/**
 * The first line of output that is not the harness's frame (Gemini CLI's `Command:` and
 * `Directory:`, the `Output:` before it), read line by line from the start: no split of the rest.
 */
function firstLine(text: string): string | undefined {
  let start = 0;
  for (let n = 0; n < 8 && start < text.length; n += 1) {
    const end = text.indexOf('\n', start);
    const line = unframed(text.slice(start, end < 0 ? text.length : end));
    if (line !== '' && !FRAME.test(line)) return line;
    if (end < 0) return undefined;
    start = end + 1;
  }
  return undefined;
}

/** A line a program prints beside its error, not as it: `warning: ...`, `hint: ...`. */
const ASIDE = /^(warning|warn|hint|note)\b:?/i;

/** A tally of none ("0 error(s)", "0 failed") reports no error. */
const NONE_COUNTED = /\b0 (?:errors?|error\(s\)|failures?|failed)\b/gi;

function saysError(line: string): boolean {
  return ERROR_WORDS.test(line.replace(NONE_COUNTED, ''));
}

/**
 * The line of an error that says what happened: the harness's frame, progress meters, banners
 * and markup are never it; a program's final exception wins over the traceback above it; else the
 * first line with an error word; else the first line that says anything. A line that ends in a
 * colon brings the next one along.
 */
export function errorGist(text: string, programs: readonly string[] = []): string {
  const lines = withoutPowershellReports(
    text
      .replace(ANSI, '')
      .replace(/<\/?tool_use_error>/g, '')
      .split(/\r?\n|\r/),
  )
    .map((line) => htmlText(unframed(line)).trim())
    .filter((line) => line !== '' && !FRAME.test(line) && !isNoiseLine(line));
  const exception = lines.findLastIndex((line) => EXCEPTION.test(line));
  const own = ownErrorLine(lines, programs);
  const at =
    exception >= 0
      ? exception
      : own >= 0
        ? own
        : Math.max(
            0,
            // A warning or hint above the error (git's `warning: unable to access ...`) is not it.
            lines.findIndex((line) => saysError(line) && !ASIDE.test(line)),
            lines.findIndex((line) => saysError(line)),
          );
  const telling = lines[at];
  // "Task failed due to the following issue:" says what follows it.
  const said =
    telling?.endsWith(':') && lines[at + 1] !== undefined ? `${telling} ${lines[at + 1]}` : telling;
  const gist = (said ?? 'failed without output').replace(/\s+/g, ' ').trim();
  return gist.length <= 160 ? gist : `${gist.slice(0, 159)}…`;
}

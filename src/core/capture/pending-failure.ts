/**
 * A failure waiting for its fix, and what each later tool result means for it. Both verdicts are
 * pure: `judgeFailure` says whether a failed call is noise, a first failure, another attempt at
 * an open one, or a new story; `judgeSuccess` says whether a successful call fixed an open
 * failure, settled it some other way, or leaves it waiting (perhaps as the step that enables the
 * fix). The detector (`detect-episodes.ts`) applies them to its state.
 */
import { FORK_RETRY, errorGist, isShellTool, powershellReported } from './classify-result.js';
import { commandOf, givenFrom, isAbsolutePath, sameInput } from './call-target.js';
import type { CallTarget } from './call-target.js';
import { errorClass } from '../outcome/error-class.js';
import type { Attempt } from './episode.js';
import { cdAlone, usesFolder } from './fresh-shell.js';
import type { ToolCall, ToolResult } from './events.js';
import {
  commandKeys,
  escapeRegex,
  isShellWrapper,
  programAt,
  programName,
  segmentKey,
  segments,
  sshHost,
  sshRemote,
  stripQuotes,
  tokenize,
  wrappedCommand,
  writtenFiles,
} from './shell-command.js';

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
  /** A misfired lookup: only a named substitute that works makes it an episode. */
  probe: boolean;
  /**
   * For a command the shell does not have (`tail` in PowerShell): the paths it was given. Another
   * program that then works on one of them is its replacement.
   */
  operands: string[];
  /**
   * For a one-program lookup the shell does not have: the words it was given (`TODO`, `src` of
   * `rg TODO src`). Another lookup then run on all of them is its replacement.
   */
  words: string[];
  /** The shell said the failed program does not exist (`wmic : The term 'wmic' is not recognized`). */
  missingProgram: boolean;
  /** A background launch that a later check found not running (`background-launch.ts`). */
  died: boolean;
  /** A download whose file turned out to be an error page: that file (`saved-download.ts`). */
  savedFile: string | undefined;
  /**
   * Programs the agent said it would run instead of the failed one ("`curl` is an alias here; I'll
   * use `Invoke-WebRequest`"): a success of one of them is the fix, though its target differs.
   */
  substitutes: string[];
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
  /\b(Request timed out|Connection timed out|Connection refused|Network is unreachable|No route to host|Could not resolve host|Name or service not known|Temporary failure in name resolution|status code (403|404|429|5\d\d)|Permission denied \(publickey|Host key verification failed|ECONNREFUSED|ETIMEDOUT|ENOTFOUND|EAI_AGAIN|Command failed: cygpath|no servers could be reached|Could not lock|Could not get lock|Resource temporarily unavailable|has already locked|Unable to acquire the dpkg frontend lock|database is locked)\b/;

/**
 * The harness could not start the shell at all (Claude Code on Windows: `Command failed: cygpath
 * -u ...`): the command never ran, so its result says nothing of the command.
 */
const SHELL_NOT_STARTED = /^\s*Command failed: cygpath\b/;

/**
 * A changed retry of an open failure that the harness never ran: the agent's correction, as far as
 * it got. The failure was the mistake; the retry is its fix, as the agent wrote it.
 */
export function unranRetry(open: PendingFailure, call: ToolCall, result: ToolResult): boolean {
  if (!SHELL_NOT_STARTED.test(result.text.slice(0, 200))) return false;
  const failed = lastAttempt(open);
  return (
    !SHELL_NOT_STARTED.test(failed.result.text.slice(0, 200)) &&
    !sameInput(failed.call, call) &&
    !onlyMoreOutput(failed.call, call)
  );
}

/** A host name with the port glued on (`host:2222`): no resolver knows it, `ssh -p` was meant. */
const HOST_WITH_PORT = /Could not resolve hostname \S+:\d+:/;

/**
 * Whether the network, a lock or the harness failed rather than the agent's usage. Cygwin's fork
 * retries are set aside first: bash went on after them, so the rest of the output decides.
 */
function isEnvironmentFailure(text: string): boolean {
  const rest = text
    .split('\n')
    .filter((line) => !FORK_RETRY.test(line))
    .join('\n');
  if (!/[A-Za-z]/.test(rest.replace(/^(?:Error: )?Exit code:? -?\d+\s*$/gim, '')))
    return FORK_RETRY.test(text);
  return ENVIRONMENT.test(rest) && !HOST_WITH_PORT.test(rest);
}

/** The first failure at a target. */
export function openFailure(
  call: ToolCall,
  result: ToolResult,
  target: CallTarget,
  index: number,
  probe = false,
): PendingFailure {
  const lacking = lacksProgram(call, result);
  return {
    probe,
    attempts: [{ call, result }],
    keys: target.keys,
    family: target.family,
    lastIndex: index,
    diagnosis: undefined,
    userText: undefined,
    enabler: undefined,
    substitutes: shellSubstitutes(call, result),
    operands: lacking ? pathOperands(commandOf(call) ?? '') : [],
    words: lacking && isProbe(call) ? argumentWords(commandOf(call) ?? '') : [],
    died: false,
    savedFile: undefined,
    missingProgram: !probe && lacking,
  };
}

/**
 * PowerShell's own aliases of cmd and Unix names: `dir /s` there runs Get-ChildItem, which takes
 * `/s` for a path. A cmdlet the alias stands for that then works is the failed call's replacement.
 */
const POWERSHELL_ALIASES: Readonly<Record<string, string>> = {
  dir: 'get-childitem',
  ls: 'get-childitem',
  gci: 'get-childitem',
  cat: 'get-content',
  type: 'get-content',
  gc: 'get-content',
  curl: 'invoke-webrequest',
  wget: 'invoke-webrequest',
  iwr: 'invoke-webrequest',
  del: 'remove-item',
  erase: 'remove-item',
  rm: 'remove-item',
  rd: 'remove-item',
  rmdir: 'remove-item',
  copy: 'copy-item',
  cp: 'copy-item',
  move: 'move-item',
  mv: 'move-item',
  sc: 'set-content',
  ps: 'get-process',
  kill: 'stop-process',
  sort: 'sort-object',
  select: 'select-object',
  where: 'where-object',
  start: 'start-process',
};

/**
 * cmd.exe's commands and the POSIX programs that do their work: what replaces them when a POSIX
 * shell (Git Bash on Windows) was given cmd syntax (`dir /s /b`, `cd /d "%USERPROFILE%\x"`).
 */
const CMD_COMMANDS: Readonly<Record<string, readonly string[]>> = {
  dir: ['ls', 'find'],
  type: ['cat'],
  del: ['rm'],
  erase: ['rm'],
  copy: ['cp'],
  xcopy: ['cp'],
  move: ['mv'],
  findstr: ['grep'],
  where: ['which'],
  md: ['mkdir'],
  rd: ['rm', 'rmdir'],
};

/** What only cmd.exe reads: a `/x` switch, a `%NAME%` variable, `2>nul`. */
const CMD_SYNTAX = /(?:^|\s)\/[a-z?]{1,3}(?=\s|$)|%[A-Za-z_]\w*%|\d?>\s*nul\b/i;

/**
 * The programs that replace what a failed shell call ran under a name another shell reads
 * otherwise: the cmdlets behind PowerShell's aliases when PowerShell reported the failure; the
 * POSIX programs for cmd's commands given cmd syntax in a shell that is not cmd.
 */
export function shellSubstitutes(call: ToolCall, result: ToolResult): string[] {
  const command = isShellTool(call.tool) ? commandOf(call) : undefined;
  if (command === undefined) return [];
  const ran = programs(commandKeys(command));
  if (powershellReported(result.text.slice(0, 3000)))
    return [...new Set(ran.flatMap((program) => POWERSHELL_ALIASES[program] ?? []))];
  if (!CMD_SYNTAX.test(command) || /is not recognized as an internal or external command/.test(result.text))
    return [];
  return [...new Set(ran.flatMap((program) => CMD_COMMANDS[program] ?? []))];
}

/** What a shell says when it has no such program. */
const NO_SUCH_PROGRAM =
  /command not found|is not recognized as (the name of a cmdlet|an internal or external command)|CommandNotFoundException|^(?:[\w./-]+: )?(?:line \d+: )?[\w.+-]+: not found$/m;

/**
 * Windows' stand-in for a Python it does not have (the Microsoft Store's app execution alias): no
 * such program, when the command itself ran Python (a hook of `git commit` may print it too).
 */
const STORE_PYTHON = /^Python was not found; run without arguments to install from the Microsoft Store/m;
const PYTHONS = new Set(['python', 'python3', 'py']);

/** Words of a command that name a file or folder (`E:\EFI\refind.conf`, `src/a.ts`, `notes.md`). */
function pathOperands(command: string): string[] {
  return tokenize(command)
    .map((token) => stripQuotes(token))
    .filter(
      (token) =>
        token.length >= 5 && !token.startsWith('-') && (/[\\/]/.test(token) || /\.\w{1,5}$/.test(token)),
    );
}

/** Whether the shell said it has no such program as the call ran. */
function lacksProgram(call: ToolCall, result: ToolResult): boolean {
  if (!isShellTool(call.tool)) return false;
  const head = result.text.slice(0, 2000);
  if (NO_SUCH_PROGRAM.test(head)) return true;
  return STORE_PYTHON.test(head) && programs(commandKeys(commandOf(call) ?? '')).some((p) => PYTHONS.has(p));
}

/** Whether a shell call installs something (`winget install x`, `apt-get install y`, `pacman -S z`). */
export function installsSomething(call: ToolCall): boolean {
  const command = isShellTool(call.tool) ? commandOf(call) : undefined;
  // Most successful calls name no installer: one cheap test before the split into keys.
  if (command === undefined || !/install|add|pacman|yay|paru|scoop|go get/i.test(command)) return false;
  return commandKeys(command).some((key) => INSTALLS.test(key));
}

/** The command a wrapper runs (`powershell -Command "..."`, `cmd /c ...`, `bash -c "..."`), else the command. */
function innerCommand(command: string): string {
  const tokens = tokenize(command);
  const program = stripQuotes(tokens[0] ?? '')
    .replace(/^.*[\\/]/, '')
    .replace(/\.exe$/i, '');
  return (isShellWrapper(program) ? wrappedCommand(program, tokens.slice(1)) : undefined) ?? command;
}

/** Commands that install something: after "no such program" they enable a retry, not replace it. */
const INSTALLS = /\b(install|add)\b|^go get\b|^(pacman|yay|paru|scoop|install-module|install-package)\b/i;

/** Words of a call's stated purpose that say what it is for (`drive`, `volume`, `list`). */
function purposeWords(call: ToolCall): Set<string> {
  const description = call.input.description;
  if (typeof description !== 'string') return new Set();
  return new Set(
    description
      .toLowerCase()
      .split(/[^a-z]+/)
      .filter((word) => word.length >= 4 && !PURPOSE_FILLER.has(word))
      .map((word) => word.replace(/(ing|es|s)$/, '')),
  );
}

const PURPOSE_FILLER = new Set([
  'with',
  'from',
  'that',
  'this',
  'into',
  'using',
  'their',
  'there',
  'which',
  'current',
]);

/**
 * Whether two calls say they are for the same thing: their descriptions (Claude Code's and Gemini
 * CLI's shell tools carry one) share at least two words that mean something.
 */
export function samePurpose(a: ToolCall, b: ToolCall): boolean {
  const first = purposeWords(a);
  let shared = 0;
  for (const word of purposeWords(b)) if (first.has(word)) shared += 1;
  return shared >= 2;
}

/**
 * The program of the first shell success after the shell said the failed program does not exist,
 * when it stands in for that program (`python3` for `python`, `/c/Python314/python` for `python3`,
 * `docker compose` for `docker-compose`) or says it is for the same thing (`wmic logicaldisk` "to
 * list the drives", then `Get-Volume` "to list all volumes"): the agent's replacement, unless it
 * installs something or only looks.
 */
export function nextProgramRun(pending: PendingFailure, call: ToolCall): string | undefined {
  if (!pending.missingProgram || pending.enabler !== undefined || !isShellTool(call.tool) || isProbe(call))
    return undefined;
  const command = commandOf(call) ?? '';
  const key = commandKeys(innerCommand(command))[0];
  if (key === undefined || INSTALLS.test(key)) return undefined;
  const failed = failedPrograms(pending);
  const program = replacing(failed, command, key);
  if (program === undefined) return undefined;
  return standsInFor(program, failed) !== undefined || samePurpose(lastAttempt(pending).call, call)
    ? program
    : undefined;
}

/** The programs the failed call ran, and those its shell wrappers ran (`powershell Get-Process`). */
function failedPrograms(pending: PendingFailure): string[] {
  return [...programs(pending.keys), ...wrapped(pending.keys)];
}

/** A key's plugin form as one program's name (`docker compose` → `docker-compose`); undefined for one word. */
function pluginForm(key: string): string | undefined {
  return key.includes(' ') ? key.replace(/ /g, '-').toLowerCase() : undefined;
}

/**
 * The failed program that `program` names another way: another version of it (`python3` for
 * `python`), its path (`C:\\Program Files\\GitHub CLI\\gh.exe` for `gh`), its plugin form
 * (`docker compose` for `docker-compose`). Undefined when it names none of them.
 */
export function standsInFor(program: string, failed: readonly string[]): string | undefined {
  const plugin = pluginForm(program);
  const family = programFamily(program);
  return failed.find((name) => name.toLowerCase() === plugin || programFamily(name) === family);
}

/**
 * The program a command (its first key `key`) ran in place of the failed ones: another program or
 * version of one (`python3` for `python`), the same one run by its path (that path, as the command
 * gave it), or its plugin form (`docker compose` for `docker-compose`). The program a wrapper ran in
 * the failed call (`powershell Get-Process`) is no replacement; nor is a failed program run again by
 * name.
 */
function replacing(failed: readonly string[], command: string, key: string): string | undefined {
  const program = key.split(' ')[0] ?? key;
  const plugin = pluginForm(key);
  if (plugin !== undefined && failed.includes(plugin)) return key;
  const path = pathRun(command, program);
  if (path !== undefined) return path;
  return failed.includes(program.toLowerCase()) ? undefined : program;
}

/**
 * A program's family whatever path or version it is run by: `/c/Python314/python`, `python3` and
 * `python.exe` are all `python`, so the one found at its full path replaces the one the shell lacked.
 */
export function programFamily(program: string): string {
  return programName(program)
    .toLowerCase()
    .replace(/[\d.]+$/, '');
}

/**
 * The program the shell lacked, run by its path (`/c/Python314/python -c ...` after `python3`
 * was not found): that path, as the command gave it. Undefined when the command ran it by name.
 */
function pathRun(command: string, program: string): string | undefined {
  // Words as written, quotes taken off but backslashes kept: Windows paths are full of them.
  for (const match of innerCommand(command).matchAll(/"([^"]+)"|'([^']+)'|([^\s"';|&]+)/g)) {
    const word = match[1] ?? match[2] ?? match[3] ?? '';
    if (/[\\/]/.test(word) && programFamily(word) === programFamily(program)) return word;
  }
  return undefined;
}

/** The programs shell wrappers ran (`powershell Get-Process` → `get-process`). */
function wrapped(keys: readonly string[]): string[] {
  return keys.flatMap((key) => {
    const [first = '', second] = key.split(' ');
    return second !== undefined && isShellWrapper(first) ? [second.toLowerCase()] : [];
  });
}

/** The program a shell says it does not have (`ash: hostname: not found`, `bash: jq: command not found`). */
const NOT_FOUND_PROGRAM = /([\w.+-]+): (?:command )?not found\b/;

/** The host a command line runs its command on over ssh, when it starts with `ssh`. */
function sshHostOf(command: string): string | undefined {
  const tokens = tokenize(command);
  return stripQuotes(tokens[0] ?? '') === 'ssh' ? sshHost(tokens.slice(1)) : undefined;
}

/**
 * A program the remote shell did not have (`ssh root@slate 'hostname && uptime'`: "ash: hostname:
 * not found"), left out by the next command run on that host, which worked: the fix is to do
 * without it there. The program, else undefined.
 */
export function droppedRemoteProgram(pending: PendingFailure, call: ToolCall): string | undefined {
  if (!pending.missingProgram || pending.enabler !== undefined) return undefined;
  const failed = lastAttempt(pending);
  return droppedOverSsh(failed.call, failed.result.text, call)?.program;
}

/** The program and host of `droppedRemoteProgram`, from the failed call, its output and the fix. */
export function droppedOverSsh(
  failed: ToolCall,
  failedText: string,
  fix: ToolCall,
): { program: string; host: string } | undefined {
  const host = isShellTool(failed.tool) ? sshHostOf(commandOf(failed) ?? '') : undefined;
  const command = isShellTool(fix.tool) ? commandOf(fix) : undefined;
  if (host === undefined || command === undefined || sshHostOf(command) !== host || installsSomething(fix))
    return undefined;
  const program = NOT_FOUND_PROGRAM.exec(failedText.slice(0, 600))?.[1];
  if (program === undefined || !commandKeys(commandOf(failed) ?? '').includes(`ssh ${program}`))
    return undefined;
  return commandKeys(command).includes(`ssh ${program}`) ? undefined : { program, host };
}

/**
 * The program of a successful call that works on a path the missing program was given, or on every
 * word a one-program command gave it (`grep -rn TODO src` after `rg TODO src`).
 */
export function operandRun(pending: PendingFailure, call: ToolCall): string | undefined {
  if ((pending.operands.length === 0 && pending.words.length === 0) || !isShellTool(call.tool))
    return undefined;
  const command = commandOf(call);
  if (command === undefined) return undefined;
  const onPath = pending.operands.some((path) => command.includes(path));
  const onWords =
    pending.words.length >= 2 && isProbe(call) && pending.words.every((word) => command.includes(word));
  const key = onPath || onWords ? commandKeys(innerCommand(command))[0] : undefined;
  return key === undefined ? undefined : replacing(failedPrograms(pending), command, key);
}

/** The words a one-program command gave its program, options aside (`TODO`, `src` of `rg -n TODO src`). */
function argumentWords(command: string): string[] {
  const all = segments(command);
  if (all.length !== 1) return [];
  return (all[0] ?? [])
    .slice(1)
    .map((token) => stripQuotes(token))
    .filter((word) => word.length >= 2 && !word.startsWith('-'));
}

export function lastAttempt(pending: PendingFailure): Attempt {
  return pending.attempts[pending.attempts.length - 1] as Attempt;
}

/** A program refusing how it was called: an option it does not have, its usage printed, a syntax error. */
const USAGE_REFUSED =
  /\b(invalid|unrecognized|unknown|illegal) option\b|\boption requires an argument\b|^usage: |\b(syntax|parse) error\b/im;

function usageRefused(text: string): boolean {
  return USAGE_REFUSED.test(text.slice(0, 2000));
}

/** A lookup (`which`, `ls`, `tool --version`): asking, not doing. */
/** File tools that list or search folders: a folder that is not there is their answer, as for `ls`. */
const LISTING_TOOLS = new Set(['list_directory', 'ls', 'glob', 'grep', 'search_file_content']);

export function isProbe(call: ToolCall): boolean {
  let probe = probes.get(call);
  if (probe === undefined) {
    const command = isShellTool(call.tool) ? commandOf(call) : undefined;
    probe = LISTING_TOOLS.has(call.tool.toLowerCase()) || (command !== undefined && isProbeCommand(command));
    probes.set(call, probe);
  }
  return probe;
}

/** isProbe of a call, worked out once: each failure waiting for a fix asks it of every call after it. */
const probes = new WeakMap<ToolCall, boolean>();

/** Plumbing that writes the file it is given: `sed -i`, `perl -pi`, `tee file`. */
const WRITES_IN_PLACE =
  /(?:^|[\s;&|(])(?:(?:sed|perl)\s+(?:-\w*i\w*|--in-place)(?=[\s=.]|$)|tee\s+(?:-a\s+)?[^\s|;&-])/;

/**
 * Whether the failure's own output named this call as the thing to run ("Run `git init` to
 * initialize it", "To log in, run: gh auth login"): then it is the step, whatever ran after it.
 */
export function namedByFailure(pending: PendingFailure, call: ToolCall): boolean {
  const command = commandOf(call)?.trim();
  if (command === undefined || command.length < 3) return false;
  const named = namedSteps(lastAttempt(pending).result);
  if (named.length === 0) return false;
  const parts = command.split(/&&|\|\||;|\n/).map((part) => part.trim());
  return named.some((step) => parts.some((part) => part === step || part.startsWith(`${step} `)));
}

/** The commands a failure's output tells the agent to run, read once per result. */
const steps = new WeakMap<ToolResult, string[]>();
function namedSteps(result: ToolResult): string[] {
  let named = steps.get(result);
  if (named === undefined) {
    const text = result.text.slice(0, 2000);
    named = [...text.matchAll(/`([^`\n]{3,120})`|\brun:?\s+([a-z][\w.-]*(?: [a-z][\w.-]*){0,3})/gi)]
      .map((match) => (match[1] ?? match[2] ?? '').trim())
      .filter((step) => step.length >= 3);
    steps.set(result, named);
  }
  return named;
}

/** Whether a command key only looks something up (`which`, `ls`, `grep`): not what a command is for. */
export function isLookupKey(key: string): boolean {
  return PROBES.has(key.split(' ')[0] ?? '');
}

/** A lookup that writes nothing (`cat x`, `ls`, `git remote -v`; never `cat > x << EOF` or `sed -i`). */
export function readsOnly(call: ToolCall): boolean {
  if (!isProbe(call)) return false;
  const command = commandOf(call) ?? '';
  return writtenFiles(command).length === 0 && !WRITES_IN_PLACE.test(command);
}

/** Subcommands that ask a program for its state (`gh auth status`, `systemctl is-active x`). */
const STATE_QUERIES = new Set(['status', 'is-active', 'is-enabled', 'is-failed']);

/** Windows programs whose `query` (or `/query`) asks for a service's, a key's or the clock's state. */
const WINDOWS_QUERIES = new Set(['sc', 'reg', 'w32tm', 'qwinsta', 'quser']);

/** A segment that asks its program for its state: a status subcommand among its first words. */
export function asksState(segment: readonly string[], key: readonly string[]): boolean {
  const program = key[0] ?? '';
  const rest = segment.slice(segment.indexOf(program) + 1).map((word) => stripQuotes(word).toLowerCase());
  const words = rest.filter((word) => !word.startsWith('-')).slice(0, 3);
  if (words.some((word) => STATE_QUERIES.has(word))) return true;
  return WINDOWS_QUERIES.has(program.toLowerCase()) && (words[0] === 'query' || rest.includes('/query'));
}

/**
 * A status query that said how things stand (`gh auth status`: "You are not logged into any
 * GitHub hosts"; `w32tm /query /status`: "The service has not been started"): the agent asked and
 * got its answer, as from a lookup; what it does next is the work, not a fix. A status query the
 * shell could not run, or that was asked wrongly, still failed.
 */
function reportsState(call: ToolCall, result: ToolResult): boolean {
  if (!isShellTool(call.tool)) return false;
  const command = commandOf(call);
  if (command === undefined) return false;
  const head = result.text.slice(0, 2000);
  if (NO_SUCH_PROGRAM.test(head) || usageRefused(head)) return false;
  let asked = false;
  for (const segment of segments(command)) {
    // Asked from a folder it moved to first: the folder may be what failed.
    if (/^(cd|pushd|set-location|sl)$/i.test(segment[0] ?? '')) return false;
    const key = segmentKey(segment);
    if (key === undefined || PROBES.has(key[0] ?? '')) continue;
    if (!asksState(segment, key)) return false;
    asked = true;
  }
  return asked;
}

function isProbeCommand(command: string): boolean {
  const keys = commandKeys(command);
  if (keys.length > 0 && keys.every((key) => PROBES.has(key.split(' ')[0] ?? ''))) return true;
  // `tool --version`, `which x && x -V`, `pacman -Qo FILE`: asking what is installed.
  return segments(command).every((segment) => {
    const key = segmentKey(segment);
    if (key === undefined) return true;
    if (PROBES.has(key[0] ?? '')) return true;
    const rest = segment.slice(segment.indexOf(key[0] ?? '') + 1);
    if (isPackageQuery(key[0] ?? '', rest)) return true;
    // A lookup run on another host is a lookup.
    if (key[0] === 'ssh') {
      const remote = sshRemote(rest);
      return remote !== undefined && isProbeCommand(remote);
    }
    return rest.length > 0 && rest.every((arg) => /^(--version|-V|-v|version|--help|-h)$/.test(arg));
  });
}

/**
 * A package manager asked what is installed, what its repositories hold or who owns a file
 * (`pacman -Qo`, `pacman -Ss`, `winget search`, `dpkg -S`, `npm ls`, `pip show`): its "no" is an
 * answer, like `which`.
 */
const PACKAGE_QUERIES: Record<string, RegExp> = {
  pacman: /^-(Q[a-z]*|Ss|Si|Sl)$/,
  dpkg: /^(-[lLsS]|--(list|listfiles|status|search))$/,
  'dpkg-query': /^-/,
  rpm: /^-q[a-z]*$/,
  apt: /^(list|show|policy|search)$/,
  'apt-cache': /^(show|policy|search|madison)$/,
  npm: /^(ls|list|la|ll|view|info|show|v|outdated|why|explain)$/,
  pnpm: /^(ls|list|why|outdated)$/,
  yarn: /^(list|info|why)$/,
  pip: /^(show|list|freeze|search|index)$/,
  pip3: /^(show|list|freeze|search|index)$/,
  opkg: /^(list|list-installed|list-upgradable|info|status|search|find|files|whatprovides|depends)$/,
  brew: /^(list|ls|info|search|--prefix)$/,
  gem: /^(list|info|which)$/,
  cargo: /^(tree|search)$/,
  winget: /^(search|list|find)$/,
  choco: /^(search|list|find)$/,
  dnf: /^(search|list|provides)$/,
  yum: /^(search|list|provides)$/,
  apk: /^(search|list)$/,
  snap: /^(find|list)$/,
  flatpak: /^(search|list|remote-ls)$/,
  zypper: /^(search|se)$/,
};

function isPackageQuery(program: string, args: readonly string[]): boolean {
  const form = PACKAGE_QUERIES[program];
  const first = args.find((arg) => arg !== '-g' && arg !== '--global');
  return form !== undefined && first !== undefined && form.test(first);
}

/**
 * What a lookup says when the answer is "no": nothing at all, or that the thing is absent or out
 * of reach. Anything else means the probe itself misfired (`curl --version` where `curl` is
 * PowerShell's alias for Invoke-WebRequest, `grep -P` where grep has no -P).
 */
const ABSENT =
  /not found|no such|not recognized|cannot find|can't find|could not find|does not exist|doesn't exist|cannot access|permission denied|access is denied|no matches|is not installed/i;

/** Lookups that ask whether a program is installed: "no such program" is their answer. */
const INSTALL_LOOKUPS = new Set(['which', 'where', 'where.exe', 'type', 'command', 'get-command']);

function isAnswer(call: ToolCall, text: string): boolean {
  const head = text.slice(0, 3000);
  // `tail file` where the shell has no tail misfired; `which tail` got its answer.
  if (NO_SUCH_PROGRAM.test(head)) {
    const first = tokenize(commandOf(call) ?? '')[0]?.toLowerCase() ?? '';
    const asksVersion = /\s(--version|-V|-v|version)(\s|$)/.test(commandOf(call) ?? '');
    return INSTALL_LOOKUPS.has(first) || asksVersion;
  }
  const said = errorGist(text);
  return said === 'failed without output' || (ABSENT.test(head) && !SWITCH_TAKEN_FOR_PATH.test(head));
}

/**
 * A POSIX program saying a cmd.exe switch is not there (`dir: cannot access '/s': No such file or
 * directory`, Git Bash given `dir /s /b`): it was asked in another shell's syntax and answered
 * nothing about what was looked for.
 */
const SWITCH_TAKEN_FOR_PATH =
  /(?:cannot access|cannot stat|can't open) '\/[A-Za-z?]{1,3}':|'\/[A-Za-z?]{1,3}': No such file/;

/** Tools that fetch or search the web: what the site answers is the web's state. */
const WEB_TOOLS = new Set(['webfetch', 'web_fetch', 'websearch', 'web_search', 'google_web_search']);

/** A web tool's complaint about the call itself (a malformed URL, a missing parameter). */
const BAD_WEB_INPUT =
  /malformed|invalid (url|uri|argument|parameter|input)|InputValidationError|required parameter|must be (a|an|one)\b/i;

/** Programs that search text: exit 1 with nothing printed means "no match". */
const SEARCHES = new Set(['grep', 'egrep', 'fgrep', 'rg', 'ag', 'findstr', 'select-string', 'sls']);

/**
 * A command whose last stage searches text, which failed with exit code 1 and printed nothing:
 * the search matched nothing (`ps | grep x`, `opkg list-installed | grep y`, over ssh too). That
 * is an answer, as a failed lookup is.
 */
export function isEmptySearch(call: ToolCall, result: ToolResult): boolean {
  if (result.exitCode !== 1 || !isShellTool(call.tool)) return false;
  const command = commandOf(call);
  if (command === undefined) return false;
  const last = lastStage(command);
  const program = stripQuotes(last?.[0] ?? '').toLowerCase();
  return SEARCHES.has(program) && errorGist(result.text) === 'failed without output';
}

/** The words of a command's last stage, looking through `ssh HOST "..."`. */
function lastStage(command: string): string[] | undefined {
  const last = segments(command).at(-1);
  if (last === undefined) return undefined;
  const key = segmentKey(last);
  if (key?.[0] === 'ssh') {
    const remote = sshRemote(last.slice(last.indexOf(key[0]) + 1));
    return remote === undefined ? last : lastStage(remote);
  }
  return last;
}

/** Failures that teach nothing: lookups, the network, a site's answer, the harness itself. */
export function isNoise(call: ToolCall, result: ToolResult): boolean {
  if (writesToMissingFolder(call, result)) return false;
  if (isProbe(call) || isEmptySearch(call, result) || reportsState(call, result)) return true;
  const head = result.text.slice(0, 3000);
  if (WEB_TOOLS.has(call.tool.toLowerCase()) && !BAD_WEB_INPUT.test(head)) return true;
  return isEnvironmentFailure(head);
}

/**
 * A command whose output went to a file in a folder that is not there
 * (`ssh h "opkg list-installed" > proj/pkgs.txt`: "proj/pkgs.txt: No such file or directory"):
 * the path was the mistake, whatever the command looked up.
 */
function writesToMissingFolder(call: ToolCall, result: ToolResult): boolean {
  if (!isShellTool(call.tool)) return false;
  const written = writtenFiles(commandOf(call) ?? '');
  if (written.length === 0) return false;
  const head = result.text.slice(0, 1000);
  return written.some((file) => file.length >= 3 && head.includes(`${file}: No such file or directory`));
}

/**
 * A lookup that misfired rather than answered: it failed with something other than silence or
 * "absent". On its own it still teaches nothing; it waits only for the agent to name a
 * replacement program that then works.
 */
export function isMisfiredProbe(call: ToolCall, result: ToolResult): boolean {
  return isProbe(call) && !isAnswer(call, result.text) && !isEnvironmentFailure(result.text.slice(0, 3000));
}

/** The line of an error that says what went wrong, numbers aside, to tell one failure from another. */
export function failureGist(text: string): string {
  return errorGist(text.slice(0, 3000)).replace(/\d+/g, '#').slice(0, 120);
}

/** failureGist of a result, worked out once per result (a pending failure compares it with each retry). */
const gists = new WeakMap<ToolResult, string>();
function resultGist(result: ToolResult): string {
  let gist = gists.get(result);
  if (gist === undefined) gists.set(result, (gist = failureGist(result.text)));
  return gist;
}

/**
 * The agent asked whether a program was there (`op --version; op whoami`), it was not, and it
 * installed it: setting up, not a mistake.
 */
function installedAfterCheck(pending: PendingFailure, installer: ToolCall | undefined): boolean {
  if (!pending.missingProgram || installer === undefined || !installsSomething(installer)) return false;
  const asked = commandOf(lastAttempt(pending).call) ?? '';
  return programs(pending.keys).some((program) =>
    new RegExp(
      `(^|[;&|(]\\s*)${escapeRegex(program)}(\\.exe)?\\s+(--version|-V|version)(?=\\s|[;&|)]|$)`,
      'i',
    ).test(asked),
  );
}

/** Flags that make a program say more, not do otherwise. */
const VERBOSITY = /^(--verbose|-v+|--debug|-Verbose|-Debug)$/;

/** How a command's output is shown, never what runs: stderr joined or dropped, a last `| head`/`| tail`. */
const OUTPUT_PLUMBING = /\s+2>(&1|\/dev\/null)(?=\s|$)|\s*\|\s*(head|tail)(\s+-n)?(\s+-?\d+)?\s*$/g;

/**
 * The same command with only a verbosity flag added (`gpg --verbose ...` after `gpg ...`) or its
 * output shown another way (`x 2>&1 | head -60` after `x`): when it works, the failure went away
 * by itself or by what ran in between; the change fixed nothing.
 */
export function onlyMoreOutput(failed: ToolCall, next: ToolCall): boolean {
  const [a, b] = [commandOf(failed), commandOf(next)];
  if (a === undefined || b === undefined || a === b) return false;
  const words = (command: string) =>
    tokenize(command.replace(OUTPUT_PLUMBING, '')).filter((word) => !VERBOSITY.test(word));
  return words(a).join(' ') === words(b).join(' ');
}

/** The shell wrapper a key runs its command under (`powershell` of `powershell Resolve-DnsName`), if any. */
function wrapperOf(key: string): string[] {
  const [first = '', ...rest] = key.split(' ');
  return rest.length > 0 && isShellWrapper(first) ? [first.toLowerCase()] : [];
}

/** Whether a call at `target` is another go at the pending failure's target. */
export function relatedTo(pending: PendingFailure, target: CallTarget, tool?: string): boolean {
  if (pending.family !== target.family) return false;
  if (target.keys.some((key) => pending.keys.includes(key))) return true;
  // Another command run by the same wrapper is another go (`powershell "Get-WmiObject ..."`, then
  // `powershell "Get-CimInstance ..."`): the wrapped program is often what the agent changed.
  const wrappers = new Set(pending.keys.flatMap(wrapperOf));
  if (wrappers.size > 0 && target.keys.some((key) => wrapperOf(key).some((w) => wrappers.has(w))))
    return true;
  // A harness error ("File does not exist", a missing parameter) is about how the tool was used:
  // a later success of the same tool on another target is the corrected use.
  const first = pending.attempts[0];
  return (
    first !== undefined &&
    (first.result.failure === 'tool-use-error' || refusedDirectory(first.call, first.result)) &&
    first.call.tool === tool
  );
}

/** Gemini CLI refusing a shell call's working folder (`dir_path`) outside the workspace. */
const REFUSED_DIRECTORY = /^Directory '[^']*' is not within any of the registered workspace directories/;

/**
 * The harness refused the folder a shell call was to run in: how the tool was used (its
 * `dir_path`), not what the command asked, so the next shell call that runs is the corrected use.
 */
export function refusedDirectory(call: ToolCall, result: ToolResult): boolean {
  return (
    !result.ok && isShellTool(call.tool) && REFUSED_DIRECTORY.test(result.text.trimStart().slice(0, 300))
  );
}

/** The file a call acts on, by basename (for a shell command that writes or lists it instead). */
function baseName(path: string): string {
  const parts = path.split(/[\\/]/).filter((p) => p !== '');
  return parts[parts.length - 1] ?? '';
}

/**
 * Whether a file tool's path is a file the command wrote: the same path, or the same path below
 * the home or working folder (`~/.config/x.conf` is `/home/me/.config/x.conf`).
 */
function samePathAs(toolPath: string, written: string): boolean {
  const tail = written.replace(/^~(?=[\\/])|^\.(?=[\\/])/, '').replace(/\\/g, '/');
  const path = toolPath.replace(/\\/g, '/');
  if (path === tail) return true;
  return (
    (tail.startsWith('/') ? tail.length >= 8 : baseName(tail).length >= 5) &&
    path.endsWith(tail.startsWith('/') ? tail : `/${tail}`)
  );
}

/** Interpreters whose first operand is the script they run (`python x.py`, `bash ./x.sh`). */
const INTERPRETERS =
  /^(?:python[\d.]*|py|node|bash|sh|zsh|ruby|perl|php|deno|tsx|ts-node|pwsh|powershell)(?:\.exe)?$/i;

/** A word that names a script file: a path, or a file name with a script's extension. */
const SCRIPT_FILE = /[\\/]|^[\w.-]+\.(?:sh|bash|zsh|py|js|mjs|cjs|ts|rb|pl|php|ps1)$/;

/**
 * The script files a command runs: a segment's program given by its path (`./audit.sh`,
 * `~/security-audit.sh`), or the first operand of an interpreter (`python scripts/sync.py`,
 * `bash -e run.sh`); never what `-c` or `-m` runs.
 */
export function ranScripts(command: string): string[] {
  const files: string[] = [];
  for (const segment of segments(command)) {
    const at = programAt(segment);
    if (at < 0 || at >= segment.length) continue;
    const words = segment.map(stripQuotes);
    const program = words[at] ?? '';
    const name = programName(program);
    if (!INTERPRETERS.test(name)) {
      if (/[\\/]/.test(program) && name.length >= 3) files.push(program);
      continue;
    }
    const rest = words.slice(at + 1);
    const operand = rest.findIndex((word) => !word.startsWith('-'));
    const options = rest.slice(0, operand < 0 ? rest.length : operand);
    // Code given inline (`-c`, `-m`, PowerShell's `-Command`, `-e` of all but the POSIX shells).
    const inline = /^(?:ba|z)?sh$/i.test(name) ? /^-(?:c)$/ : /^-(?:c|m|e|Command)$/i;
    if (operand < 0 || options.some((word) => inline.test(word))) continue;
    const script = rest[operand] ?? '';
    if (SCRIPT_FILE.test(script)) files.push(script);
  }
  return [...new Set(files)];
}

/**
 * A later successful call that deals with the same file another way: Read, a heredoc or `ls` after
 * a failed file tool; a file tool writing the file a failed shell command meant to write
 * (`cat <<EOF > a.desktop` broke in the shell, `write_file a.desktop` worked).
 */
export function touchesSameFile(pending: PendingFailure, call: ToolCall, target: CallTarget): boolean {
  if (pending.family === 'shell') {
    if (target.family !== 'edit') return false;
    const command = commandOf(lastAttempt(pending).call) ?? '';
    // The file the command meant to write, or the script it ran: a script that failed was wrong
    // where the agent then edits it (a generated audit script whose `((n++))` stops `set -e`).
    // A build or test tool's failure is fixed in the code it builds, which is ordinary iteration.
    const files = [
      ...writtenFiles(command),
      ...(commandKeys(command).some((key) => BUILDERS.test(key)) ? [] : ranScripts(command)),
    ];
    return target.keys.some((path) => files.some((file) => samePathAs(path, file)));
  }
  if (pending.family !== 'edit' && pending.family !== 'read') return false;
  const path = pending.keys[0];
  if (path === undefined || path === '?') return false;
  if ((target.family === 'edit' || target.family === 'read') && target.keys.includes(path)) return true;
  // The same file by its absolute path, after the tool refused the relative one.
  if (
    (target.family === 'edit' || target.family === 'read') &&
    !isAbsolutePath(path) &&
    target.keys.some((key) => isAbsolutePath(key) && givenFrom(key, path))
  )
    return true;
  const name = baseName(path);
  // A file that was not where the call looked, found under its own name elsewhere.
  if (
    (target.family === 'edit' || target.family === 'read') &&
    name.length >= 5 &&
    errorClass(lastAttempt(pending).result.text.slice(0, 600)) === 'missing-file' &&
    target.keys.some((key) => baseName(key) === name)
  )
    return true;
  // A folder read as a file, then listed at that path (Glob, LS, list_directory).
  if (LISTING_TOOLS.has(call.tool.toLowerCase())) {
    const listed = call.input.path ?? call.input.dir_path ?? call.input.directory;
    return typeof listed === 'string' && samePathAs(listed, path);
  }
  const command = commandOf(call);
  if (command === undefined) return false;
  // The whole path (`sudo cp new /etc/pam.d/sudo`), or a basename long enough to tell files apart.
  return (
    (/[\\/]/.test(path) && path.length >= 8 && command.includes(path)) ||
    (name.length >= 5 && command.includes(name))
  );
}

/** A path operand given from the working folder (`docs/`, `src/app.ts`): not absolute, home, a drive, `..` or a URL. */
function relativePath(path: string): boolean {
  return /^[\w-]/.test(path) && !/^[A-Za-z]:/.test(path) && !path.includes('://');
}

/** The relative paths a shell command gave that its error says are not there. */
function missingRelativePaths(failed: ToolCall, failedText: string): string[] {
  // Asked again for each later call while the failure waits: worked out once per call and text.
  const known = missingPaths.get(failed);
  if (known !== undefined && known.text === failedText) return known.paths;
  const command = isShellTool(failed.tool) ? commandOf(failed) : undefined;
  const said = failedText.slice(0, 600);
  const paths =
    command === undefined || errorClass(said) !== 'missing-file'
      ? []
      : pathOperands(command).filter(
          (path) => relativePath(path) && said.includes(path.replace(/[\\/]+$/, '')),
        );
  missingPaths.set(failed, { text: failedText, paths });
  return paths;
}

const missingPaths = new WeakMap<ToolCall, { text: string; paths: string[] }>();

export type FoundUnder = {
  /** The path as the failed command gave it (`docs/`). */
  path: string;
  /** The folder a later call found it in (`M-Gemini/`). */
  folder: string;
};

/**
 * A relative path a shell command could not find (`ls docs/`: No such file or directory) that a
 * later call reached under a folder (`read_file M-Gemini/docs/SECURITY.md`): the command ran from
 * the wrong folder. The path must be the one the error names.
 */
export function foundUnder(failed: ToolCall, failedText: string, call: ToolCall): FoundUnder | undefined {
  const missing = missingRelativePaths(failed, failedText);
  if (missing.length === 0) return undefined;
  const texts = Object.values(call.input).filter((value): value is string => typeof value === 'string');
  for (const path of missing) {
    const bare = escapeRegex(path.replace(/[\\/]+$/, ''));
    const under = new RegExp(
      `(?:^|[\\s"'=])((?:[^\\s"'=]*[\\\\/])?[\\w-][^\\s"'=\\\\/]*[\\\\/])${bare}(?=[\\\\/\\s"']|$)`,
    );
    for (const text of texts) {
      const folder = under.exec(text)?.[1];
      if (folder !== undefined) return { path, folder };
    }
  }
  return undefined;
}

/** A file tool that refused a file for its size (Claude Code's Read over 25,000 tokens). */
export const TOO_LARGE =
  /exceeds (the )?maximum allowed tokens|file is too large|too large to (read|display)/i;

export function tooLargeToRead(pending: PendingFailure): boolean {
  const first = pending.attempts[0];
  return first !== undefined && pending.family === 'read' && TOO_LARGE.test(first.result.text.slice(0, 400));
}

/** A call that gets at part of a text: a search tool, or a shell command that searches or cuts. */
function readsInParts(call: ToolCall): boolean {
  if (/^(grep|search_file_content)$/i.test(call.tool)) return true;
  const command = commandOf(call);
  return (
    isShellTool(call.tool) &&
    command !== undefined &&
    /(^|[|;&("']\s*)(grep|rg|head|tail|sed|awk|jq|select-string)\b/i.test(command)
  );
}

/** The first word of each key (`npm install` → `npm`): the program a shell call runs. */
function programs(keys: readonly string[]): string[] {
  return keys.map((key) => (key.split(' ')[0] ?? '').toLowerCase()).filter((word) => word !== '');
}

/** The program of a shell call that the agent named as its replacement for the failed one. */
export function substituteRun(pending: PendingFailure, target: CallTarget): string | undefined {
  if (pending.family !== 'shell' || target.family !== 'shell' || pending.substitutes.length === 0)
    return undefined;
  const keys = target.keys.filter((key) => pending.substitutes.includes(programs([key])[0] ?? ''));
  return keys[0]?.split(' ')[0];
}

export function isSubstitute(pending: PendingFailure, target: CallTarget): boolean {
  return substituteRun(pending, target) !== undefined;
}

/** Words that say the agent is switching to another program, not just mentioning one. */
const SWITCH =
  /\b(instead|rather than|alias(ed)? (for|of|to)|use|using|switch(ing)? to|try|trying|fall(ing)? back to|replace|via)\b/i;

/**
 * The programs a reply right after a shell failure says to run instead: the reply names a failed
 * program and, with a word of switching, another program in backticks (`` `Invoke-WebRequest` ``,
 * `` `npm install -g x` ``). Prose without that pairing names nothing.
 */
export function namedSubstitutes(pending: PendingFailure, text: string): string[] {
  if (pending.family !== 'shell' || !SWITCH.test(text)) return [];
  const failed = new Set(programs(pending.keys));
  const said = text.toLowerCase();
  const mentionsFailed = [...failed].some((program) =>
    new RegExp(`(^|[^\\w-])${escapeRegex(program)}([^\\w-]|$)`).test(said),
  );
  if (!mentionsFailed) return [];
  const named = [...text.matchAll(/`([^`\n]{1,200})`/g)].flatMap((match) =>
    programs(commandKeys(match[1] ?? '')),
  );
  return [...new Set(named)].filter(
    (program) => !failed.has(program) && /^[a-z][\w.-]*$/i.test(program) && !PROBES.has(program),
  );
}

export type FailureVerdict =
  /** A lookup or the environment: nothing to learn, nothing changes (`open`: the failure at its target). */
  | { kind: 'noise'; open: PendingFailure | undefined }
  /** No open failure at this target: a new one opens. */
  | { kind: 'first' }
  /** A lookup that misfired, with no open failure at its target: it opens as a probe. */
  | { kind: 'probe' }
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
  justInstalled = false,
): FailureVerdict {
  const open = [...pending].reverse().find((p) => relatedTo(p, target, call.tool));
  // Asking for a program just installed, and the shell has none: the install did not put it on
  // the PATH this shell reads (`winget install GnuPG.GnuPG`, then `gpg --version`), not an answer.
  const notOnPath = justInstalled && lacksProgram(call, result);
  // A lookup's answer that a relative path is not there waits too: found under another folder,
  // the lookup ran from the wrong one (`foundUnder`).
  if (!notOnPath && !refusedDirectory(call, result) && isNoise(call, result))
    return open === undefined &&
      (isMisfiredProbe(call, result) || missingRelativePaths(call, result.text).length > 0)
      ? { kind: 'probe' }
      : { kind: 'noise', open };
  if (open === undefined) return { kind: 'first' };
  const previous = open.attempts[open.attempts.length - 1];
  const otherError =
    previous !== undefined &&
    open.family === 'shell' &&
    previous.result.text !== result.text &&
    resultGist(previous.result) !== resultGist(result);
  // Fixed by what the agent did in between, or by what it changed in the call: a changed command
  // that fails with another kind of error got past the first one (`git pull --no-rebase` past
  // "Need to specify how to reconcile divergent branches", into a merge conflict).
  const cured =
    otherError &&
    (open.enabler !== undefined ||
      (!sameInput(previous.call, call) &&
        errorClass(previous.result.text.slice(0, 3000)) !== errorClass(result.text.slice(0, 3000))));
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
  const failed = lastAttempt(pending);
  const last = failed.call;
  if (foundUnder(failed.call, failed.result.text, call) !== undefined)
    return { close: true, episode: 'error-fix' };
  // A `cd` on its own waits for the call that reaches the folder another way.
  const folder = pending.probe ? cdAlone(failed.call) : undefined;
  if (folder !== undefined)
    return usesFolder(folder, call)
      ? { close: true, episode: 'error-fix' }
      : { close: false, enabler: false, clearEdited: false };
  if (pending.probe) {
    if (isSubstitute(pending, target) || operandRun(pending, call) !== undefined)
      return { close: true, episode: 'error-fix' };
    // A lookup in another shell's syntax that misfired (`dir /s /b` in Git Bash), then the
    // harness's own file search found it: that tool is the replacement. Any other misfired lookup
    // and a later search share no more than the search.
    if (
      pending.substitutes.length > 0 &&
      LISTING_TOOLS.has(call.tool.toLowerCase()) &&
      SWITCH_TAKEN_FOR_PATH.test(failed.result.text.slice(0, 3000))
    )
      return { close: true, episode: 'error-fix' };
    // The same lookup asked another way after its usage was refused (`grep -P` where grep has no
    // -P, then `grep -E`): the way it was asked was the mistake.
    if (relatedTo(pending, target, call.tool))
      return {
        close: true,
        episode: usageRefused(failed.result.text) && !sameInput(call, last) ? 'error-fix' : undefined,
      };
    return { close: false, enabler: false, clearEdited: false };
  }
  if (!relatedTo(pending, target, call.tool)) {
    if (installedAfterCheck(pending, call)) return { close: true, episode: undefined };
    if (touchesSameFile(pending, call, target)) return { close: true, episode: 'error-fix' };
    if (tooLargeToRead(pending) && readsInParts(call)) return { close: true, episode: 'error-fix' };
    if (
      isSubstitute(pending, target) ||
      operandRun(pending, call) !== undefined ||
      nextProgramRun(pending, call) !== undefined ||
      droppedRemoteProgram(pending, call) !== undefined
    )
      return { close: true, episode: 'error-fix' };
    return {
      close: false,
      // Any successful call of the same family that acted counts; for a failed file or tool call,
      // any call at all. A shell lookup changes nothing, so it cannot be what made a command work.
      enabler: pending.family === 'shell' ? target.family === 'shell' && !readsOnly(call) : true,
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
  if (installedAfterCheck(pending, pending.enabler)) return { close: true, episode: undefined };
  if ((!sameInput(call, last) && !onlyMoreOutput(last, call)) || pending.enabler !== undefined)
    return { close: true, episode: 'error-fix' };
  // The same call worked when simply repeated (or asked to say more): a transient failure,
  // unless it looped.
  return { close: true, episode: pending.attempts.length >= 3 ? 'retry-loop' : undefined };
}

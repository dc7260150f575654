/**
 * Just enough shell to name what a command runs: split it into segments (`&&`, `||`, `;`, `|`),
 * drop env assignments, `sudo` (and `doas`, `pkexec`, `run0`), `cd` and plumbing (`echo`, `yes`, `cat`), and key each segment by
 * its executable plus the subcommand for multiplexers (`git push`, `npm install`, `npx vitest`).
 */

/** Programs that run the command after them as another user. */
const ELEVATE = new Set(['sudo', 'doas', 'pkexec', 'run0']);

const MULTIPLEXERS = new Set([
  'git',
  'npm',
  'npx',
  'pnpm',
  'yarn',
  'bun',
  'bunx',
  'docker',
  'docker-compose',
  'kubectl',
  'cargo',
  'go',
  'gh',
  'uv',
  'uvx',
  'pip',
  'pip3',
  'poetry',
  'brew',
  'apt',
  'apt-get',
  'dotnet',
  'make',
  'terraform',
  'gcloud',
  'aws',
  'az',
  'claude',
  'codex',
  'gemini',
  'deno',
  'node',
  'python',
  'python3',
  'ruby',
  'bundle',
  'rails',
  'mvn',
  'gradle',
  './gradlew',
  'swift',
  'rustup',
  'systemctl',
  'winget',
  'choco',
  'code',
  'opkg',
  'apk',
  'dnf',
  'yum',
  'zypper',
  'snap',
  'flatpak',
]);

/** Segments that only feed or wrap the real command. */
const PLUMBING = new Set([
  'echo',
  'yes',
  'cat',
  'cd',
  'true',
  'printf',
  'sleep',
  'export',
  'set',
  'source',
  '.',
  'time',
  'timeout',
  'env',
  'head',
  'tail',
  'grep',
  'sort',
  'wc',
  'tee',
  'xargs',
  'less',
  'more',
  'jq',
  'sed',
  'awk',
  'tr',
  'cut',
  'uniq',
]);

/**
 * Words, quoted strings and operators; a line break is `\n`. A `#` that starts a word starts a
 * comment to the end of the line (`# list it first\nls -la`), which names nothing.
 */
function lexemes(command: string): readonly string[] {
  const known = recentLexemes.get(command);
  if (known !== undefined) return known;
  // A line continued (`\` in a shell, ` `` ` after a space in PowerShell) is one line; a backtick
  // that closes a bash command substitution at the end of a line continues nothing.
  const body = withoutHeredocBodies(command);
  const out = words(body.includes('\n') ? body.replace(/\\\r?\n|[ \t]`\r?\n/g, ' ') : body);
  if (recentLexemes.size >= RECENT_COMMANDS) recentLexemes.clear();
  recentLexemes.set(command, out);
  return out;
}

/**
 * The words of the commands seen last: one call's command is taken apart by several checks (its
 * keys, what it writes, whether it only looks), and again for each failure that waits for a fix.
 */
const recentLexemes = new Map<string, readonly string[]>();
const RECENT_COMMANDS = 512;

const HEREDOC = /<<-?\s*(['"]?)([A-Za-z_][\w-]*)\1/g;

/** A here-document's lines are data, not commands: each body is cut, its `<<WORD` line kept. */
function withoutHeredocBodies(command: string): string {
  if (!command.includes('<<') || !command.includes('\n')) return command;
  let out = '';
  let from = 0;
  for (const match of command.matchAll(HEREDOC)) {
    if (match.index < from) continue;
    const lineEnd = command.indexOf('\n', match.index);
    if (lineEnd < 0) break;
    const end = new RegExp(`\\n[\\t ]*${match[2]}[\\t ]*(?=\\n|$)`, 'g');
    end.lastIndex = lineEnd;
    const close = end.exec(command);
    const resume = close === null ? command.length : close.index + close[0].length;
    out += command.slice(from, lineEnd);
    from = resume;
  }
  return out + command.slice(from);
}

/** A redirection operator as one word: `2>&1`, `>&2`, `&>`, `2>>`, `<<<`, `<<-`, `<`. */
const REDIRECT = /^(?:\d*>&\d*-?|&>>?|\d*>>?|\d*<<<|\d*<<-?|\d*<)$/;

/** Operators that duplicate a stream (`2>&1`): they take no file after them. */
const DUPLICATE = /^\d*>&\d*-?$/;

function words(command: string): string[] {
  const tokens: string[] = [];
  const pattern =
    /"(?:[^"\\]|\\.)*"|'[^']*'|&&|\|\||\n|#[^\n]*|\d*>&\d*-?|&>>?|\d*>>?|\d*<<<|\d*<<-?|\d*<|[;|&()]|[^\s;|&<>()]+/g;
  for (const match of command.matchAll(pattern)) if (!match[0].startsWith('#')) tokens.push(match[0]);
  return tokens;
}

export function tokenize(command: string): string[] {
  return lexemes(command).filter((token) => token !== '\n');
}

/**
 * The words of each command in a line, split at `&&`, `||`, `;`, `|`, `&`, parentheses and line
 * breaks. Redirections and their files are left out: `ls x 2>/dev/null` runs `ls x`.
 */
export function segments(command: string): string[][] {
  const out: string[][] = [[]];
  let target = false;
  for (const token of lexemes(command)) {
    if (['&&', '||', ';', '|', '&', '(', ')', '\n'].includes(token)) out.push([]);
    else if (REDIRECT.test(token)) target = !DUPLICATE.test(token);
    else if (target) target = false;
    else out[out.length - 1]?.push(token);
  }
  return out.filter((segment) => segment.length > 0);
}

/** The files a command line writes by redirection or `tee` (`cat <<EOF > a.desktop`), the null device aside. */
export function writtenFiles(command: string): string[] {
  const tokens = lexemes(command);
  const files = tokens.flatMap((token, i) =>
    /^(?:\d*>>?|&>>?)$/.test(token) ? [stripQuotes(tokens[i + 1] ?? '')] : [],
  );
  for (const segment of segments(command)) {
    const at = ELEVATE.has(segment[0] ?? '') ? 1 : 0;
    if (segment[at] === 'tee')
      files.push(
        ...segment
          .slice(at + 1)
          .filter((word) => !word.startsWith('-'))
          .map(stripQuotes),
      );
  }
  return [...new Set(files)].filter((file) => file !== '' && !/^(\/dev\/null|nul|\$null)$/i.test(file));
}

/** A token without the quotes around it (`"a b"` → `a b`). */
export function stripQuotes(token: string): string {
  return token.replace(/^(["'])(.*)\1$/s, '$2');
}

/** sudo options that take a value (`-u user`, `-g group`). */
const SUDO_VALUE_OPTIONS = new Set([
  '-u',
  '-g',
  '-U',
  '-C',
  '-D',
  '-h',
  '-p',
  '-r',
  '-t',
  '-T',
  '--user',
  '--group',
]);

/**
 * Where a segment's program is: past env assignments, `sudo` and its options, `command`, `exec`,
 * `nohup`, `timeout`/`env` and their options, and PowerShell's `$var =`. -1 for a segment that runs
 * nothing (an assignment such as a PowerShell hashtable's `title = "x"`).
 */
export function programAt(segment: readonly string[]): number {
  if (segment[1] === '=' && !/^\$/.test(segment[0] ?? '')) return -1;
  let i = 0;
  while (i < segment.length) {
    const token = segment[i] ?? '';
    // PowerShell: `$key = & "C:\...\gpg.exe" --export` runs gpg (the `&` may split it off).
    if (/^\$[\w:]+$/.test(token) && segment[i + 1] === '=') i += 2;
    // `sudo -u mischa op ...` runs op: sudo's options, and the value of those that take one; so
    // do the other ways to run as root (`doas`, `pkexec`, `run0`).
    else if (ELEVATE.has(token)) {
      i += 1;
      while (i < segment.length && (segment[i] ?? '').startsWith('-'))
        i += SUDO_VALUE_OPTIONS.has(segment[i] ?? '') ? 2 : 1;
    } else if (
      /^[A-Za-z_][A-Za-z0-9_]*=/.test(token) ||
      token === 'command' ||
      token === 'exec' ||
      token === 'nohup'
    )
      i += 1;
    else if ((token === 'timeout' || token === 'env') && i + 1 < segment.length) {
      i += 1;
      while (i < segment.length && /^(-\S+|\d+[smh]?)$/.test(segment[i] ?? '')) i += 1;
    } else break;
  }
  return i;
}

/**
 * Options given before a multiplexer's subcommand that take the next word as their value (written
 * `--opt=value` they are one word already): without these, `git -C ~/site push` was keyed
 * `git ~/site`, and its lesson fired on nothing else.
 */
const VALUE_OPTIONS: Readonly<Record<string, ReadonlySet<string>>> = {
  git: new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--config-env']),
  docker: new Set(['--context', '-c', '-H', '--host', '--config', '--log-level', '-l']),
  'docker-compose': new Set([
    '-f',
    '--file',
    '-p',
    '--project-name',
    '--env-file',
    '--profile',
    '--project-directory',
  ]),
  kubectl: new Set([
    '-n',
    '--namespace',
    '--context',
    '--kubeconfig',
    '--cluster',
    '--user',
    '-s',
    '--server',
  ]),
  npm: new Set(['--prefix', '-w', '--workspace']),
  pnpm: new Set(['-C', '--dir', '-F', '--filter', '-w', '--workspace']),
  yarn: new Set(['--cwd']),
  cargo: new Set(['--manifest-path', '-Z', '--config', '-C']),
  go: new Set(['-C']),
  make: new Set(['-C', '--directory', '-f', '--file', '--makefile']),
  gh: new Set(['-R', '--repo']),
  uv: new Set(['--directory', '--project']),
  poetry: new Set(['-C', '--directory']),
  systemctl: new Set(['-H', '--host', '-M', '--machine']),
  'apt-get': new Set(['-o', '-c', '-t']),
  apt: new Set(['-o', '-c', '-t']),
  aws: new Set(['--profile', '--region', '--output', '--endpoint-url']),
};

/** A program word as a program name: its path and `.exe` dropped (`C:\Python314\python.exe` is `python`). */
export function programName(word: string): string {
  return word.slice(Math.max(word.lastIndexOf('/'), word.lastIndexOf('\\')) + 1).replace(/\.exe$/i, '');
}

/** The command an ssh or a shell wrapper hands on (`ssh h "opkg remove x"`, `bash -c "..."`), if any. */
function handedOn(program: string, args: readonly string[]): string | undefined {
  if (program === 'ssh') return sshRemote(args);
  return isShellWrapper(program) ? wrappedCommand(program, args) : undefined;
}

/**
 * The keys of what a segment runs (`npm install`), or undefined for plumbing: one key, or for a
 * command handed on (`ssh h "opkg update && opkg install x"`, `powershell "Get-Volume; Get-Disk"`)
 * one per command it runs there, each behind the outer program (`ssh opkg install`), so two
 * different remote commands are two targets, as they would be run locally.
 */
function segmentKeys(segment: readonly string[]): string[] | undefined {
  const i = programAt(segment);
  if (i < 0) return undefined;
  const exe = stripQuotes(segment[i] ?? '');
  if (exe === '' || exe.startsWith('-') || exe.startsWith('>') || exe.startsWith('<')) return undefined;
  // A PowerShell variable, method call or block brace is not a program (`$s.Save()`, `@{`, `}`).
  if (/^\$[\w:]+(?:[.[]|$)/.test(exe) || /^[@{}]/.test(exe)) return undefined;
  // A program run by its path is that program (`/usr/bin/ssh`, `C:\Python314\python.exe`).
  const base = exe.startsWith('./') || exe.startsWith('.\\') ? exe : programName(exe);
  if (PLUMBING.has(base)) return undefined;
  if (base === 'ssh' || isShellWrapper(base)) {
    const inner = handedOn(base, segment.slice(i + 1));
    const keys = inner === undefined ? [] : commandKeys(inner);
    return keys.length === 0 ? [base] : keys.map((key) => `${base} ${key}`);
  }
  if (!MULTIPLEXERS.has(base)) return [base];
  const valued = VALUE_OPTIONS[base];
  for (let j = i + 1; j < segment.length; j += 1) {
    const word = stripQuotes(segment[j] ?? '');
    if (word.startsWith('-')) {
      if (base.startsWith('python') && word === '-m' && segment[j + 1])
        return [`${base} -m ${stripQuotes(segment[j + 1] ?? '')}`];
      if (base.startsWith('python') && word === '-c') return [`${base} -c`];
      // an option's value is not the subcommand (`git -C ~/site push` is a push)
      if (valued?.has(word) === true) j += 1;
      continue;
    }
    if (/^[\w@.:/-]+$/.test(word) && word.length <= 60) return [`${base} ${word.replace(/@[^/]*$/, '')}`];
    break;
  }
  return [base];
}

/** The words that name what a segment runs (`npm install`, `ssh opkg remove`), or undefined for plumbing. */
export function segmentKey(segment: readonly string[]): string[] | undefined {
  return segmentKeys(segment)?.[0]?.split(' ');
}

/** Programs that run the command they are given (`bash -c "..."`, `powershell "..."`, `cmd /c ...`). */
const SHELL_WRAPPERS = new Set(['powershell', 'pwsh', 'cmd', 'bash', 'sh', 'zsh']);

/** PowerShell options that take a value (`-ExecutionPolicy Bypass`). */
const POWERSHELL_VALUE_OPTIONS =
  /^-(ExecutionPolicy|ep|WindowStyle|OutputFormat|InputFormat|Version|ConfigurationName)$/i;

export function isShellWrapper(program: string): boolean {
  return SHELL_WRAPPERS.has(program.toLowerCase());
}

/**
 * The command a shell wrapper runs, as written (one quoted argument unquoted), or undefined when
 * it runs a script file or an interactive shell.
 */
export function wrappedCommand(program: string, args: readonly string[]): string | undefined {
  const name = program.toLowerCase();
  let rest: readonly string[];
  if (name === 'powershell' || name === 'pwsh') {
    let i = 0;
    while (i < args.length && (args[i] ?? '').startsWith('-')) {
      const flag = args[i] ?? '';
      if (/^-(Command|c)$/i.test(flag)) {
        i += 1;
        break;
      }
      if (/^-(File|f)$/i.test(flag)) return undefined;
      i += POWERSHELL_VALUE_OPTIONS.test(flag) ? 2 : 1;
    }
    rest = args.slice(i);
  } else if (name === 'cmd') {
    // `//c` is how Git Bash passes `/c` through unconverted.
    const at = args.findIndex((arg) => /^\/\/?[ck]$/i.test(arg));
    if (at < 0) return undefined;
    rest = args.slice(at + 1);
  } else {
    const at = args.findIndex((arg) => /^-[a-z]*c$/.test(arg));
    if (at < 0) return undefined;
    rest = args.slice(at + 1, at + 2);
  }
  if (rest.length === 0) return undefined;
  return rest.length === 1 ? stripQuotes(rest[0] ?? '') : rest.map(stripQuotes).join(' ');
}

/** ssh options that take a value (`-p 2222`, `-i key`, `-o Opt=x`). */
const SSH_VALUE_OPTIONS = new Set([
  '-p',
  '-i',
  '-o',
  '-l',
  '-F',
  '-J',
  '-L',
  '-R',
  '-D',
  '-b',
  '-c',
  '-E',
  '-e',
  '-m',
  '-O',
  '-Q',
  '-S',
  '-W',
  '-w',
  '-B',
]);

/** Where the host stands in an ssh command's arguments: past its options (and their values). */
function sshHostIndex(args: readonly string[]): number {
  let i = 0;
  while (i < args.length && (args[i] ?? '').startsWith('-'))
    i += SSH_VALUE_OPTIONS.has(args[i] ?? '') ? 2 : 1;
  return i;
}

/** The host an ssh command's arguments name (`root@slate` of `-p 22 root@slate 'ls'`). */
export function sshHost(args: readonly string[]): string | undefined {
  const host = args[sshHostIndex(args)];
  return host === undefined ? undefined : stripQuotes(host);
}

/**
 * The command an `ssh HOST CMD` runs on the other side, as written (one quoted argument unquoted),
 * or undefined for a login shell.
 */
export function sshRemote(args: readonly string[]): string | undefined {
  const rest = args.slice(sshHostIndex(args) + 1);
  if (rest.length === 0) return undefined;
  return rest.length === 1 ? stripQuotes(rest[0] ?? '') : rest.join(' ');
}

/** Keys of every non-plumbing segment, in order (`["npx create-next-app"]`). */
export function commandKeys(command: string): string[] {
  // A command handed on (`ssh h "..."`, `bash -c "..."`) is keyed by what it runs, to this depth:
  // deeper nesting is keyed by the wrapper alone, so no command can exhaust the stack.
  if (nesting >= MAX_NESTING) return [];
  // The detector asks about the same few commands again and again (each open failure weighs
  // every call after it): the keys of the newest commands are kept.
  const known = nesting === 0 ? recentKeys.get(command) : undefined;
  if (known !== undefined) return [...known];
  nesting += 1;
  try {
    const keys = keysOf(command);
    if (nesting === 1) {
      if (recentKeys.size >= RECENT_COMMANDS) recentKeys.clear();
      recentKeys.set(command, keys);
    }
    return [...keys];
  } finally {
    nesting -= 1;
  }
}

/** The keys of the commands seen last (cleared when full: a scan moves on through its files). */
const recentKeys = new Map<string, string[]>();

/** How deep commandKeys is in commands handed on; MAX_NESTING is as deep as it opens them. */
let nesting = 0;
const MAX_NESTING = 4;

function keysOf(command: string): string[] {
  const keys: string[] = [];
  for (const segment of segments(command)) keys.push(...(segmentKeys(segment) ?? []));
  if (keys.length === 0) {
    const first = segments(command)[0];
    if (first && first[0] !== undefined) keys.push(stripQuotes(first[0]));
  }
  return [...new Set(keys)];
}

/**
 * What the segment run under `key` acts on: its last operand (`/etc/pam.d/sudo` in
 * `sudo cp a /etc/pam.d/sudo`, `cosmic-applet-battery` in `pkill -f cosmic-applet-battery`), not a
 * flag, a number or the key's own words; undefined when it has none a trigger could require.
 */
export function commandObject(command: string, key: string): string | undefined {
  const [program = '', ...rest] = key.split(' ');
  for (const segment of segments(command)) {
    const at = programAt(segment);
    if (at < 0 || programName(stripQuotes(segment[at] ?? '')) !== program) continue;
    // Over ssh or a wrapper, what the command it hands on acts on (`ssh h "opkg remove x"`).
    const inner = rest.length > 0 ? handedOn(program, segment.slice(at + 1)) : undefined;
    if (inner !== undefined) {
      const found = commandObject(inner, rest.join(' '));
      if (found !== undefined) return found;
      continue;
    }
    const operands = segment
      .slice(at + 1)
      .map(stripQuotes)
      .filter(
        (word) =>
          !word.startsWith('-') &&
          !/^\d+$/.test(word) &&
          !rest.includes(word) &&
          word.length >= 3 &&
          word.length <= 120 &&
          !/[*?$`]/.test(word),
      );
    const last = operands[operands.length - 1];
    if (last !== undefined) return last;
  }
  return undefined;
}

/** A token that can tell two commands apart: flags, assignments, short words (not paths or prose). */
function isDistinctive(token: string): boolean {
  if (token.length > 40 || token.length < 2) return false;
  if (/^-{1,2}[\w-]/.test(token)) return true;
  if (/^[A-Z_][A-Z0-9_]*=\S*$/.test(token)) return true;
  return /^[\w.:@=+-]+$/.test(token) && !/^\d+$/.test(token);
}

export type CommandDiff = { removed: string[]; added: string[] };

/** The flag after which a shell wrapper takes the command it runs (`bash -c`, `powershell -Command`). */
const WRAPPER_FLAG = /^(-c|-lc|-Command|\/c)$/i;

/**
 * A command's words, unquoted, with the command it hands on opened up (`ssh host "opkg remove a"`,
 * `bash -c "..."`): a diff then sees the words inside, not one quoted blob against another.
 */
export function openWords(command: string): string[] {
  const tokens = tokenize(command);
  const program = stripQuotes(tokens.find((token) => !ELEVATE.has(token)) ?? '')
    .replace(/^.*[\\/]/, '')
    .replace(/\.exe$/i, '')
    .toLowerCase();
  return tokens.flatMap((token, i) => {
    const inner = stripQuotes(token);
    const handsOn =
      /^["']/.test(token) &&
      /\s/.test(inner) &&
      (program === 'ssh' || WRAPPER_FLAG.test(tokens[i - 1] ?? ''));
    return handsOn ? tokenize(inner).map(stripQuotes) : [inner];
  });
}

/** Tokens the failed command had and the fix dropped, and the tokens the fix added. */
export function diffCommands(failed: string, fixed: string): CommandDiff {
  const a = openWords(failed);
  const b = openWords(fixed);
  const setA = new Set(a);
  const setB = new Set(b);
  return {
    removed: [...new Set(a.filter((t) => !setB.has(t) && isDistinctive(t)))],
    added: [...new Set(b.filter((t) => !setA.has(t) && isDistinctive(t)))],
  };
}

/**
 * The command a fix ran before the failed one: the fix is that command, `&&` or `;`, then the failed
 * command as it was (`git pull --rebase && git push` after `git push`). A command read from a line
 * cut short (`cut`) is compared by the beginning both still have. A `cd` is not a step (it says
 * where, not what). Undefined otherwise.
 */
export function prependedStep(failed: string, fixed: string, cut = false): string | undefined {
  const [before, after] = [failed.trim(), fixed.trim()];
  for (const match of after.matchAll(/\s*(?:&&|;)\s*/g)) {
    const rest = after.slice(match.index + match[0].length);
    const same =
      rest === before ||
      (cut &&
        Math.min(rest.length, before.length) >= 12 &&
        (rest.startsWith(before) || before.startsWith(rest)));
    if (!same) continue;
    const step = after.slice(0, match.index).trim();
    return step === '' || /^cd\s/.test(step) ? undefined : step;
  }
  return undefined;
}

/** A variable bash expands inside double quotes (`$HOME`, `${x}`, PowerShell's `$_`), unless escaped. */
const EXPANDED = /(?<!\\)\$(?:\{[A-Za-z_]\w*\}|[A-Za-z_]\w*)/g;

/** The variables in a command's double-quoted words. */
function doubleQuotedVariables(command: string): Set<string> {
  return new Set(
    tokenize(command)
      .filter((token) => token.startsWith('"'))
      .flatMap((token) => [...token.matchAll(EXPANDED)].map((match) => match[0])),
  );
}

/**
 * The variables a failed command left inside double quotes for the calling shell to expand, when
 * the fix is the same words with them out of its reach (single-quoted):
 * `powershell "... {$_.Name} ..."` → `powershell '... {$_.Name} ...'`. Undefined otherwise.
 */
export function expandedInDoubleQuotes(failed: string, fixed: string): string[] | undefined {
  const unquoted = (command: string) => command.replace(/["']/g, '').replace(/\s+/g, ' ').trim();
  if (failed === fixed || unquoted(failed) !== unquoted(fixed)) return undefined;
  const after = doubleQuotedVariables(fixed);
  const names = [...doubleQuotedVariables(failed)].filter((name) => !after.has(name));
  return names.length > 0 ? names : undefined;
}

/** The trigger condition of such a lesson: a `$` variable inside double quotes. */
export const DOUBLE_QUOTED_VARIABLE = '"[^"]*?(?<!\\\\)\\$[A-Za-z_{]';

export function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/**
 * The trigger regex of a command lesson: anchored on the executable (at the start of the command,
 * after a separator, or at the end of a path: `C:\Windows\...\powershell.exe`, `/usr/bin/python3`,
 * with or without `.exe`), requiring the argument that made the difference when the failed command
 * had one the fix dropped (bare or quoted), and refusing commands that already carry the fix: a
 * flag only within the same command (`dig x && ssh h "ls -la"` still matches a `dig` lesson whose
 * fix is `-la`), an environment assignment anywhere before it. `requires`: a regex the command
 * must also hold somewhere (the host of a download).
 */
export function commandTrigger(key: string, diff: CommandDiff | undefined, requires?: string): string {
  const [program = '', ...rest] = key.split(' ').map(escapeRegex);
  const exe = /\\.exe$/i.test(program) ? program : `${program}(?:\\.exe)?`;
  // The end is a lookahead so that the required argument may follow the key directly, and the
  // next command may follow it without a space (`refreshenv; python`).
  // A later word may open a quoted argument (`ssh host "opkg remove x"`).
  // A later word may run a program by its path (`ssh h "/usr/bin/gl_screen --help"`).
  let source = `(^|[;&|(]\\s*|\\s|[\\\\/])${[exe, ...rest.map((word) => `${word}(?:\\.exe)?`)].join(`\\s+(?:\\S+\\s+)*?["']?(?:[^\\s"']*[\\\\/])?`)}(?=[\\s"';&|)]|$)`;
  const removed = diff?.removed.find((token) => !key.split(' ').includes(token));
  const added =
    diff?.added.find((token) => !key.split(' ').includes(token) && /^(-|[A-Z_]+=)/.test(token)) ??
    diff?.added[0];
  // Whole-command conditions look at every line of a script, before the program too
  // (`KEY_ID=12AB\ngpg --quick-add-key $KEY_ID`).
  let before = requires === undefined ? '' : `(?=[\\s\\S]*?${requires})`;
  if (removed !== undefined) before += `(?=[\\s\\S]*?(^|[\\s"'=])${escapeRegex(removed)}(["'\\s]|$))`;
  if (added !== undefined && !key.split(' ').includes(added)) {
    // A one-letter flag may come in a cluster (`-f` in `curl -fL`).
    const flag = /^-[A-Za-z]$/.test(added) ? `-[A-Za-z]*${added.slice(1)}[A-Za-z]*` : escapeRegex(added);
    if (added.startsWith('-')) source = `${source}(?![^;&|\\n]*(^|\\s)${flag}(?=\\s|["'=]|$))`;
    else before += `(?![\\s\\S]*?(^|[\\s"'])${escapeRegex(added)}(?=[\\s"';&|)]|$))`;
  }
  return before === '' ? source : `^${before}[\\s\\S]*?${source}`;
}

// Shell habits the detector learns from without an error of the usual kind: a `cd` on its own in
// a shell that does not keep it, a relative path looked for from the wrong folder, a variable left
// in double quotes for the calling shell, and a program a host reached over ssh does not have;
// the step that made the same command work on its retry; and what Windows shells lack.
import { describe, expect, it } from 'vitest';
import { commandOf, sameInput } from '../../src/core/capture/call-target.js';
import { draftCandidate } from '../../src/core/capture/draft-candidate.js';
import type { Episode } from '../../src/core/capture/episode.js';
import type { ToolCall, TranscriptEvent } from '../../src/core/capture/events.js';
import { cdAlone, usesFolder } from '../../src/core/capture/fresh-shell.js';
import { maskedFailure } from '../../src/core/capture/masked-failure.js';
import {
  droppedOverSsh,
  foundUnder,
  programFamily,
  ranScripts,
  shellSubstitutes,
} from '../../src/core/capture/pending-failure.js';
import { expandedInDoubleQuotes, prependedStep } from '../../src/core/capture/shell-command.js';
import { detectAll, madeUpSession } from '../helpers/capture-events.js';

const shell = (command: string) => ({ command });

function call(tool: string, input: Record<string, unknown>, agent: ToolCall['agent'] = 'gemini'): ToolCall {
  return {
    agent,
    session: 's',
    project: '/w',
    timestamp: undefined,
    file: 'f',
    line: 1,
    kind: 'tool-call',
    callId: 'c',
    tool,
    input,
  };
}

/** The summaries of what a session's episodes would become (the ones not dropped). */
function summaries(events: TranscriptEvent[]): string[] {
  return detectAll(events).flatMap((episode) => {
    const draft = draftCandidate(episode);
    return draft.drop === undefined ? [draft.summary] : [];
  });
}

/** The error-fix episodes of a session: their fix, as a command or a tool. */
function fixes(events: TranscriptEvent[]): (string | undefined)[] {
  return detectAll(events)
    .filter((e) => e.kind === 'error-fix')
    .map((e: Episode) => (e.fix === undefined ? undefined : (commandOf(e.fix) ?? e.fix.tool)));
}

describe('a `cd` on its own', () => {
  it.each<[string, ToolCall, string | undefined]>([
    [
      'Gemini CLI: the next call starts over',
      call('run_shell_command', shell('cd Gemini-Playground')),
      'Gemini-Playground',
    ],
    ['Codex: the same', call('exec_command', shell('cd "my app"'), 'codex'), 'my app'],
    ['Claude Code keeps the folder', call('Bash', shell('cd app'), 'claude-code'), undefined],
    ['a cd that runs something after it', call('run_shell_command', shell('cd app && ls')), undefined],
    ['back to the last folder', call('run_shell_command', shell('cd -')), undefined],
  ])('%s', (_name, c, folder) => {
    expect(cdAlone(c)).toBe(folder);
  });

  it.each<[string, ToolCall, boolean]>([
    ['its path', call('list_directory', { dir_path: 'app' }), true],
    ['a file in it', call('read_file', { file_path: 'app/src/a.ts' }), true],
    ['cd into it for the same command', call('run_shell_command', shell('cd app && npm test')), true],
    ['another cd on its own', call('run_shell_command', shell('cd app')), false],
    ['a folder whose name only starts the same', call('list_directory', { dir_path: 'apps' }), false],
    ['the workspace', call('list_directory', { dir_path: '.' }), false],
  ])('reaching the folder: %s', (_name, c, uses) => {
    expect(usesFolder('app', c)).toBe(uses);
  });

  it('waits for the call that reaches the folder another way, and drafts the shell lesson', () => {
    const s = madeUpSession({ agent: 'gemini' });
    const events = [
      ...s.ok('run_shell_command', shell('cd Gemini-Playground')),
      ...s.ok('list_directory', { dir_path: '.' }),
      ...s.ok('run_shell_command', shell('pwd'), '/home/me'),
      ...s.ok('list_directory', { dir_path: 'Gemini-Playground' }),
    ];
    const episodes = detectAll(events);
    expect(episodes.map((e) => [e.kind, e.fix?.tool])).toEqual([['error-fix', 'list_directory']]);
    const draft = draftCandidate(episodes[0]!);
    expect(draft.drop).toBeUndefined();
    // No output says it went wrong: the lesson speaks before the call, waiting for no error.
    expect(draft.errors).toEqual([]);
    // Claude Code keeps the folder: the lesson is for the agents that do not.
    expect(draft.agents).toEqual(['gemini', 'codex']);
    expect(draft.summary).toMatch(
      /^Don't run `cd Gemini-Playground` on its own: each run_shell_command call starts in a new shell/,
    );
    const trigger = new RegExp(draft.commands[0]!);
    expect(['cd Gemini-Playground', 'cd other', 'cd app && ls', 'ls'].map((c) => trigger.test(c))).toEqual([
      true,
      true,
      false,
      false,
    ]);
  });

  it('is no lesson in Claude Code, nor when nothing reaches the folder later', () => {
    const claude = madeUpSession();
    expect(
      detectAll([...claude.ok('Bash', shell('cd app')), ...claude.ok('Read', { file_path: 'app/a.ts' })]),
    ).toEqual([]);
    const gemini = madeUpSession({ agent: 'gemini' });
    expect(
      detectAll([
        ...gemini.ok('run_shell_command', shell('cd app')),
        ...gemini.ok('run_shell_command', shell('cd app')),
      ]),
    ).toEqual([]);
  });
});

describe('a relative path looked for from the wrong folder', () => {
  const ls = call('run_shell_command', shell('ls -F docs/ scripts/'));
  const missing = "Output: ls: cannot access 'docs/': No such file or directory\nExit Code: 2";
  it.each<[string, ToolCall, string, ReturnType<typeof foundUnder>]>([
    ['found under a folder', ls, missing, { path: 'docs/', folder: 'M-Gemini/' }],
    ['found by an absolute path', ls, missing, { path: 'docs/', folder: '/home/me/M-Gemini/' }],
    ['a path the error does not name', call('run_shell_command', shell('ls notes/')), missing, undefined],
    [
      'a bare word is a program, not a path',
      call('run_shell_command', shell('which bun')),
      'bun not found',
      undefined,
    ],
    [
      'an absolute path was not relative to anything',
      call('run_shell_command', shell('ls /srv/docs/')),
      "ls: cannot access '/srv/docs/': No such file or directory",
      undefined,
    ],
    ['another error', ls, 'ls: docs/: Permission denied', undefined],
  ])('%s', (name, failed, text, expected) => {
    const later = call('read_file', {
      file_path: name === 'found by an absolute path' ? '/home/me/M-Gemini/docs/a.md' : 'M-Gemini/docs/a.md',
    });
    expect(foundUnder(failed, text, later)).toEqual(expected);
  });

  it('a lookup that found nothing waits for it, and the lesson fires where the path is given that way', () => {
    const s = madeUpSession({ agent: 'gemini' });
    const episodes = detectAll([
      ...s.fail('run_shell_command', shell('ls -F docs/ scripts/'), missing),
      ...s.ok('read_file', { file_path: 'M-Gemini/docs/SECURITY.md' }),
    ]);
    expect(episodes.map((e) => e.kind)).toEqual(['error-fix']);
    const draft = draftCandidate(episodes[0]!);
    expect(draft.agents).toBeUndefined();
    expect(draft.summary).toMatch(
      /^Look for `docs\/` under `M-Gemini\/`, not in the working folder: it failed with/,
    );
    const trigger = new RegExp(draft.commands[0]!);
    expect(['ls docs/', 'ls -la docs/', 'ls M-Gemini/docs/', 'ls src/'].map((c) => trigger.test(c))).toEqual([
      true,
      true,
      false,
      false,
    ]);
  });

  it('a lookup that found nothing and is never found elsewhere teaches nothing', () => {
    const s = madeUpSession({ agent: 'gemini' });
    expect(
      detectAll([
        ...s.fail('run_shell_command', shell('ls docs/'), missing),
        ...s.ok('read_file', { file_path: 'README.md' }),
      ]),
    ).toEqual([]);
  });
});

describe('a variable left in double quotes', () => {
  it.each<[string, string, string, string[] | undefined]>([
    [
      'PowerShell run from bash',
      `powershell "Get-Process | ? {$_.Name -like 'b*'}"`,
      `powershell 'Get-Process | ? {$_.Name -like "b*"}'`,
      ['$_'],
    ],
    ['ssh, braces', 'ssh h "echo ${HOME}"', "ssh h 'echo ${HOME}'", ['${HOME}']],
    ['an escaped dollar stays', 'ssh h "echo \\$HOME"', "ssh h 'echo \\$HOME'", undefined],
    ['other words changed too', 'ssh h "echo $HOME"', "ssh h 'echo $PATH'", undefined],
    ['the same command', 'ssh h "echo $HOME"', 'ssh h "echo $HOME"', undefined],
  ])('%s', (_name, failed, fixed, names) => {
    expect(expandedInDoubleQuotes(failed, fixed)).toEqual(names);
  });

  it('drafts a quoting lesson that fires only where a variable sits in double quotes', () => {
    const s = madeUpSession();
    const failed = `powershell "Get-Process | Where-Object {$_.Name -like '*bash*'} | Format-Table"`;
    const fixed = `powershell 'Get-Process | Where-Object {$_.Name -like "*bash*"} | Format-Table'`;
    const episodes = detectAll([
      ...s.fail(
        'Bash',
        shell(failed),
        "extglob.Name : The term 'extglob.Name' is not recognized as the name of a cmdlet",
        'error-output',
      ),
      ...s.ok('Bash', shell(fixed), 'bash 9132'),
    ]);
    const draft = draftCandidate(episodes[0]!);
    expect(draft.summary).toMatch(
      /^Quote what `powershell Get-Process` is given in single quotes, not double \(in double quotes the calling shell expands `\$_` first\)/,
    );
    const trigger = new RegExp(draft.commands[0]!);
    expect([failed, fixed, 'powershell "Get-Process"'].map((c) => trigger.test(c))).toEqual([
      true,
      false,
      false,
    ]);
  });
});

describe('a program the host reached over ssh does not have', () => {
  const failed = call('Bash', shell("ssh root@slate 'hostname && uptime'"), 'claude-code');
  const text = 'Exit code 127\nash: hostname: not found';
  it.each<[string, string, ReturnType<typeof droppedOverSsh>]>([
    [
      'done without it on the same host',
      "ssh root@slate 'cat /proc/uptime'",
      { program: 'hostname', host: 'root@slate' },
    ],
    ['another host', "ssh root@other 'cat /proc/uptime'", undefined],
    ['still running it', "ssh root@slate 'hostname -s'", undefined],
    ['installing it', "ssh root@slate 'opkg install hostname'", undefined],
  ])('%s', (_name, fix, expected) => {
    expect(droppedOverSsh(failed, text, call('Bash', shell(fix), 'claude-code'))).toEqual(expected);
  });

  it('the next command on that host without it is the fix', () => {
    const s = madeUpSession();
    const events = [
      ...s.fail('Bash', shell("ssh root@slate 'hostname && uptime'"), text),
      ...s.ok('Bash', shell("ssh root@slate 'echo test; cat /proc/uptime'"), '3343.68'),
    ];
    expect(fixes(events)).toEqual(["ssh root@slate 'echo test; cat /proc/uptime'"]);
    const episodes = detectAll(events);
    const draft = draftCandidate(episodes[0]!);
    expect(draft.summary).toBe(
      'Don\'t run `hostname` on `root@slate` over ssh, it has no such program: it failed with "ash: hostname: not found"',
    );
    const trigger = new RegExp(draft.commands[0]!);
    expect(["ssh root@slate 'hostname'", "ssh root@slate 'uptime'"].map((c) => trigger.test(c))).toEqual([
      true,
      false,
    ]);
  });
});

describe('a step the fix ran first', () => {
  it.each<[string, string, string, boolean, string | undefined]>([
    ['git push, after a pull', 'git push', 'git pull --rebase && git push', false, 'git pull --rebase'],
    ['after `;`', 'pytest -x', 'source .venv/bin/activate; pytest -x', false, 'source .venv/bin/activate'],
    [
      'both read from lines cut short at the same place',
      "git commit -m \"$(cat <<'EOF'\ndocs: add the router notes [REDACTED]",
      "git add .gitleaksignore && git commit -m \"$(cat <<'EOF'\ndocs: add the router notes [REDACTED]",
      true,
      'git add .gitleaksignore',
    ],
    [
      'cut short at different places: compared by the beginning both have',
      'git commit -m "docs: add the router notes [RED',
      'git add x && git commit -m "docs: add the router notes [REDACTED]',
      true,
      'git add x',
    ],
    [
      'the same two lines read whole differ',
      'git commit -m "docs: add the router notes [RED',
      'git add x && git commit -m "docs: add the router notes [REDACTED]',
      false,
      undefined,
    ],
    ['a cd says where, not what', 'npm test', 'cd app && npm test', false, undefined],
    ['the command changed too', 'git push', 'git pull && git push -f', false, undefined],
    ['a step after it is no step before it', 'make', 'make && make install', false, undefined],
  ])('%s', (_name, failed, fixed, cut, step) => {
    expect(prependedStep(failed, fixed, cut)).toBe(step);
  });

  it('drafts "Run X before Y", and a fix cut short by its line is still named by its step', () => {
    const s = madeUpSession();
    const failed = "git commit -m \"$(cat <<'EOF'\ndocs: add the router notes [REDACTED]";
    const events: TranscriptEvent[] = [
      ...s.fail('Bash', shell(failed), 'Exit code 1\nCommit blocked: 3 leaks'),
    ];
    (events[0] as ToolCall).inputCut = true;
    const fix = s.ok('Bash', shell(`git add .gitleaksignore && ${failed}`), '[main b88f899] docs');
    fix[0].inputCut = true;
    const episodes = detectAll([...events, ...s.ok('Edit', { file_path: '/repo/.gitleaksignore' }), ...fix]);
    const draft = draftCandidate(episodes[0]!);
    expect(draft.drop).toBeUndefined();
    expect(draft.summary).toBe(
      'Run `git add .gitleaksignore` before `git commit`: without it, it failed with "Commit blocked: 3 leaks"',
    );
  });
});

describe('the step that made the same command work again', () => {
  it.each<[string, Record<string, unknown>, Record<string, unknown>, boolean]>([
    [
      'other words describe it',
      { command: 'git push', description: 'Push' },
      { command: 'git push', description: 'Push with gh auth' },
      true,
    ],
    ['no words at all on one', { command: 'git push' }, { command: 'git push', description: 'Push' }, true],
    ['another command', { command: 'git push' }, { command: 'git push -u origin main' }, false],
    [
      'another timeout is another call',
      { command: 'pytest', timeout: 60000 },
      { command: 'pytest', timeout: 600000 },
      false,
    ],
    ['a file tool told why', { file_path: '/a', reason: 'x' }, { file_path: '/a', reason: 'y' }, true],
  ])('%s: same call %s', (_name, a, b, same) => {
    expect(sameInput({ input: a }, { input: b })).toBe(same);
  });

  it('names the step between a failed push and the same push under other words', () => {
    const s = madeUpSession();
    const failed = "fatal: could not read Username for 'https://github.com': No such device or address";
    expect(
      summaries([
        ...s.fail(
          'Bash',
          { command: 'git push -u origin main', description: 'Push to GitHub' },
          `Exit code 128\n${failed}`,
        ),
        ...s.ok('Bash', { command: 'gh auth setup-git', description: 'Let git use gh' }, ''),
        ...s.ok('Bash', { command: 'git push -u origin main', description: 'Push again' }, 'main -> main'),
      ]),
    ).toEqual([`Run \`gh auth setup-git\` before \`git push\`: without it, it failed with "${failed}"`]);
  });

  it('names the step the error itself told the agent to run, whatever ran after it', () => {
    const s = madeUpSession();
    const said = 'current directory is not a git repository. Run `git init` to initialize it';
    expect(
      summaries([
        ...s.fail('Bash', shell('gh repo create x --private --source=. --push'), `Exit code 1\n${said}`),
        ...s.ok('Bash', shell('git init'), 'Initialized empty Git repository'),
        ...s.ok('Bash', shell('git branch -m main'), ''),
        ...s.ok('Bash', shell('gh repo create x --private --source=. --push'), 'Created repository'),
      ]),
    ).toEqual([`Run \`git init\` before \`gh repo\`: without it, it failed with "${said}"`]);
  });

  it('never names a lookup as the step: it changed nothing, so the retry that worked teaches nothing', () => {
    const s = madeUpSession({ agent: 'gemini' });
    const events = [
      ...s.fail(
        'run_shell_command',
        { command: 'sudo cp a /etc/pam.d/sudo', description: 'Copy' },
        'Sorry, try again.',
      ),
      ...s.ok(
        'run_shell_command',
        { command: 'cat /etc/pam.d/sudo', description: 'Look' },
        'auth sufficient pam_u2f.so',
      ),
      ...s.ok('run_shell_command', { command: 'sudo cp a /etc/pam.d/sudo', description: 'Copy again' }, ''),
    ];
    expect(summaries(events)).toEqual([]);
  });

  it('names a lookup-shaped command that writes a file (`cat > x << EOF`)', () => {
    const s = madeUpSession();
    const events = [
      ...s.fail(
        'Bash',
        { command: 'python sync.py' },
        "Exit code 1\nUnicodeEncodeError: 'charmap' codec can't encode character",
      ),
      ...s.ok('Bash', { command: "cat > sync.py << 'EOF'\nprint('[OK]')\nEOF" }, ''),
      ...s.ok('Bash', { command: 'python sync.py' }, '[OK]'),
    ];
    expect(summaries(events)).toEqual([
      expect.stringMatching(
        /^Run `cat > sync\.py << 'EOF'.*` before `python sync\.py`: without it, it failed with "UnicodeEncodeError/,
      ),
    ]);
  });
});

describe('what a Windows shell lacks, and what did the work instead', () => {
  const bashSaid = (text: string) => ({ ...call('Bash', {}), kind: 'tool-result' as const, ok: false, text });

  it.each<[string, string, string, string[]]>([
    [
      'cmd switches in Git Bash',
      'dir /s /b "C:\\x" 2>nul',
      "dir: cannot access '/s': No such file or directory",
      ['ls', 'find'],
    ],
    [
      'a %VARIABLE% in Git Bash',
      'cd /d "%USERPROFILE%\\docs" && dir',
      'bash: line 1: cd: too many arguments',
      ['ls', 'find'],
    ],
    ['findstr given cmd syntax', 'ipconfig | findstr /i "IPv4"', 'FINDSTR: Cannot open IPv4', ['grep']],
    ['no cmd syntax: a POSIX dir', 'dir docs', "dir: cannot access 'docs': No such file or directory", []],
    [
      'cmd itself said it has no such program',
      'dir /b x',
      "'dir' is not recognized as an internal or external command,",
      [],
    ],
    [
      'PowerShell ran its alias',
      'dir /ad',
      "Get-ChildItem : A positional parameter cannot be found that accepts argument '/ad'.\nAt line:1 char:1",
      ['get-childitem'],
    ],
  ])('%s', (_name, command, output, substitutes) => {
    const result = { ...bashSaid(output), failure: 'exit-code' as const, exitCode: 1, callId: 'c' };
    expect(shellSubstitutes(call('Bash', shell(command), 'claude-code'), result)).toEqual(substitutes);
  });

  it('learns the POSIX program that did the work of cmd syntax Git Bash could not run', () => {
    const s = madeUpSession();
    expect(
      summaries([
        ...s.fail(
          'Bash',
          shell('cd /d "%USERPROFILE%\\documents" && dir'),
          'Exit code 1\n/usr/bin/bash: line 1: cd: too many arguments',
        ),
        ...s.ok('Bash', shell('ls -la "$HOME/documents"'), 'total 0'),
      ]),
    ).toEqual([
      'Use `ls` instead of `dir` here: it failed with "/usr/bin/bash: line 1: cd: too many arguments"',
    ]);
  });

  it.each([
    ['/c/Python314/python', 'python'],
    ['python3', 'python'],
    ['C:\\Program Files\\GnuPG\\bin\\gpg.exe', 'gpg'],
    ['pip3.12', 'pip'],
    ['node', 'node'],
  ])('%s is the program %s', (program, name) => {
    expect(programFamily(program)).toBe(name);
  });

  const store =
    'Python was not found; run without arguments to install from the Microsoft Store, or disable this shortcut from Settings > Apps > Advanced app settings > App execution aliases.';

  it("names the path of a Python found after the Store's stand-in said there was none", () => {
    const s = madeUpSession();
    expect(
      summaries([
        ...s.fail(
          'Bash',
          { command: 'python3 -c "import sys"', description: 'Check Python' },
          `Exit code 49\n${store}`,
        ),
        ...s.ok('Bash', shell('which python || ls /c/Python*/python.exe'), '/c/Python314/python'),
        ...s.ok('Bash', { command: '/c/Python314/python -c "import sys"', description: 'Verify paths' }, ''),
      ]),
    ).toEqual([
      expect.stringMatching(
        /^Use `\/c\/Python314\/python` instead of `python3` here: it failed with "Python was not found;/,
      ),
    ]);
  });

  it("a hook's missing Python is not the command's: nothing replaces `git commit`", () => {
    const s = madeUpSession();
    const found = summaries([
      ...s.fail(
        'Bash',
        { command: 'git commit -m "sync"', description: 'Commit with signing keys' },
        `Exit code 128\nRunning sync...\n${store}\nerror: gpg failed to sign the data`,
      ),
      ...s.ok(
        'Bash',
        { command: 'gpg --list-secret-keys', description: 'List the signing keys for the commit' },
        'sec rsa4096',
      ),
      ...s.ok(
        'Bash',
        { command: 'git config --get user.signingkey', description: 'Look at the git signing key' },
        'ABC',
      ),
    ]);
    expect(found.filter((summary) => summary.includes('instead of `git commit`'))).toEqual([]);
  });
});

describe('a correction after the agent only kept notes', () => {
  it('is about the call before the to-do list update', () => {
    const s = madeUpSession();
    const episodes = detectAll([
      ...s.ok('Bash', shell('cp ~/.claude/debug/*.txt transcripts/'), ''),
      ...s.ok(
        'TodoWrite',
        { todos: [{ content: 'Copy transcripts', status: 'completed' }] },
        'Todos updated',
      ),
      s.user("I'm not sure the txt files in the debug folder are chat transcripts"),
    ]);
    expect(episodes.map((e) => [e.kind, e.failures[0]?.call.tool, commandOf(e.failures[0]!.call)])).toEqual([
      ['user-correction', 'Bash', 'cp ~/.claude/debug/*.txt transcripts/'],
    ]);
  });
});

describe('failures a result hid', () => {
  const gemini = (output: string) =>
    `Command: x\nDirectory: (root)\nOutput: ${output}\nError: (none)\nExit Code: (none)\nSignal: (none)`;
  const banner =
    'Microsoft Windows [Version 10.0.26200.7309]\r\n(c) Microsoft Corporation. All rights reserved.\r\n\r\nC:\\Users\\dev>';
  it.each<[string, string, string, string, boolean]>([
    [
      "a pipe hid dir's exit code",
      'Bash',
      'dir /s /b x 2>nul | head -20',
      "dir: cannot access '/s': No such file or directory",
      true,
    ],
    [
      "a program's Error: line",
      'Bash',
      'claude --chrome 2>&1 | head -50',
      'Error: Input must be provided',
      true,
    ],
    [
      "Gemini CLI's frame around the error",
      'run_shell_command',
      'grep -r foo notes | head',
      gemini('grep: notes: No such file or directory'),
      true,
    ],
    ['cmd /c that ran nothing', 'Bash', 'cmd /c "dir /s /b x"', banner, true],
    ["Gemini CLI's frame around an answer", 'run_shell_command', 'echo hi', gemini('hi'), false],
    [
      "a line that only looks like one: not the command's program",
      'Bash',
      'cat notes.txt',
      'TODO: fix the parser\nerror handling is missing',
      false,
    ],
    [
      "the error of another program than the command's",
      'Bash',
      'make docs',
      'sphinx: cannot find conf.py',
      false,
    ],
    [
      'an error further down: the output did not open with it',
      'Bash',
      'npm run build | tail',
      'building...\nnpm: cannot find x',
      false,
    ],
    ['a file tool', 'Read', 'x', 'Error: nope', false],
    [
      'errors a program reported further down and went on past, exiting 0',
      'Bash',
      'python scripts/sync_raw_logs.py',
      'Found 66 logs\nError processing a.jsonl: bad escape \\U at position 2\nSynced 0 files',
      true,
    ],
    [
      'an error report behind its level',
      'Bash',
      'python scripts/sync_raw_logs.py 2>&1 | tail -40',
      'Synced 3 files\nWarning: Error processing b.jsonl line 176: bad escape \\U at position 2',
      true,
    ],
    [
      "an error report in Gemini CLI's frame, exit code 0",
      'run_shell_command',
      './sync.sh',
      `Command: ./sync.sh\nDirectory: (root)\nOutput: synced\nERROR: could not write index\nError: (none)\nExit Code: 0`,
      true,
    ],
    [
      'an error line in a log the command shows',
      'Bash',
      'ssh root@10.0.0.1 "logread | grep blocky | tail -n 20"',
      'blocky starting\nERROR list_cache: cannot download list: connection refused',
      false,
    ],
    [
      'an error line in a file the command prints',
      'Bash',
      'sudo journalctl -u blocky --no-pager',
      'Jan 10 started\nError loading config: wrong file structure',
      false,
    ],
    ["Gemini CLI's own Error: (none)", 'run_shell_command', './build.sh', gemini('built'), false],
    [
      'a bracketed error level',
      'Bash',
      'op-sync --all',
      'synced 2 vaults\n[ERROR] vault Work: token expired',
      true,
    ],
    [
      "Python logging's error record",
      'Bash',
      'python3 etl.py',
      'INFO:root:start\nERROR:root:row 3 has no id',
      true,
    ],
    [
      'a level that is no error',
      'Bash',
      'python3 etl.py',
      'INFO:root:start\nWARNING:root:slow row\ndone',
      false,
    ],
  ])('%s', (_name, tool, command, text, hidden) => {
    const result = {
      ...call(tool, {}),
      kind: 'tool-result' as const,
      ok: true,
      text,
      exitCode: undefined,
      failure: 'none' as const,
      callId: 'c',
    };
    const found = maskedFailure(call(tool, { command, file_path: command }), result);
    expect(found === undefined ? 'ok' : `${found.failure}`).toBe(hidden ? 'error-output' : 'ok');
  });

  it('errors a script reported while exiting 0, then the changed run that worked', () => {
    const s = madeUpSession();
    const said = 'Found 2 logs\nError processing a.jsonl: bad escape \\U at position 2\nSynced 0 files';
    expect(
      summaries([
        ...s.ok('Bash', shell('python scripts/sync.py'), said),
        ...s.ok('Bash', shell('python scripts/sync.py --raw'), 'Found 2 logs\nSynced 2 files'),
      ]),
    ).toEqual([
      'Add `--raw` to `python scripts/sync.py`: it failed with "Error processing a.jsonl: bad escape \\U at position 2"',
    ]);
  });

  it('cmd /c that ran nothing in Git Bash, then cmd //c', () => {
    const s = madeUpSession();
    expect(
      summaries([
        ...s.ok('Bash', shell('cmd /c "ver"'), banner),
        ...s.ok('Bash', shell('cmd //c "ver"'), 'Microsoft Windows [Version 10.0.26200.7309]'),
      ]),
    ).toEqual([
      'Run `cmd //c "ver"` instead of `cmd /c "ver"`: it failed with "cmd printed its banner and ran no command"',
    ]);
  });

  it('waits for the call that worked', () => {
    const s = madeUpSession();
    const said =
      'Error: Input must be provided either through stdin or as a prompt argument when using --print';
    expect(
      detectAll([
        ...s.ok('Bash', shell('claude --chrome 2>&1 | head -50'), said),
        ...s.ok('Bash', shell('echo "test" | claude --chrome --print 2>&1 | head -100'), 'ready'),
      ]).map((e) => [e.kind, commandOf(e.fix!)]),
    ).toEqual([['error-fix', 'echo "test" | claude --chrome --print 2>&1 | head -100']]);
  });
});

describe('a program the shell lacked, and what stood in for it', () => {
  it.each<[string, string, string, string, string]>([
    [
      'another version of it',
      'python script.py',
      '/bin/bash: line 1: python: command not found',
      'python3 script.py',
      'Use `python3` instead of `python` here',
    ],
    [
      'its plugin form',
      'docker-compose up -d',
      'bash: docker-compose: command not found',
      'docker compose up -d',
      'Use `docker compose` instead of `docker-compose` here',
    ],
    [
      'the same program by its path, with a space in it',
      'gh auth status',
      '/usr/bin/bash: line 1: gh: command not found',
      '"C:\\Program Files\\GitHub CLI\\gh.exe" auth status',
      'Use `C:\\Program Files\\GitHub CLI\\gh.exe` instead of `gh` here',
    ],
  ])('%s', (_name, failed, said, fixed, summary) => {
    const s = madeUpSession();
    expect(
      summaries([
        ...s.fail('Bash', shell(failed), `Exit code 127\n${said}`),
        ...s.ok('Bash', shell(fixed), 'done'),
      ]),
    ).toEqual([`${summary}: it failed with "${said}"`]);
  });

  it('the same program run again by name replaces nothing', () => {
    const s = madeUpSession();
    const found = summaries([
      ...s.fail('Bash', shell('python script.py'), 'Exit code 127\nbash: python: command not found'),
      ...s.ok('Bash', shell('python script.py --fast'), 'done'),
    ]);
    expect(found.filter((summary) => summary.startsWith('Use '))).toEqual([]);
  });

  it('a patch settled by showing the file in the shell: read it first', () => {
    const s = madeUpSession({ agent: 'codex' });
    const patch = (line: string) => ({
      input: `*** Begin Patch\n*** Update File: src/parser.py\n@@\n-${line}\n+new\n*** End Patch`,
    });
    expect(
      summaries([
        ...s.fail(
          'apply_patch',
          patch('old'),
          'Failed to find expected lines in src/parser.py',
          'error-flag',
        ),
        ...s.ok('exec_command', { cmd: 'sed -n 1,80p src/parser.py' }, 'older'),
        ...s.ok('apply_patch', patch('older'), 'Success'),
      ]),
    ).toEqual([
      'Read `src/parser.py` before calling apply_patch on it: it failed with "Failed to find expected lines in src/parser.py"',
    ]);
  });
});

describe('how a call was made, refused and then made right', () => {
  it('a lookup asked with an option its program lacks, then asked another way', () => {
    const s = madeUpSession();
    expect(
      summaries([
        ...s.fail(
          'Bash',
          shell("grep -P '\\d+' notes.txt"),
          'Exit code 2\ngrep: invalid option -- P\nusage: grep [-abc]',
        ),
        ...s.ok('Bash', shell("grep -E '[0-9]+' notes.txt"), '12'),
      ]),
    ).toEqual([
      expect.stringMatching(
        /^Use `-E .*` instead of `-P` with `grep`: it failed with "grep: invalid option -- P"$/,
      ),
    ]);
  });

  it('a filter with a syntax error, then written another way', () => {
    const s = madeUpSession();
    expect(
      summaries([
        ...s.fail(
          'Bash',
          shell("jq '.items[] | .name' data.json"),
          'Exit code 3\njq: error: syntax error, unexpected INVALID_CHARACTER',
        ),
        ...s.ok('Bash', shell("jq '.items[].name' data.json"), '"a"'),
      ]),
    ).toHaveLength(1);
  });

  it('a lookup the shell lacked, then another lookup on all its words: its replacement', () => {
    const s = madeUpSession({ agent: 'codex' });
    expect(
      summaries([
        ...s.fail('exec_command', { cmd: 'rg TODO src' }, 'bash: rg: command not found'),
        ...s.ok('exec_command', { cmd: 'grep -rn TODO src' }, 'src/a.ts:1: TODO'),
      ]),
    ).toEqual(['Use `grep` instead of `rg` here: it failed with "bash: rg: command not found"']);
  });

  it('a program the shell lacked is not replaced by another that acts on the same words', () => {
    const s = madeUpSession();
    expect(
      summaries([
        ...s.fail('Bash', shell('wg show wg0'), 'Exit code 127\nzsh: command not found: wg'),
        ...s.ok('Bash', shell('sudo ip link show wg0'), '5: wg0: <POINTOPOINT>'),
      ]),
    ).toEqual([]);
  });

  it('a lookup that found nothing, then asked another way, teaches nothing', () => {
    const s = madeUpSession();
    expect(
      summaries([
        ...s.fail('Bash', shell('grep -r needle src'), 'Exit code 1'),
        ...s.ok('Bash', shell('grep -ri needle .'), 'a.ts: needle'),
      ]),
    ).toEqual([]);
  });

  it('a relative path the tool refused, then the same file by its absolute path', () => {
    const s = madeUpSession({ agent: 'gemini' });
    const refused =
      'File path must be absolute, but was relative: src/a.py. You must provide an absolute path.';
    expect(
      summaries([
        ...s.fail('read_file', { absolute_path: 'src/a.py' }, refused, 'error-flag'),
        ...s.ok('read_file', { absolute_path: '/repo/src/a.py' }, 'print(1)'),
      ]),
    ).toEqual([
      `Give read_file the absolute path (\`/repo/src/a.py\`), not \`src/a.py\`: it failed with "${refused}"`,
    ]);
  });
});

describe('a status query that said how things stand', () => {
  // Each row: a failed status query, then the work it pointed to; whether a lesson comes of it.
  const rows: [string, string, string, string[], boolean][] = [
    [
      'not logged in is an answer',
      'which gh && gh auth status',
      'You are not logged into any GitHub hosts. To log in, run: gh auth login',
      ['gh auth login --with-token < token.txt', 'gh auth status'],
      false,
    ],
    [
      'a stopped service is an answer',
      'w32tm /query /status',
      'The following error occurred: The service has not been started. (0x80070426)',
      ['w32tm /resync'],
      false,
    ],
    [
      'an inactive unit is an answer',
      'systemctl --user is-active pipewire',
      'Exit code 3\ninactive',
      ['systemctl --user start pipewire', 'systemctl --user is-active pipewire'],
      false,
    ],
    [
      'a status query the shell lacked still failed',
      'gh auth status',
      '/usr/bin/bash: line 1: gh: command not found',
      ['"/c/Program Files/GitHub CLI/gh.exe" auth status'],
      true,
    ],
    [
      'a status query asked from a folder that is not there still failed',
      'cd /Users/me/repo && git status',
      '(eval):cd:1: no such file or directory: /Users/me/repo',
      ['cd /Users/me/Documents/repo && git status'],
      true,
    ],
  ];
  it.each(rows)('%s', (_, failed, said, next, lesson) => {
    const s = madeUpSession({ agent: 'claude-code' });
    const found = summaries([
      ...s.fail('Bash', shell(failed), said),
      ...next.flatMap((command) => s.ok('Bash', shell(command), 'ok')),
    ]);
    expect(found).toHaveLength(lesson ? 1 : 0);
  });
});

describe('a script that failed, then edited', () => {
  it.each<[string, string[]]>([
    ['~/security-audit.sh 2>&1', ['~/security-audit.sh']],
    ['cd ~/M-Claude && python scripts/sync_raw_logs.py 2>&1 | head -30', ['scripts/sync_raw_logs.py']],
    ['sudo ./run.sh --all', ['./run.sh']],
    ['bash -e ./deploy.sh', ['./deploy.sh']],
    ['FOO=1 node build/x.js', ['build/x.js']],
    ['/c/Python314/python scripts/a.py', ['scripts/a.py']],
    ['python3 -c "print(1)"', []],
    ['python -m pytest tests/test_a.py', []],
    ['node -e "require(\'./a.js\')"', []],
    ['ls -la /tmp', []],
    ['npm test', []],
  ])('%s runs the scripts %j', (command, scripts) => {
    expect(ranScripts(command)).toEqual(scripts);
  });

  it('the edit of the script the failed command ran is its fix', () => {
    const s = madeUpSession();
    expect(
      fixes([
        ...s.fail('Bash', shell('~/security-audit.sh 2>&1'), 'Exit code 1\nReport will be saved to ~/r.md'),
        ...s.ok('Bash', shell('ls -la ~/security-audit-report-*.md'), 'r.md'),
        ...s.ok('Edit', { file_path: '/Users/me/security-audit.sh', old_string: 'a', new_string: 'b' }),
      ]),
    ).toEqual(['Edit']);
  });

  it('an edit of another file, or of the code a test run tested, fixes nothing', () => {
    const s = madeUpSession();
    expect(
      fixes([
        ...s.fail('Bash', shell('~/security-audit.sh'), 'Exit code 1'),
        ...s.ok('Edit', { file_path: '/Users/me/notes.md', old_string: 'a', new_string: 'b' }),
        ...s.fail('Bash', shell('python -m pytest tests/test_sync.py'), 'Exit code 1\nFAILED test_sync'),
        ...s.ok('Edit', { file_path: '/w/tests/test_sync.py', old_string: 'a', new_string: 'b' }),
      ]),
    ).toEqual([]);
  });
});

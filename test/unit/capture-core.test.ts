import { describe, expect, it } from 'vitest';
import { classifyResult } from '../../src/core/capture/classify-result.js';
import { isCorrection } from '../../src/core/capture/detect-episodes.js';
import { parseLessonBlocks } from '../../src/core/capture/lesson-block.js';
import { redactText } from '../../src/core/capture/redact.js';
import {
  DEFAULT_CONFIDENCE_WEIGHTS,
  DEFAULT_PRIORITY_WEIGHTS,
  scoreConfidence,
  scorePriority,
} from '../../src/core/capture/score.js';
import { noSignals } from '../../src/core/capture/episode.js';
import { commandTrigger, diffCommands } from '../../src/core/capture/shell-command.js';
import { findBacktrackingRisk } from '../../src/core/match/regex-safety.js';

describe('user corrections', () => {
  it.each([
    ['no, use pnpm', true],
    ["that's not right, the file is in src", true],
    ['wrong directory', true],
    ['you broke the build', true],
    ["don't touch the lockfile", true],
    ['No problem, continue', false],
    ['please add a test', false],
    ['install via brew', false],
    ['the panel bar battery indicator is gone, please restore', true],
    ['my dock icons have disappeared', true],
    ['put it back the way it was', true],
    ['the README is missing a section on install', false],
    ['restore the database from last night', false],
    ["it's still not working", true],
    ['nothing happened when I clicked it', true],
    ["I don't see the icon in the panel", true],
    ['you edited the wrong file', true],
    ['the wrong version of node is a common problem; explain it', false],
    ['add a loading spinner while it is not loading', false],
    ['in the M-Gemini repo', true],
    ['I meant the staging server', true],
    ['in the M-Gemini repo, add a CONTRIBUTING file', false],
    ['in the meantime, run the tests', false],
    ['not the app list but the launcher, like action bar?', true],
    ['not a problem, but thanks for asking', false],
    ["I'm not sure the txt files in the debug folder are chat transcripts", true],
    ["I'm not certain yet which port to use, pick one", false],
  ])('%s -> %s', (text, expected) => {
    expect(isCorrection(text)).toBe(expected);
  });
});

describe('tool results', () => {
  it.each([
    [{ tool: 'Bash', text: 'Exit code 2\nls: x', errorFlag: true }, 'exit-code'],
    [
      { tool: 'Edit', text: '<tool_use_error>File has not been read yet.</tool_use_error>', errorFlag: true },
      'tool-use-error',
    ],
    [{ tool: 'Bash', text: 'bash: foo: command not found' }, 'error-output'],
    [{ tool: 'Bash', text: 'Command timed out after 2m 0s' }, 'timeout'],
    [
      {
        tool: 'run_shell_command',
        text: "Command was automatically cancelled because it exceeded the timeout of 5.0 minutes without output. Below is the output before it was cancelled:\nroot@10.0.0.1's password:",
      },
      'timeout',
    ],
    [{ tool: 'Bash', text: '? Would you like to use Turbopack? › No / Yes' }, 'interactive-prompt'],
    [{ tool: 'run_shell_command', text: 'Output: x\nExit Code: 1' }, 'exit-code'],
    [{ tool: 'Bash', text: 'all good' }, 'none'],
    // The one-pass gates in front of the pattern lists must let every one of these through.
    [{ tool: 'Bash', text: 'build ok\nERROR: COMMAND TIMED OUT AFTER 120 SECONDS' }, 'timeout'],
    [{ tool: 'Read', text: 'rpc error: DEADLINE EXCEEDED while reading' }, 'timeout'],
    [{ tool: 'Bash', text: 'Overwrite existing files (y/n)' }, 'interactive-prompt'],
    [{ tool: 'Bash', text: 'Are you sure you want to continue connecting (yes/no)' }, 'interactive-prompt'],
    [{ tool: 'Bash', text: '[sudo] password for dev: ' }, 'interactive-prompt'],
    [{ tool: 'Bash', text: 'PASSWORD:' }, 'interactive-prompt'],
    // A prompt with output after it was answered (`pacman -S --noconfirm`): no stall.
    [
      {
        tool: 'Bash',
        text: [
          'resolving dependencies...',
          ':: Proceed with installation? [Y/n]',
          ':: Retrieving packages...',
          ' glow-2.1.1-1.1-x86_64 downloading...',
          '(1/1) checking keys in keyring',
          '(1/1) installing glow',
        ].join('\n'),
      },
      'none',
    ],
    [
      { tool: 'Bash', text: 'resolving dependencies...\n:: Proceed with installation? [Y/n] ' },
      'interactive-prompt',
    ],
    [
      {
        tool: 'run_shell_command',
        text: 'Command: apt install x\nDirectory: (root)\nOutput: Do you want to continue? [Y/n]\nError: (none)\nSignal: (none)',
      },
      'interactive-prompt',
    ],
    // A menu prompt lists its choices below the question.
    [
      { tool: 'Bash', text: '? Which template would you like? › (Use arrow keys)\n❯ app\n  library' },
      'interactive-prompt',
    ],
    [{ tool: 'Bash', text: 'added 3 packages\nnpm error code ERESOLVE' }, 'error-output'],
    [{ tool: 'Bash', text: 'x\nModuleNotFoundError: No module named foo' }, 'error-output'],
    [{ tool: 'Bash', text: "'tsc' is not recognized as an internal or external command," }, 'error-output'],
    // PowerShell names the expression that failed before its non-terminating error.
    [
      {
        tool: 'Bash',
        text: "Preview:\nextglob.Name : The term 'extglob.Name' is not recognized as the name of a cmdlet, function",
      },
      'error-output',
    ],
    [{ tool: 'Bash', text: "Notes : The term 'x' is recognized here" }, 'none'],
    [{ tool: 'Bash', text: 'ran it; npm error is a word here, Timeout a class name' }, 'none'],
    [{ tool: 'Read', text: 'bash: foo: command not found' }, 'none'],
  ])('%j is %s', (facts, failure) => {
    expect(classifyResult(facts)).toMatchObject({ kind: 'result', failure });
  });

  it.each([
    ["The user doesn't want to proceed with this tool use.", 'rejection'],
    ['Permission to use Bash has been auto-denied in dontAsk mode.', 'rejection'],
    ['PreToolUse:Bash hook error: LESSON: never rm -rf', 'rejection'],
    ['[Request interrupted by user for tool use]', 'interruption'],
    ['  \n[Request interrupted by user]', 'interruption'],
    ['User rejected write to src/a.ts', 'rejection'],
    ["Claude requested permissions to write to /etc/x, but you haven't granted it yet.", 'rejection'],
    ['The operation was cancelled by the user.', 'rejection'],
    ['This command requires approval', 'rejection'],
    [
      'This Bash command contains multiple operations. The following part requires approval: swift build 2>&1',
      'rejection',
    ],
    [
      "mkdir in '/w/Sources/App' was blocked. For security, Claude Code may only create directories in the allowed working directories for this session",
      'rejection',
    ],
    ['Command rejected because it could not be parsed safely', 'rejection'],
  ])('%s is a %s, not a mistake', (text, kind) => {
    expect(classifyResult({ tool: 'Bash', text, errorFlag: true }).kind).toBe(kind);
  });
});

describe('#lesson blocks', () => {
  it('reads fields, aliases and tags; ignores unknown keys', () => {
    const text =
      'Done.\n#lesson\ntool: Bash\ntrigger: pytest\nproblem: hangs on a TTY\nsolution: CI=1 pytest\ntags: lang:python, tool:pytest\ncolor: blue\n#/lesson\n';
    expect(parseLessonBlocks(text)).toEqual([
      {
        tool: 'Bash',
        trigger: 'pytest',
        mistake: 'hangs on a TTY',
        fix: 'CI=1 pytest',
        tags: ['lang:python', 'tool:pytest'],
      },
    ]);
  });
  it('a block with neither mistake nor fix is no lesson', () => {
    expect(parseLessonBlocks('#lesson\ntool: Bash\n#/lesson')).toEqual([]);
  });
});

describe('scoring', () => {
  const signals = { ...noSignals(), fixConfirmed: true, causal: true };
  it.each([
    [{ tier: 2 as const, sessions: 1, projects: 1, occurrences: 1 }, 0.65, 3],
    [{ tier: 2 as const, sessions: 2, projects: 2, occurrences: 2 }, 0.85, 7],
    [{ tier: 1 as const, sessions: 1, projects: 1, occurrences: 1 }, 0.85, 3],
  ])('%j -> confidence %s priority %s', (spread, confidence, priority) => {
    expect(scoreConfidence(signals, spread, DEFAULT_CONFIDENCE_WEIGHTS)).toBe(confidence);
    expect(scorePriority(signals, spread, DEFAULT_PRIORITY_WEIGHTS)).toBe(priority);
  });
});

describe('what a command line changed', () => {
  it.each([
    ['git commit -m x', 'git commit --no-gpg-sign -m x', [], ['--no-gpg-sign']],
    ['ssh root@h:2222 "free -m"', 'ssh root@h "free -m"', ['root@h:2222'], ['root@h']],
    ['ssh root@h "ps aux | grep x"', 'ssh root@h "ps | grep x"', ['aux'], []],
    ['bash -c "npm run build"', 'bash -c "npm run build --silent"', [], ['--silent']],
    ['git commit -m "fix the bug"', 'git commit -m "fix a bug"', [], []],
  ])('%s -> %s drops %j and adds %j', (failed, fixed, removed, added) => {
    expect(diffCommands(failed, fixed)).toEqual({ removed, added });
  });
});

describe('command triggers', () => {
  it('anchors on the executable, requires the dropped argument, refuses the visible fix', () => {
    const source = commandTrigger(
      'pytest',
      diffCommands('pytest tests/', 'CI=1 pytest -p no:cacheprovider tests/'),
    );
    const regex = new RegExp(source);
    expect(regex.test('pytest tests/')).toBe(true);
    expect(regex.test('cd x && pytest -q')).toBe(true);
    expect(regex.test('CI=1 pytest tests/')).toBe(false);
    expect(regex.test('mypytest tests/')).toBe(false);
  });

  it.each([
    // the executable by path or with .exe
    ['powershell', undefined, 'powershell.exe -Command "Get-Date"', true],
    ['powershell', undefined, 'C:\\Windows\\System32\\powershell.exe -NoProfile', true],
    ['python3', undefined, '/usr/bin/python3 -m venv .venv', true],
    ['python3', undefined, 'python3.11 -m venv .venv', false],
    ['powershell', undefined, 'mypowershell.exe -x', false],
    [
      'refreshenv',
      diffCommands('refreshenv; python --version', 'py --version'),
      'refreshenv; python -V',
      true,
    ],
    ['refreshenv', undefined, 'x && refreshenv&& y', true],
    // the dropped argument, bare or quoted
    [
      'op',
      diffCommands('op item get "id_x" --fields k', 'op item get yp65 --fields k'),
      'op item get "id_x" --fields k',
      true,
    ],
    [
      'op',
      diffCommands('op item get id_x --fields k', 'op item get yp65 --fields k'),
      'op item get yp65 --fields k',
      false,
    ],
    // a flag fix is refused in its own command only
    [
      'dig',
      diffCommands('dig a.org +short', 'dig a.org +short -4'),
      'dig a.org +short && ssh h "ls -4"',
      true,
    ],
    ['dig', diffCommands('dig a.org +short', 'dig a.org +short -4'), 'dig -4 a.org +short', false],
    // an environment assignment is refused anywhere before it
    ['pytest', diffCommands('pytest', 'CI=1 pytest'), 'CI=1 pytest -q', false],
  ] as const)('%s (%j) on %s: %s', (key, diff, command, fires) => {
    const source = commandTrigger(key, diff);
    expect(findBacktrackingRisk(source), source).toBeUndefined();
    expect(new RegExp(source).test(command)).toBe(fires);
  });
});

describe('redaction corpus', () => {
  it.each([
    ['key sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789', 'sk-ant-api03'],
    ['OPENAI_API_KEY=sk-proj-abcdefghijklmnopqrstuvwx1234', 'sk-proj-abcdefghijklmnop'],
    ['token ghp_abcdefghijklmnopqrstuvwxyz0123456789AB', 'ghp_abcdefghijklmnopqrstuvwxyz'],
    ['Authorization: Bearer abcdef1234567890abcdef', 'abcdef1234567890'],
    ['postgres://admin:hunter2secret@db.example.com/x', 'hunter2secret'],
    ['export DB_PASSWORD="correct horse battery"', 'correct horse'],
    ['aws AKIAIOSFODNN7EXAMPLE', 'AKIAIOSFODNN7EXAMPLE'],
    [
      'jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
      'eyJzdWIi',
    ],
    ['-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----', 'MIIEow'],
    ['mail alice.smith@example.org now', 'alice.smith@example.org'],
    ['cd /home/alice/work && ls', '/home/alice'],
    ['C:\\Users\\Bob\\Documents', 'Bob'],
    ['session_token=abcdef123456789', 'abcdef123456789'],
    ['google AIzaSyA1234567890abcdefghijklmnopqrstuv', 'AIzaSyA1234567890'],
    ['slack xoxb-1234567890-abcdefghij', 'xoxb-1234567890'],
  ])('%s loses %s', (text, secret) => {
    const out = redactText(text);
    expect(out).not.toContain(secret);
    expect(out).toContain('[');
  });

  it('keeps ordinary text', () => {
    expect(redactText('npm install --save-dev vitest')).toBe('npm install --save-dev vitest');
  });
});

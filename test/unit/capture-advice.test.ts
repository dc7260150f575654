// Advice-shaped candidates: the error gist, what a fix changed, the wording of each heuristic
// episode kind, the episodes dropped, the rule `npm run eval` checks, and the seed's retry and hang
// confidence boosts.
import { describe, expect, it } from 'vitest';
import { checkAdviceShape, codeSpans, startsImperative } from '../../src/core/capture/advice/advice-shape.js';
import { nameDifference } from '../../src/core/capture/advice/name-difference.js';
import { flagsWithValues, withoutSharedCd } from '../../src/core/capture/advice/word-advice.js';
import { errorGist } from '../../src/core/capture/classify-result.js';
import { isRetryLoop } from '../../src/core/capture/detect-episodes.js';
import { draftCandidate, episodeFacts, wordEpisode } from '../../src/core/capture/draft-candidate.js';
import type { Episode } from '../../src/core/capture/episode.js';
import { noSignals } from '../../src/core/capture/episode.js';
import type { ToolCall, TranscriptEvent } from '../../src/core/capture/events.js';
import { DEFAULT_CONFIDENCE_WEIGHTS, mergeSignals, scoreConfidence } from '../../src/core/capture/score.js';
import { detectAll, madeUpSession } from '../helpers/capture-events.js';

/** Events of one made-up session, on consecutive lines. */
const session = () => madeUpSession();

const bash = (command: string) => ({ command });

/** The first episode of a stream (pushed, then flushed). */
const episodeOf = (events: readonly TranscriptEvent[]): Episode => detectAll(events)[0]!;

describe('the error gist', () => {
  it.each([
    ['Exit code 1\n\u001b[31mError: boom\u001b[0m', 'Error: boom'],
    // A warning above the error is not it; a warning alone still is.
    [
      "Exit code 1\nwarning: unable to access '/home/me/.gitignore_global': Permission denied\nfatal: pathspec 'x' did not match any files",
      "fatal: pathspec 'x' did not match any files",
    ],
    [
      "warning: unable to access '/home/me/.gitignore_global': Permission denied",
      "warning: unable to access '/home/me/.gitignore_global': Permission denied",
    ],
    // A PowerShell parser error says what went wrong below where, above its error record.
    [
      "At line:1 char:14\n+ cd C:\\x && git status\n+              ~~\nThe token '&&' is not a valid statement separator in this version.\n    + CategoryInfo          : ParserError: (:) [], ParentContainsErrorRecordException\n    + FullyQualifiedErrorId : InvalidEndOfLine",
      "The token '&&' is not a valid statement separator in this version.",
    ],
    ['<tool_use_error>File has not been read yet</tool_use_error>', 'File has not been read yet'],
    ['Wall time: 3s\nOutput:\nall fine', 'all fine'],
    ['', 'failed without output'],
    [
      'Exit code 6\n  % Total    % Received % Xferd  Average Speed   Time    Time     Time  Current\n                                 Dload  Upload   Total   Spent    Left  Speed\n  0     0    0     0    0     0      0      0 --:--:-- --:--:-- --:--:--     0\ncurl: (6) Could not resolve host: example.invalid',
      'curl: (6) Could not resolve host: example.invalid',
    ],
    [
      '  0     0    0     0    0     0      0      0 --:--:-- --:--:-- --:--:--     0\n100  1256  100  1256    0     0   5000      0 --:--:-- --:--:-- --:--:--  5000\nsaved',
      'saved',
    ],
    [
      '==========================\n  Acme CLI v2.1 (c) Copyright Acme 2024\n==========================\nUsage: acme [--verbose] <command>',
      'Usage: acme [--verbose] <command>',
    ],
    [
      '<!DOCTYPE html>\n<html><head><title>404 Not Found</title></head>\n<body><h1>Not Found</h1></body></html>',
      '404 Not Found',
    ],
    [
      'Traceback (most recent call last):\n  File "x.py", line 3, in <module>\n    import foo\nModuleNotFoundError: No module named \'foo\'',
      "ModuleNotFoundError: No module named 'foo'",
    ],
    [
      "Command: docker ps\nDirectory: (root)\nOutput: docker : The term 'docker' is not recognized as the name of a cmdlet\nError: (none)\nExit Code: 1\nSignal: (none)\nBackground PIDs: (none)\nProcess Group PGID: 42",
      "docker : The term 'docker' is not recognized as the name of a cmdlet",
    ],
    [
      'Collecting x\n━━━━━━━━━━━━━━━━ 45% 1.2/3.4 MB 5.6 MB/s eta 0:00:01\nERROR: No matching distribution found for x',
      'ERROR: No matching distribution found for x',
    ],
    [
      'npm ERR! code E404\nnpm ERR! 404 Not Found - GET https://registry.npmjs.org/nope',
      'npm ERR! code E404',
    ],
    [
      '<tool_use_error>InputValidationError: Task failed due to the following issue:\nThe required parameter `prompt` is missing</tool_use_error>',
      'InputValidationError: Task failed due to the following issue: The required parameter `prompt` is missing',
    ],
    [
      'Command: rm x\nDirectory: (root)\nOutput: (empty)\nError: (none)\nExit Code: 1',
      'failed without output',
    ],
    [
      'Chocolatey v2.5.1\n3 validations performed. 2 success(es), 1 warning(s), and 0 error(s).\nansible not installed. The package was not found with the source(s) listed.',
      'ansible not installed. The package was not found with the source(s) listed.',
    ],
    [
      'Exit code 255\n      0 [main] bash (3) child_copy: cygheap read copy failed, Win32 error 299\n/usr/bin/bash: fork: retry: Resource temporarily unavailable\nssh: Could not resolve hostname h:22: Name or service not known',
      'ssh: Could not resolve hostname h:22: Name or service not known',
    ],
    [
      'Output: dir : Second path fragment must not be a drive or UNC name.\nParameter name: path2\nAt line:1 char:1\n+ dir C:\\a\\*.ico /s\n+ ~~~~~~~~~~~~~~~~\n    + CategoryInfo          : InvalidArgument: (C:\\a:String) \n    [Get-ChildItem], ArgumentException\n    + FullyQualifiedErrorId : DirArgumentError,Microsoft.PowerShell.Commands.GetChildItem \n   Command\n \nError: (none)\nExit Code: 1',
      'dir : Second path fragment must not be a drive or UNC name.',
    ],
    [
      'Exit code 1\nBusyBox v1.36.1 (2025-08-19 14:33:15 UTC) multi-call binary.\n\nUsage: nslookup [-type=QUERY_TYPE] [-debug] HOST [DNS_SERVER]',
      'Usage: nslookup [-type=QUERY_TYPE] [-debug] HOST [DNS_SERVER]',
    ],
    [
      'Exit code 1\n╔══════════════════════════╗\n║   Security Error Report   ║\n╚══════════════════════════╝\nsecurity-audit.sh: line 343: codesign: invalid signature',
      'security-audit.sh: line 343: codesign: invalid signature',
    ],
  ])('of %j is %j', (text, expected) => {
    expect(errorGist(text)).toBe(expected);
  });
});

describe('what a fix changed', () => {
  const s = session();
  it.each<[string, ToolCall, ToolCall, object | undefined]>([
    [
      'a flag added',
      s.call('Bash', bash('git commit -m x')),
      s.call('Bash', bash('git commit --no-gpg-sign -m x')),
      { kind: 'command', added: ['--no-gpg-sign'], removed: [] },
    ],
    [
      'the same command, only the description changed',
      s.call('Bash', { command: 'make', description: 'build' }),
      s.call('Bash', { command: 'make', description: 'build again' }),
      undefined,
    ],
    [
      'the same command with a timeout',
      s.call('Bash', { command: 'npm ci' }),
      s.call('Bash', { command: 'npm ci', timeout: 600000 }),
      { kind: 'parameters', added: ['timeout'], removed: [], changed: [] },
    ],
    [
      'another path',
      s.call('Read', { file_path: '/c/Users/me/a.md' }),
      s.call('Read', { file_path: 'C:\\Users\\me\\a.md' }),
      { kind: 'path', failed: '/c/Users/me/a.md', fixed: 'C:\\Users\\me\\a.md' },
    ],
    [
      'a parameter set to another small value',
      s.call('replace', { file_path: '/r/a', old_string: 'x', expected_replacements: 2 }),
      s.call('replace', { file_path: '/r/a', old_string: 'x', expected_replacements: 1 }),
      { kind: 'parameters', added: [], removed: [], changed: ['expected_replacements: 1'] },
    ],
    [
      'only free text changed',
      s.call('Edit', { file_path: '/r/a', old_string: 'const a = 1', new_string: 'b' }),
      s.call('Edit', { file_path: '/r/a', old_string: 'const a = 2', new_string: 'b' }),
      undefined,
    ],
    [
      'another tool',
      s.call('Write', { file_path: '/r/a.ts', content: 'x' }),
      s.call('Bash', bash("cat > /r/a.ts <<'EOF'\nx\nEOF")),
      { kind: 'tool', failed: 'Write', fixed: 'Bash' },
    ],
    [
      'a call read from a cut line: what the cut hid is never named as added',
      { ...s.call('Task', { description: 'explore' }), inputCut: true as const },
      s.call('Task', { description: 'explore', prompt: 'look', subagent_type: 'Explore' }),
      undefined,
    ],
    [
      'a cut command is only its beginning: not compared',
      { ...s.call('Bash', bash('git commit -m "docs: Mail To: [REDACTED]')), inputCut: true as const },
      s.call('Bash', bash('git commit --no-verify -m "docs"')),
      undefined,
    ],
  ])('%s', (_name, failed, fix, expected) => {
    expect(nameDifference(failed, fix)).toEqual(
      expected === undefined ? undefined : expect.objectContaining(expected),
    );
  });
});

describe('added flags with their values', () => {
  it.each([
    [['--no-gpg-sign'], 'git commit -m x', 'git commit --no-gpg-sign -m x', ['--no-gpg-sign']],
    [['-f', '-d'], 'docker compose up', 'docker compose -f prod.yaml up -d', ['-f prod.yaml', '-d']],
    [['-p'], 'pytest -p a', 'pytest -p a -p b', ['-p']],
    [['--', '--run'], 'npm test', 'npm test -- --run', ['--', '--run']],
    [['--out'], 'tool', 'tool --out "my file.txt"', ['--out my file.txt']],
  ])('%j added to %j', (added, failed, fixed, expected) => {
    expect(flagsWithValues(added, failed, fixed)).toEqual(expected);
  });
});

describe('a directory both commands change to', () => {
  it.each([
    [
      'cd "C:\\a b" && python -m pytest',
      'cd "C:\\a b" && pip install x',
      ['python -m pytest', 'pip install x'],
    ],
    ['cd a && cd b && make', 'cd a && cd b && make -j2', ['make', 'make -j2']],
    ['cd a && git status', 'cd b && git status', ['cd a && git status', 'cd b && git status']],
    ['cd a && ', 'cd a && ls', ['cd a && ', 'cd a && ls']],
  ])('%j and %j', (a, b, expected) => {
    expect(withoutSharedCd(a, b)).toEqual(expected);
  });
});

describe('heuristic episodes worded as advice', () => {
  const s = session();
  it.each<[string, () => Episode, object]>([
    [
      'error-fix: another command line',
      () =>
        episodeOf([
          ...s.fail(
            'Bash',
            bash('pytest -x tests'),
            'Exit code 4\nERROR: file or directory not found: tests',
          ),
          ...s.ok('Bash', bash('pytest tests/unit')),
        ]),
      {
        summary:
          'Run `pytest tests/unit` instead of `pytest -x tests`: it failed with "ERROR: file or directory not found: tests"',
        mistake: '`pytest -x tests` failed: ERROR: file or directory not found: tests',
        remediation: 'Run `pytest tests/unit`',
        drop: undefined,
      },
    ],
    [
      'error-fix: a flag, in a long command',
      () =>
        episodeOf([
          ...s.fail(
            'Bash',
            bash(`git commit -m "${'a long message '.repeat(8)}"`),
            'error: gpg failed to sign the data\nfatal: failed to write commit object',
          ),
          ...s.ok('Bash', bash(`git commit --no-gpg-sign -m "${'a long message '.repeat(8)}"`)),
        ]),
      {
        summary: 'Add `--no-gpg-sign` to `git commit`: it failed with "error: gpg failed to sign the data"',
        drop: undefined,
      },
    ],
    [
      'error-fix by another program the agent named as the replacement',
      () =>
        episodeOf([
          ...s.fail('Bash', bash('yarn add left-pad'), 'bash: yarn: command not found'),
          s.say('`yarn` is missing here; I will use `npm install left-pad` instead.'),
          ...s.ok('Bash', bash('npm install left-pad')),
        ]),
      {
        summary: 'Use `npm` instead of `yarn add` here: it failed with "bash: yarn: command not found"',
        mistake: '`yarn add left-pad` failed: bash: yarn: command not found',
        remediation: 'Run `npm install left-pad`',
        drop: undefined,
      },
    ],
    [
      'error-fix by another program on the same file, where the shell lacks the first',
      () =>
        episodeOf([
          ...s.fail(
            'Bash',
            bash('tail -n 5 conf/refind.conf'),
            "tail : The term 'tail' is not recognized as the name of a cmdlet",
          ),
          ...s.ok('Bash', bash('powershell -Command "Get-Content conf/refind.conf -Tail 5"')),
        ]),
      {
        summary:
          'Use `Get-Content` instead of `tail` here: it failed with "tail : The term \'tail\' is not recognized as the name of a cmdlet"',
        remediation: 'Run `powershell -Command "Get-Content conf/refind.conf -Tail 5"`',
        drop: undefined,
      },
    ],
    [
      'error-fix by an enabling step',
      () =>
        episodeOf([
          ...s.fail('Bash', bash('pnpm test')),
          ...s.ok('Bash', bash('pnpm install')),
          ...s.ok('Bash', bash('pnpm test')),
        ]),
      {
        summary: 'Run `pnpm install` before `pnpm test`: without it, it failed with "Error: it broke"',
        mistake: '`pnpm test` failed: Error: it broke',
        remediation: 'Run `pnpm install` first, then retry',
        drop: undefined,
      },
    ],
    [
      'error-fix: Read before Edit',
      () =>
        episodeOf([
          ...s.fail(
            'Edit',
            { file_path: '/repo/src/a.ts', old_string: 'x' },
            '<tool_use_error>File has not been read yet. Read it first before writing to it.</tool_use_error>',
            'tool-use-error',
          ),
          ...s.ok('Read', { file_path: '/repo/src/a.ts' }),
          ...s.ok('Edit', { file_path: '/repo/src/a.ts', old_string: 'x' }),
        ]),
      {
        summary:
          'Read `src/a.ts` before calling Edit on it: it failed with "File has not been read yet. Read it first before writing to it."',
        remediation: 'Read the file first, then retry Edit',
        drop: undefined,
      },
    ],
    [
      'error-fix: an edit that failed, settled by reading the file',
      () =>
        episodeOf([
          ...s.fail(
            'replace',
            { file_path: '/repo/fix.ps1', old_string: 'x', expected_replacements: 2 },
            'Failed to edit, Expected 2 occurrences but found 1 for old_string in file: /repo/fix.ps1',
            'error-flag',
          ),
          ...s.ok('read_file', { file_path: '/repo/fix.ps1' }),
        ]),
      {
        summary:
          'Read `fix.ps1` before calling replace on it: it failed with "Failed to edit, Expected 2 occurrences but found 1 for old_string in file: /repo/fix.ps1"',
        remediation: 'Read the file first, then retry replace',
        drop: undefined,
      },
    ],
    [
      'error-fix by a step in the same directory',
      () =>
        episodeOf([
          ...s.fail('Bash', bash('cd /repo/app && python -m pytest'), 'No module named pytest'),
          ...s.ok('Bash', bash('cd /repo/app && pip install -r requirements-dev.txt')),
          ...s.ok('Bash', bash('cd /repo/app && python -m pytest')),
        ]),
      {
        summary:
          'Run `pip install -r requirements-dev.txt` before `python -m pytest`: without it, it failed with "No module named pytest"',
        remediation: 'Run `cd /repo/app && pip install -r requirements-dev.txt` first, then retry',
        drop: undefined,
      },
    ],
    [
      'error-fix: a missing parameter',
      () =>
        episodeOf([
          ...s.fail(
            'Task',
            { description: 'x' },
            '<tool_use_error>InputValidationError: The required parameter `prompt` is missing</tool_use_error>',
            'tool-use-error',
          ),
          ...s.ok('Task', { description: 'x', prompt: 'do it' }),
        ]),
      {
        summary:
          'Pass `prompt` when calling Task: it failed with "InputValidationError: The required parameter `prompt` is missing"',
        remediation: 'Pass `prompt`',
        drop: undefined,
      },
    ],
    [
      'error-fix: another path',
      () =>
        episodeOf([
          ...s.fail(
            'Read',
            { file_path: '/c/Users/me/notes.md' },
            '<tool_use_error>File does not exist.</tool_use_error>',
            'tool-use-error',
          ),
          ...s.ok('Read', { file_path: 'C:\\Users\\me\\notes.md' }),
        ]),
      {
        summary:
          'Use `C:\\Users\\me\\notes.md` instead of `/c/Users/me/notes.md` with Read: it failed with "File does not exist."',
        remediation: 'Use `C:\\Users\\me\\notes.md`',
        drop: undefined,
      },
    ],
    [
      'error-fix: Read, then another edit tool',
      () =>
        episodeOf([
          ...s.fail(
            'Edit',
            { file_path: '/repo/b.md', old_string: 'x' },
            '<tool_use_error>File has not been read yet. Read it first before writing to it.</tool_use_error>',
            'tool-use-error',
          ),
          ...s.ok('Read', { file_path: '/repo/b.md' }),
          ...s.ok('MultiEdit', { file_path: '/repo/b.md', edits: [] }),
        ]),
      { summary: expect.stringMatching(/^Read `b\.md` before calling Edit on it: /), drop: undefined },
    ],
    [
      'error-fix: a URL without its quotes',
      () =>
        episodeOf([
          ...s.fail(
            'web_fetch',
            { prompt: '"https://x.io/a"' },
            'Malformed URL detected: ""https://x.io/a"".',
            'error-flag',
          ),
          ...s.ok('web_fetch', { prompt: 'https://x.io/a' }),
        ]),
      {
        summary:
          'Use `https://x.io/a` instead of `"https://x.io/a"` in `prompt` when calling web_fetch: it failed with "Malformed URL detected: ""https://x.io/a""."',
        drop: undefined,
      },
    ],
    [
      'error-fix with nothing nameable: dropped',
      () =>
        episodeOf([
          ...s.fail(
            'Edit',
            { file_path: '/repo/a.ts', old_string: 'x = 1' },
            'String to replace not found in file.',
          ),
          ...s.ok('Edit', { file_path: '/repo/a.ts', old_string: 'x = 2' }),
        ]),
      { drop: 'unnamed-difference' },
    ],
    [
      'error-fix that repeats the failed command (run in the background): dropped',
      () =>
        episodeOf([
          ...s.fail('run_shell_command', { command: 'make', is_background: false }),
          ...s.ok('run_shell_command', { command: 'make', is_background: true }),
        ]),
      { drop: 'fix-repeats-failure' },
    ],
    [
      'a Read refused for size, then searched',
      () =>
        episodeOf([
          ...s.fail(
            'Read',
            { file_path: '/repo/logs/big.log' },
            'File content (28639 tokens) exceeds maximum allowed tokens (25000). Please use offset and limit parameters',
            'error-flag',
          ),
          ...s.ok('Bash', bash('grep -n ERROR logs/big.log')),
        ]),
      {
        summary:
          'Read `logs/big.log` in parts (`offset`/`limit`) or search it: it failed with "File content (28639 tokens) exceeds maximum allowed tokens (25000). Please use offset and limit parameters"',
        remediation: 'Read it in parts, or search it as the fix did: `grep -n ERROR logs/big.log`',
        drop: undefined,
      },
    ],
    [
      'the same command with sudo',
      () =>
        episodeOf([
          ...s.fail(
            'Bash',
            bash('cp a.conf /boot/a.conf.bak'),
            "cp: cannot create regular file '/boot/a.conf.bak': Permission denied",
          ),
          ...s.ok('Bash', bash('sudo cp a.conf /boot/a.conf.bak')),
        ]),
      {
        summary:
          'Run `cp` with `sudo`: it failed with "cp: cannot create regular file \'/boot/a.conf.bak\': Permission denied"',
        remediation: 'Run `sudo cp a.conf /boot/a.conf.bak`',
        drop: undefined,
      },
    ],
    [
      'the same words with another program',
      () =>
        episodeOf([
          ...s.fail(
            'Bash',
            bash('sc config w32time start= auto'),
            "Set-Content : A positional parameter cannot be found that accepts argument 'start='.",
          ),
          ...s.ok('Bash', bash('sc.exe config w32time start= auto')),
        ]),
      {
        summary:
          'Use `sc.exe` instead of `sc`: it failed with "Set-Content : A positional parameter cannot be found that accepts argument \'start=\'."',
        drop: undefined,
      },
    ],
    [
      "an error line of the failed program itself, below another program's",
      () =>
        episodeOf([
          ...s.fail(
            'Bash',
            bash('refreshenv; python --version'),
            "'wmic' is not recognized as an internal or external command,\nPython was not found; run without arguments to install from the Microsoft Store",
          ),
          ...s.ok('Bash', bash('C:\\Python314\\python.exe --version')),
        ]),
      {
        mistake:
          '`refreshenv; python --version` failed: Python was not found; run without arguments to install from the Microsoft Store',
      },
    ],
    [
      'user-correction',
      () => episodeOf([...s.fail('Bash', bash('npm install x')), s.user('no, use pnpm here')]),
      {
        summary: 'When you run `npm install`, heed the user\'s correction: "no, use pnpm here"',
        mistake: 'the user corrected Bash `npm install x`',
        remediation: 'the user said: "no, use pnpm here"',
        drop: undefined,
      },
    ],
    [
      'retry-loop',
      () => episodeOf([1, 2, 3].flatMap(() => s.fail('Bash', bash('make deploy')))),
      {
        summary: 'Do not retry `make deploy` as it is: it failed 3 times in a row with "Error: it broke"',
        mistake: '`make deploy` failed 3 times in a row: Error: it broke',
        remediation: 'Read the error and change the call (or ask) instead of repeating it',
        drop: undefined,
      },
    ],
    [
      'timeout on a prompt',
      () =>
        episodeOf(
          s.fail(
            'Bash',
            bash('npx create-next-app x'),
            'Would you like to use Turbopack?',
            'interactive-prompt',
          ),
        ),
      {
        summary:
          'Run `npx create-next-app x` non-interactively (pass every option, --yes, CI=1): it stalled on an interactive prompt ("Would you like to use Turbopack?")',
        mistake: '`npx create-next-app` stalls on an interactive prompt: Would you like to use Turbopack?',
        remediation: 'Run it non-interactively: pass every option, --yes, CI=1',
        drop: undefined,
      },
    ],
    [
      'self-diagnosis',
      () => episodeOf([...s.fail('Bash', bash('go test ./...')), s.say('The issue is the missing GOFLAGS.')]),
      {
        summary: 'When `go test` fails with "Error: it broke": The issue is the missing GOFLAGS.',
        mistake: '`go test` failed: Error: it broke',
        remediation: 'The issue is the missing GOFLAGS.',
        drop: undefined,
      },
    ],
    [
      'self-diagnosis that names only the failed command again',
      () =>
        episodeOf([
          ...s.fail('Bash', bash('go test ./...')),
          s.say('The issue is that `go test` failed again.'),
        ]),
      { drop: 'fix-repeats-failure' },
    ],
  ])('%s', (_name, episode, wording) => {
    const e = episode();
    expect(wordEpisode(e, episodeFacts(e))).toMatchObject(wording);
  });

  it('a dropped episode still drafts, and says why', () => {
    const draft = draftCandidate(
      episodeOf([
        ...s.fail('run_shell_command', { command: 'make', is_background: false }),
        ...s.ok('run_shell_command', { command: 'make', is_background: true }),
      ]),
    );
    expect(draft.drop).toBe('fix-repeats-failure');
  });
});

describe('the advice-shape rule', () => {
  const evidence = ['git commit --no-gpg-sign -m x', 'error: gpg failed to sign the data'];
  it.each<[string, string, string | undefined, string | undefined, string[]]>([
    [
      'advice',
      'Add `--no-gpg-sign` to `git commit`: it failed',
      '`git commit -m x` failed',
      'Run `git commit --no-gpg-sign -m x`',
      [],
    ],
    ['a "When" rule', 'When `git commit` fails: sign nothing', '`git commit` failed', 'sign nothing', []],
    [
      'a log line',
      '`git commit` failed (gpg); what worked: `git commit`',
      '`git commit` failed',
      'Run `git commit`',
      ['not-imperative', 'fix-equals-failure'],
    ],
    [
      'a name not in the evidence',
      'Run `cargo build` first',
      'x failed',
      'Run `cargo build`',
      ['names-nothing-in-evidence'],
    ],
    ['no fix', 'Do not retry `git commit` as it is', '`git commit` failed', undefined, ['no-fix']],
    [
      '"different input"',
      'Use `git commit` again',
      '`git commit` failed',
      'what worked: Edit with different input',
      ['no-fix'],
    ],
    [
      'a name inside the error',
      'Pass `prompt` when calling Task',
      'Task failed: the parameter `prompt` is missing',
      'Pass `prompt`',
      ['names-nothing-in-evidence'],
    ],
    [
      'a cut name',
      'Run `git commit --no-gpg…` instead',
      '`git commit -m x` failed',
      'Run `git commit --no-gpg-sign -m x`',
      [],
    ],
  ])('%s', (_name, summary, mistake, remediation, faults) => {
    expect(checkAdviceShape({ summary, mistake, remediation, evidence }).faults).toEqual(faults);
  });

  it.each([
    ['Run it', true],
    ["Don't retry", true],
    ['When x fails', true],
    ['`pytest` failed', false],
    ['User correction after Bash', false],
    ['', false],
  ])('%j starts with an imperative: %s', (summary, expected) => {
    expect(startsImperative(summary)).toBe(expected);
  });

  it('code spans lose the ellipsis a cut left', () => {
    expect(codeSpans('Run `a b…` and `…c` and ``')).toEqual(['a b', 'c']);
  });
});

describe('retry and hang boosts', () => {
  const s = session();
  const call = (command: string) => s.call('Bash', bash(command));
  const attempt = (command: string) => ({
    call: call(command),
    result: {
      ...call(command),
      kind: 'tool-result' as const,
      ok: false,
      text: 'x',
      exitCode: 1,
      failure: 'exit-code' as const,
    },
  });

  it.each<[string, string[], string | undefined, boolean]>([
    ['three calls, two different', ['make a', 'make b'], 'make c', true],
    ['three identical calls', ['make a', 'make a', 'make a'], undefined, false],
    ['two calls', ['make a'], 'make b', false],
    ['three failures, changed', ['make a', 'make b', 'make a'], undefined, true],
  ])('%s: retry %s', (_name, attempts, fix, retry) => {
    expect(isRetryLoop(attempts.map(attempt), fix === undefined ? undefined : call(fix))).toBe(retry);
  });

  const spread = { tier: 2 as const, sessions: 1, projects: 1, occurrences: 1 };
  it.each([
    [{}, 0.4],
    [{ retry: true }, 0.5],
    [{ hang: true }, 0.5],
    [{ retry: true, hang: true, fixConfirmed: true }, 0.8],
  ])('tier 2 with %j: %s', (signals, confidence) => {
    expect(scoreConfidence({ ...noSignals(), ...signals }, spread, DEFAULT_CONFIDENCE_WEIGHTS)).toBe(
      confidence,
    );
  });

  it('tier 1 keeps its own base: the boosts are for heuristics', () => {
    expect(
      scoreConfidence(
        { ...noSignals(), retry: true, hang: true },
        { ...spread, tier: 1 },
        DEFAULT_CONFIDENCE_WEIGHTS,
      ),
    ).toBe(0.85);
  });

  it('a candidate stored before the retry signal merges with one that has it', () => {
    const { retry: _none, ...old } = noSignals();
    expect(mergeSignals(old as ReturnType<typeof noSignals>, { ...noSignals(), retry: true }).retry).toBe(
      true,
    );
    expect(mergeSignals(old as ReturnType<typeof noSignals>, noSignals()).retry).toBe(false);
  });

  it('a detected retry loop with changes carries the signal', () => {
    const e = episodeOf([
      ...s.fail('Bash', bash('make build')),
      ...s.fail('Bash', bash('make build -j2')),
      ...s.ok('Bash', bash('make build -j1 V=1')),
    ]);
    expect([e.kind, e.signals.retry]).toEqual(['error-fix', true]);
  });
});

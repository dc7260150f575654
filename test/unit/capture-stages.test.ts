// The stages of capture one at a time: what a call acts on, the verdicts on pending failures, the
// detector over short made-up sessions, and each drafting stage.
import { LANGUAGE_EXTENSIONS } from '../../src/core/inject/detect-stack.js';
import { describe, expect, it } from 'vitest';
import { commandOf, targetOf, targetPath } from '../../src/core/capture/call-target.js';
import type { CallTarget } from '../../src/core/capture/call-target.js';
import {
  causalSentence,
  correctionEpisode,
  createEpisodeDetector,
  dedupeEvidence,
  episodeFromPending,
  expiredEpisodes,
} from '../../src/core/capture/detect-episodes.js';
import {
  draftBody,
  draftCandidate,
  draftTriggers,
  episodeFacts,
  hashKeyOf,
  pathGlob,
  wordEpisode,
} from '../../src/core/capture/draft-candidate.js';
import { commandKeys, commandObject, writtenFiles } from '../../src/core/capture/shell-command.js';
import { backgroundProgram, checkedNames } from '../../src/core/capture/background-launch.js';
import { downloadedFile, errorPageLine, urlHost } from '../../src/core/capture/saved-download.js';
import { categoryOf, draftTags, languageOf, severityOf, topicOf } from '../../src/core/capture/draft-tags.js';
import type { Episode } from '../../src/core/capture/episode.js';
import type { FailureSignal, ToolCall, ToolResult, TranscriptEvent } from '../../src/core/capture/events.js';
import {
  failureGist,
  isMisfiredProbe,
  isNoise,
  isProbe,
  judgeFailure,
  judgeSuccess,
  openFailure,
  relatedTo,
  touchesSameFile,
  namedByFailure,
} from '../../src/core/capture/pending-failure.js';
import type { PendingFailure } from '../../src/core/capture/pending-failure.js';
import { detectAll, madeUpSession } from '../helpers/capture-events.js';

/** Events of one made-up session, on consecutive transcript lines. */
const session = (agent: 'claude-code' | 'codex' = 'claude-code') => madeUpSession({ agent });

const bash = (command: string) => ({ command });

const detect = detectAll;

/** What a table row checks of an episode. */
function gist(episode: Episode) {
  return {
    kind: episode.kind,
    attempts: episode.failures.length,
    fix: episode.fix === undefined ? undefined : (commandOf(episode.fix) ?? episode.fix.tool),
    enabler: episode.enabler === undefined ? undefined : commandOf(episode.enabler),
  };
}

describe('call targets', () => {
  it.each([
    ['sudo -u me op vault list', ['op']],
    ['pkexec pacman -Syu --noconfirm', ['pacman']],
    ['doas apk add jq', ['apk add']],
    ['run0 --user me systemctl restart blocky', ['systemctl restart']],
  ])('run as another user, %j runs %j', (command, keys) => {
    expect(commandKeys(command)).toEqual(keys);
  });

  it.each([
    ['git -C ~/site push origin main', ['git push']],
    ['git -c user.name=x -C "/tmp/a b" commit -m wip', ['git commit']],
    ['git --git-dir=.git status', ['git status']],
    ['kubectl -n prod get pods', ['kubectl get']],
    ['docker --context remote compose up', ['docker compose']],
    ['make -C build install', ['make install']],
    ['npm --prefix web run build', ['npm run']],
    ['gh -R owner/repo pr list', ['gh pr']],
    // an option without a value stays one word: the next is the subcommand
    ['git --no-pager log', ['git log']],
  ])('an option before the subcommand takes its value along: %j runs %j', (command, keys) => {
    expect(commandKeys(command)).toEqual(keys);
  });

  it.each([
    ['cmd /c "dir /b"', ['cmd dir']],
    // Git Bash turns `/c` into a path (C:/); `//c` passes it through.
    ['cmd //c "dir /b"', ['cmd dir']],
    ['cmd', ['cmd']],
  ])('cmd hands on what follows /c: %j runs %j', (command, keys) => {
    expect(commandKeys(command)).toEqual(keys);
  });

  it.each([
    ['sudo -u me op item create \\\n  "Public Key[text]=$K"', ['op']],
    ['Get-ChildItem -Path C:\\a `\n  -Recurse\nGet-Volume', ['Get-ChildItem', 'Get-Volume']],
    ['X=`date`\nls -la', ['ls']],
  ])('a continued line is one line, a closing backtick continues nothing: %j', (command, keys) => {
    expect(commandKeys(command)).toEqual(keys);
  });

  it('commands handed on thousands of times over are keyed without exhausting the stack', () => {
    expect([
      commandKeys(`${'powershell '.repeat(20000)}ls`),
      commandKeys(`${'ssh h '.repeat(20000)}ls`),
      commandKeys('ssh h "bash -c \'opkg remove x\'"'),
    ]).toEqual([
      ['powershell powershell powershell powershell'],
      ['ssh ssh ssh ssh'],
      ['ssh bash opkg remove'],
    ]);
  });

  it.each([
    ['Bash', bash('cd src && npm install left-pad'), { family: 'shell', keys: ['npm install'] }],
    ['Bash', {}, { family: 'shell', keys: ['?'] }],
    ['exec_command', { cmd: 'git push origin main' }, { family: 'shell', keys: ['git push'] }],
    ['Edit', { file_path: '/repo/src/a.ts' }, { family: 'edit', keys: ['/repo/src/a.ts'] }],
    ['Write', {}, { family: 'edit', keys: ['?'] }],
    ['apply_patch', { input: '*** Update File: src/b.ts\n@@' }, { family: 'edit', keys: ['src/b.ts'] }],
    ['read_file', { absolute_path: '/repo/README.md' }, { family: 'read', keys: ['/repo/README.md'] }],
    ['WebFetch', { url: 'https://x.io' }, { family: 'webfetch', keys: ['webfetch'] }],
    [
      'Bash',
      bash('# list it first\nls -la /Volumes/x && open /Applications/A.app'),
      { family: 'shell', keys: ['ls', 'open'] },
    ],
    [
      'Bash',
      bash('powershell -NoProfile -Command "Resolve-DnsName a.io -Server 10.0.0.1; Get-DnsClient"'),
      { family: 'shell', keys: ['powershell Resolve-DnsName', 'powershell Get-DnsClient'] },
    ],
    ['Bash', bash('cmd /c "dir /s /b C:\\src"'), { family: 'shell', keys: ['cmd dir'] }],
    ['Bash', bash('bash -lc "npm install x"'), { family: 'shell', keys: ['bash npm install'] }],
    ['Bash', bash('bash ./setup.sh'), { family: 'shell', keys: ['bash'] }],
    [
      'Bash',
      bash(
        'SSH_PUB=$(cat id.pub)\nsudo -u mischa op item create --category "SSH Key" \\\n  "Public Key[text]=$SSH_PUB"',
      ),
      { family: 'shell', keys: ['op'] },
    ],
    [
      'Bash',
      bash(
        '$pub = & "C:\\Program Files\\GnuPG\\bin\\gpg.exe" --armor --export K\n$item = @{\n  title = "GPG"\n}\n$item | ConvertTo-Json | op item create -',
      ),
      { family: 'shell', keys: ['gpg', 'ConvertTo-Json', 'op'] },
    ],
    [
      'Bash',
      bash("cat > a.py <<'EOF'\nimport os\nprint(1)\nEOF\npython a.py"),
      { family: 'shell', keys: ['python a.py'] },
    ],
    ['Bash', bash('npm test # all of them'), { family: 'shell', keys: ['npm test'] }],
    ['Bash', bash('ls -la /etc/x 2>&1 | head -5'), { family: 'shell', keys: ['ls'] }],
    ['run_shell_command', bash('C:\\Python314\\python.exe --version'), { family: 'shell', keys: ['python'] }],
    ['Bash', bash('/usr/bin/git push'), { family: 'shell', keys: ['git push'] }],
    ['Bash', bash('node build.js > out.log 2>&1 && echo ok'), { family: 'shell', keys: ['node build.js'] }],
    [
      'Bash',
      bash('ssh root@h "opkg remove a b" 2>/dev/null'),
      { family: 'shell', keys: ['ssh opkg remove'] },
    ],
  ])('%s %j acts on %j', (tool, input, target) => {
    expect(targetOf({ ...session().call(tool, input) })).toEqual(target);
  });

  it.each([
    ['Edit', { file_path: '/repo/src/a.ts' }, '/repo/src/a.ts'],
    ['Edit', {}, undefined],
    ['Bash', bash('cat /repo/src/a.ts'), undefined],
    ['WebFetch', { url: 'https://x.io' }, undefined],
  ])('the path of %s %j is %s', (tool, input, path) => {
    expect(targetPath(session().call(tool, input))).toBe(path);
  });
});

describe('pending failures: what a call means for them', () => {
  it.each([
    ['which node', true],
    ['node --version', true],
    ['ls -la && cat package.json', true],
    ['npm test', false],
    ['python -m pytest -v', false],
    ['pacman -Qo /usr/lib/node_modules/x/index.js && npm list -g --depth=0', true],
    ['dpkg -S /usr/bin/node', true],
    ['rpm -qf /etc/hosts', true],
    ['pip show requests', true],
    ['pacman -S nodejs', false],
    ['npm install -g x', false],
    ['pip install requests', false],
    ['ssh root@10.0.0.1 "ls -la /etc/init.d/"', true],
    ['ssh -p 2222 root@10.0.0.1 "opkg remove x"', false],
    ['ssh root@10.0.0.1 "ls -la /etc/init.d/gl-cloud 2>&1"', true],
    ['winget search "Intel XTU"', true],
    ['pacman -Ss hunspell', true],
    ['winget install Intel.XTU', false],
    ['node --version 2>/dev/null', true],
    ['cat notes.md > /tmp/copy.md 2>&1 && npm test', false],
  ])('%s is a lookup: %s', (command, probe) => {
    expect(isProbe(session().call('Bash', bash(command)))).toBe(probe);
  });

  it('a lookup in a shell or a listing tool: a Read is never one', () => {
    expect(isProbe(session().call('Read', { file_path: 'ls' }))).toBe(false);
    expect(isProbe(session().call('list_directory', { dir_path: '/r/.github' }))).toBe(true);
  });

  it.each([
    ['ls missing/', 'ls: cannot access', true],
    ['git push', 'ssh: Could not resolve host github.com', true],
    ['curl https://x.io', 'The requested URL returned status code 503', true],
    ['npm test', 'Error: expected 2 to be 3', false],
    ['opkg remove x', 'Collected errors: * opkg_conf_load: Could not lock /var/lock/opkg.lock', true],
    ['dig example.com', ';; connection timed out; no servers could be reached', true],
    [
      'git push',
      'ssh: connect to host github.com port 22: Connection timed out\nfatal: Could not read from remote repository.',
      true,
    ],
    [
      'npm install',
      'npm error code ETIMEDOUT\nnpm error network request failed, reason: connect ETIMEDOUT\nnpm error A complete log of this run can be found in: x.log',
      true,
    ],
    ['ps aux | grep cosmic-panel', '', true],
    [
      'ssh root@10.0.0.1 "ps | grep openvpn"',
      '** WARNING: connection is not using a post-quantum key exchange algorithm.',
      true,
    ],
    [
      'ssh root@10.0.0.1:22772 "free -m"',
      '      0 [main] bash (33480) child_copy: cygheap read copy failed, 0x0, Win32 error 299\n      0 [main] bash 738 dofork: child -1 - forked process 33480 died unexpectedly\n/usr/bin/bash: fork: retry: Resource temporarily unavailable\nssh: Could not resolve hostname 10.0.0.1:22772: Name or service not known',
      false,
    ],
    [
      'ssh root@example.invalid "free -m"',
      'ssh: Could not resolve hostname example.invalid: Name or service not known',
      true,
    ],
    [
      'npm test',
      'Exit code 1\n      0 [main] bash (1) child_copy: cygheap read copy failed\n/etc/profile: fork: retry: Resource temporarily unavailable\nError: expected 2 to be 3',
      false,
    ],
    [
      'npm test',
      'Exit code 254\n      0 [main] bash (1) child_copy: cygheap read copy failed\n/etc/profile: fork: retry: Resource temporarily unavailable',
      true,
    ],
  ])('a failure of %s saying %j is noise: %s', (command, text, noise) => {
    const [call, result] = session().fail('Bash', bash(command), text);
    expect(isNoise(call, result)).toBe(noise);
  });

  it.each([
    ['grep -P "x" src', 'grep: invalid option -- P', true],
    ['tail -n 5 a.conf', "tail : The term 'tail' is not recognized as the name of a cmdlet", true],
    ['which tail', 'tail: command not found', false],
    ['ls missing/', 'ls: cannot access missing/: No such file or directory', false],
    ['grep x src', '', false],
  ])('a lookup %s saying %j misfired (rather than answered): %s', (command, text, misfired) => {
    const [call, result] = session().fail('Bash', bash(command), text);
    expect(isMisfiredProbe(call, result)).toBe(misfired);
  });

  it.each([
    ['ok\nsrc/a.ts:12:3 - error TS2322: Type', 'src/a.ts:#:# - error TS#: Type'],
    ['first line\nsecond line', 'first line'],
    ['', 'failed without output'],
    [
      'Exit code 128\nfatal: Need to specify how to reconcile divergent branches.',
      'fatal: Need to specify how to reconcile divergent branches.',
    ],
  ])('the gist of %j is %j', (text, expected) => {
    expect(failureGist(text)).toBe(expected);
  });

  /** A pending failure of `command` (a Bash call), or of a file tool at `file_path`. */
  const pendingOf = (tool: string, input: Record<string, unknown>, failure: FailureSignal = 'exit-code') => {
    const [call, result] = session().fail(tool, input, 'Error: it broke', failure);
    return openFailure(call, result, targetOf(call), 1);
  };
  const target = (tool: string, input: Record<string, unknown>): [ToolCall, CallTarget] => {
    const call = session().call(tool, input);
    return [call, targetOf(call)];
  };

  it.each([
    ['Run `git init` to initialize it', 'cd ~/x && git init', true],
    ['Run `git init` to initialize it', 'git branch -m main', false],
    ['To log in, run: gh auth login', 'gh auth login --web', true],
    ['To log in, run: gh auth login', 'gh auth status', false],
    ['Error: it broke', 'git init', false],
  ])('a failure that said %j named %j as its step: %s', (said, command, named) => {
    const [failed, result] = session().fail('Bash', bash('gh repo create x'), said);
    const pending = openFailure(failed, result, targetOf(failed), 1);
    expect(namedByFailure(pending, session().call('Bash', bash(command)))).toBe(named);
  });

  it.each([
    [
      'the same executable',
      true,
      pendingOf('Bash', bash('pytest -x')),
      target('Bash', bash('pytest tests/')),
    ],
    ['another executable', false, pendingOf('Bash', bash('pytest -x')), target('Bash', bash('ruff check'))],
    [
      'the same file',
      true,
      pendingOf('Edit', { file_path: '/r/a.ts' }),
      target('MultiEdit', { file_path: '/r/a.ts' }),
    ],
    [
      'another file',
      false,
      pendingOf('Edit', { file_path: '/r/a.ts' }),
      target('Edit', { file_path: '/r/b.ts' }),
    ],
    [
      'another file after a harness error',
      true,
      pendingOf('Edit', { file_path: '/r/a.ts' }, 'tool-use-error'),
      target('Edit', { file_path: '/r/b.ts' }),
    ],
    [
      'another family',
      false,
      pendingOf('Edit', { file_path: '/r/a.ts' }),
      target('Read', { file_path: '/r/a.ts' }),
    ],
  ] as const)('%s is related: %s', (_name, related, pending, [call, callTarget]) => {
    expect(relatedTo(pending, callTarget, call.tool)).toBe(related);
  });

  it.each([
    ['a Read of the file', true, target('Read', { file_path: '/r/config.json' })],
    ['a command naming it', true, target('Bash', bash('cat > /r/config.json <<EOF'))],
    ['a command naming another', false, target('Bash', bash('cat /r/other.json'))],
  ] as const)('after a failed Edit, %s deals with the same file: %s', (_name, same, [call, callTarget]) => {
    expect(touchesSameFile(pendingOf('Edit', { file_path: '/r/config.json' }), call, callTarget)).toBe(same);
  });

  it.each([
    ['a command naming its whole path', true, target('Bash', bash('sudo cp /tmp/sudo_new /etc/pam.d/sudo'))],
    ['a command naming only its short basename', false, target('Bash', bash('sudo ls'))],
  ] as const)(
    'after a failed Edit of /etc/pam.d/sudo, %s deals with it: %s',
    (_name, same, [call, callTarget]) => {
      expect(touchesSameFile(pendingOf('Edit', { file_path: '/etc/pam.d/sudo' }), call, callTarget)).toBe(
        same,
      );
    },
  );

  it.each([
    [
      'write_file of the file the here-document wrote',
      true,
      target('write_file', { file_path: '/home/me/.local/share/applications/gemini.desktop' }),
    ],
    [
      'write_file of another file',
      false,
      target('write_file', { file_path: '/home/me/.local/share/applications/other.desktop' }),
    ],
    [
      'a Read of the file',
      false,
      target('read_file', { absolute_path: '/home/me/.local/share/applications/gemini.desktop' }),
    ],
  ] as const)(
    'after a failed `cat <<EOF > ~/.local/share/applications/gemini.desktop`, %s deals with it: %s',
    (_name, same, [call, callTarget]) => {
      const pending = pendingOf(
        'run_shell_command',
        bash(
          'mkdir -p ~/.local/share/applications && cat <<EOF > ~/.local/share/applications/gemini.desktop\n[Desktop Entry]\nEOF',
        ),
      );
      expect(touchesSameFile(pending, call, callTarget)).toBe(same);
    },
  );

  it.each([
    ['cat <<EOF > a.desktop\nx\nEOF', ['a.desktop']],
    ['echo hi >> "notes.md" 2>&1', ['notes.md']],
    ['make 2> build.log > /dev/null', ['build.log']],
    ['printf x | sudo tee -a /etc/hosts', ['/etc/hosts']],
    ['ls -la 2>&1', []],
  ])('%s writes %j', (command, files) => {
    expect(writtenFiles(command)).toEqual(files);
  });

  it.each([
    ['WebFetch', 'sizeCalculation return invalid (expect positive integer)', true],
    ['web_fetch', 'Request failed with status code 403', true],
    ['web_fetch', 'Error(s) in prompt URLs: - Malformed URL detected', false],
    ['WebFetch', 'InputValidationError: The required parameter `url` is missing', false],
  ])("a %s failure saying %j is the web's answer (noise): %s", (tool, text, noise) => {
    const [call, result] = session().fail(tool, { url: 'https://x.io' }, text, 'error-flag');
    expect(isNoise(call, result)).toBe(noise);
  });

  /** A pending `pytest -x` failure (with `enabler` run since, when given), and `pytest` failing with `text`. */
  const retryAfter = (enabler: string | undefined, text?: string) => () => {
    const open = pendingOf('Bash', bash('pytest -x'));
    open.enabler = enabler === undefined ? undefined : session().call('Bash', bash(enabler));
    return { pending: [open], fail: session().fail('Bash', bash('pytest'), text) };
  };

  it.each<[string, string, () => { pending: PendingFailure[]; fail: [ToolCall, ToolResult] }]>([
    [
      'a lookup',
      'noise',
      () => ({ pending: [], fail: session().fail('Bash', bash('which tsc'), 'tsc not found') }),
    ],
    ['nothing open', 'first', () => ({ pending: [], fail: session().fail('Bash', bash('pytest')) })],
    ['the same target open', 'retry', retryAfter(undefined)],
    ['the same error after an enabling step', 'retry', retryAfter('pip install pytest')],
    [
      'another error after an enabling step',
      'cured',
      retryAfter('pip install pytest', 'FAILED tests/test_a.py - AssertionError'),
    ],
  ])('a failure with %s: %s', (_name, kind, setup) => {
    const { pending, fail } = setup();
    const [call, result] = fail;
    expect(judgeFailure(pending, call, result, targetOf(call)).kind).toBe(kind);
  });

  it.each<[string, () => PendingFailure, [ToolCall, CallTarget], boolean, object]>([
    [
      'another command of the same shell tool',
      () => pendingOf('Bash', bash('pytest -x')),
      target('Bash', bash('pip install pytest-timeout')),
      false,
      { close: false, enabler: true, clearEdited: true },
    ],
    [
      'plumbing that edits a file in place (`sed -i`) is a step, though it looks like a lookup',
      () => pendingOf('Bash', bash('./sync.sh')),
      target('Bash', bash("sed -i 's/a/b/' sync.sh")),
      false,
      { close: false, enabler: true, clearEdited: true },
    ],
    [
      'a lookup of the same shell tool: it changed nothing, so it enables nothing',
      () => pendingOf('Bash', bash('pytest -x')),
      target('Bash', bash('ls tests')),
      false,
      { close: false, enabler: false, clearEdited: true },
    ],
    [
      'an edit after a shell failure',
      () => pendingOf('Bash', bash('pytest -x')),
      target('Edit', { file_path: '/r/a.py' }),
      false,
      { close: false, enabler: false, clearEdited: false },
    ],
    [
      'any call after a file failure',
      () => pendingOf('Edit', { file_path: '/r/a.ts' }),
      target('Bash', bash('git status')),
      false,
      { close: false, enabler: true, clearEdited: false },
    ],
    [
      'a different input at the same target',
      () => pendingOf('Bash', bash('pytest -x')),
      target('Bash', bash('pytest -x -p no:cacheprovider')),
      false,
      { close: true, episode: 'error-fix' },
    ],
    [
      'the build, rerun unchanged after an edit',
      () => pendingOf('Bash', bash('pytest -x')),
      target('Bash', bash('pytest -x')),
      true,
      { close: true, episode: undefined },
    ],
    [
      'the same input, simply repeated',
      () => pendingOf('Bash', bash('curl -s localhost:3000')),
      target('Bash', bash('curl -s localhost:3000')),
      false,
      { close: true, episode: undefined },
    ],
    [
      'the same input after an enabling step',
      () => ({
        ...pendingOf('Bash', bash('curl -s localhost:3000')),
        enabler: session().call('Bash', bash('npm start')),
      }),
      target('Bash', bash('curl -s localhost:3000')),
      false,
      { close: true, episode: 'error-fix' },
    ],
    [
      'the same input after three failures',
      () => {
        const pending = pendingOf('Bash', bash('curl -s localhost:3000'));
        pending.attempts.push(...[1, 2].map(() => pending.attempts[0]!));
        return pending;
      },
      target('Bash', bash('curl -s localhost:3000')),
      false,
      { close: true, episode: 'retry-loop' },
    ],
    [
      'a Read of the file that failed to Edit',
      () => pendingOf('Edit', { file_path: '/r/a.ts' }),
      target('Read', { file_path: '/r/a.ts' }),
      false,
      { close: true, episode: 'error-fix' },
    ],
  ])('a success with %s', (_name, pending, [call, callTarget], edited, verdict) => {
    expect(judgeSuccess(pending(), call, callTarget, edited)).toEqual(verdict);
  });
});

describe('the detector over short sessions', () => {
  const s = session();
  it.each<[string, () => TranscriptEvent[], ReturnType<typeof gist>[], number?]>([
    [
      'error, then a changed command works: error-fix',
      () => [...s.fail('Bash', bash('pytest -x tests')), ...s.ok('Bash', bash('pytest tests'))],
      [{ kind: 'error-fix', attempts: 1, fix: 'pytest tests', enabler: undefined }],
    ],
    [
      'the identical call works when repeated: transient, nothing',
      () => [...s.fail('Bash', bash('curl -s x')), ...s.ok('Bash', bash('curl -s x'))],
      [],
    ],
    [
      'a step in between, then the identical call works: error-fix with its enabler',
      () => [
        ...s.fail('Bash', bash('pnpm test')),
        ...s.ok('Bash', bash('pnpm install')),
        ...s.ok('Bash', bash('pnpm test')),
      ],
      [{ kind: 'error-fix', attempts: 1, fix: 'pnpm test', enabler: 'pnpm install' }],
    ],
    [
      'the step cured the error and the retry fails otherwise: the first story closes',
      () => [
        ...s.fail('Bash', bash('pnpm test'), 'Error: Cannot find module vitest'),
        ...s.ok('Bash', bash('pnpm install')),
        ...s.fail('Bash', bash('pnpm test'), 'FAIL src/a.test.ts > adds'),
      ],
      [{ kind: 'error-fix', attempts: 1, fix: 'pnpm install', enabler: undefined }],
    ],
    [
      'a changed command gets past the error into another kind: the change was the fix',
      () => [
        ...s.fail(
          'Bash',
          bash('git pull origin main'),
          'fatal: Need to specify how to reconcile divergent branches.',
        ),
        ...s.fail(
          'Bash',
          bash('git pull --no-rebase origin main'),
          'CONFLICT (content): Merge conflict in a.md',
        ),
      ],
      [{ kind: 'error-fix', attempts: 1, fix: 'git pull --no-rebase origin main', enabler: undefined }],
    ],
    [
      'a changed command failing the same kind of way is a retry, not a fix',
      () => [
        ...s.fail('Bash', bash('mkdir /opt/a'), "mkdir: cannot create directory '/opt/a': Permission denied"),
        ...s.fail(
          'Bash',
          bash('mkdir -p /opt/b'),
          "mkdir: cannot create directory '/opt/b': Permission denied",
        ),
      ],
      [],
    ],
    [
      'a PowerShell alias run with cmd switches, then the cmdlet it stands for: error-fix',
      () => [
        ...s.fail(
          'Bash',
          bash('dir C:\\src\\*.ico /s'),
          'dir : Second path fragment must not be a drive or UNC name.\nParameter name: path2\nAt line:1 char:1\n+ dir C:\\src\\*.ico /s\n    + CategoryInfo          : InvalidArgument: (C:\\src:String) \n    [Get-ChildItem], ArgumentException',
        ),
        ...s.ok('Bash', bash('Get-ChildItem -Path C:\\src -Recurse -Filter *.ico')),
      ],
      [
        {
          kind: 'error-fix',
          attempts: 1,
          fix: 'Get-ChildItem -Path C:\\src -Recurse -Filter *.ico',
          enabler: undefined,
        },
      ],
    ],
    [
      'a lookup whose output went to a folder that is not there: the path was the mistake',
      () => [
        ...s.fail(
          'Bash',
          bash('ssh root@10.0.0.1 "opkg list-installed" > slate/pkgs.txt'),
          'bash: line 1: slate/pkgs.txt: No such file or directory',
        ),
        ...s.ok('Bash', bash('ssh root@10.0.0.1 "opkg list-installed" > proj/slate/pkgs.txt')),
      ],
      [
        {
          kind: 'error-fix',
          attempts: 1,
          fix: 'ssh root@10.0.0.1 "opkg list-installed" > proj/slate/pkgs.txt',
          enabler: undefined,
        },
      ],
    ],
    [
      'a file not where the call looked, then read under its own name elsewhere: error-fix',
      () => [
        ...s.fail(
          'Read',
          { file_path: '/home/me/bin/gemini.ps1' },
          'File not found: /home/me/bin/gemini.ps1',
        ),
        ...s.ok('Read', { file_path: '/home/me/npm/gemini.ps1' }),
      ],
      [{ kind: 'error-fix', attempts: 1, fix: 'Read', enabler: undefined }],
    ],
    [
      'a folder read as a file, then listed at that path: error-fix',
      () => [
        ...s.fail(
          'Read',
          { file_path: '/home/me/.claude' },
          'EISDIR: illegal operation on a directory, read',
          'error-flag',
        ),
        ...s.ok('Glob', { pattern: '**/*.jsonl', path: '/home/me/.claude' }),
      ],
      [{ kind: 'error-fix', attempts: 1, fix: 'Glob', enabler: undefined }],
    ],
    [
      'a folder read as a file, then another folder listed: nothing yet',
      () => [
        ...s.fail(
          'Read',
          { file_path: '/home/me/.claude' },
          'EISDIR: illegal operation on a directory, read',
          'error-flag',
        ),
        ...s.ok('Glob', { pattern: '**/*.jsonl', path: '/home/me/.config' }),
      ],
      [],
    ],
    [
      'the same command with only --verbose added works: the failure went away by itself, nothing',
      () => [
        ...s.fail('Bash', bash('gpg --batch --generate-key params.txt'), 'Exit code 1'),
        ...s.ok('Bash', bash('gpg --verbose --batch --generate-key params.txt')),
      ],
      [],
    ],
    [
      'the same command with its output shown another way works: the failure went away by itself, nothing',
      () => [
        ...s.fail('Bash', bash('./sync.sh --dry-run'), 'Exit code 1'),
        ...s.ok('Bash', bash('./sync.sh --dry-run 2>&1 | head -60')),
      ],
      [],
    ],
    [
      'a step, then the same command with its output shown another way: the step is the enabler',
      () => [
        ...s.fail('Bash', bash('./sync.sh --dry-run'), 'Exit code 127\nbad interpreter: /bin/bash^M'),
        ...s.ok('Bash', bash("sed -i 's/\\r$//' sync.sh")),
        ...s.ok('Bash', bash('./sync.sh --dry-run 2>&1 | head -60')),
      ],
      [
        {
          kind: 'error-fix',
          attempts: 1,
          fix: './sync.sh --dry-run 2>&1 | head -60',
          enabler: "sed -i 's/\\r$//' sync.sh",
        },
      ],
    ],
    [
      'asked for a missing program, then installed it: setting up, nothing',
      () => [
        ...s.fail('Bash', bash('gh --version && gh auth status'), 'bash: line 1: gh: command not found'),
        s.say('I will install the GitHub CLI using `pacman`.'),
        ...s.ok('Bash', bash('sudo pacman -S --noconfirm github-cli')),
        ...s.ok('Bash', bash('gh --version && gh auth status')),
      ],
      [],
    ],
    [
      'used a missing program, then installed it: still a lesson',
      () => [
        ...s.fail('Bash', bash('pip install requests'), 'bash: line 1: pip: command not found'),
        ...s.ok('Bash', bash('sudo pacman -S --noconfirm python-pip')),
        ...s.ok('Bash', bash('pip install requests')),
      ],
      [
        {
          kind: 'error-fix',
          attempts: 1,
          fix: 'pip install requests',
          enabler: 'sudo pacman -S --noconfirm python-pip',
        },
      ],
    ],
    [
      'a program just installed is not on the PATH: running it by its full path is the fix',
      () => [
        ...s.ok('Bash', bash('winget install GnuPG.GnuPG')),
        ...s.fail(
          'Bash',
          bash('gpg --version'),
          "gpg : The term 'gpg' is not recognized as the name of a cmdlet",
        ),
        ...s.ok('Bash', bash('dir "C:\\Program Files\\GnuPG\\bin\\gpg.exe"')),
        ...s.fail(
          'Bash',
          bash('& "C:\\Program Files\\GnuPG\\bin\\gpg.exe" --gen-key k.txt'),
          'gpg: key generation failed: Timeout',
        ),
      ],
      [
        {
          kind: 'error-fix',
          attempts: 1,
          fix: '& "C:\\Program Files\\GnuPG\\bin\\gpg.exe" --gen-key k.txt',
          enabler: undefined,
        },
      ],
    ],
    [
      'asking for a program nobody installed: a lookup answered, nothing',
      () => [
        ...s.fail(
          'Bash',
          bash('gpg --version'),
          "gpg : The term 'gpg' is not recognized as the name of a cmdlet",
        ),
        ...s.ok('Bash', bash('& "C:\\Program Files\\GnuPG\\bin\\gpg.exe" --version')),
      ],
      [],
    ],
    [
      'the build fails, the code is edited, the build passes: iteration, nothing',
      () => [
        ...s.fail('Bash', bash('npm run build')),
        ...s.ok('Edit', { file_path: '/repo/src/a.ts' }),
        ...s.ok('Bash', bash('npm run build')),
      ],
      [],
    ],
    [
      'three failures at one target: a retry loop',
      () => [1, 2, 3].flatMap(() => s.fail('Bash', bash('make deploy'))),
      [{ kind: 'retry-loop', attempts: 3, fix: undefined, enabler: undefined }],
    ],
    [
      'a lookup failing three times: noise, nothing',
      () => [1, 2, 3].flatMap(() => s.fail('Bash', bash('which tsc'), 'tsc not found')),
      [],
    ],
    [
      'a failure, the agent names a replacement program, which works: error-fix by substitution',
      () => [
        ...s.fail('Bash', bash('yarn add left-pad'), 'bash: yarn: command not found'),
        s.say('`yarn` is not installed in this container. Instead I will use `npm install left-pad`.'),
        ...s.ok('Bash', bash('npm install left-pad')),
      ],
      [{ kind: 'error-fix', attempts: 1, fix: 'npm install left-pad', enabler: undefined }],
    ],
    [
      'another program runs, but the agent never named it as the replacement: nothing',
      () => [
        ...s.fail('Bash', bash('yarn add left-pad'), 'bash: yarn: command not found'),
        s.say('Let me look at the lockfile first.'),
        ...s.ok('Bash', bash('npm install left-pad')),
      ],
      [],
    ],
    [
      'a lookup that misfired, then the named replacement works: error-fix',
      () => [
        ...s.fail(
          'Bash',
          bash('curl --version'),
          "curl : The remote name could not be resolved: '--version'",
        ),
        s.say(
          '`curl` is an alias for `Invoke-WebRequest` in PowerShell; I will use `Invoke-WebRequest` directly.',
        ),
        ...s.ok('Bash', bash('Invoke-WebRequest -Uri https://x -OutFile y.zip')),
      ],
      [
        {
          kind: 'error-fix',
          attempts: 1,
          fix: 'Invoke-WebRequest -Uri https://x -OutFile y.zip',
          enabler: undefined,
        },
      ],
    ],
    [
      'a program the shell lacks, then another program works on the same file: error-fix',
      () => [
        ...s.fail(
          'Bash',
          bash('tail -n 5 E:\\EFI\\refind.conf'),
          "tail : The term 'tail' is not recognized as the name of a cmdlet",
        ),
        ...s.ok('Bash', bash('powershell -Command "Get-Content E:\\EFI\\refind.conf -Tail 5"')),
      ],
      [
        {
          kind: 'error-fix',
          attempts: 1,
          fix: 'powershell -Command "Get-Content E:\\EFI\\refind.conf -Tail 5"',
          enabler: undefined,
        },
      ],
    ],
    [
      'a program the shell lacks, then the next program run for the same stated purpose: error-fix',
      () => [
        ...s.fail(
          'run_shell_command',
          {
            command: 'wmic logicaldisk get name',
            description: 'List the logical drives to verify drive E exists.',
          },
          "wmic : The term 'wmic' is not recognized as the name of a cmdlet",
        ),
        ...s.ok('run_shell_command', {
          command: 'Get-Volume',
          description: 'List all volumes to verify drive E.',
        }),
      ],
      [{ kind: 'error-fix', attempts: 1, fix: 'Get-Volume', enabler: undefined }],
    ],
    [
      'a program the shell lacks, then a program run for something else: nothing',
      () => [
        ...s.fail(
          'run_shell_command',
          { command: 'wmic os get osarchitecture', description: 'Verifying the OS architecture.' },
          "wmic : The term 'wmic' is not recognized as the name of a cmdlet",
        ),
        ...s.ok('run_shell_command', {
          command: 'reg delete HKLM\\X /v Y /f',
          description: 'Deleting the RealTimeIsUniversal registry value.',
        }),
      ],
      [],
    ],
    [
      'a program the shell lacks, then another program works on another file: nothing',
      () => [
        ...s.fail(
          'Bash',
          bash('tail -n 5 E:\\EFI\\refind.conf'),
          "tail : The term 'tail' is not recognized as the name of a cmdlet",
        ),
        ...s.ok('Bash', bash('Get-Content E:\\EFI\\other.conf')),
      ],
      [],
    ],
    [
      '`which` answering that a program is missing is an answer, whatever runs next',
      () => [
        ...s.fail('Bash', bash('which tail'), 'tail: command not found'),
        ...s.ok('Bash', bash('Get-Content E:\\EFI\\refind.conf')),
      ],
      [],
    ],
    [
      'the harness refuses a path outside the workspace, the agent works around it: its rule, nothing',
      () => [
        ...s.fail(
          'read_file',
          { absolute_path: '/etc/pam.d/sudo' },
          'File path must be within one of the workspace directories: /home/u',
          'error-flag',
        ),
        ...s.ok('run_shell_command', bash('cp /etc/pam.d/sudo .gemini/tmp/sudo')),
      ],
      [],
    ],
    [
      'refused once, then the agent tries another outside path the same way: a mistake',
      () => [
        ...s.fail(
          'read_file',
          { absolute_path: '/etc/os-release' },
          'File path must be within one of the workspace directories: /home/u',
          'error-flag',
        ),
        ...s.ok('run_shell_command', bash('cat /etc/os-release')),
        ...s.fail(
          'read_file',
          { absolute_path: '/etc/pam.d/sudo' },
          'File path must be within one of the workspace directories: /home/u',
          'error-flag',
        ),
        ...s.ok('run_shell_command', bash('cp /etc/pam.d/sudo .gemini/tmp/sudo')),
      ],
      [{ kind: 'error-fix', attempts: 1, fix: 'cp /etc/pam.d/sudo .gemini/tmp/sudo', enabler: undefined }],
    ],
    [
      'a lookup that answered "absent", then the named replacement works: the answer is no mistake',
      () => [
        ...s.fail('Bash', bash('which rg'), 'rg not found'),
        s.say('No `rg` here, so I will use `grep -rn` instead.'),
        ...s.ok('Bash', bash('grep -rn foo src')),
      ],
      [],
    ],
    [
      'a misfired lookup nobody replaced: nothing, however long it waits',
      () => [
        ...s.fail(
          'Bash',
          bash('curl --version'),
          "curl : The remote name could not be resolved: '--version'",
        ),
        ...s.ok('Bash', bash('echo done')),
      ],
      [],
    ],
    [
      'a timeout nobody fixed',
      () => s.fail('Bash', bash('npm run dev'), 'Command timed out after 2m', 'timeout'),
      [{ kind: 'timeout', attempts: 1, fix: undefined, enabler: undefined }],
    ],
    [
      'a correction right after a failure joins it',
      () => [...s.fail('Bash', bash('npm install x')), s.user('no, use pnpm here')],
      [{ kind: 'user-correction', attempts: 1, fix: undefined, enabler: undefined }],
    ],
    [
      'a correction after a success is about that call',
      () => [...s.ok('Edit', { file_path: '/repo/a.ts' }), s.user("that's not right, revert it")],
      [{ kind: 'user-correction', attempts: 1, fix: undefined, enabler: undefined }],
    ],
    [
      'a refused call is never the subject of a correction',
      () => {
        const call = s.call('Bash', bash('rm -rf dist'));
        return [call, s.rejection(call), s.user('no, never delete dist')];
      },
      [{ kind: 'user-correction', attempts: 0, fix: undefined, enabler: undefined }],
    ],
    ['a subagent prompt is never a correction', () => [s.user('no, use pnpm', true)], []],
    [
      'the agent explains a failure nobody fixed: self-diagnosis',
      () => [
        ...s.fail('Bash', bash('go test ./...')),
        s.say('The issue is the missing GOFLAGS. I will set it.'),
      ],
      [{ kind: 'self-diagnosis', attempts: 1, fix: undefined, enabler: undefined }],
    ],
    [
      'a #lesson block',
      () => [s.say('Done.\n#lesson\ntool: Bash\nmistake: ran npm\nfix: run pnpm\n#/lesson')],
      [{ kind: 'lesson-block', attempts: 0, fix: undefined, enabler: undefined }],
    ],
    [
      'a background launch that three checks find dead: a loop',
      () =>
        [1, 2, 3].flatMap((n) => [
          ...s.ok('Bash', bash(n === 3 ? 'DISPLAY=:1 applet-battery &' : 'applet-battery &')),
          ...s.fail('Bash', bash('ps aux | grep applet-battery | grep -v grep'), ''),
        ]),
      [{ kind: 'retry-loop', attempts: 3, fix: undefined, enabler: undefined }],
    ],
    [
      'a background launch found dead, then one a check finds running: error-fix',
      () => [
        ...s.ok('Bash', bash('my-server &')),
        ...s.fail('Bash', bash('pgrep -f my-server'), ''),
        ...s.ok('Bash', bash('my-server --port 8081 &')),
        ...s.ok('Bash', bash('pgrep -f my-server'), '4242'),
      ],
      [{ kind: 'error-fix', attempts: 1, fix: 'my-server --port 8081 &', enabler: undefined }],
    ],
    [
      'a background launch that a check finds running: nothing',
      () => [
        ...s.ok('Bash', bash('my-server &')),
        ...s.ok('Bash', bash('ps aux | grep my-server'), '42 my-server'),
      ],
      [],
    ],
    [
      'a check that looks for another program: nothing',
      () => [...s.ok('Bash', bash('my-server &')), ...s.fail('Bash', bash('ps aux | grep postgres'), '')],
      [],
    ],
    [
      'a download that saved an error page, then another download of the file: error-fix',
      () => [
        ...s.ok('Bash', bash('curl -L https://a.example/icon.svg -o ~/icons/icon.svg')),
        ...s.ok('Read', { file_path: '/home/me/icons/icon.svg' }, 'File not found: /v1/icon.svg'),
        ...s.ok('Bash', bash('wget -O ~/icons/icon.svg https://b.example/icon.svg')),
      ],
      [
        {
          kind: 'error-fix',
          attempts: 1,
          fix: 'wget -O ~/icons/icon.svg https://b.example/icon.svg',
          enabler: undefined,
        },
      ],
    ],
    [
      'a Read refused for size, then a search of the same data: error-fix',
      () => [
        ...s.fail(
          'Read',
          { file_path: '/r/big.log' },
          'File content (28639 tokens) exceeds maximum allowed tokens (25000). Please use offset and limit parameters',
          'error-flag',
        ),
        ...s.ok('Bash', bash('grep -n ERROR /r/big.log | tail -50')),
      ],
      [{ kind: 'error-fix', attempts: 1, fix: 'grep -n ERROR /r/big.log | tail -50', enabler: undefined }],
    ],
    [
      'a Read refused for another reason, then a search: nothing',
      () => [
        ...s.fail('Read', { file_path: '/r/big.log' }, 'File does not exist.', 'error-flag'),
        ...s.ok('Bash', bash('grep -rn ERROR /r | tail -50')),
      ],
      [],
    ],
    [
      'a download whose file looks fine: nothing',
      () => [
        ...s.ok('Bash', bash('curl -L https://a.example/icon.svg -o icon.svg')),
        ...s.ok('Bash', bash('head -c 200 icon.svg'), '<svg xmlns="http://www.w3.org/2000/svg">'),
        ...s.ok('Bash', bash('curl -L https://b.example/icon.svg -o icon.svg')),
      ],
      [],
    ],
    [
      'a downloaded web page that is a web page: nothing',
      () => [
        ...s.ok('Bash', bash('curl -L https://a.example/ -o page.html')),
        ...s.ok('Bash', bash('cat page.html'), '<!DOCTYPE html><html><body>hi</body></html>'),
      ],
      [],
    ],
    [
      'a fix after the window has passed is no fix',
      () => [
        ...s.fail('Bash', bash('pytest -x')),
        s.say('a'),
        s.say('b'),
        s.say('c'),
        ...s.ok('Bash', bash('pytest')),
      ],
      [],
      2,
    ],
  ])('%s', (_name, events, expected, window) => {
    expect(detect(events(), window).map(gist)).toEqual(expected);
  });

  it.each([
    [
      'a look around after an edit: the correction is about the edit',
      ['Edit', 'ls -la src', 'ps aux | grep x'],
      'Edit',
    ],
    ["a lookup alone: never the subject, the correction keeps the agent's words", ['ls -la src'], undefined],
    ['a command after a lookup is the subject', ['ls -la', 'npm install x'], 'npm install x'],
    [
      'a status look is a look around',
      ['npm install x', 'systemctl --user list-units | grep x'],
      'npm install x',
    ],
  ])('%s', (_name, calls, subject) => {
    const events = [
      s.say('Let me fix the layout.'),
      ...calls.flatMap((call) =>
        call === 'Edit' ? s.ok('Edit', { file_path: '/repo/a.ts' }) : s.ok('Bash', bash(call)),
      ),
      s.user("that's not right, it is still broken"),
    ];
    const [episode] = detect(events);
    expect(episode?.kind).toBe('user-correction');
    const call = episode?.failures[0]?.call;
    expect(call === undefined ? undefined : (commandOf(call) ?? call.tool)).toBe(subject);
  });

  it('a compaction settles what is pending at once', () => {
    const detector = createEpisodeDetector();
    [1, 2, 3].flatMap(() => s.fail('Bash', bash('make deploy'))).forEach((event) => detector.push(event));
    expect([
      detector.hasPending(),
      detector.push(s.compaction()).map((e) => e.kind),
      detector.hasPending(),
    ]).toEqual([true, ['retry-loop'], false]);
  });

  it('keeps the newest `window` events for the next scan', () => {
    const detector = createEpisodeDetector({ window: 3 });
    const events = [s.say('1'), s.say('2'), s.say('3'), s.say('4')];
    events.forEach((event) => detector.push(event));
    expect(detector.recent()).toEqual(events.slice(1));
  });
});

describe('background launches', () => {
  const s = session();
  it.each([
    ['applet-battery &', 'applet-battery'],
    ['cd /srv && npm start &', 'npm'],
    ['export DISPLAY=:1; applet-battery > /tmp/log 2>&1 &', 'applet-battery'],
    ['applet-battery && echo ok', undefined],
    ['sleep 1 & wait', undefined],
  ])('%s starts %s in the background', (command, program) => {
    expect(backgroundProgram(s.call('Bash', bash(command)))).toBe(program);
  });

  it.each([
    ['ps aux | grep applet-battery | grep -v grep', ['applet-battery']],
    ['pgrep -f my-server', ['my-server']],
    ["ps -ef | grep '[m]y-server'", ['my-server']],
    ['grep applet-battery notes.md', []],
    ['ssh root@h "ps | grep dnsmasq"', ['dnsmasq']],
  ])('%s checks for %j', (command, names) => {
    expect(checkedNames(s.call('Bash', bash(command)))).toEqual(names);
  });
});

describe('downloads that saved an error page', () => {
  const s = session();
  it.each([
    ['curl -L https://x.io/a/icon.svg -o ~/icons/icon.svg', '~/icons/icon.svg'],
    ['curl -LO https://x.io/a/tool.tar.gz', 'tool.tar.gz'],
    ['curl -sLo out.zip https://x.io/a/tool.zip', 'out.zip'],
    ['curl -O https://x.io/a/tool.tar.gz', 'tool.tar.gz'],
    ['wget https://x.io/a/tool.zip', 'tool.zip'],
    ['wget -O out.bin https://x.io/a/tool.zip', 'out.bin'],
    ['Invoke-WebRequest -Uri https://x.io/a.zip -OutFile a.zip', 'a.zip'],
    ['curl -s https://x.io/a.json > a.json', 'a.json'],
    ['curl -s https://x.io/a.json | jq .', undefined],
  ])('%s downloads %s', (command, file) => {
    expect(downloadedFile(s.call('Bash', bash(command)))).toBe(file);
  });

  it.each([
    ['icon.svg', 'File not found: /v1/icon.svg', 'File not found: /v1/icon.svg'],
    ['icon.svg', '<!DOCTYPE html>\n<html><title>404</title>', '<!DOCTYPE html>'],
    ['icon.svg', 'icon.svg: HTML document, ASCII text', 'icon.svg: HTML document, ASCII text'],
    ['icon.svg', '<svg viewBox="0 0 24 24"></svg>', undefined],
    ['page.html', '<!DOCTYPE html>', undefined],
  ])('a look into %s showing %j finds the error page %j', (file, text, line) => {
    const [, result] = s.ok('Read', { file_path: file }, text);
    expect(errorPageLine(file, result)).toBe(line);
  });

  it('words the curl lesson as the missing -f, and fires on curl without it from the same host', () => {
    const e = detectAll([
      ...s.ok('Bash', bash('curl -L https://a.example/icon.svg -o icon.svg')),
      ...s.ok('Bash', bash('cat icon.svg'), '404: Not Found'),
      ...s.ok('Bash', bash('curl -L https://b.example/icon.svg -o icon.svg')),
    ])[0]!;
    const facts = episodeFacts(e);
    const trigger = new RegExp(draftTriggers(facts).commands[0]!);
    expect([
      wordEpisode(e, facts).summary.startsWith('Add `-f` to `curl` downloads'),
      trigger.test('curl -L https://a.example/logo.png -o logo.png'),
      trigger.test('curl -L "https://a.example:8443/x.zip" -o x.zip'),
      trigger.test('curl -fL https://a.example/x.zip -o x.zip'),
      trigger.test('curl -L https://c.example/x.zip -o x.zip'),
      trigger.test('curl -L https://a.example.org/x.zip -o x.zip'),
    ]).toEqual([true, true, true, false, false, false]);
  });

  it.each([
    ['curl -L "https://Upload.Wikimedia.org/a/b.svg" -o b.svg', 'upload.wikimedia.org'],
    ['wget http://x.io:8080/a', 'x.io'],
    ['curl -s localhost:3000/health', undefined],
  ])('the host of %s is %s', (command, host) => {
    expect(urlHost(command)).toBe(host);
  });
});

describe('episode builders', () => {
  const s = session();

  it('an expired failure teaches: loops, then hangs, then corrections, then diagnoses, else nothing', () => {
    const [call, result] = s.fail('Bash', bash('pytest'));
    const base = () => openFailure(call, result, targetOf(call), 1);
    const hang = openFailure(call, { ...result, failure: 'interactive-prompt' }, targetOf(call), 1);
    expect(
      [
        { ...base(), attempts: [1, 2, 3].map(() => ({ call, result })), userText: 'no' },
        { ...hang, userText: 'no' },
        { ...base(), userText: 'no', diagnosis: 'the issue is x' },
        { ...base(), diagnosis: 'the issue is x' },
        base(),
      ].map((p) => expiredEpisodes(p).map((e) => e.kind)),
    ).toEqual([['retry-loop'], ['timeout'], ['user-correction'], ['self-diagnosis'], []]);
  });

  it('an enabler explains a fix only when the fix repeated the failed call unchanged', () => {
    const [call, result] = s.fail('Bash', bash('pnpm test'));
    const enabler = s.call('Bash', bash('pnpm install'));
    const pending = { ...openFailure(call, result, targetOf(call), 1), enabler };
    const same = s.call('Bash', bash('pnpm test'));
    const changed = s.call('Bash', bash('pnpm test --run'));
    expect([
      episodeFromPending(pending, 'error-fix', same).enabler,
      episodeFromPending(pending, 'error-fix', changed).enabler,
      episodeFromPending(pending, 'retry-loop').enabler,
    ]).toEqual([enabler, undefined, undefined]);
  });

  it('signals and evidence of a pending failure', () => {
    const [call, result] = s.fail('Bash', bash('git reset --hard'), 'Error', 'error-output');
    const [fix, fixResult] = s.ok('Bash', bash('git stash'));
    const pending = { ...openFailure(call, result, targetOf(call), 1), userText: 'you deleted my work' };
    const episode = episodeFromPending(pending, 'error-fix', fix, fixResult);
    expect([episode.signals, episode.evidence.map((e) => e.line)]).toEqual([
      {
        fixConfirmed: true,
        userCorrection: true,
        causal: false,
        hang: false,
        retry: false,
        dataLoss: true,
        silentFailure: true,
        selfReported: false,
      },
      [call.line, result.line, fix.line, fixResult.line],
    ]);
  });

  it('a correction on its own points at the newest call, else the newest reply', () => {
    const [call, result] = s.ok('Bash', bash('npm i'));
    const reply = s.say('Installed.');
    const user = s.user('no, use pnpm');
    expect([
      correctionEpisode(user, { call, result }, reply).evidence.map((e) => e.line),
      correctionEpisode(user, undefined, reply).evidence.map((e) => e.line),
      correctionEpisode(user, undefined, undefined).evidence.map((e) => e.line),
    ]).toEqual([[call.line, user.line], [reply.line, user.line], [user.line]]);
  });

  it('evidence once per line, in file then line order', () => {
    expect(
      dedupeEvidence([
        { file: 'b', line: 1 },
        { file: 'a', line: 9 },
        { file: 'a', line: 2 },
        { file: 'a', line: 9 },
      ]),
    ).toEqual([
      { file: 'a', line: 2 },
      { file: 'a', line: 9 },
      { file: 'b', line: 1 },
    ]);
  });

  it.each([
    ['Tests ran. The issue is the stale cache. Clearing it.', 'The issue is the stale cache.'],
    ['It failed because\nthe port was taken', 'It failed because'],
    ['All green.', undefined],
  ])('the causal sentence of %j', (text, sentence) => {
    expect(causalSentence(text)).toBe(sentence);
  });
});

describe('drafting stages', () => {
  const s = session();
  /** The one episode of a short session. */
  const episodeOf = (events: TranscriptEvent[]) => detect(events)[0]!;
  /** An error-fix at the start of its own session. */
  const errorFix = () => {
    const own = session();
    return episodeOf([
      ...own.fail('Bash', bash('pytest -x tests'), 'Exit code 4\nERROR: file or directory not found: tests'),
      ...own.ok('Bash', bash('pytest tests/unit')),
    ]);
  };

  it.each([
    [
      'after a look around, with no action before it',
      [s.say('Here is the list.'), ...s.ok('Bash', bash('ls -la'))],
      'nothing-to-fire-on',
    ],
    ['after words alone', [s.say('Done, the service is updated.')], 'nothing-to-fire-on'],
    ['after an edit: fires on that edit', [...s.ok('Edit', { file_path: '/repo/src/a.ts' })], undefined],
  ])('a correction %s: dropped as %s', (_name, before, drop) => {
    const episode = episodeOf([...before, s.user("no, that's wrong, undo it")]);
    expect(episode.kind).toBe('user-correction');
    expect(draftCandidate(episode).drop).toBe(drop);
  });

  it("a lesson about the agent's own tool is tagged by no tool: it fires on that tool's calls", () => {
    const own = session();
    const episode = episodeOf([
      ...own.fail(
        'Edit',
        { file_path: '/repo/CLAUDE.md' },
        'File has not been read yet. Read it first before writing to it.',
      ),
      ...own.ok('Read', { file_path: '/repo/CLAUDE.md' }),
      ...own.ok('Edit', { file_path: '/repo/CLAUDE.md' }),
    ]);
    const draft = draftCandidate(episode);
    expect(draft.tools).toEqual(['Edit']);
    expect(draft.tags.filter((tag) => tag.startsWith('tool:'))).toEqual([]);
  });

  it('a lesson tagged with the language of its file fires on that kind of file', () => {
    const own = session();
    const draft = draftCandidate(
      episodeOf([
        ...own.fail(
          'Edit',
          { file_path: '/repo/docs/CLAUDE.md' },
          'File has not been read yet. Read it first before writing to it.',
        ),
        ...own.ok('Read', { file_path: '/repo/docs/CLAUDE.md' }),
        ...own.ok('Edit', { file_path: '/repo/docs/CLAUDE.md' }),
      ]),
    );
    for (const tag of draft.tags.filter((t) => t.startsWith('lang:')))
      expect(LANGUAGE_EXTENSIONS[tag.slice(5)], tag).toBeDefined();
  });

  it('facts of a failed command', () => {
    const facts = episodeFacts(errorFix());
    expect([facts.tool, facts.shell, facts.key, facts.failedCommand, facts.fixCommand, facts.gist]).toEqual([
      'Bash',
      true,
      'pytest',
      'pytest -x tests',
      'pytest tests/unit',
      'ERROR: file or directory not found: tests',
    ]);
  });

  it.each<[string, () => Episode, object]>([
    [
      'a command: its regex, no path',
      errorFix,
      { tools: ['Bash'], commands: [expect.stringContaining('pytest')], paths: [] },
    ],
    [
      'a file in the project: its relative path',
      () =>
        episodeOf([
          ...s.fail('Edit', { file_path: '/repo/src/a.ts', old_string: 'x' }),
          ...s.ok('Edit', { file_path: '/repo/src/a.ts', old_string: 'y' }),
        ]),
      { tools: ['Edit'], commands: [], paths: ['src/a.ts'] },
    ],
    [
      'a harness refusal: not the file',
      () =>
        episodeOf([
          ...s.fail('Edit', { file_path: '/repo/src/a.ts' }, 'File has not been read yet', 'tool-use-error'),
          ...s.ok('Edit', { file_path: '/repo/src/b.ts' }),
        ]),
      { tools: ['Edit'], commands: [], paths: [] },
    ],
    [
      'a failed edit outside the project: every file of its kind (its error gates it)',
      () =>
        episodeOf([
          ...s.fail('Edit', { file_path: '/home/me/dash/main.py' }, 'String to replace not found in file.'),
          ...s.ok('Edit', { file_path: '/home/me/dash/main.py', old_string: 'y' }),
        ]),
      { tools: ['Edit'], commands: [], paths: ['**/*.py'] },
    ],
    [
      "a user's correction of an edit outside the project: that file",
      () =>
        episodeOf([
          ...s.ok('Edit', { file_path: '/home/me/dash/main.py' }),
          s.user("no, that's the logo, not the icon"),
        ]),
      { tools: ['Edit'], commands: [], paths: ['**/dash/main.py'] },
    ],
  ])('triggers of %s', (_name, episode, triggers) => {
    expect(draftTriggers(episodeFacts(episode()))).toEqual(triggers);
  });

  it('the command trigger fires on the executable with the argument the fix dropped', () => {
    const episode = episodeOf([
      ...s.fail('Bash', bash('pytest tests -x')),
      ...s.ok('Bash', bash('pytest tests')),
    ]);
    const re = new RegExp(draftTriggers(episodeFacts(episode)).commands[0]!);
    expect(
      ['pytest tests -x', 'cd a && pytest b -x', 'pytest tests', 'ruff tests -x'].map((c) => re.test(c)),
    ).toEqual([true, true, false, false]);
  });

  it('a command that looks first is keyed by what it does after the lookup', () => {
    const episode = episodeOf([
      ...s.fail(
        'Bash',
        bash('which gh && gh pr create --fill'),
        'Exit code 1\naborted: you must first push the current branch to a remote',
      ),
      ...s.ok('Bash', bash('gh pr create --fill --head feature')),
    ]);
    const facts = episodeFacts(episode);
    expect(facts.key).toBe('gh pr');
    const re = new RegExp(draftTriggers(facts).commands[0]!);
    expect(['which gh && gh pr create', 'which node'].map((c) => re.test(c))).toEqual([true, false]);
  });

  it.each([
    ['sudo cp .gemini/tmp/x/sudo_prompt /etc/pam.d/sudo && echo ok', 'cp', '/etc/pam.d/sudo'],
    ['pkill -f cosmic-applet-battery', 'pkill', 'cosmic-applet-battery'],
    ['flatpak run dev.edfloreshz.CosmicTweaks &', 'flatpak run', 'dev.edfloreshz.CosmicTweaks'],
    ['cp "/tmp/Claude Code.app/icon.icns" "/tmp/out dir/"', 'cp', '/tmp/out dir/'],
    ['ssh root@10.0.0.1 "opkg remove gl-sdk4-modem"', 'ssh opkg remove', 'gl-sdk4-modem'],
    ['C:\\Windows\\System32\\sc.exe stop w32time', 'sc', 'w32time'],
    ['rm -rf *.log', 'rm', undefined],
    ['git status', 'git status', undefined],
    ['kill -9 1234', 'kill', undefined],
  ])('what %s acts on (key %s) is %s', (command, key, object) => {
    expect(commandObject(command, key)).toBe(object);
  });

  it("a user's correction fires on what the corrected call acted on, not every call of its program", () => {
    const episode = episodeOf([
      ...s.ok('Bash', bash('pkill -f cosmic-applet-battery')),
      s.user('the battery indicator is gone, please restore'),
    ]);
    const facts = episodeFacts(episode);
    const re = new RegExp(draftTriggers(facts).commands[0]!);
    expect(episode.kind).toBe('user-correction');
    expect(
      [
        'pkill -f cosmic-applet-battery',
        'sudo pkill cosmic-applet-battery && sleep 1',
        'pkill -f firefox',
      ].map((c) => re.test(c)),
    ).toEqual([true, true, false]);
  });

  it("a user's correction of a process check fires on the name it looked for, not on every `ps aux`", () => {
    const own = session();
    const [call, result] = own.ok('Bash', bash("ps aux | grep -E 'dig|github' | grep -v grep"), '');
    const episode = correctionEpisode(
      own.user('why do you show a background task is running?'),
      { call, result },
      undefined,
    );
    const re = new RegExp(draftTriggers(episodeFacts(episode)).commands[0]!);
    expect(
      [
        "ps aux | grep -E 'dig|github' | grep -v grep",
        'ps aux | grep -i helium',
        'ps aux | grep -i battery | grep -v grep',
      ].map((c) => re.test(c)),
    ).toEqual([true, false, false]);
  });

  it("a user's correction of a call that names nothing it acts on fires in the folder it ran in", () => {
    const episode = episodeOf([
      ...s.ok('Bash', bash('cd ~/site && git push')),
      s.user('no, the debug files should not have been pushed'),
    ]);
    const re = new RegExp(draftTriggers(episodeFacts(episode)).commands[0]!);
    expect(episode.kind).toBe('user-correction');
    expect(
      ['cd ~/site && git push -u origin main', 'cd ~/other && git push', 'git push'].map((c) => re.test(c)),
    ).toEqual([true, false, false]);
  });

  it('a command line that asks for a state first is keyed by what it does after it', () => {
    const episode = episodeOf([
      ...s.fail(
        'Bash',
        bash('gh auth status && gh ssh-key list'),
        'You are not logged into any GitHub hosts. To log in, run: gh auth login',
      ),
      ...s.ok('Bash', bash('gh auth login --with-token < token.txt && gh ssh-key list')),
    ]);
    const facts = episodeFacts(episode);
    expect(facts.key).toBe('gh ssh-key');
    const re = new RegExp(draftTriggers(facts).commands[0]!);
    expect(
      ['gh auth status && gh ssh-key list', 'which gh && gh auth status'].map((c) => re.test(c)),
    ).toEqual([true, false]);
  });

  it('a whole-command condition sees every line of a script, before the program too', () => {
    const episode = episodeOf([
      ...s.fail(
        'Bash',
        bash('KEY_ID=12740A31\ngpg --quick-add-key $KEY_ID rsa4096'),
        'gpg: "12740A31" is not a fingerprint',
      ),
      ...s.ok('Bash', bash('FPR=5B1BF2353\ngpg --quick-add-key $FPR rsa4096')),
    ]);
    const re = new RegExp(draftTriggers(episodeFacts(episode)).commands[0]!);
    expect(
      [
        'KEY_ID=12740A31\ngpg --quick-add-key $KEY_ID rsa4096',
        'KEY_ID=12740A31 && gpg --list-keys',
        'FPR=5B1BF2353\ngpg --quick-add-key $FPR rsa4096',
        'gpg --quick-add-key 12740A31',
      ].map((c) => re.test(c)),
    ).toEqual([true, true, false, false]);
  });

  it('a command run by a shell wrapper is keyed by what it runs; a later .exe still meets it', () => {
    const episode = episodeOf([
      ...s.fail('Bash', bash('powershell "gpg --import k.asc"'), 'gpg: no valid OpenPGP data found.'),
      ...s.ok('Bash', bash('powershell "gpg --import --armor k.asc"')),
    ]);
    const facts = episodeFacts(episode);
    const re = new RegExp(draftTriggers(facts).commands[0]!);
    expect(facts.key).toBe('powershell gpg');
    expect(
      [
        'powershell "gpg --import x.asc"',
        'powershell \'& "C:\\Program Files\\GnuPG\\bin\\gpg.exe" --import x.asc\'',
        'powershell "Get-Volume"',
        'gpg --import x.asc',
      ].map((c) => re.test(c)),
    ).toEqual([true, true, false, false]);
  });

  it('another command run by the same wrapper is another go at the failure', () => {
    const episode = episodeOf([
      ...s.fail(
        'Bash',
        bash('powershell "Get-WmiObject Win32_Volume"'),
        "Get-WmiObject : The term 'Get-WmiObject' is not recognized",
      ),
      ...s.ok('Bash', bash('powershell "Get-CimInstance Win32_Volume"')),
    ]);
    expect(gist(episode)).toEqual({
      kind: 'error-fix',
      attempts: 1,
      fix: 'powershell "Get-CimInstance Win32_Volume"',
      enabler: undefined,
    });
  });

  it("a shell call whose working folder the harness refused: the tool's use is the lesson, not the command", () => {
    const g = madeUpSession({ agent: 'gemini' });
    const refused = "Directory 'C:\\Users\\me' is not within any of the registered workspace directories.";
    const episode = detect([
      ...g.fail(
        'write_file',
        { file_path: 'C:\\Users\\me\\a.txt' },
        'File path must be within one of the workspace directories: C:\\Windows\\system32',
      ),
      ...g.fail('run_shell_command', { command: 'dir /s /b *repo*', dir_path: 'C:\\Users\\me' }, refused),
      ...g.ok('run_shell_command', { command: 'Get-ChildItem -Path C:\\Users\\me -Filter repo -Recurse' }),
    ])[0]!;
    const facts = episodeFacts(episode);
    expect([
      wordEpisode(episode, facts).summary,
      draftTriggers(facts),
      draftCandidate(episode).errors,
    ]).toEqual([
      `Don't pass \`dir_path\` \`C:\\Users\\me\` to run_shell_command, it is outside the workspace: it failed with "${refused}"`,
      { tools: ['Bash'], commands: [], paths: [] },
      ['is\\s+not\\s+within\\s+any\\s+of\\s+the\\s+registered\\s+workspace\\s+directories'],
    ]);
  });

  it('a program run over ssh by its path still meets its trigger', () => {
    const episode = episodeOf([
      ...s.fail(
        'Bash',
        bash('ssh root@10.0.0.1 "gl_screen --status"'),
        'gl_screen: unrecognized option --status',
      ),
      ...s.ok('Bash', bash('ssh root@10.0.0.1 "gl_screen -p"')),
    ]);
    const re = new RegExp(draftTriggers(episodeFacts(episode)).commands[0]!);
    expect(
      [
        'ssh root@10.0.0.1 "/usr/bin/gl_screen --status"',
        'ssh root@10.0.0.1 "gl_screen --status"',
        'ssh h "gl_screen -p"',
      ].map((c) => re.test(c)),
    ).toEqual([true, true, false]);
  });

  it('a command run over ssh is keyed by the remote command, and its trigger fires through the quotes', () => {
    const episode = episodeOf([
      ...s.fail('Bash', bash('ssh root@10.0.0.1 "opkg install x"'), 'Collected errors: * x'),
      ...s.ok('Bash', bash('ssh root@10.0.0.1 "opkg update && opkg install x"')),
    ]);
    const facts = episodeFacts(episode);
    const re = new RegExp(draftTriggers(facts).commands[0]!);
    expect(facts.key).toBe('ssh opkg install');
    expect(
      [
        'ssh root@10.0.0.1 "opkg install y"',
        "ssh -p 22 admin@host 'opkg install y'",
        'ssh root@10.0.0.1 "ls /etc"',
        'opkg install y',
      ].map((c) => re.test(c)),
    ).toEqual([true, true, false, false]);
  });

  it("the wording of a #lesson block is the agent's own, arranged as advice", () => {
    const e = episodeOf([
      s.say('#lesson\ntool: Bash\ntrigger: npm\nmistake: ran npm\nfix: run pnpm\n#/lesson'),
    ]);
    expect(wordEpisode(e, episodeFacts(e))).toEqual({
      summary: 'When `npm`: run pnpm (ran npm)',
      mistake: 'ran npm',
      remediation: 'run pnpm',
      drop: undefined,
    });
  });

  it('a summary carries what the user said, and is never empty', () => {
    const corrected = episodeOf([
      ...s.fail('Bash', bash('make deploy')),
      s.user('no, stop'),
      ...s.fail('Bash', bash('make deploy')),
      ...s.fail('Bash', bash('make deploy')),
    ]);
    const block = episodeOf([s.say('#lesson\nfix: y\n#/lesson')]);
    const empty = { ...block, block: { ...block.block!, fix: undefined } };
    expect([
      wordEpisode(corrected, episodeFacts(corrected)).summary,
      wordEpisode(empty, episodeFacts(empty)).summary,
    ]).toEqual([
      'Do not retry `make deploy` as it is: it failed 3 times in a row with "Error: it broke" (user: "no, stop")',
      'Lesson captured from a transcript',
    ]);
  });

  it('the hash key is the same for every repeat of a pattern, and tells patterns apart', () => {
    const run = (path: string, line: number, message: string) => {
      const e = episodeOf([
        ...s.fail('Bash', bash(`pytest ${path}`), `E   ${message} at line ${line}`),
        ...s.ok('Bash', bash(`pytest -q ${path}`)),
      ]);
      const facts = episodeFacts(e);
      const { mistake, remediation } = wordEpisode(e, facts);
      return hashKeyOf(e, facts, mistake, remediation);
    };
    expect([
      run('tests/a.py', 3, 'ImportError: no module "x"'),
      run('tests/b.py', 71, 'ImportError: no module "y"'),
      run('tests/a.py', 3, 'ValueError: bad'),
    ]).toEqual([
      'shell|pytest|e importerror no module at line #',
      'shell|pytest|e importerror no module at line #',
      'shell|pytest|e valueerror bad at line #',
    ]);
  });

  it('the body: what failed, the error, what worked', () => {
    const e = errorFix();
    expect(draftBody(e, episodeFacts(e))).toBe(
      [
        'Found by `lore scan` (error-fix, tier 2) in a claude-code session.',
        '',
        'What failed:',
        '',
        '```',
        'pytest -x tests',
        '```',
        '',
        'Error:',
        '',
        '```',
        'Exit code 4\nERROR: file or directory not found: tests',
        '```',
        '',
        'What worked:',
        '',
        '```',
        'pytest tests/unit',
        '```',
        '',
      ].join('\n'),
    );
  });

  it('the whole draft: anchor, trigger, tags, category, severity', () => {
    const draft = draftCandidate(errorFix());
    expect({
      anchor: draft.anchor,
      trigger: draft.trigger === draft.commands[0],
      tags: draft.tags,
      category: draft.category,
      severity: draft.severity,
    }).toEqual({
      anchor: 't.jsonl:1',
      trigger: true,
      tags: ['lang:python', 'tool:pytest', 'topic:paths', 'env:claude-code', 'severity:medium'],
      category: 'technical',
      severity: 'medium',
    });
  });
});

describe('draft classification', () => {
  const s = session();
  const failing = (
    text: string,
    failure: FailureSignal = 'exit-code',
    kind: Episode['kind'] = 'error-fix',
  ) => {
    const [call, result] = s.fail('Bash', bash('x'), text, failure);
    return { ...episodeFromPending(openFailure(call, result, targetOf(call), 1), kind) };
  };

  it.each([
    ['y/n?', 'interactive-prompt', 'interactive-prompt'],
    ['slow', 'timeout', 'timeout'],
    ['<tool_use_error>bad</tool_use_error>', 'tool-use-error', 'tool-usage'],
    ['EACCES: permission denied', 'exit-code', 'permissions'],
    ['bash: rg: command not found', 'exit-code', 'missing-command'],
    ["Error: Cannot find module 'x'", 'exit-code', 'dependencies'],
    ['ENOENT: no such file', 'exit-code', 'paths'],
    ['SyntaxError: Unexpected token', 'exit-code', 'syntax'],
    ['expected 1 to be 2', 'exit-code', undefined],
  ] as const)('the topic of %j (%s) is %s', (text, failure, topic) => {
    expect(topicOf(failing(text, failure), text)).toBe(topic);
  });

  it.each([
    [{ dataLoss: true, hang: true }, 'error-fix', 'high'],
    [{ hang: true }, 'self-diagnosis', 'medium'],
    [{ userCorrection: true }, 'self-diagnosis', 'medium'],
    [{}, 'self-diagnosis', 'low'],
    [{}, 'error-fix', 'medium'],
  ] as const)('severity with %j on %s is %s', (signals, kind, severity) => {
    const e = failing('x', 'exit-code', kind);
    expect(severityOf({ ...e, signals: { ...e.signals, ...signals } })).toBe(severity);
  });

  it.each([
    ['error-fix', 'missing-command', 'tooling'],
    ['user-correction', 'tool-usage', 'tooling'],
    ['user-correction', 'user-correction', 'collaboration'],
    ['error-fix', 'paths', 'technical'],
    ['retry-loop', undefined, 'technical'],
  ] as const)('%s about %s is %s', (kind, topic, category) => {
    expect(categoryOf(kind, topic)).toBe(category);
  });

  it.each([
    ['cargo', undefined, 'rust'],
    ['make', '/r/main.go', 'go'],
    [undefined, '/r/App.TSX', 'typescript'],
    [undefined, '/r/Makefile', undefined],
  ])('the language of %s on %s is %s', (exe, path, lang) => {
    expect(languageOf(exe, path)).toBe(lang);
  });

  // The agent's own tags are kept as written (`lang:go`, not `lang-go`); the ones the schema
  // refuses (a space, a comma) are dropped.
  it('tags: each once, valid, never empty', () => {
    const e = failing('x');
    const tags = ['Docker Compose', 'docker-compose', 'lang:go', ','];
    const block = { tool: 'Bash', trigger: undefined, mistake: 'm', fix: undefined, tags };
    expect(
      draftTags(
        { ...e, agent: 'codex', block },
        {
          key: 'docker compose',
          tool: 'Bash',
          failedCommand: 'pwsh -c x',
          path: undefined,
          topic: 'paths',
          severity: 'low',
        },
      ),
    ).toEqual([
      'tool:docker',
      'topic:paths',
      'env:codex',
      'env:windows',
      'severity:low',
      'docker-compose',
      'lang:go',
    ]);
  });

  it.each([
    ['/repo/src/a.ts', '/repo', 'src/a.ts'],
    ['C:\\repo\\src\\a.ts', 'C:\\repo\\', 'src/a.ts'],
    ['/elsewhere/a.PY', '/repo', '**/*.py'],
    ['/repo/[id]/page.tsx', '/repo', '**/*.tsx'],
    ['/repo/Makefile', undefined, undefined],
    // A relative path is given from the project.
    ['src/a.ts', '/repo', 'src/a.ts'],
    ['./docs\\guide.md', undefined, 'docs/guide.md'],
    ['../other/a.ts', '/repo', '**/*.ts'],
    ['~/notes.md', '/repo', '**/*.md'],
  ])('the glob of %s in %s is %s', (path, project, glob) => {
    expect(pathGlob(path, project)).toBe(glob);
  });
});

import { describe, expect, it } from 'vitest';
import { changedByUser, ownsUp, rerunByUser } from '../../../src/core/capture/acknowledged-correction.js';
import type { ToolCall, TranscriptEvent } from '../../../src/core/capture/events.js';
import { detectAll, madeUpSession } from '../../helpers/capture-events.js';

/** The episodes a fresh detector finds in `events`: kind, evidence lines, the user's words. */
function found(events: TranscriptEvent[]) {
  const episodes = detectAll(events);
  return episodes.map((e) => ({ kind: e.kind, lines: e.evidence.map((ref) => ref.line), user: e.userText }));
}

describe('a reply that owns up to a mistake', () => {
  it.each<[string, boolean]>([
    ["You're right - the file is owned by root.", true],
    ['**You are absolutely right.** I used the wrong folder.', true],
    ['My apologies, that flag does not exist.', true],
    ['I apologize for the confusion. I stopped too early.', true],
    ['Sorry, I misread the output.', true],
    ['Good catch! The path was wrong.', true],
    ['My mistake: the service is called sshd.', true],
    ['I misunderstood what you wanted.', true],
    ['Looks like you already have SSH keys after all! Select the first one.', true],
    // Agreement deep in the reply, or a plan, admits nothing.
    ["Let me check. If you're right, the key is there.", false],
    ['Here is the plan. After all steps are done, run the tests.', false],
    ['Done. The build passes.', false],
  ])('%s -> %s', (reply, expected) => {
    expect(ownsUp(reply)).toBe(expected);
  });
});

describe("the user's terminal output of the agent's own command", () => {
  const bash = (command: string) => ({ tool: 'Bash', input: { command } }) as unknown as ToolCall;
  const calls = [bash('winget install --id GitHub.cli'), bash('ssh-add -l 2>&1')].map((call) => ({ call }));
  it.each<[string, string, string | undefined]>([
    ['a plain prompt', '~  ssh-add -l\n256 SHA256:abc key (ED25519)', 'ssh-add -l 2>&1'],
    ['a powerline prompt', '\ue0b6~ \ue0b0 ssh-add -l\n256 SHA256:abc key (ED25519)', 'ssh-add -l 2>&1'],
    ['user@host', 'me@box:~$ ssh-add -l\nThe agent has no identities.', 'ssh-add -l 2>&1'],
    ['PowerShell', 'PS C:\\Users\\me> ssh-add -l\n256 SHA256:abc', 'ssh-add -l 2>&1'],
    ['a program the agent never ran', '~  gh auth login\n? Where do you use GitHub?', undefined],
    ['a prompt line and no output', '~  ssh-add -l', undefined],
    ['prose', 'ssh-add -l works in my terminal\nit lists three keys', undefined],
  ])('%s', (_name, text, expected) => {
    expect(rerunByUser(text, calls)?.call.input.command).toBe(expected);
  });
});

describe("the agent's command given back by the user under another program", () => {
  const bash = (command: string) => ({ tool: 'Bash', input: { command } }) as unknown as ToolCall;
  const calls = [bash('pacman -S glow'), bash('glow -p /home/me/export.md')].map((call) => ({ call }));
  it.each<[string, string | undefined]>([
    ['alacritty -e glow -p ~/export.md &', 'glow -p /home/me/export.md'],
    ['sudo glow -p /home/me/export.md', 'glow -p /home/me/export.md'],
    // The same program with more words is the next step; a quote of the call, a question or
    // prose over lines is no command given back.
    ['glow -p /home/me/export.md -w 120', undefined],
    ['glow -p', undefined],
    ['can you run glow -p in alacritty?', undefined],
    ['alacritty -e glow -p ~/export.md\nplease', undefined],
    ['alacritty -e htop', undefined],
  ])('%s', (text, expected) => {
    expect(changedByUser(text, calls)?.call.input.command).toBe(expected);
  });
});

describe('corrections the reply or the pasted output show', () => {
  it.each<[string, () => TranscriptEvent[], ReturnType<typeof found>]>([
    [
      'words no pattern reads, owned up to: a correction of the newest call, a lookup too',
      () => {
        const s = madeUpSession();
        return [
          ...s.ok('Bash', { command: 'dir "%USERPROFILE%\\.ssh" 2>nul || echo none' }, 'none'),
          s.say('You have no SSH keys.'),
          s.user('~  gh auth login\n? Upload your SSH public key? C:\\Users\\me\\.ssh\\id_ed25519.pub'),
          s.say('Looks like you already have SSH keys after all!'),
        ];
      },
      [
        {
          kind: 'user-correction',
          lines: [1, 4],
          user: '~  gh auth login\n? Upload your SSH public key? C:\\Users\\me\\.ssh\\id_ed25519.pub',
        },
      ],
    ],
    [
      'the same words, not owned up to: nothing',
      () => {
        const s = madeUpSession();
        return [
          ...s.ok('Bash', { command: 'ls ~/.ssh' }, 'id_ed25519.pub'),
          s.user('~  gh auth login\n? Upload your SSH public key?'),
          s.say('Pick the ed25519 key.'),
        ];
      },
      [],
    ],
    [
      'owned up to only after another reply: nothing (the first reply decides)',
      () => {
        const s = madeUpSession();
        return [
          ...s.ok('Bash', { command: 'systemctl restart nginx' }),
          s.user('the site is down'),
          s.say('Let me look.'),
          s.say("You're right, the config is broken."),
        ];
      },
      [],
    ],
    [
      "the user's own run of a failed command joins the failure, which no fix closed",
      () => {
        const s = madeUpSession();
        return [
          ...s.fail(
            'Bash',
            { command: 'ssh-add -l 2>&1' },
            'Could not open a connection to your authentication agent.',
          ),
          s.say('The SSH agent is not connecting yet.'),
          s.user('~  ssh-add -l\n256 SHA256:abc key (ED25519)'),
        ];
      },
      [{ kind: 'user-correction', lines: [1, 2], user: '~  ssh-add -l\n256 SHA256:abc key (ED25519)' }],
    ],
    [
      'a command given back under another program: a correction of the call it changes',
      () => {
        const s = madeUpSession();
        return [
          ...s.ok('Bash', { command: 'glow -p /home/me/export.md' }, '# Export'),
          s.say("You're now viewing it in glow's pager."),
          s.user('alacritty -e glow -p ~/export.md &'),
          ...s.ok('Bash', { command: 'alacritty -e glow -p ~/export.md &' }),
        ];
      },
      [{ kind: 'user-correction', lines: [1, 4], user: 'alacritty -e glow -p ~/export.md &' }],
    ],
  ])('%s', (_name, events, expected) => {
    expect(found(events())).toEqual(expected);
  });
});

import { describe, expect, it } from 'vitest';
import { admittedFailure } from '../../../src/core/capture/admitted-failure.js';
import type { ToolCall, TranscriptEvent } from '../../../src/core/capture/events.js';
import { detectAll, madeUpSession } from '../../helpers/capture-events.js';

function found(events: TranscriptEvent[]) {
  const episodes = detectAll(events);
  return episodes.map((e) => ({
    kind: e.kind,
    lines: e.evidence.map((ref) => ref.line),
    error: e.failures[0]?.result.text,
  }));
}

const remote = "ssh root@192.168.8.1 'du -h -d 2 /overlay | sort -rh | head -n 20' > usage.txt";

describe('the sentence that says a call did not work', () => {
  const bash = (command: string) => ({ tool: 'Bash', input: { command } }) as unknown as ToolCall;
  const edit = { tool: 'Edit', input: { file_path: '/etc/blocky/config.yml' } } as unknown as ToolCall;
  it.each<[string, ToolCall, string | undefined]>([
    [
      "It seems `sort` on the router (busybox) doesn't support the `-h` flag. I will fetch the raw data.",
      bash(remote),
      "It seems `sort` on the router (busybox) doesn't support the `-h` flag.",
    ],
    [
      'The `sed` substitution had no effect: the file is unchanged.',
      bash("sed -i 's/a/b/' x.conf"),
      'The `sed` substitution had no effect:',
    ],
    ['My edit to `config.yml` did not apply.', edit, 'My edit to `config.yml` did not apply.'],
    // Naming nothing of the call, or saying nothing failed, or too late in the reply: none.
    ['That failed, let me try again.', bash(remote), undefined],
    ['`sort` worked and the output is in usage.txt.', bash(remote), undefined],
    ['The `rsync` step failed earlier.', bash(remote), undefined],
    [
      'Here are the results. The disk is 40% full. Most space is in /overlay. `sort` does not support `-h` on BusyBox.',
      bash(remote),
      undefined,
    ],
  ])('%s', (reply, call, expected) => {
    expect(admittedFailure(reply, call)).toBe(expected);
  });
});

describe('a success the agent says did not work', () => {
  it.each<[string, () => TranscriptEvent[], ReturnType<typeof found>]>([
    [
      'admitted, then a changed command works: error-fix, the sentence as the error',
      () => {
        const s = madeUpSession({ agent: 'gemini' });
        return [
          ...s.ok('run_shell_command', { command: remote }),
          s.say("It seems `sort` on the router doesn't support the `-h` flag."),
          ...s.ok('run_shell_command', { command: "ssh root@192.168.8.1 'du -k -d 3 /overlay' > raw.txt" }),
        ];
      },
      [
        {
          kind: 'error-fix',
          lines: [1, 2, 4, 5],
          error: "It seems `sort` on the router doesn't support the `-h` flag.",
        },
      ],
    ],
    [
      'admitted and never fixed: nothing',
      () => {
        const s = madeUpSession({ agent: 'gemini' });
        return [
          ...s.ok('run_shell_command', { command: remote }),
          s.say("It seems `sort` on the router doesn't support the `-h` flag."),
        ];
      },
      [],
    ],
    [
      'a lookup whose answer is "not supported" is an answer',
      () => {
        const s = madeUpSession();
        return [
          ...s.ok('Bash', { command: 'sort --help' }, 'usage: sort [-nr]'),
          s.say("`sort` here doesn't support `-h`, so I'll use `-n`."),
          ...s.ok('Bash', { command: 'du -k /overlay | sort -n' }),
        ];
      },
      [],
    ],
    [
      'said after another call came between: nothing',
      () => {
        const s = madeUpSession();
        return [
          ...s.ok('Bash', { command: remote }),
          ...s.ok('Bash', { command: 'cat usage.txt' }),
          ...s.ok('Bash', { command: 'wc -l usage.txt' }),
          s.say("`sort` doesn't support `-h` there."),
          ...s.ok('Bash', { command: "ssh root@192.168.8.1 'du -k -d 3 /overlay'" }),
        ];
      },
      [],
    ],
  ])('%s', (_name, events, expected) => {
    expect(found(events())).toEqual(expected);
  });
});

import { describe, expect, it } from 'vitest';
import { askedNarrower, printedNothing } from '../../../src/core/capture/empty-lookup.js';
import type { ToolCall, ToolResult, TranscriptEvent } from '../../../src/core/capture/events.js';
import { detectAll, madeUpSession } from '../../helpers/capture-events.js';

function found(events: TranscriptEvent[]) {
  const episodes = detectAll(events);
  return episodes.map((e) => ({
    kind: e.kind,
    lines: e.evidence.map((ref) => ref.line),
    fix: e.fix?.input.command,
  }));
}

const bash = (command: string) => ({ tool: 'Bash', input: { command } }) as unknown as ToolCall;
const all = "pacman -Ss hunspell aspell sonnet | grep -E 'hunspell-|aspell-' | head -n 20";
const split = 'pacman -Ss hunspell | head -n 10 && pacman -Ss aspell | head -n 10';

describe('a search asked again narrower', () => {
  it.each<[string, string, boolean]>([
    ['each term on its own', split, true],
    ['one of the terms', 'pacman -Ss hunspell', true],
    ['a term it was not given', 'pacman -Ss hunspell-en', false],
    ['another program', 'yay -Ss hunspell', false],
    ['the same command again', all, false],
    ['something that is not a search', 'pacman -S hunspell', false],
  ])('%s', (_name, later, expected) => {
    expect(askedNarrower(bash(all), bash(later))).toBe(expected);
  });

  it.each<[string, boolean]>([
    ['', true],
    ['Command: x\nDirectory: (root)\nOutput: (empty)\nError: (none)\nExit Code: 0', true],
    ['extra/hunspell 1.7.2-2', false],
  ])('printed nothing: %j -> %s', (text, expected) => {
    expect(printedNothing({ text } as ToolResult)).toBe(expected);
  });
});

describe('a search that printed nothing, then found it asked narrower', () => {
  it.each<[string, () => TranscriptEvent[], ReturnType<typeof found>]>([
    [
      'the empty search is the failure, the narrower one its fix',
      () => {
        const s = madeUpSession({ agent: 'gemini' });
        return [
          ...s.ok('run_shell_command', { command: all }, 'Output: (empty)'),
          s.say('I will perform a broader search.'),
          ...s.ok('run_shell_command', { command: split }, 'extra/hunspell 1.7.2-2\nextra/aspell 0.60'),
        ];
      },
      [{ kind: 'error-fix', lines: [1, 2, 4, 5], fix: split }],
    ],
    [
      'the narrower search finds nothing either: nothing',
      () => {
        const s = madeUpSession({ agent: 'gemini' });
        return [
          ...s.ok('run_shell_command', { command: all }, 'Output: (empty)'),
          ...s.ok('run_shell_command', { command: split }, 'Output: (empty)'),
        ];
      },
      [],
    ],
    [
      'a search that found something, then a narrower one: nothing',
      () => {
        const s = madeUpSession({ agent: 'gemini' });
        return [
          ...s.ok('run_shell_command', { command: all }, 'extra/hunspell 1.7.2-2'),
          ...s.ok('run_shell_command', { command: split }, 'extra/hunspell 1.7.2-2\nextra/aspell 0.60'),
        ];
      },
      [],
    ],
  ])('%s', (_name, events, expected) => {
    expect(found(events())).toEqual(expected);
  });
});

import { describe, expect, it } from 'vitest';
import { sideBySide, wrapText } from '../../src/cli/candidate-view.js';

describe('wrapText', () => {
  it.each([
    ['short text stays on one line', 'run git pull first', 20, ['run git pull first']],
    [
      'breaks between words',
      'run git pull --rebase before you push',
      16,
      ['run git pull', '--rebase before', 'you push'],
    ],
    [
      'a word longer than the width gets its own line',
      'see https://example.com/a/very/long/path now',
      10,
      ['see', 'https://example.com/a/very/long/path', 'now'],
    ],
    ['whitespace runs and newlines collapse', '  a\n\n b  ', 10, ['a b']],
    ['nothing', '', 10, []],
  ])('%s', (_name, text, width, lines) => {
    expect(wrapText(text, width)).toEqual(lines);
  });
});

describe('sideBySide', () => {
  it('wraps each column to its half, indents continuation lines, and pads the shorter column', () => {
    const rows = sideBySide(
      [
        ['left', ''],
        ['summary', 'git push failed'],
      ],
      [
        ['right', ''],
        ['summary', 'Run git pull --rebase before git push'],
        ['action', 'Pull'],
      ],
      43,
    );
    expect(rows).toEqual([
      'left                 │ right',
      'summary: git push    │ summary: Run git',
      '  failed             │   pull --rebase',
      '                     │   before git push',
      '                     │ action: Pull',
    ]);
  });
});

// A guard that blocks its own fix: which fixes the manifest keeps, and which calls follow them.
import { describe, expect, it } from 'vitest';
import { blockedFixes, followsFix } from '../../src/core/inject/guard-fix.js';

describe('blockedFixes: the fixes a guard names that its own commands match', () => {
  const cases: [string, Parameters<typeof blockedFixes>[0], string[]][] = [
    [
      'remediation spans the guard matches',
      {
        summary: 'plain git stash drops untracked files',
        remediation: 'run `git stash -u` or `git  stash --include-untracked`',
        commands: ['git stash( |$)'],
      },
      ['git stash -u', 'git stash --include-untracked'],
    ],
    [
      'a span the guard does not match is never denied anyway: left out',
      {
        summary: 'no force push',
        remediation: 'use `git push` with `--force-with-lease`',
        commands: ['git push .*--force(?!-)'],
      },
      [],
    ],
    [
      'COIA action counts as the fix',
      { summary: 'x', action: 'run `npm publish --dry-run` first', commands: ['npm publish'] },
      ['npm publish --dry-run'],
    ],
    [
      'a summary that starts with Run or Use: its first span',
      {
        summary: 'Use `git stash -u`: plain `git stash` drops untracked files',
        commands: ['git stash( |$)'],
      },
      ['git stash -u'],
    ],
    [
      'any other summary: no span taken (its first span may be the bad command)',
      { summary: 'Never run `git stash`: use `git stash -u`', commands: ['git stash( |$)'] },
      [],
    ],
    ['no commands: nothing to let through', { summary: 'Use `make clean`', commands: [] }, []],
    ['a broken regex matches nothing', { summary: 'x', remediation: '`a(`', commands: ['a('] }, []],
    [
      'duplicates once; multi-line and over-long spans are not commands',
      {
        summary: 'x',
        remediation: '`rm -i a` then `rm -i a` and `' + 'rm '.repeat(80) + '`',
        commands: ['rm '],
      },
      ['rm -i a'],
    ],
  ];
  it.each(cases)('%s', (_name, lesson, fixes) => {
    expect(blockedFixes(lesson)).toEqual(fixes);
  });
});

describe('followsFix: a call that follows the fix, part by part', () => {
  const commands = ['git stash( |$)'];
  const fixes = ['git stash -u', 'git stash --include-untracked'];
  const cases: [string, boolean][] = [
    ['git stash -u', true],
    ['  git   stash  -u  ', true],
    // exactly the fix: more arguments can undo it (rm -rf build/cache/old build)
    ['git stash -u -m wip', false],
    ['git stash --include-untracked', true],
    ['git stash -u && git pull', true],
    ['cd repo; git stash -u', true],
    ['git stash', false],
    ['git stash -um wip', false],
    ['git stash push', false],
    ['git stash -u && git stash drop', false],
    ['git stash | cat', false],
    ['echo git stash -u; git stash', false],
  ];
  it.each(cases)('%s -> %s', (command, follows) => {
    expect(followsFix(command, commands, fixes)).toBe(follows);
  });

  it('a fix with more arguments is not the fix', () => {
    expect(followsFix('rm -rf build/cache/old build', ['rm -rf build'], ['rm -rf build/cache/old'])).toBe(
      false,
    );
    expect(followsFix('rm -rf build/cache/old', ['rm -rf build'], ['rm -rf build/cache/old'])).toBe(true);
  });

  it('no fixes: nothing follows', () => {
    expect(followsFix('git stash -u', commands, [])).toBe(false);
  });

  it('a regex that spans two parts: the whole call must start with a fix', () => {
    const spanning = ['cd \\S+ && make deploy'];
    expect(followsFix('cd app && make deploy', spanning, ['cd app && make deploy DRY=1'])).toBe(false);
    expect(followsFix('cd app && make deploy DRY=1 X=2', spanning, ['cd app && make deploy DRY=1'])).toBe(
      false,
    );
    expect(followsFix('cd app && make deploy DRY=1', spanning, ['cd app && make deploy DRY=1'])).toBe(true);
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { requiredRegexClauses, requiredRegexLiterals } from '../../src/core/match/regex-literals.js';
import { findBacktrackingRisk } from '../../src/core/match/regex-safety.js';

/** Random regular expressions over a small alphabet. */
const atom = fc.constantFrom('a', 'b', 'c', '-', ' ', 'ab', '[ab]', '.', '\\s', '\\b', '^', '$', '\\.');
const regex: fc.Arbitrary<string> = fc.letrec<{ re: string }>((tie) => ({
  re: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    atom,
    fc.tuple(tie('re'), tie('re')).map(([a, b]) => `${a}${b}`),
    fc.tuple(tie('re'), tie('re')).map(([a, b]) => `(?:${a}|${b})`),
    fc.tuple(tie('re'), fc.constantFrom('*', '+', '?', '{2}', '{1,3}', '+?')).map(([a, q]) => `(?:${a})${q}`),
    tie('re').map((a) => `(${a})`),
    tie('re').map((a) => `(?!${a})`),
    tie('re').map((a) => `(?=${a})`),
  ),
})).re;

describe('requiredRegexLiterals', () => {
  it.each([
    ['^pytest\\b', ['pytest']],
    ['(^|\\s)pytest\\b(?!.*no:cacheprovider)', ['pytest']],
    ['\\bpython3?\\s+-m\\s+pytest\\b', ['python']],
    ['git\\s+stash', ['stash']],
    ['rm\\s+-rf\\s+build(?!/)', ['build']],
    ['docker (compose|run)', ['docker ']],
    ['(npm|yarn) install', [' install']],
    ['(npm|yarn)', ['npm', 'yarn']],
    ['x{2}y', ['xxy']],
    ['[abc]def', ['def']],
    ['kubectl\\.apply', ['kubectl.apply']],
    ['\\x41BC', ['ABC']],
  ])('%s requires one of %j', (source, literals) => {
    expect(requiredRegexLiterals(source)).toEqual(literals);
  });

  it.each([['a|'], ['.*'], ['[a-z]+'], ['\\d+'], ['a?b?'], ['(']])('%s has no usable literal', (source) => {
    expect(requiredRegexLiterals(source)).toEqual([]);
  });

  // The property the manifest relies on: a lesson whose regex matches is never filed away from
  // the input, i.e. some required literal occurs in every string the regex matches.

  it('never drops a lesson that matches: every match contains a required literal', () => {
    fc.assert(
      fc.property(
        regex,
        fc.string({ unit: fc.constantFrom('a', 'b', 'c', '-', ' ', '.', 'x'), maxLength: 12 }),
        (source, text) => {
          const literals = requiredRegexLiterals(source);
          fc.pre(literals.length > 0 && new RegExp(source).test(text));
          expect(literals.some((literal) => text.includes(literal))).toBe(true);
        },
      ),
      { numRuns: 3000 },
    );
  });
});

describe('requiredRegexClauses', () => {
  it.each([
    ['\\bterraform\\s+apply\\b(?!.*\\.tfplan)', [['terraform'], ['apply']]],
    ['\\bterraform\\s+(apply|destroy)\\b', [['terraform'], ['apply', 'destroy']]],
    ['\\bgit\\s+stash\\s+(push|save)?', [['stash'], ['git']]],
    ['rm\\s+-rf\\s+build', [['build'], ['-rf'], ['rm']]],
    ['a\\s+b\\s+c', []],
    ['^pytest\\b', [['\u0002pytest']]],
    ['^\\s*pytest\\b', [['pytest']]],
    ['^npm\\s+(i|install)\\b', [['\u0002npm'], ['i', 'install']]],
    ['(npm|yarn) install (npm|yarn)', [[' install '], ['npm', 'yarn']]],
    ['x\\s+ab\\s+cd\\s+efg\\s+hijk', [['hijk'], ['efg'], ['ab'], ['cd']]],
    ['\\brm\\s+-rf?\\s+/', [['rm'], ['-r'], ['/']]],
  ])('%s requires %j', (source, clauses) => {
    expect(requiredRegexClauses(source)).toEqual(clauses);
  });

  // What the manifest relies on: every string the regex matches satisfies every clause.
  it('every match contains a literal of each clause', () => {
    fc.assert(
      fc.property(
        regex,
        fc.string({ unit: fc.constantFrom('a', 'b', 'c', '-', ' ', '.', 'x'), maxLength: 12 }),
        (source, text) => {
          const clauses = requiredRegexClauses(source, 1, 8);
          fc.pre(clauses.length > 0 && new RegExp(source).test(text));
          const holds = (literal: string) =>
            literal.startsWith('\u0002') ? text.startsWith(literal.slice(1)) : text.includes(literal);
          for (const clause of clauses) expect(clause.some(holds)).toBe(true);
        },
      ),
      { numRuns: 3000 },
    );
  });
});

describe('findBacktrackingRisk', () => {
  it.each([
    ['(a+)+', 'nested quantifiers'],
    ['(a+)+$', 'nested quantifiers'],
    ['(\\w+\\s?)*$', 'nested quantifiers'],
    ['(x+x+)+y', 'nested quantifiers'],
    ['(.*)*', 'empty string'],
    ['(a*)*b', 'empty string'],
    ['(a|ab)*c', 'alternatives'],
    ['(\\w|\\d)+$', 'alternatives'],
    ['^(a|a)+$', 'alternatives'],
    ['(?:x|(?:a|a))*$', 'alternatives'],
    ['(?:x|(?:y|a)|a)*$', 'alternatives'],
    ['(?:x(?:a|a))*$', 'alternatives'],
    ['(?:x(?:ab|(?:ab)))+$', 'alternatives'],
    ['.*.*', 'loops in a row'],
    ['\\S+.*\\.py', 'loops in a row'],
    ['git\\s+.*\\s+.*--force', 'loops in a row'],
    ['(?:\\w+)[a-z0-9]{3,}x', 'loops in a row'],
    ['npm (?:\\s+.*)\\s*\\s+test', 'loops in a row'],
    ['git (.* ){8}--force', 'loops in a row'],
    ['git .* .* .* --force', 'loops in a row'],
    ['(?:.* )+X', 'loops in a row'],
    ['.* .*X', 'loops in a row'],
    ['.*\\s+--no-verify', 'loops in a row'],
    ['(a+){16}$', 'loops in a row'],
  ])('refuses %s (%s)', (source, why) => {
    expect(findBacktrackingRisk(source)).toContain(why);
  });

  it.each([
    ['(?:K|k)+$', 'alternatives'],
    ['(?:[A-Z]|x)+$', 'alternatives'],
    ['(?:é|É)*$', 'alternatives'],
    ['[A-Z]+[a-z]*Error', 'loops in a row'],
  ])('refuses %s when it runs case-insensitively, as errors do (%s)', (source, why) => {
    expect(findBacktrackingRisk(source)).toBeUndefined();
    expect(findBacktrackingRisk(source, 'i')).toContain(why);
  });

  it.each([
    ['(?:x|(?:a|a))*$', `${'a'.repeat(21)}!`],
    ['(?:x(?:a|a))*$', `${'xa'.repeat(20)}!`],
    ['(?:K|k)+$', `${'k'.repeat(21)}!`, 'i'],
    ['.*.*X', 'a'.repeat(600)],
    ['\\S+.*X', 'a'.repeat(600)],
    ['git\\s+.*\\s+.*--force', `git${' '.repeat(150)}`],
    ['git (.* ){8}--force', `git add --force ${'f.js '.repeat(18)}`],
    ['.* .*X', `x${' a'.repeat(150)}`],
    ['.*\\s+--no-verify', `git commit ${'-m x '.repeat(3000)}`],
  ])('what the widened rules refuse is really slow: %s', (source, evil, flags = '') => {
    expect(findBacktrackingRisk(source, flags)).toBeDefined();
    const started = performance.now();
    new RegExp(source, flags).test(evil);
    expect(performance.now() - started).toBeGreaterThan(5);
  });

  it.each([
    ['^pytest\\b'],
    ['(^|\\s)pytest\\b(?!.*no:cacheprovider)'],
    ['(\\s+-\\w+)*'],
    ['(?:-v|--verbose)*'],
    ['\\bgit\\s+(push|pull)\\b'],
    ['rm\\s+-rf\\s+\\S+'],
    ['a{2,5}'],
    ['a.*b.*c'],
    ['git\\s+.*X'],
    ['git .* --force'],
    ['x.*y.*z.*w'],
    ['(?:\\S+\\s+)*?x'],
    ['^\\s+.*X'],
    ['git\\s+.*push'],
    ['\\w+\\s*=\\s*\\w+'],
    ['[A-Z]+[a-z]*Error'],
    ['(?:\\s+(?:-v|--verbose|-x))*'],
    ['(?:ab|ac)+$'],
    ['(?:[a-z]|X)+$'],
  ])('accepts %s', (source) => {
    expect(findBacktrackingRisk(source)).toBeUndefined();
  });

  it('what it refuses is really slow, what it accepts is fast', () => {
    const evil = `${'a'.repeat(24)}!`;
    const started = performance.now();
    new RegExp('(\\s+-\\w+)*$').test(` -${'a'.repeat(5000)}!`);
    // two loops that share only spacing, on a long command of words
    new RegExp('git\\s+.*X').test(`git ${'word '.repeat(3000)}`);
    expect(performance.now() - started).toBeLessThan(200);
    expect(findBacktrackingRisk('(a+)+$')).toBeDefined();
    const slow = performance.now();
    new RegExp('(a+)+$').test(evil);
    expect(performance.now() - slow).toBeGreaterThan(5);
  });
});

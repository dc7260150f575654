// The hook's name and id checks and its shell-command split are loops over character codes (see
// src/core/inject/char-class.ts: a regex costs a fresh process tens of microseconds to compile);
// they must answer exactly as the regexes they replaced, on any text.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isRolloutPath } from '../../src/adapters/codex/hook-adapter.js';
import { commandParts, commandPrograms, shellWords } from '../../src/core/inject/create-matcher.js';
import { isGenerationName, isIndexFile } from '../../src/store/hook-state/manifest-files.js';
import { isClaimId } from '../../src/store/hook-state/session-state.js';

/** Texts of the characters these checks treat apart, and fragments that make a match likely. */
const text = (pieces: string[]) =>
  fc.array(fc.constantFrom(...pieces), { maxLength: 24 }).map((parts) => parts.join(''));
const anyText = fc.oneof(fc.string({ maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 40 }));
const runs = { numRuns: 3000 };

describe('checks without regexes agree with the regexes', () => {
  it('isClaimId: /^[0-9a-z][0-9a-z-]{0,63}$/', () => {
    const ids = fc.oneof(
      anyText,
      text(['a', 'z', '0', '9', '-', 'A', '_', ' ', 'é']),
      fc.stringMatching(/^[0-9a-z-]{60,70}$/),
    );
    fc.assert(
      fc.property(ids, (id) => {
        expect(isClaimId(id)).toBe(/^[0-9a-z][0-9a-z-]{0,63}$/.test(id));
      }),
      runs,
    );
  });

  it('isGenerationName: /^[\\w-]+$/', () => {
    fc.assert(
      fc.property(fc.oneof(anyText, text(['a', 'Z', '0', '_', '-', '.', '/', ' '])), (name) => {
        expect(isGenerationName(name)).toBe(/^[\w-]+$/.test(name));
      }),
      runs,
    );
  });

  it('isIndexFile: /^literals-([cp])(-[0-9a-z]+)?\\.lix$/ with the domain its group', () => {
    const names = fc.oneof(
      anyText,
      text(['literals-', 'c', 'p', 'x', '-', 'a', '0', 'A', '.lix', '.', 'lix']),
    );
    fc.assert(
      fc.property(names, fc.constantFrom('c', 'p', 'x', ''), (name, domain) => {
        expect(isIndexFile(domain, name)).toBe(
          /^literals-([cp])(-[0-9a-z]+)?\.lix$/.exec(name)?.[1] === domain,
        );
      }),
      runs,
    );
    expect(isIndexFile('c', 42)).toBe(false);
  });

  it('isRolloutPath: /\\/rollout-[^/]*\\.jsonl(\\.zst)?$/', () => {
    const paths = fc.oneof(
      anyText,
      text(['/', 'rollout-', 'rollout', '-', 'x', '.jsonl', '.zst', '.', 'jsonl']),
    );
    fc.assert(
      fc.property(paths, (path) => {
        expect(isRolloutPath(path)).toBe(/\/rollout-[^/]*\.jsonl(\.zst)?$/.test(path));
      }),
      runs,
    );
  });

  const shell = fc.oneof(
    anyText,
    text([
      '&',
      '|',
      ';',
      '\n',
      '(',
      ')',
      ' ',
      '\t',
      '\u00a0',
      'a',
      'X=1',
      '_Y=',
      'sudo',
      'npx',
      '-v',
      'python',
      '-m',
      'run',
      'pytest',
      '/usr/bin/git',
      '=',
      '9',
    ]),
  );

  it('commandParts: split(/&&|\\|\\||[;|&\\n()]/); shellWords: trim().split(/\\s+/)', () => {
    fc.assert(
      fc.property(shell, (command) => {
        expect(commandParts(command)).toEqual(command.split(/&&|\|\||[;|&\n()]/));
        expect(shellWords(command)).toEqual(command.trim().split(/\s+/));
      }),
      runs,
    );
  });

  it('commandPrograms: the programs the regex version found', () => {
    const reference = (command: string) => {
      const out = new Set<string>();
      for (const part of command.split(/&&|\|\||[;|&\n()]/)) {
        const words = part.trim().split(/\s+/);
        let i = 0;
        while (
          i < words.length &&
          /^([A-Za-z_][A-Za-z0-9_]*=\S*|sudo|env|exec|time|nohup|command|npx|uvx|-\S*)$/.test(words[i] ?? '')
        )
          i += 1;
        const program = words[i];
        if (program !== undefined && program !== '') {
          out.add(program);
          out.add(program.slice(program.lastIndexOf('/') + 1));
        }
        const next = words[i + 1];
        const after = words[i + 2];
        if ((next === '-m' || next === 'run') && after !== undefined) out.add(after);
      }
      return out;
    };
    fc.assert(
      fc.property(shell, (command) => {
        expect([...commandPrograms(command)]).toEqual([...reference(command)]);
      }),
      runs,
    );
  });
});

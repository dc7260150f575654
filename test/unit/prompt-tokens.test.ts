// The prompt tokenizers (src/core/inject/prompt-tokens.ts) are loops written for the hook's cold
// start; they must give exactly what the regexes they replaced gave, on any text.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { promptCommands, promptPaths, promptWords } from '../../src/core/inject/prompt-tokens.js';

/** The regex forms (lore before the loops), the reference. */
const reference = {
  words: (prompt: string) => new Set(prompt.toLowerCase().match(/[a-z0-9][a-z0-9_.-]*[a-z0-9]/g) ?? []),
  paths(prompt: string): string[] {
    const tokens =
      prompt.replace(/\b[a-z][a-z0-9+.-]*:\/\/\S*/gi, ' ').match(/[\w.@~-]*[\w@~-][\w./@~-]*/g) ?? [];
    return [
      ...new Set(
        tokens
          .filter((t) => (t.includes('/') || /\.[A-Za-z0-9]{1,8}$/.test(t)) && !/^https?:/.test(t))
          .map((t) => t.replace(/^\.\//, '').replace(/\/+$/, ''))
          .filter((t) => t !== '' && !t.startsWith('/'))
          .slice(0, 64),
      ),
    ];
  },
  commands(prompt: string): string[] {
    const spans = [...prompt.matchAll(/`([^`\n]{1,2000})`/g)].map((m) => m[1] ?? '');
    return [
      ...spans,
      ...prompt
        .split('\n')
        .slice(0, 200)
        .map((line) => line.trim()),
    ].filter((s) => s !== '');
  },
};

// Prompts made of the characters the regexes treat apart: word characters, the path and scheme
// punctuation, backticks, white space of several kinds (\u00a0, \u2028, \u3000 are \s too), a
// non-ASCII letter and case, and fragments that make URLs and extensions likely.
const pieces = [
  ...'aZ9_.-/@~+:`',
  ' ',
  '\n',
  '\t',
  '\u00a0',
  '\u2028',
  '\u3000',
  'é',
  'İ',
  '://',
  'https://x.io/a',
  'HTTP://',
  'src/app.ts',
  './tests/',
  '..',
  '.py',
  'pyproject.toml',
  '`npm test`',
  'x1.tar.gz',
  '//',
];
const prompt = fc.array(fc.constantFrom(...pieces), { maxLength: 60 }).map((parts) => parts.join(''));

describe('prompt tokens', () => {
  it('promptWords gives the words of /[a-z0-9][a-z0-9_.-]*[a-z0-9]/g', () => {
    fc.assert(
      fc.property(prompt, (text) => {
        expect([...promptWords(text)]).toEqual([...reference.words(text)]);
      }),
      { numRuns: 3000 },
    );
  });

  it('promptPaths gives the tokens of the URL-stripping and path regexes', () => {
    fc.assert(
      fc.property(prompt, (text) => {
        expect(promptPaths(text)).toEqual(reference.paths(text));
      }),
      { numRuns: 3000 },
    );
  });

  it('promptCommands gives the code spans and lines of the span regex', () => {
    fc.assert(
      fc.property(prompt, (text) => {
        expect(promptCommands(text)).toEqual(reference.commands(text));
      }),
      { numRuns: 3000 },
    );
  });

  it.each([
    ['any text', fc.string({ maxLength: 300 })],
    ['any UTF-16', fc.string({ unit: 'binary', maxLength: 300 })],
  ])('all three agree with the regexes on %s', (_name, text) => {
    fc.assert(
      fc.property(text, (value) => {
        expect([...promptWords(value)]).toEqual([...reference.words(value)]);
        expect(promptPaths(value)).toEqual(reference.paths(value));
        expect(promptCommands(value)).toEqual(reference.commands(value));
      }),
      { numRuns: 2000 },
    );
  });

  it.each([
    ['a span of 2,000 characters', `\`${'x'.repeat(2000)}\``, 1],
    ['a span of 2,001 characters is none', `\`${'x'.repeat(2001)}\``, 0],
    ['an empty span is none, the next one counts', '`` `a`', 1],
    ['a span does not cross a line', '`a\nb`', 0],
  ])('code spans: %s', (_name, text, spans) => {
    expect(promptCommands(text)).toEqual(reference.commands(text));
    expect(promptCommands(text).length - text.split('\n').filter((line) => line.trim() !== '').length).toBe(
      spans,
    );
  });

  it('paths: at most 64, then each once; URLs dropped, a leading / and trailing slashes cut', () => {
    const many = Array.from({ length: 80 }, (_, i) => `dir/f${i % 70}.ts`).join(' ');
    expect(promptPaths(many)).toEqual(reference.paths(many));
    expect(promptPaths(many)).toHaveLength(64);
    const text = 'see https://x.io/a.ts, /etc/hosts and ./src/ or lib.rs';
    expect(promptPaths(text)).toEqual(reference.paths(text));
    expect(promptPaths(text)).toEqual(['etc/hosts', 'src', 'lib.rs']);
  });
});

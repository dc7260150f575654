import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ftsOr, queryWords, searchWords, STOP_WORDS, toFtsQuery } from '../../src/core/search/fts-query.js';

describe('toFtsQuery', () => {
  it.each([
    { query: 'pytest', fts: '"pytest"' },
    { query: 'pytest hangs', fts: '"pytest" OR "hangs"' },
    { query: '  Pytest   HANGS  ', fts: '"pytest" OR "hangs"' },
    { query: 'pytest pytest PyTest', fts: '"pytest"' },
    { query: 'no-header', fts: '"no" OR "header"' },
    { query: 'lang:python', fts: '"lang" OR "python"' },
    { query: 'say "hello"', fts: '"say" OR "hello"' },
    { query: 'a AND b', fts: '"b"' },
    { query: 'the and of', fts: '"the" OR "and" OR "of"' },
    { query: 'NOT rm', fts: '"not" OR "rm"' },
    { query: 'x OR y NEAR z', fts: '"x" OR "y" OR "near" OR "z"' },
    { query: 'summary:foo', fts: '"summary" OR "foo"' },
    { query: 'pre* ^start (group) {col}', fts: '"pre" OR "start" OR "group" OR "col"' },
    { query: 'snake_case', fts: '"snake" OR "case"' },
    { query: 'node 20', fts: '"node" OR "20"' },
    { query: 'café Ünïcode', fts: '"café" OR "ünïcode"' },
    { query: '日本語', fts: '"日本語"' },
  ])('$query -> $fts', ({ query, fts }) => {
    expect(toFtsQuery(query)).toBe(fts);
  });

  it.each(['', '   ', '---', '"" :: ()', '* ^ + -'])('has no words in %j', (query) => {
    expect(toFtsQuery(query)).toBeUndefined();
    expect(queryWords(query)).toEqual([]);
  });

  it('quotes every word, repeats none, and leaks no operator characters (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 80 }), (query) => {
        const words = queryWords(query);
        expect(new Set(words).size).toBe(words.length);
        const fts = toFtsQuery(query);
        expect(fts === undefined).toBe(words.length === 0);
        expect(fts ?? '').toBe(
          searchWords(query)
            .map((word) => `"${word}"`)
            .join(' OR '),
        );
        for (const word of words) expect(word).toMatch(/^[\p{L}\p{N}]+$/u);
      }),
    );
  });
});

describe('searchWords', () => {
  it.each([
    { query: 'run tests before committing', words: ['run', 'tests', 'committing'] },
    { query: 'how do I avoid breaking the build', words: ['avoid', 'breaking', 'build'] },
    { query: 'migration NOT NULL default', words: ['migration', 'not', 'null', 'default'] },
    { query: 'docker compose up', words: ['docker', 'compose', 'up'] },
    { query: 'git add --all', words: ['git', 'add', 'all'] },
    { query: 'before and after', words: ['before', 'and', 'after'] },
  ])('$query -> $words', ({ query, words }) => {
    expect(searchWords(query)).toEqual(words);
  });

  it('keeps negations and words that double as command arguments', () => {
    for (const word of ['no', 'not', 'nor', 'never', 'up', 'down', 'out', 'off', 'all', 'only']) {
      expect(STOP_WORDS.has(word)).toBe(false);
    }
  });

  it('drops stop words only when something else is left (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...STOP_WORDS, 'pytest', 'stash', 'null'), { maxLength: 6 }),
        (list) => {
          const query = list.join(' ');
          const words = searchWords(query);
          const all = queryWords(query);
          const meaningful = all.filter((word) => !STOP_WORDS.has(word));
          expect(words).toEqual(meaningful.length > 0 ? meaningful : all);
          expect(ftsOr(words)).toBe(toFtsQuery(query));
        },
      ),
    );
  });
});

/**
 * A person's query to an FTS5 MATCH expression: the words, each quoted (so `-`, `:`, `"` and
 * FTS operators in the query are plain text), joined with OR so BM25 ranks lessons that hold
 * more of the words higher. `undefined` when the query has no words.
 */
export function queryWords(query: string): string[] {
  return [...new Set((query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((word) => word.length > 0))];
}

/**
 * English function words that carry no signal in a lesson query; dropped unless the query holds
 * nothing else. Negations (no, not, nor, never) and words that are also command arguments (up,
 * down, out, all, only, off) are kept on purpose: `NOT NULL`, `docker compose up`, `git add --all`.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a about after again also am an and are as at be been before being below between both but by can ' +
    'could did do does doing during each for from further had has have having he her here hers him his ' +
    'how i if in into is it its itself just me more most my of on once or other ought our ours she should ' +
    'so some such than that the their theirs them then there these they this those through to too until ' +
    'very was we were what when where which while who whom why will with would you your yours'
  ).split(' '),
);

/** The words of a query a search looks for: stop words removed unless nothing else is left. */
export function searchWords(query: string): string[] {
  const all = queryWords(query);
  const meaningful = all.filter((word) => !STOP_WORDS.has(word));
  return meaningful.length > 0 ? meaningful : all;
}

/** Words (from `queryWords`) as one FTS5 OR expression; `undefined` for none. */
export function ftsOr(words: readonly string[]): string | undefined {
  return words.length === 0 ? undefined : words.map((word) => `"${word}"`).join(' OR ');
}

export function toFtsQuery(query: string): string | undefined {
  return ftsOr(searchWords(query));
}

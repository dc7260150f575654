/**
 * A person's query to an FTS5 MATCH expression: the words, each quoted (so `-`, `:`, `"` and
 * FTS operators in the query are plain text), joined with OR so BM25 ranks lessons that hold
 * more of the words higher. `undefined` when the query has no words.
 */
export function queryWords(query: string): string[] {
  return [...new Set((query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((word) => word.length > 0))];
}

/** Words that carry no signal in a lesson query; dropped unless the query holds nothing else. */
const STOP_WORDS = new Set(
  'a an and are as at be but by do does for from how i if in into is it its me my of on or so that the then there these this to was what when where which who why will with you your'.split(
    ' ',
  ),
);

export function toFtsQuery(query: string): string | undefined {
  const all = queryWords(query);
  const meaningful = all.filter((word) => !STOP_WORDS.has(word));
  const words = meaningful.length > 0 ? meaningful : all;
  if (words.length === 0) return undefined;
  return words.map((word) => `"${word}"`).join(' OR ');
}

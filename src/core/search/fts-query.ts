/**
 * A person's query to an FTS5 MATCH expression: the words, each quoted (so `-`, `:`, `"` and
 * FTS operators in the query are plain text), joined with OR so BM25 ranks lessons that hold
 * more of the words higher. `undefined` when the query has no words.
 */
export function queryWords(query: string): string[] {
  return [...new Set((query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((word) => word.length > 0))];
}

export function toFtsQuery(query: string): string | undefined {
  const words = queryWords(query);
  if (words.length === 0) return undefined;
  return words.map((word) => `"${word}"`).join(' OR ');
}

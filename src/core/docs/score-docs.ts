/**
 * The lexical score of `lore search --kind doc`: the whole query (lowercased) found in the
 * summary scores 80 plus the query's length, an exact tag 120, a tag containing it 60, the type
 * 30. Docs scoring nothing are dropped; equal scores are ordered by path.
 */
import type { DocRecord } from './doc-record.js';

export const DOC_SCORE = { summary: 80, exactTag: 120, tagSubstring: 60, type: 30 } as const;

export type DocHit = { record: DocRecord; score: number; matchedBy: string[] };

export function scoreDoc(record: DocRecord, query: string): DocHit {
  const needle = query.trim().toLowerCase();
  let score = 0;
  const matchedBy: string[] = [];
  if (needle === '') return { record, score, matchedBy };
  if (record.summary.toLowerCase().includes(needle)) {
    score += DOC_SCORE.summary + needle.length;
    matchedBy.push('summary');
  }
  const tags = record.tags.map((tag) => tag.toLowerCase());
  if (tags.includes(needle)) {
    score += DOC_SCORE.exactTag;
    matchedBy.push('tag');
  } else if (tags.some((tag) => tag.includes(needle))) {
    score += DOC_SCORE.tagSubstring;
    matchedBy.push('tag~');
  }
  if (record.type === needle) {
    score += DOC_SCORE.type;
    matchedBy.push('type');
  }
  return { record, score, matchedBy };
}

export function byScoreThenPath(
  a: { score: number; record: DocRecord },
  b: { score: number; record: DocRecord },
): number {
  return b.score - a.score || (a.record.path < b.record.path ? -1 : a.record.path > b.record.path ? 1 : 0);
}

export function scoreDocs(records: readonly DocRecord[], query: string): DocHit[] {
  return records
    .map((record) => scoreDoc(record, query))
    .filter((hit) => hit.score > 0)
    .sort(byScoreThenPath);
}

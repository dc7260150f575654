/**
 * The one ordering of lessons: relevance first (for a search), then decayed vote score,
 * priority, confidence, most recently updated, id. Relevance is compared at six significant digits, so that
 * lessons BM25 scores the same up to float noise fall through to the votes.
 */
export type Rankable = {
  id: string;
  relevance: number;
  voteScore: number;
  priority: number;
  /** 0-1; moved by feedback. Absent counts as 0. */
  confidence?: number;
  updatedAt: string;
};

/** A score at six significant digits: equal up to float noise means equal. */
export function quantizeScore(value: number): number {
  return value === 0 ? 0 : Number(value.toPrecision(6));
}

/** A key as the ordering compares it: scores quantized and the date parsed, once. */
type RankKey = {
  relevance: number;
  votes: number;
  priority: number;
  confidence: number;
  updated: number;
  id: string;
};

function rankKey(key: Rankable): RankKey {
  return {
    relevance: quantizeScore(key.relevance),
    votes: quantizeScore(key.voteScore),
    priority: key.priority,
    confidence: key.confidence ?? 0,
    updated: Date.parse(key.updatedAt) || 0,
    id: key.id,
  };
}

function compareKeys(a: RankKey, b: RankKey): number {
  return (
    b.relevance - a.relevance ||
    b.votes - a.votes ||
    b.priority - a.priority ||
    b.confidence - a.confidence ||
    b.updated - a.updated ||
    (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  );
}

export function compareRankable(a: Rankable, b: Rankable): number {
  return compareKeys(rankKey(a), rankKey(b));
}

export function rankResults<T extends Rankable>(items: readonly T[]): T[] {
  return rankBy(items, (item) => item);
}

/**
 * `items` sorted as `compareRankable` orders their keys, with each key worked out once per item
 * rather than once per comparison.
 */
export function rankBy<T>(items: readonly T[], keyOf: (item: T) => Rankable): T[] {
  const keyed = items.map((item) => ({ item, key: rankKey(keyOf(item)) }));
  keyed.sort((a, b) => compareKeys(a.key, b.key));
  return keyed.map(({ item }) => item);
}

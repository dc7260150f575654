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

export function compareRankable(a: Rankable, b: Rankable): number {
  return (
    quantizeScore(b.relevance) - quantizeScore(a.relevance) ||
    quantizeScore(b.voteScore) - quantizeScore(a.voteScore) ||
    b.priority - a.priority ||
    (b.confidence ?? 0) - (a.confidence ?? 0) ||
    (Date.parse(b.updatedAt) || 0) - (Date.parse(a.updatedAt) || 0) ||
    (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  );
}

export function rankResults<T extends Rankable>(items: readonly T[]): T[] {
  return rankBy(items, (item) => item);
}

/**
 * `items` sorted as `compareRankable` orders their keys, with each key's quantized scores and
 * parsed date worked out once per item rather than once per comparison.
 */
export function rankBy<T>(items: readonly T[], keyOf: (item: T) => Rankable): T[] {
  const keyed = items.map((item) => {
    const key = keyOf(item);
    return {
      item,
      relevance: quantizeScore(key.relevance),
      votes: quantizeScore(key.voteScore),
      priority: key.priority,
      confidence: key.confidence ?? 0,
      updated: Date.parse(key.updatedAt) || 0,
      id: key.id,
    };
  });
  keyed.sort(
    (a, b) =>
      b.relevance - a.relevance ||
      b.votes - a.votes ||
      b.priority - a.priority ||
      b.confidence - a.confidence ||
      b.updated - a.updated ||
      (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
  return keyed.map(({ item }) => item);
}

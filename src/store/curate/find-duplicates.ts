/**
 * Near-duplicates in the store. For one new lesson, the FTS5 index finds the few lessons that share
 * words with it (BM25, the same search as `lore search`): one indexed query, never a comparison
 * with every lesson. For the whole store (`lore dedupe`), an inverted index over the listed lessons
 * proposes candidates the same way (src/core/curate/find-duplicate-pairs.ts). Either way the pure
 * scorer (src/core/curate/score-duplicate.ts) decides which are alike enough.
 */
import { findDuplicatePairs, groupPairs } from '../../core/curate/find-duplicate-pairs.js';
import type { DuplicatePair } from '../../core/curate/find-duplicate-pairs.js';
import { scoreShingles, shinglesOf } from '../../core/curate/score-duplicate.js';
import type { DuplicateInput, DuplicateScore } from '../../core/curate/score-duplicate.js';
import type { Lesson, Tier } from '../../core/lesson/schema.js';
import type { ListedLesson } from '../index/lesson-index.js';
import type { Workspace } from '../workspace/workspace.js';

/** Lessons fetched from the index per check: more than any real set of near-duplicates. */
const POOL = 12;
/** Words of a lesson sent to the index: enough to find its duplicates, bounded for long ones. */
const QUERY_WORDS = 40;

export type DuplicateMatch = {
  id: string;
  slug: string;
  summary: string;
  tier: Tier;
  score: number;
  text: number;
  scope: number | null;
  /** Cosine similarity of the two lessons' vectors, when embeddings found the pair. */
  semantic?: number;
};

export type DuplicateGroup = {
  /** The lesson to keep (project tier, most voted, oldest), then the others. */
  keep: DuplicateMatch;
  others: DuplicateMatch[];
  /** `semantic`: the pair's cosine similarity, when their vectors found it (see vector-duplicates.ts). */
  pairs: { a: string; b: string; score: number; semantic?: number }[];
};

/**
 * Pairs the lessons' vectors find (when embeddings are configured and lessons embedded) beside the
 * word check's: a pair both find keeps its word score and gains its similarity; a paraphrase only
 * the vectors find scores its similarity. Loaded only when embeddings are configured.
 */
async function addSemanticPairs(
  ws: Workspace,
  byKey: ReadonlyMap<string, ListedLesson>,
  pairs: (DuplicatePair & { semantic?: number })[],
): Promise<void> {
  const { embeddingModelOf, embeddingsConfig } = await import('../embed/embedding-settings.js');
  if (embeddingModelOf(embeddingsConfig(ws)) === undefined) return;
  const { findSemanticPairs } = await import('../embed/vector-duplicates.js');
  const index = new Map(pairs.map((pair) => [`${pair.a}|${pair.b}`, pair]));
  for (const found of await findSemanticPairs(ws, new Set(byKey.keys()))) {
    const known = index.get(`${found.a}|${found.b}`) ?? index.get(`${found.b}|${found.a}`);
    if (known) {
      known.semantic = found.similarity;
      continue;
    }
    const a = byKey.get(found.a)?.lesson as Lesson;
    const b = byKey.get(found.b)?.lesson as Lesson;
    const words = scoreShingles(shinglesOf(a), shinglesOf(b));
    pairs.push({ ...words, a: found.a, b: found.b, score: found.similarity, semantic: found.similarity });
  }
  pairs.sort((x, y) => y.score - x.score || (x.a < y.a ? -1 : x.a > y.a ? 1 : x.b < y.b ? -1 : 1));
}

function queryOf(lesson: DuplicateInput): string {
  return [lesson.summary, lesson.mistake ?? '', lesson.remediation ?? '']
    .join(' ')
    .split(/\s+/)
    .slice(0, QUERY_WORDS * 2)
    .join(' ');
}

async function neighbours(ws: Workspace, lesson: DuplicateInput, nowMs: number): Promise<ListedLesson[]> {
  const query = queryOf(lesson);
  if (query.trim() === '') return [];
  return ws.index.search(
    query,
    { limit: POOL, status: 'active' },
    ws.config.search.weights,
    nowMs,
    ws.halfLifeDays,
  );
}

function matchOf(lesson: Lesson, score: DuplicateScore): DuplicateMatch {
  return {
    id: lesson.id,
    slug: lesson.slug,
    summary: lesson.summary,
    tier: lesson.tier,
    score: score.score,
    text: score.text,
    scope: score.scope,
  };
}

/** Active lessons alike to `draft` (a lesson about to be added), most alike first. */
export async function findDuplicates(
  ws: Workspace,
  draft: DuplicateInput & { body?: string | undefined },
  options: { threshold: number; nowMs: number; limit?: number; env?: NodeJS.ProcessEnv },
): Promise<DuplicateMatch[]> {
  const mine = shinglesOf(draft);
  const found: DuplicateMatch[] = [];
  for (const item of await neighbours(ws, draft, options.nowMs)) {
    const score = scoreShingles(mine, shinglesOf(item.lesson));
    if (score.score >= options.threshold) found.push(matchOf(item.lesson, score));
  }
  // with embeddings, paraphrases the words miss (loaded only when embeddings are configured)
  const env = options.env;
  const settings = env === undefined ? undefined : await import('../embed/embedding-settings.js');
  if (env !== undefined && settings?.embeddingModelOf(settings.embeddingsConfig(ws)) !== undefined) {
    const { findSemanticNeighbours } = await import('../embed/vector-duplicates.js');
    for (const near of await findSemanticNeighbours(ws, env, draft)) {
      const known = found.find((match) => match.tier === near.tier && match.id === near.id);
      if (known) {
        known.semantic = near.similarity;
        continue;
      }
      const item = await ws.index.get(near.tier as Tier, near.id);
      if (item === undefined) continue;
      const words = scoreShingles(mine, shinglesOf(item.lesson));
      found.push({
        ...matchOf(item.lesson, { ...words, score: near.similarity }),
        semantic: near.similarity,
      });
    }
  }
  return found
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .slice(0, options.limit ?? 5);
}

/**
 * Every group of likely duplicates among active lessons (connected by pairs at or over the
 * threshold). The lessons are in memory already (one index read), so candidates come from an
 * inverted index over their words instead of one FTS query per lesson.
 */
export async function findDuplicateGroups(
  ws: Workspace,
  options: { threshold: number; nowMs: number; tier?: Tier | undefined },
): Promise<DuplicateGroup[]> {
  const listed = (await ws.index.list({ status: 'active' }, options.nowMs, ws.halfLifeDays)).filter(
    (item) => options.tier === undefined || item.lesson.tier === options.tier,
  );
  const key = (lesson: Pick<Lesson, 'tier' | 'id'>) => `${lesson.tier}:${lesson.id}`;
  const byKey = new Map(listed.map((item) => [key(item.lesson), item]));
  const pairs: (DuplicatePair & { semantic?: number })[] = findDuplicatePairs(
    listed.map((item) => ({ key: key(item.lesson), lesson: item.lesson })),
    { threshold: options.threshold },
  );
  await addSemanticPairs(ws, byKey, pairs);
  const keepOrder = (x: ListedLesson, y: ListedLesson) =>
    (x.lesson.tier === 'project' ? 0 : 1) - (y.lesson.tier === 'project' ? 0 : 1) ||
    y.votes.count - x.votes.count ||
    Date.parse(x.lesson.createdAt) - Date.parse(y.lesson.createdAt) ||
    (x.lesson.id < y.lesson.id ? -1 : 1);
  const groups = groupPairs(pairs).map((keys): DuplicateGroup => {
    const [first, ...rest] = keys.map((k) => byKey.get(k) as ListedLesson).sort(keepOrder);
    const inGroup = new Set(keys);
    const members = pairs.filter((pair) => inGroup.has(pair.a));
    const asMatch = (entry: ListedLesson): DuplicateMatch => {
      const k = key(entry.lesson);
      const best = members.find((pair) => pair.a === k || pair.b === k);
      return matchOf(entry.lesson, best ?? { score: 1, text: 1, scope: null });
    };
    return {
      keep: asMatch(first as ListedLesson),
      others: rest.map(asMatch),
      pairs: members.map((pair) => ({
        a: pair.a,
        b: pair.b,
        score: pair.score,
        ...(pair.semantic === undefined ? {} : { semantic: Number(pair.semantic.toFixed(6)) }),
      })),
    };
  });
  return groups.sort(
    (x, y) => (y.pairs[0]?.score ?? 0) - (x.pairs[0]?.score ?? 0) || y.others.length - x.others.length,
  );
}

/**
 * Near-duplicates in the store. The FTS5 index finds the few lessons that share words with a
 * lesson (BM25, the same search as `lore search`); the pure scorer
 * (src/core/curate/score-duplicate.ts) decides which of those are alike enough. So a check costs
 * one indexed query, never a comparison with every lesson.
 */
import { scoreShingles, shinglesOf } from '../core/curate/score-duplicate.js';
import type { DuplicateInput, Shingles } from '../core/curate/score-duplicate.js';
import type { Lesson, Tier } from '../core/lesson/schema.js';
import type { ListedLesson } from './lesson-index.js';
import type { Workspace } from './workspace.js';

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
};

export type DuplicateGroup = {
  /** The lesson to keep (project tier, most voted, oldest), then the others. */
  keep: DuplicateMatch;
  others: DuplicateMatch[];
  pairs: { a: string; b: string; score: number }[];
};

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

function matchOf(lesson: Lesson, score: ReturnType<typeof scoreShingles>): DuplicateMatch {
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
  draft: DuplicateInput,
  options: { threshold: number; nowMs: number; limit?: number },
): Promise<DuplicateMatch[]> {
  const mine = shinglesOf(draft);
  const found: DuplicateMatch[] = [];
  for (const item of await neighbours(ws, draft, options.nowMs)) {
    const score = scoreShingles(mine, shinglesOf(item.lesson));
    if (score.score >= options.threshold) found.push(matchOf(item.lesson, score));
  }
  return found
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .slice(0, options.limit ?? 5);
}

/** Every group of likely duplicates among active lessons (connected by pairs at or over the threshold). */
export async function findDuplicateGroups(
  ws: Workspace,
  options: { threshold: number; nowMs: number; tier?: Tier | undefined },
): Promise<DuplicateGroup[]> {
  const listed = await ws.index.list({ status: 'active' }, options.nowMs, ws.halfLifeDays);
  const key = (lesson: Pick<Lesson, 'tier' | 'id'>) => `${lesson.tier}:${lesson.id}`;
  const byKey = new Map(listed.map((item) => [key(item.lesson), item]));
  const shingles = new Map<string, Shingles>();
  const shinglesFor = (lesson: Lesson) => {
    let value = shingles.get(key(lesson));
    if (!value) {
      value = shinglesOf(lesson);
      shingles.set(key(lesson), value);
    }
    return value;
  };

  const parent = new Map<string, string>();
  const root = (k: string): string => {
    let r = k;
    while (parent.get(r) !== undefined && parent.get(r) !== r) r = parent.get(r) as string;
    parent.set(k, r);
    return r;
  };
  const pairs: { a: string; b: string; score: number; text: number; scope: number | null }[] = [];
  const scored = new Set<string>();
  for (const item of listed) {
    if (options.tier !== undefined && item.lesson.tier !== options.tier) continue;
    const a = key(item.lesson);
    for (const other of await neighbours(ws, item.lesson, options.nowMs)) {
      const b = key(other.lesson);
      if (a === b || !byKey.has(b)) continue;
      if (options.tier !== undefined && other.lesson.tier !== options.tier) continue;
      const pairKey = a < b ? `${a}|${b}` : `${b}|${a}`;
      if (scored.has(pairKey)) continue;
      scored.add(pairKey);
      const score = scoreShingles(shinglesFor(item.lesson), shinglesFor(other.lesson));
      if (score.score < options.threshold) continue;
      pairs.push({ a: a < b ? a : b, b: a < b ? b : a, ...score });
      parent.set(root(a), root(b));
    }
  }

  const members = new Map<string, string[]>();
  for (const pair of pairs) {
    for (const k of [pair.a, pair.b]) {
      const group = members.get(root(k)) ?? [];
      if (!group.includes(k)) group.push(k);
      members.set(root(k), group);
    }
  }
  const keepOrder = (x: ListedLesson, y: ListedLesson) =>
    (x.lesson.tier === 'project' ? 0 : 1) - (y.lesson.tier === 'project' ? 0 : 1) ||
    y.votes.count - x.votes.count ||
    Date.parse(x.lesson.createdAt) - Date.parse(y.lesson.createdAt) ||
    (x.lesson.id < y.lesson.id ? -1 : 1);
  const groups: DuplicateGroup[] = [];
  for (const keys of members.values()) {
    const items = keys.map((k) => byKey.get(k) as ListedLesson).sort(keepOrder);
    const [first, ...rest] = items;
    if (!first) continue;
    const inGroup = new Set(keys);
    const groupPairs = pairs.filter((pair) => inGroup.has(pair.a));
    const best = (k: string) =>
      groupPairs
        .filter((pair) => pair.a === k || pair.b === k)
        .reduce<(typeof pairs)[number] | undefined>(
          (top, pair) => (top && top.score >= pair.score ? top : pair),
          undefined,
        );
    const asMatch = (entry: ListedLesson) => {
      const pair = best(key(entry.lesson));
      return matchOf(entry.lesson, pair ?? { score: 1, text: 1, scope: null });
    };
    groups.push({
      keep: asMatch(first),
      others: rest.map(asMatch),
      pairs: groupPairs.map((pair) => ({ a: pair.a, b: pair.b, score: pair.score })),
    });
  }
  return groups.sort(
    (x, y) => Math.max(...y.pairs.map((p) => p.score)) - Math.max(...x.pairs.map((p) => p.score)),
  );
}

/**
 * How alike two lessons are, from 0 (nothing shared) to 1 (the same words and scope), offline and
 * in microseconds: the words of summary, mistake and remediation (lower-cased, function words
 * dropped, plural and -ing/-ed endings folded) compared as sets, single words and adjacent pairs,
 * blended with the share of the shorter lesson's words the other one has (a lesson restated with a
 * few extra words is still the same lesson); then, when both lessons have a scope (tools, command
 * regexes, path globs, tags, stack), the overlap of their scopes counts for a fifth. Pure.
 */
import { STOP_WORDS } from '../search/fts-query.js';

export type DuplicateInput = {
  summary: string;
  mistake?: string | undefined;
  remediation?: string | undefined;
  tools?: readonly string[];
  commands?: readonly string[];
  paths?: readonly string[];
  tags?: readonly string[];
  stack?: readonly string[];
};

export type DuplicateScore = {
  score: number;
  /** Similarity of the words alone. */
  text: number;
  /** Overlap of the scopes; null when either lesson has none. */
  scope: number | null;
};

export type Shingles = { words: ReadonlySet<string>; pairs: ReadonlySet<string>; scope: ReadonlySet<string> };

/** Tags that say how a lesson was found, not what it is about. */
const NOISE_TAG = /^(?:env|severity|source):/;

const TEXT_WEIGHT = 0.8;

/** Words nearly every lesson uses (advice verbs, negations): they make unrelated lessons look alike. */
const FILLER: ReadonlySet<string> = new Set(
  'use using used instead first always never not no don dont t do make sure any here there need needs must better avoid'.split(
    ' ',
  ),
);

/** Folds the commonest English endings so `hangs`, `hanging` and `hanged` meet at `hang`. */
export function stem(word: string): string {
  if (word.length <= 4 || /\d/.test(word)) return word;
  if (word.endsWith('ies') && word.length > 5) return `${word.slice(0, -3)}y`;
  for (const suffix of ['ing', 'ed', 'es']) {
    if (word.endsWith(suffix) && word.length - suffix.length >= 3) return word.slice(0, -suffix.length);
  }
  if (word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us')) return word.slice(0, -1);
  return word;
}

/** The meaningful words of a text, in order. */
export function contentWords(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])
    .filter((word) => word.length > 1 && !STOP_WORDS.has(word) && !FILLER.has(word))
    .map(stem);
}

export function shinglesOf(lesson: DuplicateInput): Shingles {
  const words = contentWords([lesson.summary, lesson.mistake ?? '', lesson.remediation ?? ''].join('\n'));
  const pairs = new Set<string>();
  for (let i = 1; i < words.length; i += 1) pairs.add(`${words[i - 1]} ${words[i]}`);
  const scope = new Set<string>([
    ...(lesson.tools ?? []).map((tool) => `tool:${tool.toLowerCase()}`),
    ...(lesson.commands ?? []).map((command) => `command:${command}`),
    ...(lesson.paths ?? []).map((path) => `path:${path}`),
    ...(lesson.tags ?? [])
      .filter((tag) => !NOISE_TAG.test(tag.toLowerCase()))
      .map((tag) => `tag:${tag.toLowerCase()}`),
    ...(lesson.stack ?? []).map((entry) => `stack:${entry.toLowerCase()}`),
  ]);
  return { words: new Set(words), pairs, scope };
}

function intersectionSize(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let shared = 0;
  for (const item of small) if (large.has(item)) shared += 1;
  return shared;
}

function sameSet(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  return a.size === b.size && intersectionSize(a, b) === a.size;
}

export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 0;
  const shared = intersectionSize(a, b);
  return shared / (a.size + b.size - shared);
}

/**
 * The share of the smaller set found in the larger, damped for tiny sets (two shared words out
 * of two say little).
 */
function containment(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  const smaller = Math.min(a.size, b.size);
  if (smaller === 0) return 0;
  return (intersectionSize(a, b) / smaller) * (smaller / (smaller + 2));
}

const round = (value: number) => Math.round(value * 1000) / 1000;

export function scoreShingles(a: Shingles, b: Shingles): DuplicateScore {
  const text = Math.min(
    1,
    0.45 * jaccard(a.words, b.words) + 0.15 * jaccard(a.pairs, b.pairs) + 0.4 * containment(a.words, b.words),
  );
  const identical = a.words.size > 0 && sameSet(a.words, b.words) && sameSet(a.pairs, b.pairs);
  const textScore = identical ? 1 : text;
  if (a.scope.size === 0 || b.scope.size === 0)
    return { score: round(textScore), text: round(textScore), scope: null };
  const scope = jaccard(a.scope, b.scope);
  return {
    score: round(TEXT_WEIGHT * textScore + (1 - TEXT_WEIGHT) * scope),
    text: round(textScore),
    scope: round(scope),
  };
}

export function scoreDuplicate(a: DuplicateInput, b: DuplicateInput): DuplicateScore {
  return scoreShingles(shinglesOf(a), shinglesOf(b));
}

/**
 * Incremental manifest updates: a write of a few lessons changes only their blocks, the key
 * tables and the head, not the whole manifest. A changed lesson leaves a hole (`null`) where it
 * was and comes back in the overflow region `[ranked, lessonCount)`, which the hook matches in
 * full and merges into the rank order; the tool-call stream, the prompt path and SessionStart
 * therefore select exactly what a full build would.
 *
 * What a patch needs beyond the manifest itself is the writer's state (`ManifestState`): which
 * lesson sits at which ordinal, with the few fields the startup list and tier shadowing depend on.
 * When a write could change shadowing between the tiers (a project lesson and a user lesson
 * sharing an id or slug), or the overflow has grown too long, the caller builds in full instead.
 */
import { chooseSources, manifestEntry, startsSessions, STARTUP_LESSONS } from './build-manifest.js';
import type { ManifestSource } from './build-manifest.js';
import { lessonSkill } from '../views/plan-skills.js';
import { packLiteralTable, unpackLiteralTable } from '../inject/literal-keys.js';
import type { LiteralTable } from '../inject/literal-keys.js';
import { wordKeys } from '../inject/create-matcher.js';
import { appendPosting } from '../inject/postings.js';
import type { ManifestHead, ManifestLesson, ManifestText, ManifestWords } from '../inject/types.js';

/** One manifest lesson as the writer remembers it: `tier:id`, slug, score, opens sessions (1/0). */
export type StateEntry = [key: string, slug: string, score: number, startup: 0 | 1];

export type ManifestState = {
  generation: string;
  /** Equals the head's `revision` when both belong to the same write. */
  revision: string;
  /** By ordinal; `null` for holes. */
  entries: (StateEntry | null)[];
  /** `id` and `slug` of active user-tier lessons left out because a project lesson has one of them. */
  shadowed: string[];
  /** Per lesson directory (`tier:id`): `<lesson.yaml sig>|<votes.jsonl sig>`, for the content signature. */
  files: Record<string, string>;
  /** Files of the generation directory replaced by the previous patch (removed by the next one). */
  garbage: string[];
};

/** Past this many lessons in the overflow a write rebuilds in full (the hook matches the overflow whole). */
export const OVERFLOW_LIMIT = 128;

export const entryKey = (tier: string, id: string) => `${tier}:${id}`;

/** The writer's state of a freshly built manifest. */
export function stateOf(
  blocks: readonly (readonly (ManifestLesson | null)[])[],
  texts: readonly (readonly (ManifestText | null)[])[],
  lessons: readonly ManifestSource[],
  base: Pick<ManifestState, 'generation' | 'revision' | 'files'>,
): ManifestState {
  const entries: (StateEntry | null)[] = [];
  blocks.forEach((block, b) =>
    block.forEach((lesson, i) => {
      const text = texts[b]?.[i];
      entries.push(
        lesson === null || text == null
          ? null
          : [entryKey(lesson.tier, lesson.id), text.slug, lesson.score, startsSessions(lesson) ? 1 : 0],
      );
    }),
  );
  return { ...base, entries, shadowed: shadowedKeys(lessons), garbage: [] };
}

/** Ids and slugs of the active user-tier lessons a project lesson shadows. */
export function shadowedKeys(lessons: readonly ManifestSource[]): string[] {
  const chosen = new Set(chooseSources(lessons).map((s) => entryKey(s.lesson.tier, s.lesson.id)));
  const out = new Set<string>();
  for (const { lesson } of lessons) {
    if (lesson.tier === 'project' || lesson.status !== 'active') continue;
    if (chosen.has(entryKey(lesson.tier, lesson.id))) continue;
    // a shadowed org lesson is marked as such: a write of its id or slug takes a full build
    const prefix = lesson.tier === 'org' ? 'org:' : '';
    out.add(`${prefix}id:${lesson.id}`);
    out.add(`${prefix}slug:${lesson.slug}`);
  }
  return [...out].sort();
}

/** A lesson a write touched: its new record when it should be in the manifest (active), else none. */
export type LessonChange = { tier: 'project' | 'user' | 'org'; id: string; source?: ManifestSource };

export type ManifestPatch = {
  head: ManifestHead;
  /** Blocks to write (block number -> lessons and texts), under the patch's file names. */
  blocks: Map<number, { lessons: (ManifestLesson | null)[]; texts: (ManifestText | null)[] }>;
  /** The new literal table, when a key changed (the head's `index` then names no files yet). */
  literals?: LiteralTable;
  /** The new words table, when a word list changed. */
  words?: ManifestWords;
  state: ManifestState;
};

export type PatchInput = {
  head: ManifestHead;
  state: ManifestState;
  changes: readonly LessonChange[];
  /** Reads the current block `n` (lessons and texts) as the head names it. */
  readBlock(n: number): { lessons: (ManifestLesson | null)[]; texts: (ManifestText | null)[] } | undefined;
  readWords(): ManifestWords | undefined;
  /** Reads the current literal table (from the files the head names). */
  readLiterals(): LiteralTable | undefined;
  /** The patch's token: names its block files (`b<n>-<token>.json`) and becomes the revision. */
  token: string;
  nowMs: number;
  /** New content signature parts of the changed lesson directories (`undefined`: gone). */
  files: Record<string, string | undefined>;
};

/**
 * The patched manifest, or why the caller must build in full. Pure: the caller reads and writes.
 */
export function patchManifest(input: PatchInput): ManifestPatch | { full: string } {
  const { head, state, changes } = input;
  if (state.entries.length !== head.lessonCount) return { full: 'state does not match the head' };
  const overflow = head.lessonCount - head.ranked + changes.filter((c) => c.source).length;
  if (overflow > OVERFLOW_LIMIT) return { full: 'overflow full' };

  const ordinalOf = new Map<string, number>();
  const tierKeys = new Set<string>(state.shadowed.map((k) => `user:${k}`));
  state.entries.forEach((entry, n) => {
    if (entry === null) return;
    ordinalOf.set(entry[0], n);
    const tier = entry[0].slice(0, entry[0].indexOf(':'));
    tierKeys.add(`${tier}:id:${entry[0].slice(tier.length + 1)}`);
    tierKeys.add(`${tier}:slug:${entry[1]}`);
  });
  // Tier shadowing: a project lesson hides a user lesson with its id or slug. A write that could
  // change who hides whom is left to a full build.
  for (const change of changes) {
    const other = change.tier === 'project' ? 'user' : 'project';
    const n = ordinalOf.get(entryKey(change.tier, change.id));
    const slugs = [n === undefined ? undefined : state.entries[n]?.[1], change.source?.lesson.slug];
    if (tierKeys.has(`${other}:id:${change.id}`)) return { full: 'id shared across tiers' };
    if (slugs.some((slug) => slug !== undefined && tierKeys.has(`${other}:slug:${slug}`))) {
      return { full: 'slug shared across tiers' };
    }
    // The org tier changes only by a pull, which builds in full; a write that shares an id or slug
    // with an org lesson (shown or shadowed) could change which one shows.
    const orgSlugs = slugs.filter((slug) => slug !== undefined).map((slug) => `slug:${slug}`);
    if (tierKeys.has(`org:id:${change.id}`) || state.shadowed.includes(`org:id:${change.id}`))
      return { full: 'id shared with the org tier' };
    if (orgSlugs.some((key) => tierKeys.has(`org:${key}`) || state.shadowed.includes(`org:${key}`)))
      return { full: 'slug shared with the org tier' };
    // A shadowed user lesson is not in the entries: its own id finds it.
    if (change.tier === 'user' && state.shadowed.includes(`id:${change.id}`)) {
      return { full: 'user lesson shadowed' };
    }
  }

  const blockSize = head.blockSize;
  const blocks: ManifestPatch['blocks'] = new Map();
  const blockAt = (b: number) => {
    let block = blocks.get(b);
    if (block === undefined) {
      block =
        input.readBlock(b) ?? (b * blockSize >= head.lessonCount ? { lessons: [], texts: [] } : undefined);
      if (block === undefined) return undefined;
      block = { lessons: [...block.lessons], texts: [...block.texts] };
      blocks.set(b, block);
    }
    return block;
  };

  const entries = [...state.entries];
  let literals: Map<string, string> | undefined;
  const keys = { ...head.keys };
  let always = head.always;
  let words: ManifestWords | undefined;
  const files = { ...state.files };
  // The skills table counts its lessons: a write touching one of them is left to a full build.
  const skillNames = new Set(Object.keys(head.skills ?? {}));

  for (const change of changes) {
    const key = entryKey(change.tier, change.id);
    const part = input.files[key];
    if (part === undefined) delete files[key];
    else files[key] = part;
    const old = ordinalOf.get(key);
    if (old !== undefined) {
      const block = blockAt(Math.floor(old / blockSize));
      if (block === undefined) return { full: 'block unreadable' };
      if (block.lessons[old % blockSize]?.skill !== undefined) return { full: 'aggregated skill changed' };
      block.lessons[old % blockSize] = null;
      block.texts[old % blockSize] = null;
      entries[old] = null;
      ordinalOf.delete(key);
    }
    if (change.source === undefined) continue;
    if (lessonSkill(change.source.lesson, skillNames) !== undefined)
      return { full: 'aggregated skill changed' };
    const n = entries.length;
    const entry = manifestEntry(change.source, head.stack);
    entry.lesson.n = n;
    const block = blockAt(Math.floor(n / blockSize));
    if (block === undefined) return { full: 'block unreadable' };
    block.lessons[n % blockSize] = entry.lesson;
    block.texts[n % blockSize] = entry.text;
    entries.push([key, entry.text.slug, entry.lesson.score, startsSessions(entry.lesson) ? 1 : 0]);
    ordinalOf.set(key, n);
    if (entry.literals.length > 0 && literals === undefined) {
      const current = input.readLiterals();
      if (current === undefined) return { full: 'literal index unreadable' };
      literals = unpackLiteralTable(current);
    }
    for (const literal of entry.literals) literals?.set(literal, appendPosting(literals.get(literal), n));
    for (const k of entry.keys) keys[k] = appendPosting(keys[k], n);
    if (entry.always) always = appendPosting(always, n);
    const keysOfWords = wordKeys(entry.lesson);
    if (keysOfWords.length > 0) {
      if (words === undefined) {
        const current = input.readWords();
        if (current === undefined) return { full: 'words unreadable' };
        words = { ...current };
      }
      for (const word of keysOfWords) {
        words[word] = appendPosting(Object.hasOwn(words, word) ? words[word] : undefined, n);
      }
    }
  }

  const startup = entries
    .map((entry, n) => ({ entry, n }))
    .filter((x): x is { entry: StateEntry; n: number } => x.entry !== null && x.entry[3] === 1)
    .sort((a, b) => b.entry[2] - a.entry[2] || (idOf(a.entry) < idOf(b.entry) ? -1 : 1))
    .slice(0, STARTUP_LESSONS);

  const patched = { ...head.patched };
  for (const b of blocks.keys()) patched[String(b)] = input.token;
  if (words !== undefined) patched.words = input.token;
  return {
    head: {
      ...head,
      revision: input.token,
      builtAtMs: input.nowMs,
      lessonCount: entries.length,
      keys,
      always,
      startup: startup.map((x) => x.n),
      startupScores: startup.map((x) => x.entry[2]),
      patched,
    },
    blocks,
    ...(literals === undefined ? {} : { literals: packLiteralTable(literals) }),
    ...(words === undefined ? {} : { words }),
    state: { ...state, revision: input.token, entries, files },
  };
}

function idOf(entry: StateEntry): string {
  return entry[0].slice(entry[0].indexOf(':') + 1);
}

/**
 * The hook manifest, built from lessons of both tiers: every lesson precompiled (glob regex
 * sources, rendered text, rank base) and filed under the literals its scope requires, so one hook
 * call reads and compiles only the lessons whose literals occur in its input.
 */
import type { Lesson } from '../lesson/schema.js';
import { compileGlob } from '../match/glob.js';
import { requiredGlobLiteral } from '../match/glob-literal.js';
import { requiredRegexLiterals } from '../match/regex-literals.js';
import { LANGUAGE_EXTENSIONS } from './detect-stack.js';
import { renderLesson } from './render-lesson.js';
import { normalizeTool } from './tool-names.js';
import { MANIFEST_VERSION } from './types.js';
import type {
  InjectSettings,
  Manifest,
  ManifestLesson,
  ManifestText,
  ManifestWords,
  SourceStamp,
} from './types.js';

export type ManifestSource = {
  lesson: Lesson;
  file: string;
  /** `mtimeMs:size` of the lesson file. */
  sig: string;
  voteScore: number;
};

export type ManifestInput = {
  /** Project tier first: on an id or slug conflict the first one wins. */
  lessons: readonly ManifestSource[];
  settings: InjectSettings;
  stack: readonly string[];
  projectRoot: string | null;
  sources: SourceStamp[];
  nowMs: number;
  generation: string;
  blockSize?: number;
};

const STOP_WORDS = new Set(
  'about after again also always because before being both cannot could does doing done each else even ever every from have having here into just more most much must need never only other over same should since some such than that their them then there these they this those through under until very want were what when where which while will with without would your instead using used uses running'.split(
    ' ',
  ),
);

/** Distinct lowercase words of a summary worth matching a prompt against. */
export function summaryWords(summary: string): string[] {
  const words = summary.toLowerCase().match(/[a-z0-9][a-z0-9_.-]*[a-z0-9]/g) ?? [];
  return [...new Set(words.filter((w) => w.length >= 4 && !STOP_WORDS.has(w) && !/^\d+$/.test(w)))].slice(
    0,
    12,
  );
}

const SEVERITY_SCORE: Record<string, number> = { low: 0, medium: 2, high: 4, critical: 6 };

function rankBase(lesson: Lesson, voteScore: number, stack: readonly string[]): number {
  const langBoost = lesson.tags.some((tag) => tag.startsWith('lang:') && stack.includes(tag.slice(5)))
    ? 5
    : 0;
  return (
    lesson.priority * 10 +
    lesson.confidence * 10 +
    Math.min(voteScore, 5) * 2 +
    (SEVERITY_SCORE[lesson.severity] ?? 0) +
    langBoost
  );
}

/**
 * How a lesson is found on a tool call: literals (any of them in the input makes it a candidate),
 * exact keys (`tool:<name>`), or always (some part of its scope has no usable literal).
 */
export function lessonKeys(lesson: Pick<Lesson, 'commands' | 'paths' | 'tags' | 'tools'>): {
  literals: string[];
  keys: string[];
  always: boolean;
} {
  const literals = new Set<string>();
  let always = false;
  const add = (anyOf: readonly string[]) => {
    if (anyOf.length === 0 || anyOf.some((literal) => literal.length < 2)) always = true;
    else for (const literal of anyOf) literals.add(literal);
  };
  for (const command of lesson.commands) add(requiredRegexLiterals(command));
  for (const glob of lesson.paths) {
    const literal = requiredGlobLiteral(glob);
    add(literal === '' ? [] : [literal]);
  }
  if (lesson.commands.length > 0 || lesson.paths.length > 0) {
    return { literals: always ? [] : [...literals], keys: [], always };
  }
  for (const trigger of tagTriggers(lesson.tags)) add([trigger]);
  if (literals.size > 0 || always) return { literals: always ? [] : [...literals], keys: [], always };
  if (lesson.tools.some((tool) => tool.includes('*'))) return { literals: [], keys: [], always: true };
  return { literals: [], keys: lesson.tools.map((tool) => `tool:${normalizeTool(tool)}`), always: false };
}

/** `tool:pytest` triggers on "pytest" in a command; `lang:python` on a `.py` path. */
export function tagTriggers(tags: readonly string[]): string[] {
  const out: string[] = [];
  for (const tag of tags) {
    const [category, value] = [tag.slice(0, tag.indexOf(':')), tag.slice(tag.indexOf(':') + 1)];
    if (category === 'tool' && value.length >= 2) out.push(value);
    if (category === 'lang') out.push(...(LANGUAGE_EXTENSIONS[value] ?? []));
  }
  return out;
}

function toRanges(ordinals: readonly number[]): number[] {
  const sorted = [...new Set(ordinals)].sort((a, b) => a - b);
  const out: number[] = [];
  for (const n of sorted) {
    const last = out.length - 2;
    if (last >= 0 && (out[last] as number) + (out[last + 1] as number) === n)
      out[last + 1] = (out[last + 1] as number) + 1;
    else out.push(n, 1);
  }
  return out;
}

export function buildManifest(input: ManifestInput): Manifest {
  const blockSize = input.blockSize ?? 32;
  const globCache = new Map<string, string>();
  const compile = (glob: string) => {
    let source = globCache.get(glob);
    if (source === undefined) {
      source = compileGlob(glob);
      globCache.set(glob, source);
    }
    return source;
  };

  // Merge tiers: the first lesson with an id or slug wins (project before user).
  const ids = new Set<string>();
  const slugs = new Set<string>();
  const chosen: ManifestSource[] = [];
  for (const source of input.lessons) {
    const { lesson } = source;
    if (lesson.status !== 'active') continue;
    if (ids.has(lesson.id) || slugs.has(lesson.slug)) continue;
    ids.add(lesson.id);
    slugs.add(lesson.slug);
    chosen.push(source);
  }

  type Entry = {
    lesson: ManifestLesson;
    text: ManifestText;
    literals: string[];
    keys: string[];
    always: boolean;
    primary: string;
  };
  const entries: Entry[] = chosen.map(({ lesson, file, sig, voteScore }) => {
    const rendered = renderLesson(lesson);
    const keys = lessonKeys(lesson);
    const entry: ManifestLesson = {
      id: lesson.id,
      n: 0,
      tier: lesson.tier,
      priority: lesson.priority,
      confidence: lesson.confidence,
      needsReview: lesson.needsReview,
      guard: lesson.type === 'guard',
      tools: lesson.tools.map(normalizeTool),
      commands: lesson.commands,
      paths: lesson.paths,
      pathRegexes: lesson.paths.map(compile),
      tags: lesson.tags,
      stack: lesson.stack.map((s) => s.toLowerCase()),
      words: summaryWords(lesson.summary),
      score: Math.round(rankBase(lesson, voteScore, input.stack) * 100) / 100,
    };
    const text: ManifestText = {
      slug: lesson.slug,
      text: rendered.text,
      summary: rendered.summary,
      ...(lesson.type === 'guard' ? { reason: rendered.reason } : {}),
      sig,
      file,
    };
    return { lesson: entry, text, ...keys, primary: '' };
  });

  // File each lesson with its least common key, so lessons sharing a key share blocks.
  const frequency = new Map<string, number>();
  for (const e of entries)
    for (const k of [...e.literals, ...e.keys]) frequency.set(k, (frequency.get(k) ?? 0) + 1);
  for (const e of entries) {
    const all = [...e.literals, ...e.keys];
    all.sort((a, b) => (frequency.get(b) ?? 0) - (frequency.get(a) ?? 0) || (a < b ? -1 : 1));
    e.primary = e.always ? '\u0000always' : (all[0] ?? '\uffffnone');
  }
  entries.sort(
    (a, b) =>
      (a.primary < b.primary ? -1 : a.primary > b.primary ? 1 : 0) ||
      b.lesson.score - a.lesson.score ||
      (a.lesson.id < b.lesson.id ? -1 : 1),
  );

  const literalOrdinals = new Map<string, number[]>();
  const keyOrdinals = new Map<string, number[]>();
  const wordOrdinals = new Map<string, number[]>();
  const always: number[] = [];
  const push = (map: Map<string, number[]>, key: string, n: number) => {
    const list = map.get(key);
    if (list) list.push(n);
    else map.set(key, [n]);
  };
  entries.forEach((e, n) => {
    e.lesson.n = n;
    if (e.always) always.push(n);
    for (const literal of e.literals) push(literalOrdinals, literal, n);
    for (const key of e.keys) push(keyOrdinals, key, n);
    for (const word of e.lesson.words) push(wordOrdinals, word, n);
  });

  const startup = entries
    .map((e, n) => ({ e, n }))
    .filter(({ e }) => e.lesson.tier === 'project' && !e.lesson.needsReview && !e.lesson.guard)
    .sort((a, b) => b.e.lesson.score - a.e.lesson.score || (a.e.lesson.id < b.e.lesson.id ? -1 : 1))
    .slice(0, 20)
    .map(({ n }) => n);

  const blocks: ManifestLesson[][] = [];
  const texts: ManifestText[][] = [];
  for (let i = 0; i < entries.length; i += blockSize) {
    blocks.push(entries.slice(i, i + blockSize).map((e) => e.lesson));
    texts.push(entries.slice(i, i + blockSize).map((e) => e.text));
  }

  const rangesOf = (map: Map<string, number[]>) =>
    Object.fromEntries(
      [...map].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => [k, toRanges(v)]),
    );
  const words: ManifestWords = rangesOf(wordOrdinals);
  return {
    head: {
      version: MANIFEST_VERSION,
      generation: input.generation,
      builtAtMs: input.nowMs,
      projectRoot: input.projectRoot,
      settings: input.settings,
      stack: [...input.stack],
      sources: input.sources,
      blockSize,
      lessonCount: entries.length,
      literals: rangesOf(literalOrdinals),
      keys: rangesOf(keyOrdinals),
      always: toRanges(always),
      startup,
    },
    words,
    blocks,
    texts,
  };
}

/**
 * Stage 2, load: the lessons worth matching for this event, read from the manifest. Only lessons
 * whose literals occur in the input (or whose exact keys it names, or that sit in the
 * always-checked set) are candidates (`candidateOrdinals`); `createLessonCursor` reads them one by
 * one on demand (`readLesson` does the I/O), so `selectLessons`, walking them in rank order and
 * stopping once the plan is settled, reads only the first few.
 */
import { tableLookup } from './literal-keys.js';
import type { LiteralLookup, LiteralTexts } from './literal-keys.js';
import { decodePostings } from './postings.js';
import { normalizeTool } from './tool-names.js';
import { promptWords } from './prompt-tokens.js';
import type {
  HookEvent,
  LessonReader,
  Manifest,
  ManifestHead,
  ManifestLesson,
  ManifestWords,
  Match,
  TextReader,
} from './types.js';

/**
 * The texts literal keys are looked for in: commands and prompts for command literals, the
 * repo-relative paths (what globs are matched against; absolute paths would match literals of
 * their parents) and prompts for path literals.
 */
export function literalTexts(event: HookEvent, repoPaths: readonly string[]): LiteralTexts {
  const prompt = event.prompt ?? '';
  return {
    command: event.command === undefined ? prompt : `${event.command}\n${prompt}`,
    paths: prompt === '' ? repoPaths.join('\n') : [prompt, ...repoPaths].join('\n'),
    tool: event.tool === undefined ? undefined : normalizeTool(event.tool),
    toolCall: event.event === 'PreToolUse',
    anchored: event.command !== undefined && prompt === '',
  };
}

/** The words table's key of the lessons with a single summary word (no word or tag value is `#`). */
export const ONE_WORD_KEY = '#';

/**
 * The lessons a prompt's words can bring (create-matcher.ts): two of their summary words in it, or
 * one when they have one, or one and the value of one of their tags.
 */
export function wordCandidates(words: ManifestWords, prompt: ReadonlySet<string>): number[] {
  const hits = new Map<number, number>();
  const one = new Set<number>();
  for (const word of prompt) {
    if (Object.hasOwn(words, word))
      for (const n of decodePostings(words[word])) hits.set(n, (hits.get(n) ?? 0) + 1);
    const tag = `#${word}`;
    if (Object.hasOwn(words, tag)) for (const n of decodePostings(words[tag])) one.add(n);
  }
  if (Object.hasOwn(words, ONE_WORD_KEY)) for (const n of decodePostings(words[ONE_WORD_KEY])) one.add(n);
  const out: number[] = [];
  for (const [n, count] of hits) if (count >= 2 || one.has(n)) out.push(n);
  return out;
}

/** The ordinals of every lesson worth matching for this event, ascending. */
export function candidateOrdinals(
  event: HookEvent,
  head: ManifestHead,
  repoPaths: readonly string[],
  literals: LiteralLookup,
  words?: ManifestWords,
): number[] {
  const out: number[] = [];
  if (event.event === 'PreToolUse' || event.event === 'UserPromptSubmit') {
    literals(literalTexts(event, repoPaths), (postings) => decodePostings(postings, out));
    decodePostings(head.always, out);
    if (event.tool !== undefined) decodePostings(head.keys[`tool:${normalizeTool(event.tool)}`], out);
    if (event.prompt !== undefined && words !== undefined && event.event === 'UserPromptSubmit') {
      out.push(...wordCandidates(words, promptWords(event.prompt)));
    }
  } else if (event.event === 'SessionStart') {
    out.push(...head.startup);
  }
  out.sort((a, b) => a - b);
  let unique = 0;
  for (let i = 0; i < out.length; i += 1) {
    if (i === 0 || out[i] !== out[i - 1]) out[unique++] = out[i] as number;
  }
  out.length = unique;
  return out;
}

/** Reads lessons by ordinal, checking each is the lesson it claims to be, and counts the reads. */
export function createLessonCursor(readLesson: LessonReader) {
  const cursor = {
    read: 0,
    at(n: number): ManifestLesson | undefined {
      cursor.read += 1;
      const lesson = readLesson(n);
      return lesson === undefined || lesson === null || lesson.n !== n ? undefined : lesson;
    },
  };
  return cursor;
}

/** The texts of matched lessons (read only for these). */
export function attachTexts(matches: readonly Match[], readText: TextReader): Match[] {
  return matches.map((match) => {
    const text = readText(match.lesson.n) ?? undefined;
    return text === undefined ? match : { ...match, text };
  });
}

/** Readers over a manifest held in memory (`lore explain`, tests). */
export function manifestReaders(manifest: Pick<Manifest, 'head' | 'blocks' | 'texts' | 'literals'>): {
  readLesson: LessonReader;
  readText: TextReader;
  literals: LiteralLookup;
} {
  const size = manifest.head.blockSize;
  return {
    literals: tableLookup(manifest.literals),
    readLesson: (n) => manifest.blocks[Math.floor(n / size)]?.[n % size] ?? undefined,
    readText: (n) => manifest.texts[Math.floor(n / size)]?.[n % size] ?? undefined,
  };
}

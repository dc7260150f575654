/**
 * Stage 2, load: the lessons worth matching for this event, read from the manifest. Only lessons
 * whose literals occur in the input (or whose exact keys it names, or that sit in the
 * always-checked set) are candidates; their blocks are read on demand (`readBlock` does the I/O),
 * so a caller that walks them in rank order and stops early reads only the first few.
 */
import { decodePostings } from './postings.js';
import { normalizeTool } from './tool-names.js';
import type {
  BlockReader,
  HookEvent,
  ManifestHead,
  ManifestLesson,
  ManifestText,
  ManifestWords,
  Match,
  TextReader,
} from './types.js';

/**
 * The text literals are looked for in: the command, the prompt and the repo-relative paths (what
 * regexes and globs are matched against; absolute paths would match literals of their parents).
 */
export function eventHaystack(event: HookEvent, repoPaths: readonly string[]): string {
  return [event.command ?? '', event.prompt ?? '', ...repoPaths].join('\n');
}

/** Lowercase words of a prompt, as summary words are cut. */
export function promptWords(prompt: string): Set<string> {
  return new Set(prompt.toLowerCase().match(/[a-z0-9][a-z0-9_.-]*[a-z0-9]/g) ?? []);
}

export type Candidates = { lessons: ManifestLesson[]; blocksRead: number };

/** The ordinals of every lesson worth matching for this event, ascending. */
export function candidateOrdinals(
  event: HookEvent,
  head: ManifestHead,
  repoPaths: readonly string[],
  words?: ManifestWords,
): number[] {
  const out: number[] = [];
  if (event.event === 'PreToolUse' || event.event === 'UserPromptSubmit') {
    const haystack = eventHaystack(event, repoPaths);
    for (const literal in head.literals) {
      if (haystack.includes(literal)) decodePostings(head.literals[literal], out);
    }
    decodePostings(head.always, out);
    if (event.tool !== undefined) decodePostings(head.keys[`tool:${normalizeTool(event.tool)}`], out);
    if (event.prompt !== undefined && words !== undefined && event.event === 'UserPromptSubmit') {
      for (const word of promptWords(event.prompt)) {
        if (Object.hasOwn(words, word)) decodePostings(words[word], out);
      }
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

export function loadCandidates(
  event: HookEvent,
  head: ManifestHead,
  repoPaths: readonly string[],
  readBlock: BlockReader,
  words?: ManifestWords,
): Candidates {
  return readOrdinals(candidateOrdinals(event, head, repoPaths, words), head.blockSize, readBlock);
}

/** Reads blocks on demand, each once; `read` counts them. */
export function createLessonCursor(blockSize: number, readBlock: BlockReader) {
  let current = -1;
  let block: (ManifestLesson | null)[] | undefined;
  const cursor = {
    blocksRead: 0,
    at(n: number): ManifestLesson | undefined {
      const b = Math.floor(n / blockSize);
      if (b !== current) {
        current = b;
        block = readBlock(b);
        cursor.blocksRead += 1;
      }
      const lesson = block?.[n - b * blockSize];
      return lesson === null || lesson === undefined || lesson.n !== n ? undefined : lesson;
    },
  };
  return cursor;
}

/** Lessons at `ordinals` (sorted), reading each block once; holes are left out. */
export function readOrdinals(
  ordinals: readonly number[],
  blockSize: number,
  readBlock: BlockReader,
): Candidates {
  const cursor = createLessonCursor(blockSize, readBlock);
  const lessons: ManifestLesson[] = [];
  for (const n of ordinals) {
    const lesson = cursor.at(n);
    if (lesson !== undefined) lessons.push(lesson);
  }
  return { lessons, blocksRead: cursor.blocksRead };
}

/** Reads the texts of lessons on demand, each text block once. */
export function createTextCursor(blockSize: number, readTexts: TextReader) {
  const cache = new Map<number, ReturnType<TextReader>>();
  return (n: number): ManifestText | undefined => {
    const block = Math.floor(n / blockSize);
    if (!cache.has(block)) cache.set(block, readTexts(block));
    return cache.get(block)?.[n - block * blockSize] ?? undefined;
  };
}

/** The texts of matched lessons, from the text blocks (read only for these). */
export function attachTexts(matches: readonly Match[], blockSize: number, readTexts: TextReader): Match[] {
  const textAt = createTextCursor(blockSize, readTexts);
  return matches.map((match) => {
    const text = textAt(match.lesson.n);
    return text === undefined ? match : { ...match, text };
  });
}

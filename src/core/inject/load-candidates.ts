/**
 * Stage 2, load: the lessons worth matching for this event, read from the manifest. Only blocks
 * holding lessons whose literals occur in the input (or whose exact keys it names, or that sit in
 * the always-checked set) are read; `readBlock` does the I/O.
 */
import { normalizeTool } from './tool-names.js';
import type {
  BlockReader,
  HookEvent,
  ManifestHead,
  ManifestLesson,
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

function addRanges(out: Set<number>, ranges: readonly number[] | undefined): void {
  if (ranges === undefined) return;
  for (let i = 0; i + 1 < ranges.length; i += 2) {
    const start = ranges[i] as number;
    const count = ranges[i + 1] as number;
    for (let n = start; n < start + count; n += 1) out.add(n);
  }
}

export type Candidates = { lessons: ManifestLesson[]; blocksRead: number };

export function loadCandidates(
  event: HookEvent,
  head: ManifestHead,
  repoPaths: readonly string[],
  readBlock: BlockReader,
  words?: ManifestWords,
): Candidates {
  const ordinals = new Set<number>();
  if (event.event === 'PreToolUse' || event.event === 'UserPromptSubmit') {
    const haystack = eventHaystack(event, repoPaths);
    for (const literal in head.literals) {
      if (haystack.includes(literal)) addRanges(ordinals, head.literals[literal]);
    }
    addRanges(ordinals, head.always);
    if (event.tool !== undefined) addRanges(ordinals, head.keys[`tool:${normalizeTool(event.tool)}`]);
    if (event.prompt !== undefined && words !== undefined && event.event === 'UserPromptSubmit') {
      for (const word of promptWords(event.prompt)) {
        if (Object.hasOwn(words, word)) addRanges(ordinals, words[word]);
      }
    }
  } else if (event.event === 'SessionStart') {
    for (const n of head.startup) ordinals.add(n);
  }
  return readOrdinals(
    [...ordinals].sort((a, b) => a - b),
    head.blockSize,
    readBlock,
  );
}

/** Lessons at `ordinals` (sorted), reading each block once. */
export function readOrdinals(
  ordinals: readonly number[],
  blockSize: number,
  readBlock: BlockReader,
): Candidates {
  const lessons: ManifestLesson[] = [];
  let current = -1;
  let block: ManifestLesson[] | undefined;
  let blocksRead = 0;
  for (const n of ordinals) {
    const b = Math.floor(n / blockSize);
    if (b !== current) {
      current = b;
      block = readBlock(b);
      blocksRead += 1;
    }
    const lesson = block?.[n - b * blockSize];
    if (lesson !== undefined) lessons.push(lesson);
  }
  return { lessons, blocksRead };
}

/** The texts of matched lessons, from the text blocks (read only for these). */
export function attachTexts(matches: readonly Match[], blockSize: number, readTexts: TextReader): Match[] {
  const cache = new Map<number, ReturnType<TextReader>>();
  return matches.map((match) => {
    const block = Math.floor(match.lesson.n / blockSize);
    if (!cache.has(block)) cache.set(block, readTexts(block));
    const text = cache.get(block)?.[match.lesson.n - block * blockSize];
    return text === undefined ? match : { ...match, text };
  });
}

/**
 * The lite freshness check of a read (see refresh-index.ts), computed without a string or an
 * object per lesson: the stored listings are read as bytes, each path is written into one reused
 * buffer, and only the aggregate comes out. What it skips at 10,000 lessons: parsing the listings
 * into 10,000 strings, building 11,500 path strings, and the three or four young-generation
 * garbage collections all of that caused (2-3 ms each here), some 10 ms of every `lore search`
 * and `lore mcp` start. Its aggregate is the one `scanTiers` computes from the same hint, since an
 * ASCII name hashes the same as bytes (scan-aggregate.ts).
 *
 * Why every lesson.yaml is still stat-ed: a person edits lesson files in place (an editor that
 * truncates and rewrites, `sed -i` on some systems, `echo >>`), and that changes nothing but the
 * file's own mtime and size: not its directory's, not the lessons folder's. Any lesson, once
 * edited, can enter any search's answer (a word added to its summary), so "stat only the lessons
 * in the answer" would miss exactly the edit a person just made and then searched for. Directory
 * mtimes (part of the freshness context) stand in only for what they do see: lessons added or
 * removed, which is what lets this check read the stored listing instead of listing the folders.
 *
 * Undefined whenever it cannot be sure to agree with `scanTiers`: a name that is not plain ASCII
 * or needs escaping in JSON, a listing that does not parse, a listed name without lesson.yaml
 * (a legacy file, a crashed writer's directory), any error. The caller then scans as before. A
 * votes file is looked for by a hash of the name (no string per name): a lesson whose name shares
 * the hash of one with votes has its votes.jsonl looked for too, which finds nothing, or finds a
 * votes file the hint did not know of and so reports a change, which the full scan then sorts out.
 */
import { sep } from 'node:path';
import { STAMP_WIDTH } from '../fs/file-signature.js';
import { inDirectory, stampFile } from '../fs/stat-numbers.js';
import { LESSON_FILE, VOTES_FILE } from '../lessons/tier-store.js';
import type { TierStore } from '../lessons/tier-store.js';
import { createAggregate } from './scan-aggregate.js';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN = 0x5b;
const CLOSE = 0x5d;
const DOT = 0x2e;

/** FNV-1a of a name's bytes, or of its char codes: the same for ASCII. */
function nameHash(bytes: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i += 1) h = Math.imul(h ^ (bytes[i] as number), 0x01000193);
  return h >>> 0;
}

function stringHash(name: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i += 1) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** Per tier index, the hashes of the names `voted` (`<tier index>:<name>` lines) lists. */
function votedHashes(voted: string, tiers: number): Set<number>[] {
  const byTier = Array.from({ length: tiers }, () => new Set<number>());
  for (const key of voted.split('\n')) {
    const colon = key.indexOf(':');
    if (colon <= 0) continue;
    byTier[Number(key.slice(0, colon))]?.add(stringHash(key.slice(colon + 1)));
  }
  return byTier;
}

/**
 * The names of the stored listings (`JSON.stringify` of one array of names, or null, per tier), as
 * byte ranges: name i of the whole text is `text[bounds[2i]..bounds[2i+1])`, and tier t holds the
 * names `tiers[t][0]` up to `tiers[t][1]` (null: no lessons folder). Undefined when the text is
 * not that, or holds a byte that is not ASCII or an escape. One typed array, not an array that
 * grows, and no object per name.
 */
export function listingRanges(
  text: Uint8Array,
  tierCount: number,
): { bounds: Uint32Array; tiers: ([number, number] | null)[] } | undefined {
  // indexed: for..of over a buffer makes an iterator result per byte until V8 optimises the loop
  let quotes = 0;
  for (let i = 0; i < text.length; i += 1) {
    const byte = text[i] as number;
    if (byte >= 0x80 || byte === BACKSLASH) return undefined;
    if (byte === QUOTE) quotes += 1;
  }
  const bounds = new Uint32Array(quotes);
  const tiers: ([number, number] | null)[] = [];
  let count = 0;
  let i = 0;
  if (text[i++] !== OPEN) return undefined;
  for (let t = 0; t < tierCount; t += 1) {
    if (t > 0 && text[i++] !== COMMA) return undefined;
    if (text[i] === 0x6e) {
      // null
      if (text[i + 1] !== 0x75 || text[i + 2] !== 0x6c || text[i + 3] !== 0x6c) return undefined;
      tiers.push(null);
      i += 4;
      continue;
    }
    if (text[i++] !== OPEN) return undefined;
    const first = count;
    while (text[i] !== CLOSE) {
      if (count > first && text[i++] !== COMMA) return undefined;
      if (text[i++] !== QUOTE) return undefined;
      const start = i;
      while (i < text.length && text[i] !== QUOTE) i += 1;
      if (i >= text.length) return undefined;
      bounds[2 * count] = start;
      bounds[2 * count + 1] = i;
      count += 1;
      i += 1;
    }
    i += 1;
    tiers.push([first, count]);
  }
  return text[i] === CLOSE && i === text.length - 1 ? { bounds, tiers } : undefined;
}

/** Where a file of each lesson directory is named: the prefix, the name's bytes, the file. */
function pathBuffers(prefix: string, file: string) {
  const head = Buffer.from(prefix, 'utf8');
  const tail = Buffer.from(`${sep}${file}`, 'utf8');
  const byLength = new Map<number, Buffer>();
  return (text: Uint8Array, start: number, end: number): Buffer => {
    const length = end - start;
    let path = byLength.get(length);
    if (path === undefined) {
      path = Buffer.allocUnsafe(head.length + length + tail.length);
      head.copy(path, 0);
      tail.copy(path, head.length + length);
      byLength.set(length, path);
    }
    // byte by byte: a subarray or Buffer#copy would make an object per file
    for (let i = 0; i < length; i += 1) path[head.length + i] = text[start + i] as number;
    return path;
  };
}

/**
 * The aggregate `scanTiers(tiers, { voted, listings })` would give, from the stored `listings`
 * and `voted` texts (refresh-index.ts's meta); undefined when it cannot tell (see above).
 */
export function liteAggregate(
  tiers: readonly TierStore[],
  listingsText: string,
  votedText: string,
): string | undefined {
  try {
    const text = Buffer.from(listingsText, 'utf8');
    const listings = listingRanges(text, tiers.length);
    if (listings === undefined) return undefined;
    const voted = votedHashes(votedText, tiers.length);
    const aggregate = createAggregate();
    const stamps = new Float64Array(STAMP_WIDTH);
    for (const [t, tier] of tiers.entries()) {
      const names = listings.tiers[t];
      if (names === null || names === undefined) continue;
      const { bounds } = listings;
      const withVotes = voted[t] as Set<number>;
      const complete = inDirectory(tier.layout.lessonsDir, (prefix) => {
        const lessonPath = pathBuffers(prefix, LESSON_FILE);
        const votesPath = pathBuffers(prefix, VOTES_FILE);
        for (let n = names[0]; n < names[1]; n += 1) {
          const start = bounds[2 * n] as number;
          const end = bounds[2 * n + 1] as number;
          if (text[start] === DOT) continue;
          if (!stampFile(lessonPath(text, start, end), stamps, 0)) return false;
          aggregate.addBytes(text, start, end, t * 4 + 1, stamps, 0);
          if (withVotes.size > 0 && withVotes.has(nameHash(text, start, end))) {
            if (stampFile(votesPath(text, start, end), stamps, 0)) {
              aggregate.addBytes(text, start, end, t * 4 + 2, stamps, 0);
            }
          }
        }
        return true;
      });
      if (!complete) return undefined;
    }
    return aggregate.value();
  } catch {
    return undefined;
  }
}

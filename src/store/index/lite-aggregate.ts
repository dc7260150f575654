/**
 * The lite freshness check of a read (see refresh-index.ts), from a stored form that needs no
 * parsing: a full scan writes it (`encodeLiteForm`, the meta key `liteForm`), and a read stats the
 * files it lists and sums their hashes (`liteAggregate`), with no string and no object per lesson.
 * Its aggregate is the one `scanTiers` computes from the same hint (the listings and the votes
 * files the full scan found).
 *
 * The form (one BLOB, 32-bit words in the platform's byte order, then bytes):
 *   words 0-2: FORM_MAGIC, the number of tiers, the longest path in bytes;
 *   per tier, 2 words: its number of lessons (NO_FOLDER when it has no lessons folder), and of
 *   votes files;
 *   per tier, for its lessons then for its votes files: 2 seeds per file (scan-aggregate.ts: the
 *   name and the kind hashed), then n + 1 byte offsets, file i's path lying between offsets i
 *   and i + 1;
 *   then the paths, relative to the tier's lessons folder (`<name>/lesson.yaml`) in UTF-8, as
 *   Node encodes a path given as a string.
 * What a read skips this way at 10,000 lessons, against parsing the stored JSON listing as bytes
 * (the form before this one): a pass over its 130 KB byte by byte, a copy of each name into the
 * path byte by byte, and a hash of each name, twice, all of it before V8 optimises the loop: the
 * check's CPU time in a fresh process went from 49 to 36 ms (medians of 21, at a load average of
 * 10; the 11,516 stat calls alone take 18 ms from C). The form is about 390 KB for 10,000 lessons.
 *
 * Why every lesson.yaml is still stat-ed: a person edits lesson files in place (an editor that
 * truncates and rewrites, `sed -i` on some systems, `echo >>`), and that changes nothing but the
 * file's own mtime and size: not its directory's, not the lessons folder's. Any lesson, once
 * edited, can enter any search's answer (a word added to its summary), so "stat only the lessons
 * in the answer" would miss exactly the edit a person just made and then searched for. Directory
 * mtimes (part of the freshness context) stand in only for what they do see: lessons added or
 * removed, which is what lets this check use the stored form instead of listing the folders.
 *
 * No form is written when the scan saw anything but lesson folders with a lesson.yaml (and dot
 * folders): a folder without lesson.yaml, a legacy or stray file. A read then scans as before.
 * Undefined whenever the check cannot be sure to agree with `scanTiers`: a form of another shape
 * or tier count, a listed lesson.yaml gone, any error. A file edited gives another aggregate, so
 * the read scans in full, and that scan writes the form again. refresh-index.ts stores the form
 * with the aggregate of the scan that wrote it (`liteFormOf`) and uses it only while that is the
 * stored aggregate: an older lore's full scan writes the aggregate and leaves the form alone.
 */
import { sep } from 'node:path';
import { STAMP_WIDTH } from '../fs/file-signature.js';
import { inDirectory, stampPaths } from '../fs/stat-numbers.js';
import { LESSON_FILE, VOTES_FILE } from '../lessons/tier-store.js';
import type { TierStore } from '../lessons/tier-store.js';
import { createAggregate, writeNameSeeds } from './scan-aggregate.js';
import type { Scan } from './scan-tiers.js';

/** 'LLF1' in the platform's byte order: a form of another layout, or byte order, is not read. */
const FORM_MAGIC = 0x3146_4c4c;
const NO_FOLDER = 0xffff_ffff;
const HEAD_WORDS = 3;

/** One tier's files in the form: names (and each name's file), in scan order. */
type FormSection = { names: readonly string[]; file: string; kind: number };

/** Each tier's lessons and votes files, or undefined when the scan saw anything else. */
function formSections(scan: Scan): ([FormSection, FormSection] | null)[] | undefined {
  const voted = new Map<number, string[]>();
  for (const key of scan.voted) {
    const colon = key.indexOf(':');
    const t = Number(key.slice(0, colon));
    const names = voted.get(t) ?? [];
    names.push(key.slice(colon + 1));
    voted.set(t, names);
  }
  const sections: ([FormSection, FormSection] | null)[] = [];
  let next = 0;
  for (const [t, listing] of scan.listings.entries()) {
    if (listing === null) {
      sections.push(null);
      continue;
    }
    const tierScan = scan.tiers[next];
    next += 1;
    const lessons = listing.filter((name) => name.charCodeAt(0) !== 46).length;
    if (tierScan === undefined || tierScan.orphans.size > 0 || tierScan.names.length !== lessons)
      return undefined;
    sections.push([
      { names: tierScan.names, file: LESSON_FILE, kind: t * 4 + 1 },
      { names: voted.get(t) ?? [], file: VOTES_FILE, kind: t * 4 + 2 },
    ]);
  }
  return sections;
}

/** Whether `scan` has a stored form: a full scan that saw only lesson folders with a lesson.yaml. */
export function hasLiteForm(scan: Scan): boolean {
  return !scan.lite && formSections(scan) !== undefined;
}

/**
 * The stored form of a full scan's files (see above); undefined for a lite scan, and when the scan
 * saw anything but lesson folders with a lesson.yaml.
 */
export function encodeLiteForm(scan: Scan): Uint8Array | undefined {
  if (scan.lite) return undefined;
  const sections = formSections(scan);
  if (sections === undefined) return undefined;
  const all = sections.flatMap((pair) => pair ?? []);
  // Every full scan writes the form (each write by lore ends with one): the paths are encoded in
  // one piece and the offsets counted, not a Buffer and a copy per file (12-30 ms at 10,000
  // lessons that way, against 2-4 ms).
  const text = all.map(({ names, file }) =>
    names.length === 0 ? '' : `${names.join(`${sep}${file}`)}${sep}${file}`,
  );
  const paths = Buffer.from(text.join(''), 'utf8');
  const ascii = paths.length === text.reduce((sum, part) => sum + part.length, 0);
  let words = HEAD_WORDS + 2 * sections.length;
  for (const { names } of all) words += 3 * names.length + 1;
  const form = Buffer.alloc(4 * words + paths.length);
  form.set(paths, 4 * words);
  const table = new Uint32Array(form.buffer, form.byteOffset, words);
  table[0] = FORM_MAGIC;
  table[1] = sections.length;
  for (const [t, pair] of sections.entries()) {
    table[HEAD_WORDS + 2 * t] = pair === null ? NO_FOLDER : pair[0].names.length;
    table[HEAD_WORDS + 2 * t + 1] = pair === null ? 0 : pair[1].names.length;
  }
  let word = HEAD_WORDS + 2 * sections.length;
  let offset = 4 * words;
  let longest = 0;
  for (const { names, file, kind } of all) {
    for (let i = 0; i < names.length; i += 1) writeNameSeeds(names[i] as string, kind, table, word + 2 * i);
    word += 2 * names.length;
    const tail = Buffer.byteLength(`${sep}${file}`);
    for (const name of names) {
      table[word] = offset;
      word += 1;
      const length = (ascii ? name.length : Buffer.byteLength(name)) + tail;
      longest = Math.max(longest, length);
      offset += length;
    }
    table[word] = offset;
    word += 1;
  }
  table[2] = longest;
  return form;
}

/** The longest prefix `inDirectory` may give for these tiers' lessons folders, in bytes. */
const prefixRoom = (tiers: readonly TierStore[]) =>
  Math.max(0, ...tiers.map((tier) => Buffer.byteLength(`${tier.layout.lessonsDir}${sep}`)));

/**
 * Whether the `count` paths whose ends start at `table[from]` lie, in order, between `low` and
 * `high`, none empty or longer than `longest`: what `stampPaths` takes on trust.
 */
function rangesFit(
  table: Uint32Array,
  from: number,
  count: number,
  low: number,
  high: number,
  longest: number,
) {
  let end = table[from] as number;
  if (end < low) return false;
  for (let i = 1; i <= count; i += 1) {
    const next = table[from + i] as number;
    if (next <= end || next - end > longest) return false;
    end = next;
  }
  return end <= high;
}

/**
 * The aggregate `scanTiers(tiers, hint)` would give, `hint` being what the full scan that wrote
 * `stored` (`encodeLiteForm`) found; undefined when it cannot tell (see above).
 */
export function liteAggregate(
  tiers: readonly TierStore[],
  stored: ArrayBuffer | Uint8Array,
): string | undefined {
  try {
    const form = stored instanceof Uint8Array ? stored : new Uint8Array(stored);
    if (form.byteLength < 4 * HEAD_WORDS) return undefined;
    const head = new Uint32Array(HEAD_WORDS);
    new Uint8Array(head.buffer).set(form.subarray(0, 4 * HEAD_WORDS));
    const longest = head[2] as number;
    if (head[0] !== FORM_MAGIC || head[1] !== tiers.length || longest > 0xffff) return undefined;
    // A buffer of its own: the form's words aligned, and room before them for the path stat-ed.
    const base = 8 * Math.ceil((prefixRoom(tiers) + longest) / 8);
    const bytes = Buffer.allocUnsafeSlow(base + form.byteLength);
    bytes.set(form, base);
    const table = new Uint32Array(bytes.buffer, bytes.byteOffset + base, Math.floor(form.byteLength / 4));
    const aggregate = createAggregate();
    let stamps = new Float64Array(0);
    let word = HEAD_WORDS + 2 * tiers.length;
    for (const [t, tier] of tiers.entries()) {
      const lessons = table[HEAD_WORDS + 2 * t] as number;
      const votes = table[HEAD_WORDS + 2 * t + 1] as number;
      if (lessons === NO_FOLDER) continue;
      const seeds = [word, word + 3 * lessons + 1];
      const ends = [word + 2 * lessons, word + 3 * lessons + 1 + 2 * votes];
      const next = word + 3 * (lessons + votes) + 2;
      if (next > table.length) return undefined;
      if (!rangesFit(table, ends[0] as number, lessons, 4 * next, form.byteLength, longest)) return undefined;
      if (!rangesFit(table, ends[1] as number, votes, 4 * next, form.byteLength, longest)) return undefined;
      if (stamps.length < STAMP_WIDTH * Math.max(lessons, votes)) {
        stamps = new Float64Array(STAMP_WIDTH * Math.max(lessons, votes));
      }
      const complete = inDirectory(tier.layout.lessonsDir, (prefix) => {
        const at = bytes.write(prefix, 0, 'utf8');
        // every lesson.yaml must be there (else a full scan looks); a votes file may be gone
        stampPaths({ bytes, at, ends: table, from: ends[0] as number, base, count: lessons }, stamps);
        if (aggregate.addSeeded(table, seeds[0] as number, stamps, lessons) > 0) return false;
        stampPaths({ bytes, at, ends: table, from: ends[1] as number, base, count: votes }, stamps);
        aggregate.addSeeded(table, seeds[1] as number, stamps, votes);
        return true;
      });
      if (!complete) return undefined;
      word = next;
    }
    return aggregate.value();
  } catch {
    return undefined;
  }
}

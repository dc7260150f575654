/**
 * The literal index on disk: one file per domain (`c`, the literals of command regexes and `tool:`
 * tags; `p`, those of path globs and `lang:` tags), each a hash table read with one readFileSync
 * and probed in place, never parsed. A Bash call reads only the command file, an Edit or Read only
 * the path file (a tool call has a command or paths, never both), a prompt both.
 *
 * With the keys in the head as JSON (up to v6), a store of 10,000 lessons with a trigger each made
 * a 400 KB head whose parse and scan cost every call 5-10 ms; probing costs a call about one hash
 * lookup per character of its command or paths, whatever the number of keys (literal-grams.ts).
 *
 *   bytes 0-3    "LIX1"
 *   4-7          the file's length (a short read or a truncated file is refused)
 *   8-11         B, the number of buckets (a power of two)
 *   12-15        N, the number of keys
 *   16-19        a bit mask of the lengths of the keys' grams (bit g: some gram is g long)
 *   20-23        S, the length of the scope table
 *   24           the scope table: a JSON array of the keys' tool scopes, then padding to 4 bytes
 *   then         B + 1 u32: key i is in bucket b when start(b) <= i < start(b + 1)
 *   then         N x (gram hash u32, scope u32): the keys, bucket by bucket
 *   then         N + 1 u32: where each key's record starts in the records, and where the last ends
 *   then         the records, UTF-8: `<literals, \u0001 between>\u0003<postings>`
 *
 * All numbers little endian. Node built-ins only: the hook imports this.
 */
import { chooseGrams, gramHash, GRAM } from '../../core/inject/literal-grams.js';
import { haystackOf, literalEntries, literalsOccur, scopeAdmits } from '../../core/inject/literal-keys.js';
import type {
  LiteralDomain,
  LiteralEntry,
  LiteralLookup,
  LiteralTable,
  LiteralTexts,
} from '../../core/inject/literal-keys.js';

const MAGIC = 0x3158494c; // "LIX1" read as u32 LE
const HEADER = 24;
const POSTINGS = '\u0003';

/** A literal index file that cannot be read: the manifest must be rebuilt. */
export class LiteralIndexError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LiteralIndexError';
  }
}

const align4 = (n: number) => (n + 3) & ~3;

/** The index file of one domain's keys of `table`; undefined when the domain has none. */
export function encodeLiteralIndex(table: Readonly<LiteralTable>, domain: LiteralDomain): Buffer | undefined {
  const entries = literalEntries(table).filter((entry) => entry.domain === domain);
  if (entries.length === 0) return undefined;
  const grams = chooseGrams(entries.map((entry) => entry.part));
  const scopes = [...new Set(entries.map((entry) => entry.scope))].sort();
  const scopeIndex = new Map(scopes.map((scope, i) => [scope, i]));
  let buckets = 8;
  while (buckets < entries.length * 2) buckets *= 2;
  let mask = 0;
  const keyed = entries.map((entry, i) => {
    const gram = grams[i] ?? '';
    mask |= 1 << gram.length;
    const hash = gramHash(gram, 0, gram.length);
    return { entry, hash, bucket: hash & (buckets - 1), order: i };
  });
  keyed.sort((a, b) => a.bucket - b.bucket || a.order - b.order);
  const records = keyed.map(({ entry }) => Buffer.from(`${entry.part}${POSTINGS}${entry.postings}`, 'utf8'));
  const scopeBytes = Buffer.from(JSON.stringify(scopes), 'utf8');
  const bucketsAt = align4(HEADER + scopeBytes.length);
  const entriesAt = bucketsAt + 4 * (buckets + 1);
  const startsAt = entriesAt + 8 * keyed.length;
  const dataAt = startsAt + 4 * (keyed.length + 1);
  const dataLength = records.reduce((sum, record) => sum + record.length, 0);
  const out = Buffer.alloc(dataAt + dataLength);
  out.writeUInt32LE(MAGIC, 0);
  out.writeUInt32LE(out.length, 4);
  out.writeUInt32LE(buckets, 8);
  out.writeUInt32LE(keyed.length, 12);
  out.writeUInt32LE(mask >>> 0, 16);
  out.writeUInt32LE(scopeBytes.length, 20);
  scopeBytes.copy(out, HEADER);
  let k = 0;
  for (let b = 0; b <= buckets; b += 1) {
    while (k < keyed.length && (keyed[k] as (typeof keyed)[number]).bucket < b) k += 1;
    out.writeUInt32LE(k, bucketsAt + 4 * b);
  }
  let offset = 0;
  keyed.forEach(({ entry, hash }, i) => {
    out.writeUInt32LE(hash, entriesAt + 8 * i);
    out.writeUInt32LE(scopeIndex.get(entry.scope) ?? 0, entriesAt + 8 * i + 4);
    out.writeUInt32LE(offset, startsAt + 4 * i);
    (records[i] as Buffer).copy(out, dataAt + offset);
    offset += (records[i] as Buffer).length;
  });
  out.writeUInt32LE(offset, startsAt + 4 * keyed.length);
  return out;
}

/** An index file, checked and ready to probe. */
export type LiteralIndex = {
  domain: LiteralDomain;
  buffer: Buffer;
  /** The numbers, read through a DataView: Buffer's readUInt32LE costs a fresh process ~0.05 ms to set up. */
  view: DataView;
  buckets: number;
  count: number;
  gramMask: number;
  scopes: string[];
  bucketsAt: number;
  entriesAt: number;
  startsAt: number;
  dataAt: number;
};

/** Checks an index file's frame; throws LiteralIndexError when it is not one, or cut short. */
export function openLiteralIndex(buffer: Buffer, domain: LiteralDomain): LiteralIndex {
  const fail = (why: string): never => {
    throw new LiteralIndexError(`literal index (${domain}): ${why}`);
  };
  const view = new DataView(buffer.buffer, buffer.byteOffset, buffer.length);
  const u32 = (at: number) => view.getUint32(at, true);
  if (buffer.length < HEADER || u32(0) !== MAGIC) fail('not a literal index');
  if (u32(4) !== buffer.length) fail(`${buffer.length} bytes, the header says otherwise`);
  const buckets = u32(8);
  const count = u32(12);
  const scopeLength = u32(20);
  if (buckets === 0 || (buckets & (buckets - 1)) !== 0) fail('bucket count');
  const bucketsAt = align4(HEADER + scopeLength);
  const entriesAt = bucketsAt + 4 * (buckets + 1);
  const startsAt = entriesAt + 8 * count;
  const dataAt = startsAt + 4 * (count + 1);
  if (dataAt > buffer.length || u32(entriesAt - 4) !== count) fail('tables');
  if (dataAt + u32(dataAt - 4) !== buffer.length) fail('records');
  let scopes: unknown;
  try {
    scopes = JSON.parse(buffer.toString('utf8', HEADER, HEADER + scopeLength));
  } catch {
    fail('scope table');
  }
  if (!Array.isArray(scopes) || !scopes.every((s) => typeof s === 'string')) return fail('scope table');
  return {
    domain,
    buffer,
    view,
    buckets,
    count,
    gramMask: u32(16),
    scopes: scopes as string[],
    bucketsAt,
    entriesAt,
    startsAt,
    dataAt,
  };
}

/** Record `i`'s text, or undefined when its bounds are off (a corrupt file). */
function recordText(index: LiteralIndex, i: number): string | undefined {
  const { buffer, view, startsAt, dataAt } = index;
  const start = dataAt + view.getUint32(startsAt + 4 * i, true);
  const end = dataAt + view.getUint32(startsAt + 4 * i + 4, true);
  return start <= end && end <= buffer.length ? buffer.toString('utf8', start, end) : undefined;
}

/**
 * Calls `found` with the postings of every key of `index` whose literals occur in the event's
 * texts (each key once): the keys under the gram of every position of the haystack are tested.
 */
export function probeLiteralIndex(
  index: LiteralIndex,
  texts: LiteralTexts,
  found: (postings: string) => void,
): void {
  const haystack = haystackOf(index.domain, texts);
  if (haystack === '' || index.count === 0) return;
  const { view, bucketsAt, entriesAt } = index;
  const admitted = index.scopes.map((scope) => scopeAdmits(scope, texts));
  if (!admitted.includes(true)) return;
  const anchored = texts.anchored === true;
  const tested = new Uint8Array(index.count);
  const last = index.buckets - 1;
  for (let length = GRAM; length >= 0; length -= 1) {
    if ((index.gramMask & (1 << length)) === 0) continue;
    for (let at = 0; at + length <= haystack.length; at += 1) {
      const hash = gramHash(haystack, at, length);
      const slot = bucketsAt + 4 * (hash & last);
      const end = Math.min(view.getUint32(slot + 4, true), index.count);
      for (let i = view.getUint32(slot, true); i < end; i += 1) {
        if (tested[i] === 1 || view.getUint32(entriesAt + 8 * i, true) !== hash) continue;
        tested[i] = 1;
        if (admitted[view.getUint32(entriesAt + 8 * i + 4, true)] !== true) continue;
        const text = recordText(index, i);
        const mid = text === undefined ? -1 : text.indexOf(POSTINGS);
        if (text === undefined || mid < 0) throw new LiteralIndexError(`literal index: record ${i}`);
        if (literalsOccur(text, 0, mid, haystack, anchored)) found(text.slice(mid + 1));
      }
      if (length === 0) break;
    }
  }
}

/**
 * The lookup over a manifest's index files: each domain's file is read (`read`) the first time a
 * call has text of that domain to look in, and only then. `read` returns undefined for a domain
 * without keys and throws when its file is missing.
 */
export function indexLookup(read: (domain: LiteralDomain) => Buffer | undefined): LiteralLookup {
  const opened = new Map<LiteralDomain, LiteralIndex | undefined>();
  const open = (domain: LiteralDomain) => {
    if (!opened.has(domain)) {
      const buffer = read(domain);
      opened.set(domain, buffer === undefined ? undefined : openLiteralIndex(buffer, domain));
    }
    return opened.get(domain);
  };
  return (texts, found) => {
    for (const domain of ['c', 'p'] as const) {
      if (haystackOf(domain, texts) === '') continue;
      const index = open(domain);
      if (index !== undefined) probeLiteralIndex(index, texts, found);
    }
  };
}

/** Every key of an index file, as `literalEntries` gives them (for a patch to rewrite). */
export function decodeLiteralIndex(index: LiteralIndex): LiteralEntry[] {
  const out: LiteralEntry[] = [];
  for (let i = 0; i < index.count; i += 1) {
    const text = recordText(index, i);
    const mid = text === undefined ? -1 : text.indexOf(POSTINGS);
    const scope = index.scopes[index.view.getUint32(index.entriesAt + 8 * i + 4, true)];
    if (text === undefined || mid < 0 || scope === undefined)
      throw new LiteralIndexError(`literal index: record ${i}`);
    out.push({ scope, domain: index.domain, part: text.slice(0, mid), postings: text.slice(mid + 1) });
  }
  return out;
}

/**
 * The hook manifest on disk, under a tier's derived cache (never committed):
 *
 *   <cache>/manifest/head.json            settings, stack, key tables, source stamps (written last)
 *   <cache>/manifest/<generation>/lessons.pack  precompiled lessons, in rank order, one record
 *                                             each (manifest-pack.ts: read one at a time)
 *   <cache>/manifest/<generation>/texts.pack    their texts (read only for what gets injected)
 *   <cache>/manifest/<generation>/b<n>-<patch>.json  block n (blockSize lessons) rewritten by an
 *                                             incremental write, and t<n>-<patch>.json its texts
 *   <cache>/manifest/<generation>/literals-c.lix, literals-p.lix  the literal index of commands and of
 *                                             paths (literal-index.ts), as the head's `index` names
 *                                             them (literals-<domain>-<patch>.lix once patched)
 *   <cache>/manifest/<generation>/words.json summary words, for prompts (words-<patch>.json once patched)
 *   <cache>/manifest/state.json, signature  the writers' own (see manifest-patch.ts)
 *   <cache>/manifest/checked              touched by each full freshness check
 *   <cache>/manifest/rebuild.lock         a background rebuild is running (O_EXCL)
 *   <cache>/generation                    changed by every lore write to the tier
 *
 * Reading is for the hook: Node built-ins only, nothing here may import a dependency.
 */
import {
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { MANIFEST_VERSION } from '../../core/inject/types.js';
import type {
  LessonReader,
  Manifest,
  ManifestHead,
  ManifestLesson,
  ManifestText,
  ManifestWords,
  SourceStamp,
  TextReader,
} from '../../core/inject/types.js';
import { entriesTable, LITERAL_DOMAINS } from '../../core/inject/literal-keys.js';
import type {
  LiteralDomain,
  LiteralEntry,
  LiteralLookup,
  LiteralTable,
} from '../../core/inject/literal-keys.js';
import { isAbandonedTemp, unlinkQuietly, writeFileAtomic } from '../fs/fs-atomic.js';
import { fileSignature } from '../fs/file-signature.js';
import { everyChar, isLowerAlnum, isWordChar } from '../../core/inject/char-class.js';
import { encodePack, openPack } from './manifest-pack.js';
import {
  decodeLiteralIndex,
  encodeLiteralIndex,
  indexLookup,
  LiteralIndexError,
  openLiteralIndex,
} from './literal-index.js';

export const MANIFEST_DIR = 'manifest';
export const GENERATION_FILE = 'generation';
/** A full freshness check (every lesson file stat'ed, in the background) at most this often. */
export const FULL_CHECK_INTERVAL_MS = 10 * 60_000;

export function manifestDir(cacheDir: string): string {
  return join(cacheDir, MANIFEST_DIR);
}

/** The files whose change makes a manifest stale, for one or two tier directories. */
export function sourcePaths(tierDirs: readonly string[]): string[] {
  return tierDirs.flatMap((dir) => [
    join(dir, 'lessons'),
    join(dir, 'config.yaml'),
    join(dir, 'cache', GENERATION_FILE),
  ]);
}

export function stampSources(paths: readonly string[]): SourceStamp[] {
  return paths.map((path) => ({ path, sig: fileSignature(path) }));
}

/** The stamps that no longer hold. */
export function staleSources(head: Pick<ManifestHead, 'sources'>): SourceStamp[] {
  return head.sources.filter((source) => fileSignature(source.path) !== source.sig);
}

/** Marks a tier changed, so manifests built over it (in any repository) notice. */
export function bumpGeneration(cacheDir: string, token: string): void {
  mkdirSync(cacheDir, { recursive: true });
  writeFileAtomic(join(cacheDir, GENERATION_FILE), `${token}\n`);
}

export function readManifestHead(cacheDir: string): ManifestHead | undefined {
  try {
    const head = JSON.parse(readFileSync(join(manifestDir(cacheDir), 'head.json'), 'utf8')) as ManifestHead;
    if (head === null || typeof head !== 'object' || head.version !== MANIFEST_VERSION) return undefined;
    if (typeof head.generation !== 'string' || !isGenerationName(head.generation)) return undefined;
    if (head.index === null || typeof head.index !== 'object') return undefined;
    for (const domain in head.index) {
      if (!isIndexFile(domain, head.index[domain as LiteralDomain])) return undefined;
    }
    return head;
  } catch {
    return undefined;
  }
}

/**
 * The file of block `n` (`b` lessons, `t` texts) once a write patched it; undefined while it is
 * still in the packs of the full build.
 */
export function blockFile(
  head: Pick<ManifestHead, 'patched'>,
  kind: 'b' | 't',
  n: number,
): string | undefined {
  const patch = head.patched[String(n)];
  return patch === undefined ? undefined : `${kind}${n}-${patch}.json`;
}

function readArray<T>(path: string): T[] | undefined {
  try {
    const value = JSON.parse(readFileSync(path, 'utf8')) as unknown;
    return Array.isArray(value) ? (value as T[]) : undefined;
  } catch {
    return undefined;
  }
}

/** The name of a domain's literal index file: of the full build, or of the patch `token`. */
export function indexFile(domain: LiteralDomain, token?: string): string {
  return token === undefined ? `literals-${domain}.lix` : `literals-${domain}-${token}.lix`;
}

/** A generation's directory name, `/^[\w-]+$/` (the hook reads it from head.json). */
export function isGenerationName(name: string): boolean {
  return name !== '' && everyChar(name, (c) => isWordChar(c) || c === 45);
}

/**
 * Whether `name` is a literal index file of `domain`, `/^literals-([cp])(-[0-9a-z]+)?\.lix$/`
 * with `domain` its group: `literals-c.lix` or `literals-c-<token>.lix`. Tested without a regex
 * (char-class.ts): the hook checks the head's names on every call.
 */
export function isIndexFile(domain: string, name: unknown): boolean {
  if (typeof name !== 'string' || (domain !== 'c' && domain !== 'p')) return false;
  const prefix = `literals-${domain}`;
  if (name.length < prefix.length + 4 || !name.startsWith(prefix) || !name.endsWith('.lix')) return false;
  const token = name.slice(prefix.length, -4);
  return token === '' || (token.length > 1 && token.startsWith('-') && everyChar(token, isLowerAlnum, 1));
}

/**
 * Writes the literal index of `table` into `dir` (one file per domain that has keys, named with
 * `token` for a patch) and returns the head's `index` naming them. Fresh names no head refers to
 * yet: the head, renamed in last, publishes them.
 */
export function writeLiteralIndex(
  dir: string,
  table: Readonly<LiteralTable>,
  token?: string,
): Partial<Record<LiteralDomain, string>> {
  const index: Partial<Record<LiteralDomain, string>> = {};
  for (const domain of LITERAL_DOMAINS) {
    const bytes = encodeLiteralIndex(table, domain);
    if (bytes === undefined) continue;
    index[domain] = indexFile(domain, token);
    writeFileSync(join(dir, index[domain]), bytes);
  }
  return index;
}

/** The literal table of a manifest on disk (for a patch to extend), or undefined when unreadable. */
export function readManifestLiterals(cacheDir: string, head: ManifestHead): LiteralTable | undefined {
  try {
    const entries: LiteralEntry[] = [];
    for (const domain of LITERAL_DOMAINS) {
      const name = head.index[domain];
      if (name === undefined) continue;
      const buffer = readFileSync(join(manifestDir(cacheDir), head.generation, name));
      entries.push(...decodeLiteralIndex(openLiteralIndex(buffer, domain)));
    }
    return entriesTable(entries);
  } catch {
    return undefined;
  }
}

export const LESSONS_PACK = 'lessons.pack';
export const TEXTS_PACK = 'texts.pack';

export type ManifestReader = {
  readLesson: LessonReader;
  readText: TextReader;
  /** The literal index: a domain's file is read on the first call that needs it (throws when it is missing or corrupt). */
  literals: LiteralLookup;
  /**
   * Block `b` whole (what an incremental write rewrites), or undefined when its files are
   * missing or corrupt.
   */
  readBlock(b: number): { lessons: (ManifestLesson | null)[]; texts: (ManifestText | null)[] } | undefined;
  close(): void;
};

const asObject = <T>(value: unknown): T | undefined =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as T) : undefined;

/** Runs `use` with a manifest reader, closed afterwards whatever happens. */
export function withManifestReader<T>(
  cacheDir: string,
  head: ManifestHead,
  use: (reader: ManifestReader) => T,
): T {
  const reader = openManifestReader(cacheDir, head);
  try {
    return use(reader);
  } finally {
    reader.close();
  }
}

/**
 * Reads a manifest's lessons and texts one at a time: from the packs of the full build, or from
 * the files of blocks an incremental write replaced. Opens files on first use; `close` them.
 */
export function openManifestReader(cacheDir: string, head: ManifestHead): ManifestReader {
  const dir = join(manifestDir(cacheDir), head.generation);
  const packs = { b: openPack(join(dir, LESSONS_PACK)), t: openPack(join(dir, TEXTS_PACK)) };
  const patchedBlocks = new Map<string, unknown[] | undefined>();
  const size = head.blockSize > 0 ? head.blockSize : 1;
  const record = (kind: 'b' | 't', n: number): unknown => {
    const b = Math.floor(n / size);
    const patch = head.patched[String(b)];
    if (patch === undefined) {
      const value = packs[kind].read(n);
      // a pack the head names, missing or damaged: nothing to say this time, a rebuild for the next
      if (packs[kind].damaged())
        throw new LiteralIndexError(`the manifest's ${kind === 'b' ? 'lesson' : 'text'} pack is damaged`);
      return value;
    }
    const key = `${kind}${b}`;
    if (!patchedBlocks.has(key)) patchedBlocks.set(key, readArray(join(dir, `${kind}${b}-${patch}.json`)));
    return patchedBlocks.get(key)?.[n - b * size];
  };
  return {
    literals: indexLookup((domain) => {
      const name = head.index[domain];
      return name === undefined ? undefined : readFileSync(join(dir, name));
    }),
    readLesson: (n) => asObject<ManifestLesson>(record('b', n)),
    readText: (n) => asObject<ManifestText>(record('t', n)),
    readBlock(b) {
      const first = b * size;
      const last = Math.min(first + size, head.lessonCount);
      if (head.patched[String(b)] === undefined && (packs.b.size() < last || packs.t.size() < last)) {
        return undefined;
      }
      const patch = head.patched[String(b)];
      if (patch !== undefined) {
        const lessons = readArray<ManifestLesson | null>(join(dir, `b${b}-${patch}.json`));
        const texts = readArray<ManifestText | null>(join(dir, `t${b}-${patch}.json`));
        return lessons !== undefined && texts !== undefined ? { lessons, texts } : undefined;
      }
      const lessons: (ManifestLesson | null)[] = [];
      const texts: (ManifestText | null)[] = [];
      for (let n = first; n < last; n += 1) {
        lessons.push(asObject<ManifestLesson>(packs.b.read(n)) ?? null);
        texts.push(asObject<ManifestText>(packs.t.read(n)) ?? null);
      }
      return { lessons, texts };
    },
    close() {
      packs.b.close();
      packs.t.close();
    },
  };
}

export function readManifestWords(cacheDir: string, head: ManifestHead): ManifestWords | undefined {
  try {
    const patch = head.patched.words;
    const name = patch === undefined ? 'words.json' : `words-${patch}.json`;
    return JSON.parse(
      readFileSync(join(manifestDir(cacheDir), head.generation, name), 'utf8'),
    ) as ManifestWords;
  } catch {
    return undefined;
  }
}

/** When the last full freshness check ran (ms), or 0. */
export function lastFullCheck(cacheDir: string): number {
  return statSync(join(manifestDir(cacheDir), 'checked'), { throwIfNoEntry: false })?.mtimeMs ?? 0;
}

export function markFullCheck(cacheDir: string, nowMs: number): void {
  const path = join(manifestDir(cacheDir), 'checked');
  try {
    const seconds = nowMs / 1000;
    utimesSync(path, seconds, seconds);
  } catch {
    mkdirSync(manifestDir(cacheDir), { recursive: true });
    writeFileSync(path, '');
  }
}

/**
 * Writes blocks into a fresh generation directory, then the head (atomically), then removes
 * generations older than the previous one (a hook mid-read may still use that).
 */
export function writeManifest(cacheDir: string, manifest: Manifest): void {
  const root = manifestDir(cacheDir);
  // a derived cache: anything but a directory in its place (a file, a link) is replaced
  if (lstatSync(root, { throwIfNoEntry: false })?.isDirectory() === false) rmSync(root, { force: true });
  const dir = join(root, manifest.head.generation);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, LESSONS_PACK), encodePack(manifest.blocks.flat()));
  writeFileSync(join(dir, TEXTS_PACK), encodePack(manifest.texts.flat()));
  writeFileSync(join(dir, 'words.json'), JSON.stringify(manifest.words));
  manifest.head.index = writeLiteralIndex(dir, manifest.literals);
  const previous = readManifestHead(cacheDir)?.generation;
  writeFileAtomic(join(root, 'head.json'), JSON.stringify(manifest.head));
  sweepManifestTemps(cacheDir);
  for (const entry of readdirSync(root, { withFileTypes: true })) {
    if (entry.isDirectory() && entry.name !== manifest.head.generation && entry.name !== previous) {
      rmSync(join(root, entry.name), { recursive: true, force: true });
    }
  }
}

/** Temporary files of writers that died mid-way (a killed `lore add`), in the cache and the manifest. */
export function sweepManifestTemps(cacheDir: string): void {
  for (const dir of [cacheDir, manifestDir(cacheDir)]) {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    for (const name of names) if (isAbandonedTemp(name)) unlinkQuietly(join(dir, name));
  }
}

/**
 * The SQLite index: a cache of the lesson files, rebuilt from them at will.
 *
 * Every read refreshes it first: the tiers' lesson and vote files are stat-ed and their
 * signatures (mtime, size, inode) hashed; an unchanged hash costs one row read. Between full
 * scans a read skips the votes files that did not exist (see `freshnessContext`). Otherwise only
 * the files whose signature changed are parsed again. A missing, outdated or corrupt database is
 * deleted and rebuilt. Lesson parsing (YAML, zod) loads only when a file must be parsed, so a
 * fresh index answers without loading either.
 */
import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, resolve, sep } from 'node:path';
import type { Problem } from '../../core/errors.js';
import type { parseLessonYaml as ParseLessonYaml } from '../../core/lesson/lesson-yaml.js';
import type { compileGlob as CompileGlob } from '../../core/match/glob.js';
import type { Lesson, Status, Tier } from '../../core/lesson/schema.js';
import type { RefEntry } from '../../core/lesson/resolve-ref.js';
import { quantizeScore, rankBy } from '../../core/rank/rank-results.js';
import type { Rankable } from '../../core/rank/rank-results.js';
import { voteScore } from '../../core/rank/votes.js';
import { requiredGlobLiteral } from '../../core/match/glob-literal.js';
import { ftsOr, searchWords } from '../../core/search/fts-query.js';
import { isAbandonedTemp, unlinkQuietly } from '../fs/fs-atomic.js';
import { isCorruptionError, openSqlite } from '../sqlite/sqlite.js';
import type { SqlDatabase } from '../sqlite/sqlite.js';
import { LESSON_FILE, VOTES_FILE } from '../lessons/tier-store.js';
import type { LessonDir, TierStore } from '../lessons/tier-store.js';
import type { ParsedFile } from './parse-worker.js';

export const INDEX_VERSION = 5;

export const FTS_COLUMNS = [
  'summary',
  'tags',
  'tools',
  'commands',
  'paths',
  'stack',
  'category',
  'structured',
  'body',
] as const;
export type FtsColumn = (typeof FTS_COLUMNS)[number];

export type FieldWeights = { summary: number; tags: number; scope: number; structured: number; body: number };

export type IndexedLesson = {
  lesson: Lesson;
  file: string;
  votes: { count: number; lastVotedAt: string | null; times: string[] };
};

export type ListFilter = {
  status?: Status | 'any';
  tags?: readonly string[];
  tools?: readonly string[];
  tier?: Tier;
  /** Repo-relative path: lessons whose path globs match it. */
  path?: string;
  /** A shell command: lessons whose command regexes match it. */
  command?: string;
  /** Only lessons the hook would inject: at least this confidence, not waiting for review. */
  injectable?: { minConfidence: number };
};

export type ListedLesson = IndexedLesson & { voteScore: number; matchedBy: string[] };
export type SearchResult = ListedLesson & { relevance: number };

export type RefreshReport = {
  parsed: number;
  removed: number;
  rebuilt: boolean;
  fresh: boolean;
  /** Lesson files of the old flat layout (`lessons/<id>.yaml`), which lore refuses to read. */
  legacyFiles: string[];
  /** `lite`: only the votes files known to exist were stat-ed (see `freshnessContext`). */
  scan?: 'full' | 'lite';
};

/**
 * Queries refresh the index once per instance (the first call); `invalidate()` after a write makes
 * the next query look at the files again.
 */
export type LessonIndex = {
  refresh(): Promise<RefreshReport>;
  rebuild(): Promise<RefreshReport>;
  invalidate(): void;
  /** Refreshes only when nothing has since this instance opened or a write invalidated it. */
  settle(): Promise<RefreshReport>;
  /**
   * What the last refresh saw of every lesson directory, by `tier:id`: `<lesson.yaml>|<votes.jsonl>`
   * stamps (`<mtime µs>:<size>`, `-` when missing), the parts of the manifest's content signature.
   */
  contentParts(): Record<string, string> | undefined;
  /** In rank order; with `limit`, only the first `limit` records are parsed. */
  list(filter: ListFilter, nowMs: number, halfLifeDays: number, limit?: number): Promise<ListedLesson[]>;
  search(
    query: string,
    filter: ListFilter & { limit: number },
    weights: FieldWeights,
    nowMs: number,
    halfLifeDays: number,
  ): Promise<SearchResult[]>;
  get(tier: Tier, id: string): Promise<IndexedLesson | undefined>;
  findRefs(ref: string): Promise<RefEntry[]>;
  problems(): Promise<Problem[]>;
  stats(): Promise<{ total: number; byStatus: Record<string, number>; indexedAt: string | null }>;
  close(): void;
};

type LessonParser = { parseLessonYaml: typeof ParseLessonYaml; compileGlob: typeof CompileGlob };

type Signature = { path: string; sig: string; kind: 'lesson' | 'votes' | 'dir'; dir: LessonDir };

const SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS files(path TEXT PRIMARY KEY, sig TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS lessons(
  rowid INTEGER PRIMARY KEY,
  tier TEXT NOT NULL, id TEXT NOT NULL, slug TEXT NOT NULL, summary TEXT NOT NULL,
  status TEXT NOT NULL, priority INTEGER NOT NULL, confidence REAL NOT NULL, needs_review INTEGER NOT NULL,
  updated_at TEXT NOT NULL,
  file TEXT NOT NULL UNIQUE, record TEXT NOT NULL,
  UNIQUE(tier, id)
);
CREATE INDEX IF NOT EXISTS lessons_slug ON lessons(slug);
CREATE INDEX IF NOT EXISTS lessons_status ON lessons(status);
CREATE TABLE IF NOT EXISTS lesson_tags(lesson INTEGER NOT NULL, tag TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS lesson_tags_tag ON lesson_tags(tag);
CREATE INDEX IF NOT EXISTS lesson_tags_lesson ON lesson_tags(lesson);
CREATE TABLE IF NOT EXISTS lesson_paths(lesson INTEGER NOT NULL, glob TEXT NOT NULL, regex TEXT NOT NULL, literal TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS lesson_paths_lesson ON lesson_paths(lesson);
CREATE TABLE IF NOT EXISTS votes(tier TEXT NOT NULL, id TEXT NOT NULL, file TEXT NOT NULL, times TEXT NOT NULL, last TEXT, PRIMARY KEY(tier, id));
CREATE TABLE IF NOT EXISTS problems(file TEXT NOT NULL, source TEXT NOT NULL, line INTEGER, field TEXT, message TEXT NOT NULL, severity TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS problems_source ON problems(source);
CREATE VIRTUAL TABLE IF NOT EXISTS lessons_fts USING fts5(
  ${FTS_COLUMNS.join(', ')},
  tokenize = 'porter unicode61 remove_diacritics 2'
);
`;

/**
 * What the freshness check reads: one readdir per tier, then a stat of each lesson.yaml and
 * votes.jsonl (in-place edits change nothing else). Per lesson it keeps only the numbers, in a
 * typed array: Node 20 builds four Date objects per Stats, and keeping 20,000 Stats (or any
 * object per lesson) alive until the end of the scan makes the garbage collector cost as much as
 * the stat calls. The aggregate is an order-independent sum of per-file hashes, so nothing is
 * sorted and no string is built per file; equal aggregate, nothing changed.
 */
type TierScan = {
  tier: TierStore;
  names: string[];
  /** Per name: lesson.yaml mtime (µs), size, inode, then the same for votes.jsonl; NaN when missing. */
  stamps: Float64Array;
  /** Names of directories without lesson.yaml, with what they hold. */
  orphans: Map<string, string>;
};
type Scan = {
  tiers: TierScan[];
  legacy: string[];
  aggregate: string;
  /** Only the votes files the last full scan found were stat-ed (see `freshnessContext`). */
  lite: boolean;
  /** `<tier index>:<name>` of each lesson with a votes file (complete after a full scan). */
  voted: string[];
  /** Each tier's lessons/ listing (null: no such directory). */
  listings: (string[] | null)[];
};

/**
 * Each connection: wait out another writer; read pages through a memory map and keep up to 32 MB
 * of them (SQLite's default cache of 2 MB holds a fifth of 10,000 lessons, so a path query that
 * touches a few hundred rows paid a read(2) for most of them).
 */
const CONNECTION_PRAGMAS =
  'PRAGMA busy_timeout = 10000; PRAGMA mmap_size = 268435456; PRAGMA cache_size = -32000;';

/** A full scan (every votes file looked for) at least this often, whatever the context says. */
export const FULL_SCAN_MS = 10 * 60_000;

const STAMP_WIDTH = 6;

const mix = (h: number, value: number) => Math.imul(h ^ (value >>> 0), 0x01000193);
const mix2 = (h: number, value: number) => {
  const m = Math.imul(h ^ (value >>> 0), 0x5bd1e995);
  return m ^ (m >>> 13);
};

/** Writes a file's stat numbers at `at`; false when there is no such file. */
function stampFile(path: string, stamps: Float64Array, at: number): boolean {
  let stat;
  try {
    stat = statSync(path, { throwIfNoEntry: false });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOTDIR') throw error;
  }
  if (stat === undefined) {
    stamps[at] = stamps[at + 1] = stamps[at + 2] = Number.NaN;
    return false;
  }
  stamps[at] = Math.round(stat.mtimeMs * 1000);
  stamps[at + 1] = stat.size;
  stamps[at + 2] = stat.ino;
  return true;
}

/**
 * A lite scan's knowledge from the last full scan: the lessons with a votes file
 * (`<tier index>:<name>`), and each tier's directory listing (valid while the directory's mtime,
 * part of the freshness context, is unchanged).
 */
type ScanHint = { voted: ReadonlySet<string>; listings: readonly (readonly string[] | null)[] };

/** `hint` makes a lite scan (see ScanHint); without it every directory is listed and every votes file stat-ed. */
function scanTiers(tiers: readonly TierStore[], hint?: ScanHint): Scan {
  const voted = hint?.voted;
  const listings: (string[] | null)[] = [];
  const scans: TierScan[] = [];
  const votedNow: string[] = [];
  const legacy: string[] = [];
  let sumA = 0;
  let sumB = 0;
  let count = 0;
  const add = (name: string, kind: number, stamps: Float64Array, at: number) => {
    let a = 0x811c9dc5 ^ kind;
    let b = 0x01000193 ^ kind;
    for (let i = 0; i < name.length; i += 1) {
      const c = name.charCodeAt(i);
      a = Math.imul(a ^ c, 0x01000193);
      b = Math.imul(b ^ c, 0x5bd1e995);
    }
    const micros = stamps[at] as number;
    const size = stamps[at + 1] as number;
    const ino = stamps[at + 2] as number;
    a = mix(mix(mix(mix(a, micros % 0x100000000), micros / 0x100000000), size), ino);
    b = mix2(mix2(mix2(mix2(b, micros % 0x100000000), micros / 0x100000000), size), ino);
    sumA = (sumA + (a >>> 0)) % 0x100000000;
    sumB = (sumB + (b >>> 0)) % 0x100000000;
    count += 1;
  };
  for (const [t, tier] of tiers.entries()) {
    let names: readonly string[];
    const known = hint?.listings[t];
    if (known !== undefined) {
      listings.push(known === null ? null : [...known]);
      if (known === null) continue;
      names = known;
    } else {
      try {
        names = readdirSync(tier.layout.lessonsDir);
        listings.push([...names]);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        listings.push(null);
        continue;
      }
    }
    const prefix = `${tier.layout.lessonsDir}${sep}`;
    const stamps = new Float64Array(names.length * STAMP_WIDTH);
    const orphans = new Map<string, string>();
    const kept: string[] = [];
    for (const name of names) {
      if (name.startsWith('.')) continue;
      const at = kept.length * STAMP_WIDTH;
      const dir = prefix + name;
      if (stampFile(`${dir}${sep}${LESSON_FILE}`, stamps, at)) {
        kept.push(name);
        add(name, t * 4 + 1, stamps, at);
        const key = `${t}:${name}`;
        if (voted !== undefined && !voted.has(key)) {
          stamps[at + 3] = stamps[at + 4] = stamps[at + 5] = Number.NaN;
        } else if (stampFile(`${dir}${sep}${VOTES_FILE}`, stamps, at + 3)) {
          add(name, t * 4 + 2, stamps, at + 3);
          votedNow.push(key);
        }
        continue;
      }
      // Rare: not a directory (a legacy file, a stray file) or a directory without lesson.yaml.
      const stat = statSync(dir, { throwIfNoEntry: false });
      if (stat?.isFile() && /\.ya?ml$/.test(name)) legacy.push(dir);
      if (!stat?.isDirectory()) continue;
      const held = orphanSignature(dir);
      kept.push(name);
      orphans.set(name, held);
      stamps.fill(Number.NaN, at, at + STAMP_WIDTH);
      add(`${name}\u0000${held}`, t * 4 + 3, new Float64Array(3), 0);
    }
    scans.push({ tier, names: kept, stamps, orphans });
  }
  legacy.sort();
  return {
    tiers: scans,
    legacy,
    aggregate: `${sumA.toString(16)}${sumB.toString(16)}:${count}`,
    lite: voted !== undefined,
    voted: votedNow,
    listings,
  };
}

function statSig(path: string): string {
  try {
    const stat = statSync(path, { throwIfNoEntry: false });
    return stat === undefined ? '-' : `${stat.mtimeMs}:${stat.size}:${stat.ino}`;
  } catch {
    return '?';
  }
}

/** Stored listings, if they are one per tier. */
function parseListings(text: string | undefined, tiers: number): (string[] | null)[] | undefined {
  if (text === undefined) return undefined;
  try {
    const value = JSON.parse(text) as unknown;
    if (!Array.isArray(value) || value.length !== tiers) return undefined;
    return value.every(
      (entry) => entry === null || (Array.isArray(entry) && entry.every((n) => typeof n === 'string')),
    )
      ? (value as (string[] | null)[])
      : undefined;
  } catch {
    return undefined;
  }
}

/** The index file of the git repository at `root` (`.git` may be a worktree's `gitdir:` file). */
function gitIndexPath(root: string): string | undefined {
  const dotGit = `${root}${sep}.git`;
  try {
    const stat = statSync(dotGit, { throwIfNoEntry: false });
    if (stat === undefined) return undefined;
    if (stat.isDirectory()) return `${dotGit}${sep}index`;
    const gitdir = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, 'utf8'))?.[1]?.trim();
    return gitdir === undefined ? undefined : resolve(root, gitdir, 'index');
  } catch {
    return undefined;
  }
}

/**
 * What a votes file can appear by, outside lore (lore's own writes refresh the index in full):
 * git (a checkout, pull or merge rewrites the git index) and new lesson directories. While this
 * holds (and for FULL_SCAN_MS at most), a read lists no directory (the listings are as stored,
 * since the directories' mtimes are unchanged) and stats only the votes files it knew of: a
 * lesson file edited in place is still noticed (every lesson.yaml is stat-ed), and a votes file
 * copied in by hand waits for the next full scan or `lore sync`.
 */
function freshnessContext(tiers: readonly TierStore[]): string {
  return tiers
    .map((tier) => {
      const index = gitIndexPath(dirname(tier.layout.dir));
      return `${statSig(tier.layout.lessonsDir)}|${index === undefined ? '-' : statSig(index)}`;
    })
    .join('\n');
}

/** Per-file signatures, built only when the aggregate says something changed. */
function signaturesOf(scan: Scan): Signature[] {
  const signatures: Signature[] = [];
  const sig = (stamps: Float64Array, at: number) => `${stamps[at]}:${stamps[at + 1]}:${stamps[at + 2]}`;
  for (const { tier, names, stamps, orphans } of scan.tiers) {
    for (const [i, name] of names.entries()) {
      const dir = tier.lessonDir(name);
      const held = orphans.get(name);
      if (held !== undefined) {
        signatures.push({ path: dir.dir, sig: held, kind: 'dir', dir });
        continue;
      }
      const at = i * STAMP_WIDTH;
      signatures.push({ path: dir.yamlPath, sig: sig(stamps, at), kind: 'lesson', dir });
      if (!Number.isNaN(stamps[at + 3])) {
        signatures.push({ path: dir.votesPath, sig: sig(stamps, at + 3), kind: 'votes', dir });
      }
    }
  }
  return signatures;
}

/** See `LessonIndex.contentParts`. */
function contentPartsOf(scan: Scan): Record<string, string> {
  const parts: Record<string, string> = {};
  const part = (stamps: Float64Array, at: number) =>
    Number.isNaN(stamps[at]) ? '-' : `${stamps[at]}:${stamps[at + 1]}`;
  for (const { tier, names, stamps } of scan.tiers) {
    for (const [i, name] of names.entries()) {
      const at = i * STAMP_WIDTH;
      parts[`${tier.tier}:${name}`] = `${part(stamps, at)}|${part(stamps, at + 3)}`;
    }
  }
  return parts;
}

/** A lesson directory without lesson.yaml: a crashed writer's claim (ignored) or a real problem. */
function orphanSignature(dir: string): string {
  try {
    const names = readdirSync(dir).filter((name) => !isAbandonedTemp(name) && !name.startsWith('.'));
    return names.length === 0 ? 'empty' : `orphan:${names.sort().join(',')}`;
  } catch {
    return 'empty';
  }
}

function structuredText(lesson: Lesson): string {
  return [
    lesson.mistake,
    lesson.remediation,
    lesson.context,
    lesson.observation,
    lesson.implication,
    lesson.action,
    ...lesson.evidence.map((e) => `${e.kind} ${e.ref} ${e.note ?? ''}`),
  ]
    .filter((part) => part !== undefined && part !== '')
    .join('\n');
}

function ftsRow(lesson: Lesson): string[] {
  return [
    `${lesson.summary}\n${lesson.slug.replace(/-/g, ' ')}`,
    lesson.tags.join(' '),
    lesson.tools.join(' '),
    lesson.commands.join(' '),
    lesson.paths.join(' '),
    lesson.stack.join(' '),
    `${lesson.category} ${lesson.severity} ${lesson.type}`,
    structuredText(lesson),
    lesson.body ?? '',
  ];
}

const commandRegexes = new Map<string, RegExp | null>();

/** A lesson's command regex (checked safe when the lesson was written) against a shell command. */
export function commandMatches(source: string, command: string): boolean {
  let regex = commandRegexes.get(source);
  if (regex === undefined) {
    try {
      regex = new RegExp(source);
    } catch {
      regex = null;
    }
    commandRegexes.set(source, regex);
  }
  return regex !== null && regex.test(command);
}

export function tagMatches(tag: string, wanted: string): boolean {
  const a = tag.toLowerCase();
  const b = wanted.toLowerCase();
  return a === b || (!b.includes(':') && a.endsWith(`:${b}`));
}

type PathRow = { lesson: number; glob: string; regex: string };

type LessonRow = { rowid: number; record: string; file: string; times: string | null; last: string | null };

/** What `list` ranks on. */
type RankRow = LessonRow & { id: string; priority: number; confidence: number; updatedAt: string };
/** A lesson's ranking and filter columns, as a long-lived reader keeps them (no record). */
type MemoRow = Omit<RankRow, 'record'> & { tier: string; status: string; needsReview: number };

/** Words whose row counts a long-lived reader remembers, and paths whose glob matches. */
const MEMO_WORDS = 4096;
const MEMO_PATHS = 16;

type Memo = {
  /** The aggregate signature of the files the index held when this memo began. */
  at: string | undefined;
  total?: number;
  wordRows: Map<string, number>;
  /** rowid -> matching globs, by path, least recently used first. */
  pathHits: Map<string, Map<number, string[]>>;
  /** Path globs by required literal, once a reader asked about a second path. */
  pathTable?: Map<string, PathRow[]>;
  pathQueries: number;
  /** Every lesson's ranking columns, once a reader listed a second path with a limit. */
  columns?: Map<number, MemoRow>;
  pathLists: number;
};

function newMemo(at: string | undefined): Memo {
  return { at, wordRows: new Map(), pathHits: new Map(), pathQueries: 0, pathLists: 0 };
}

export function openLessonIndex(
  dbPath: string,
  tiers: readonly TierStore[],
  displayPath: (p: string) => string,
): LessonIndex {
  let db: SqlDatabase | undefined;
  let parser: LessonParser | undefined;
  let lastReport: RefreshReport | undefined;
  let lastScan: Scan | undefined;
  /** The next refresh stats every votes file (after a write, and when a lite scan saw a change). */
  let fullScanNext = false;
  /** Lesson files parsed ahead on worker threads for the refresh in progress, by path. */
  let preParsed = new Map<string, ParsedFile>();
  /**
   * What readers that ask again and again (`lore mcp`, `lore serve`) keep between calls. It holds
   * while the index holds the files it was built from (`at`, their aggregate signature): a change
   * by this process or any other, or a rebuild (new rowids), starts a new one.
   */
  let memo: Memo = newMemo(undefined);
  const compiledPaths = new Map<string, RegExp>();

  const open = (): SqlDatabase => {
    if (db) return db;
    mkdirSync(dirname(dbPath), { recursive: true });
    let handle = openSqlite(dbPath);
    try {
      handle.exec(CONNECTION_PRAGMAS);
      const version = handle.get<{ user_version: number }>('PRAGMA user_version')?.user_version ?? 0;
      if (version !== INDEX_VERSION) {
        const hasTables = handle.get<{ n: number }>(
          "SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'",
        );
        if ((hasTables?.n ?? 0) > 0) {
          handle.close();
          removeDatabase(dbPath);
          handle = openSqlite(dbPath);
          handle.exec(CONNECTION_PRAGMAS);
        }
        handle.exec('PRAGMA journal_mode = WAL');
        handle.transaction(() => {
          handle.exec(SCHEMA_SQL);
          handle.exec(`PRAGMA user_version = ${INDEX_VERSION}`);
        });
      }
    } catch (error) {
      handle.close();
      throw error;
    }
    db = handle;
    return handle;
  };

  /** Refreshes once, then runs `fn`; a corrupt database is deleted and rebuilt, once. */
  const guarded = async <T>(fn: (database: SqlDatabase) => T, force = false): Promise<T> => {
    try {
      const database = open();
      if (force || !lastReport) lastReport = await refreshWith(database, force);
      if (memo.at !== lastScan?.aggregate) memo = newMemo(lastScan?.aggregate);
      return fn(database);
    } catch (error) {
      if (!isCorruptionError(error)) throw error;
      db?.close();
      db = undefined;
      removeDatabase(dbPath);
      const database = open();
      lastReport = { ...(await refreshWith(database, true)), rebuilt: true };
      memo = newMemo(lastScan?.aggregate);
      return fn(database);
    }
  };

  /** Every lesson's ranking columns, read once per memo: what `list` needs before any record. */
  const rankColumns = (database: SqlDatabase): Map<number, MemoRow> =>
    (memo.columns ??= new Map(
      database
        .all<MemoRow>(
          `SELECT l.rowid AS rowid, l.file AS file, v.times AS times, v.last AS last, l.id AS id,
                  l.priority AS priority, l.confidence AS confidence, l.updated_at AS updatedAt,
                  l.tier AS tier, l.status AS status, l.needs_review AS needsReview
           FROM lessons l LEFT JOIN votes v ON v.tier = l.tier AND v.id = l.id`,
        )
        .map((row) => [row.rowid, row]),
    ));

  /** `filterSql` in JS, for rows kept in memory (no tags: those take the SQL path). */
  const passes = (row: MemoRow, filter: ListFilter): boolean =>
    (filter.status === 'any' || row.status === (filter.status ?? 'active')) &&
    (filter.tier === undefined || row.tier === filter.tier) &&
    (filter.injectable === undefined ||
      (row.confidence >= filter.injectable.minConfidence && row.needsReview === 0));

  /** How many lessons the index holds (the row count BM25 uses). */
  const lessonTotal = (database: SqlDatabase): number =>
    (memo.total ??= database.get<{ n: number }>('SELECT count(*) AS n FROM lessons')?.n ?? 0);

  /**
   * How many lessons hold each word, counted up to half of them (past that a word's IDF is zero
   * whatever the count, and counting further would cost as much as scoring).
   */
  const wordRows = (database: SqlDatabase, words: readonly string[], total: number): Map<string, number> => {
    const half = Math.ceil(total / 2);
    const rows = new Map<string, number>();
    for (const word of words) {
      let count = memo.wordRows.get(word);
      if (count === undefined) {
        count =
          database.get<{ n: number }>(
            'SELECT count(*) AS n FROM (SELECT 1 FROM lessons_fts WHERE lessons_fts MATCH ? LIMIT ?)',
            `"${word}"`,
            half,
          )?.n ?? 0;
        if (memo.wordRows.size >= MEMO_WORDS) memo.wordRows.clear();
        memo.wordRows.set(word, count);
      }
      rows.set(word, count);
    }
    return rows;
  };

  const parseLesson = (text: string, file: string) => {
    if (!parser) throw new Error('lesson parser not loaded');
    return parser.parseLessonYaml(text, file);
  };

  const refreshWith = async (database: SqlDatabase, force: boolean): Promise<RefreshReport> => {
    const meta = new Map(
      database
        .all<{ key: string; value: string }>(
          "SELECT key, value FROM meta WHERE key IN ('aggregate', 'voted', 'listings', 'fullScanAt', 'context')",
        )
        .map((row) => [row.key, row.value]),
    );
    const context = freshnessContext(tiers);
    const nowMs = Date.now();
    const listings = parseListings(meta.get('listings'), tiers.length);
    const lite =
      !force &&
      !fullScanNext &&
      meta.get('context') === context &&
      meta.has('voted') &&
      listings !== undefined &&
      nowMs - Number(meta.get('fullScanAt')) < FULL_SCAN_MS;
    fullScanNext = false;
    const scan = scanTiers(
      tiers,
      lite && listings !== undefined
        ? { voted: new Set((meta.get('voted') ?? '').split('\n')), listings }
        : undefined,
    );
    lastScan = scan;
    const { aggregate, legacy } = scan;
    const stored = meta.get('aggregate');
    const remember = () => {
      database.run("INSERT OR REPLACE INTO meta(key, value) VALUES ('voted', ?)", scan.voted.join('\n'));
      database.run(
        "INSERT OR REPLACE INTO meta(key, value) VALUES ('listings', ?)",
        JSON.stringify(scan.listings),
      );
      database.run("INSERT OR REPLACE INTO meta(key, value) VALUES ('fullScanAt', ?)", String(nowMs));
      database.run("INSERT OR REPLACE INTO meta(key, value) VALUES ('context', ?)", context);
    };
    if (!force && stored === aggregate) {
      if (!lite) database.transaction(remember);
      return {
        parsed: 0,
        removed: 0,
        rebuilt: false,
        fresh: true,
        legacyFiles: legacy,
        scan: lite ? 'lite' : 'full',
      };
    }
    if (lite) {
      // Something changed: look at everything, votes files included.
      fullScanNext = true;
      return refreshWith(database, force);
    }
    memo = newMemo(undefined);
    if (!parser) {
      // Loaded only when files changed: YAML, zod and picomatch stay off the fresh read path.
      const [{ parseLessonYaml }, { compileGlob }] = await Promise.all([
        import('../../core/lesson/lesson-yaml.js'),
        import('../../core/match/glob.js'),
      ]);
      parser = { parseLessonYaml, compileGlob };
    }

    // Many changed lesson files (a sync, a first index, a big pull): parse them on every core
    // first. The transaction below checks again what changed and parses anything missed inline.
    const knownBefore = new Map(
      database.all<{ path: string; sig: string }>('SELECT path, sig FROM files').map((r) => [r.path, r.sig]),
    );
    const stale = signaturesOf(scan).filter(
      (signature) =>
        signature.kind === 'lesson' && (force || knownBefore.get(signature.path) !== signature.sig),
    );
    const { parseInWorkers } = await import('./parse-in-workers.js');
    preParsed =
      (await parseInWorkers(
        stale.map((signature) => ({ path: signature.path, shown: displayPath(signature.path) })),
      )) ?? new Map();

    let parsed = 0;
    let removed = 0;
    database.transaction(() => {
      const again = database.get<{ value: string }>("SELECT value FROM meta WHERE key = 'aggregate'")?.value;
      if (!force && again === aggregate) return;
      if (force) {
        for (const table of [
          'files',
          'lessons',
          'lesson_tags',
          'lesson_paths',
          'votes',
          'problems',
          'lessons_fts',
        ]) {
          database.exec(`DELETE FROM ${table}`);
        }
      }
      const known = new Map(
        database
          .all<{ path: string; sig: string }>('SELECT path, sig FROM files')
          .map((r) => [r.path, r.sig]),
      );
      // Nothing indexed yet (a rebuild, a new database): no row needs looking up or deleting.
      const empty = known.size === 0;
      const current = new Set<string>();
      const signatures = signaturesOf(scan);
      for (const signature of signatures) {
        current.add(signature.path);
        if (known.get(signature.path) === signature.sig) continue;
        applyFile(database, signature, empty);
        database.run('INSERT OR REPLACE INTO files(path, sig) VALUES (?, ?)', signature.path, signature.sig);
        parsed += 1;
      }
      for (const path of known.keys()) {
        if (current.has(path)) continue;
        forgetFile(database, path);
        database.run('DELETE FROM files WHERE path = ?', path);
        removed += 1;
      }
      database.run("INSERT OR REPLACE INTO meta(key, value) VALUES ('aggregate', ?)", aggregate);
      database.run(
        "INSERT OR REPLACE INTO meta(key, value) VALUES ('indexedAt', ?)",
        new Date().toISOString(),
      );
      remember();
    });
    preParsed = new Map();
    return { parsed, removed, rebuilt: force, fresh: false, legacyFiles: legacy, scan: 'full' };
  };

  const deleteLessonRow = (database: SqlDatabase, file: string) => {
    const row = database.get<{ rowid: number }>('SELECT rowid FROM lessons WHERE file = ?', file);
    if (!row) return;
    database.run('DELETE FROM lessons WHERE rowid = ?', row.rowid);
    database.run('DELETE FROM lessons_fts WHERE rowid = ?', row.rowid);
    database.run('DELETE FROM lesson_tags WHERE lesson = ?', row.rowid);
    database.run('DELETE FROM lesson_paths WHERE lesson = ?', row.rowid);
  };

  const forgetFile = (database: SqlDatabase, path: string) => {
    database.run('DELETE FROM problems WHERE source = ?', path);
    deleteLessonRow(database, path);
    database.run('DELETE FROM votes WHERE file = ?', path);
  };

  /** `empty`: a rebuild, so no row of this file exists yet and nothing needs deleting first. */
  const applyFile = (database: SqlDatabase, signature: Signature, empty: boolean) => {
    const { dir } = signature;
    const shown = displayPath(signature.path);
    if (!empty) database.run('DELETE FROM problems WHERE source = ?', signature.path);
    if (signature.kind === 'dir') {
      if (signature.sig !== 'empty') {
        insertProblem(database, signature.path, {
          file: displayPath(dir.yamlPath),
          message: 'lesson.yaml is missing from this lesson directory',
          severity: 'error',
        });
      }
      return;
    }
    if (signature.kind === 'votes') {
      const { votes, problems } = tierOf(dir).readVotes(dir.id);
      for (const problem of problems) insertProblem(database, signature.path, { ...problem, file: shown });
      const times = votes.map((vote) => vote.at);
      const last = times.reduce<string | null>(
        (a, b) => (a === null || Date.parse(b) > Date.parse(a) ? b : a),
        null,
      );
      database.run(
        'INSERT OR REPLACE INTO votes(tier, id, file, times, last) VALUES (?, ?, ?, ?, ?)',
        dir.tier,
        dir.id,
        signature.path,
        JSON.stringify(times),
        last,
      );
      return;
    }
    if (!empty) deleteLessonRow(database, signature.path);
    const early = preParsed.get(signature.path);
    const text = early ? early.text : tierOf(dir).readLessonText(dir.id);
    if (text === undefined) return;
    const result = early?.result ?? parseLesson(text, shown);
    if (!result.ok) {
      for (const problem of result.problems) insertProblem(database, signature.path, problem);
      return;
    }
    for (const warning of result.warnings) insertProblem(database, signature.path, warning);
    const lesson: Lesson = { ...result.lesson, tier: dir.tier };
    if (lesson.id !== dir.id) {
      insertProblem(database, signature.path, {
        file: shown,
        line: 1,
        field: 'id',
        message: `id "${lesson.id}" does not match its directory name "${dir.id}"; rename one so they agree`,
        severity: 'error',
      });
      return;
    }
    if (result.lesson.tier !== dir.tier && text.includes('tier:')) {
      insertProblem(database, signature.path, {
        file: shown,
        field: 'tier',
        message: `tier says "${result.lesson.tier}" but the file lives in the ${dir.tier} tier; the location wins`,
        severity: 'warning',
      });
    }
    if (lesson.universal === true && dir.tier === 'project') {
      insertProblem(database, signature.path, {
        file: shown,
        field: 'universal',
        message: 'universal applies to user-tier lessons only; move it with `lore promote ID --to universal`',
        severity: 'warning',
      });
    }
    if (!empty) {
      const existing = database.get<{ file: string }>(
        'SELECT file FROM lessons WHERE tier = ? AND id = ?',
        dir.tier,
        dir.id,
      );
      if (existing) deleteLessonRow(database, existing.file);
    }
    const rowid = database.insert(
      'INSERT INTO lessons(tier, id, slug, summary, status, priority, confidence, needs_review, updated_at, file, record) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      dir.tier,
      lesson.id,
      lesson.slug,
      lesson.summary,
      lesson.status,
      lesson.priority,
      lesson.confidence,
      lesson.needsReview ? 1 : 0,
      lesson.updatedAt,
      signature.path,
      JSON.stringify(lesson),
    );
    database.run(
      `INSERT INTO lessons_fts(rowid, ${FTS_COLUMNS.join(', ')}) VALUES (?, ${FTS_COLUMNS.map(() => '?').join(', ')})`,
      rowid,
      ...ftsRow(lesson),
    );
    for (const tag of new Set(lesson.tags.map((t) => t.toLowerCase()))) {
      database.run('INSERT INTO lesson_tags(lesson, tag) VALUES (?, ?)', rowid, tag);
    }
    for (const glob of lesson.paths) {
      database.run(
        'INSERT INTO lesson_paths(lesson, glob, regex, literal) VALUES (?, ?, ?, ?)',
        rowid,
        glob,
        compiledGlob(glob),
        requiredGlobLiteral(glob),
      );
    }
  };

  const globCache = new Map<string, string>();
  /** Stores repeat their globs (`tests/**`, `**\/*.py`): compile each once per refresh. */
  const compiledGlob = (glob: string): string => {
    let regex = globCache.get(glob);
    if (regex === undefined) {
      regex = (parser as LessonParser).compileGlob(glob);
      globCache.set(glob, regex);
    }
    return regex;
  };

  const insertProblem = (database: SqlDatabase, source: string, problem: Problem) => {
    database.run(
      'INSERT INTO problems(file, source, line, field, message, severity) VALUES (?, ?, ?, ?, ?, ?)',
      problem.file,
      source,
      problem.line ?? null,
      problem.field ?? null,
      problem.message,
      problem.severity,
    );
  };

  const tierOf = (dir: LessonDir): TierStore => {
    const store = tiers.find((t) => t.tier === dir.tier);
    if (!store) throw new Error(`no store for tier ${dir.tier}`);
    return store;
  };

  const toIndexed = (row: LessonRow): IndexedLesson => {
    const times = row.times ? (JSON.parse(row.times) as string[]) : [];
    return {
      lesson: JSON.parse(row.record) as Lesson,
      file: row.file,
      votes: { count: times.length, lastVotedAt: row.last, times },
    };
  };

  const filterSql = (filter: ListFilter, params: (string | number)[]): string => {
    const clauses: string[] = [];
    if (filter.status !== 'any') {
      clauses.push('l.status = ?');
      params.push(filter.status ?? 'active');
    }
    if (filter.tier) {
      clauses.push('l.tier = ?');
      params.push(filter.tier);
    }
    if (filter.injectable) {
      clauses.push('l.confidence >= ? AND l.needs_review = 0');
      params.push(filter.injectable.minConfidence);
    }
    for (const tag of filter.tags ?? []) {
      const wanted = tag.toLowerCase();
      if (wanted.includes(':')) {
        clauses.push('EXISTS (SELECT 1 FROM lesson_tags t WHERE t.lesson = l.rowid AND t.tag = ?)');
        params.push(wanted);
      } else {
        clauses.push(
          "EXISTS (SELECT 1 FROM lesson_tags t WHERE t.lesson = l.rowid AND (t.tag = ? OR substr(t.tag, -length(?) - 1) = ':' || ?))",
        );
        params.push(wanted, wanted, wanted);
      }
    }
    return clauses.length === 0 ? '' : clauses.join(' AND ');
  };

  /** Path, tool and tag checks done in JS, with the `matchedBy` reasons they produce. */
  const matchDetails = (
    item: IndexedLesson | (() => Lesson),
    rowid: number,
    filter: ListFilter,
    pathHits: Map<number, string[]> | undefined,
  ): string[] | undefined => {
    const reasons: string[] = [];
    // The record is parsed only when a tag, tool or command filter needs to look into it.
    let parsed: Lesson | undefined;
    const lessonOf = (): Lesson => (parsed ??= typeof item === 'function' ? item() : item.lesson);
    for (const tag of filter.tags ?? []) {
      const hit = lessonOf().tags.find((t) => tagMatches(t, tag));
      if (hit) reasons.push(`tag:${hit}`);
    }
    for (const tool of filter.tools ?? []) {
      const hit = lessonOf().tools.find((t) => t.toLowerCase() === tool.toLowerCase());
      if (!hit) return undefined;
      reasons.push(`tool:${hit}`);
    }
    if (pathHits) {
      const globs = pathHits.get(rowid);
      if (!globs) return undefined;
      for (const glob of globs) reasons.push(`path:${glob}`);
    }
    if (filter.command !== undefined) {
      const hit = lessonOf().commands.find((source) => commandMatches(source, filter.command as string));
      if (hit === undefined) return undefined;
      reasons.push(`command:${hit}`);
    }
    return reasons;
  };

  /** One pass over every lesson glob: rowid -> the globs matching the path (literal prefilter, one RegExp per source). */
  const pathMatches = (database: SqlDatabase, filter: ListFilter): Map<number, string[]> | undefined => {
    if (filter.path === undefined) return undefined;
    const target = filter.path;
    const hits = new Map<number, string[]>();
    const test = (row: PathRow) => {
      let regex = compiledPaths.get(row.regex);
      if (!regex) {
        regex = new RegExp(row.regex);
        compiledPaths.set(row.regex, regex);
      }
      if (regex.test(target)) hits.set(row.lesson, [...(hits.get(row.lesson) ?? []), row.glob]);
    };
    const known = memo.pathHits.get(target);
    if (known) {
      // most recently used last
      memo.pathHits.delete(target);
      memo.pathHits.set(target, known);
      return known;
    }
    const remember = () => {
      if (memo.pathHits.size >= MEMO_PATHS) memo.pathHits.delete(memo.pathHits.keys().next().value as string);
      memo.pathHits.set(target, hits);
      return hits;
    };
    memo.pathQueries += 1;
    if (memo.pathQueries === 1 && memo.pathTable === undefined) {
      // The literal prefilter runs inside SQLite: only globs whose required literal occurs in the
      // path reach JS (instr(x, '') is 1, so globs without a literal always do).
      const rows = database.all<PathRow & { literal: string }>(
        'SELECT lesson, glob, regex, literal FROM lesson_paths WHERE instr(?, literal) > 0',
        target,
      );
      for (const row of rows) test(row);
      return remember();
    }
    // A long-lived reader (`lore mcp`) asks again and again: keep the globs in memory, grouped by
    // literal, until a refresh changes something.
    if (memo.pathTable === undefined) {
      const table = new Map<string, PathRow[]>();
      for (const row of database.all<PathRow & { literal: string }>(
        'SELECT lesson, glob, regex, literal FROM lesson_paths',
      )) {
        const group = table.get(row.literal);
        if (group) group.push(row);
        else table.set(row.literal, [row]);
      }
      memo.pathTable = table;
    }
    for (const [literal, rows] of memo.pathTable) {
      if (literal !== '' && !target.includes(literal)) continue;
      for (const row of rows) test(row);
    }
    return remember();
  };

  const index: LessonIndex = {
    refresh: async () => {
      lastReport = undefined;
      fullScanNext = true;
      return guarded(() => lastReport as RefreshReport);
    },
    rebuild: async () => {
      // From an empty file: faster than deleting every row, and it drops any damage.
      db?.close();
      db = undefined;
      removeDatabase(dbPath);
      lastReport = undefined;
      const report = await guarded(() => lastReport as RefreshReport);
      return { ...report, rebuilt: true };
    },
    invalidate: () => {
      lastReport = undefined;
      fullScanNext = true;
    },
    settle: () => guarded(() => lastReport as RefreshReport),
    // a lite scan did not look for new votes files: callers stat what they need themselves
    contentParts: () => (lastScan === undefined || lastScan.lite ? undefined : contentPartsOf(lastScan)),

    list(filter, nowMs, halfLifeDays, limit) {
      return guarded((database) => {
        const pathHits = pathMatches(database, filter);
        // A reader that asks about paths again and again (the MCP sidecar) ranks from columns
        // kept in memory; records are read afterwards for the few that make the cut.
        const fromMemory =
          pathHits !== undefined &&
          limit !== undefined &&
          (filter.tags?.length ?? 0) === 0 &&
          (memo.pathLists += 1) > 1;
        let rows: RankRow[];
        if (fromMemory) {
          const columns = rankColumns(database);
          rows = [];
          for (const rowid of pathHits.keys()) {
            const row = columns.get(rowid);
            if (row && passes(row, filter))
              rows.push({
                rowid: row.rowid,
                record: '',
                file: row.file,
                times: row.times,
                last: row.last,
                id: row.id,
                priority: row.priority,
                confidence: row.confidence,
                updatedAt: row.updatedAt,
              });
          }
        } else {
          const params: (string | number)[] = [];
          let where = filterSql(filter, params);
          if (pathHits) {
            // Only the lessons a glob matched: their records alone leave SQLite.
            where = `${where === '' ? '' : `${where} AND `}l.rowid IN (SELECT value FROM json_each(?))`;
            params.push(JSON.stringify([...pathHits.keys()]));
          }
          // With a limit, records are read afterwards for the few that make the cut.
          rows = database.all<RankRow>(
            `SELECT l.rowid AS rowid, ${limit === undefined ? 'l.record' : "''"} AS record, l.file AS file,
                    v.times AS times, v.last AS last, l.id AS id, l.priority AS priority,
                    l.confidence AS confidence, l.updated_at AS updatedAt
             FROM lessons l LEFT JOIN votes v ON v.tier = l.tier AND v.id = l.id
             ${where === '' ? '' : `WHERE ${where}`}`,
            ...params,
          );
        }
        // Ranked on the columns first; records are parsed in rank order, and only up to `limit`.
        const scored = rows
          .filter((row) => !pathHits || pathHits.has(row.rowid))
          .map((row) => {
            const times = row.times ? (JSON.parse(row.times) as string[]) : [];
            const score = voteScore(times, nowMs, halfLifeDays);
            const key = {
              id: row.id,
              relevance: 0,
              voteScore: score,
              priority: row.priority,
              confidence: row.confidence,
              updatedAt: row.updatedAt,
            };
            return { row, score, key };
          });
        const ranked = rankBy(scored, (item) => item.key);
        const listed: ListedLesson[] = [];
        for (const { row, score } of ranked) {
          if (limit !== undefined && listed.length >= limit) break;
          if (limit !== undefined)
            row.record =
              database.get<{ record: string }>('SELECT record FROM lessons WHERE rowid = ?', row.rowid)
                ?.record ?? '{}';
          const item = toIndexed(row);
          const matchedBy = matchDetails(item, row.rowid, filter, pathHits);
          if (!matchedBy) continue;
          listed.push({ ...item, voteScore: score, matchedBy });
        }
        return listed;
      });
    },

    search(query, filter, weights, nowMs, halfLifeDays) {
      return guarded((database) => {
        const words = searchWords(query);
        const full = ftsOr(words);
        if (full === undefined) return [];
        const params: (string | number)[] = [];
        const where = filterSql(filter, params);
        const weightList = columnWeights(weights).join(', ');
        const pathHits = pathMatches(database, filter);
        // Tool and command filters act in JS after BM25, so with them the SQL must not cut the pool;
        // a path filter restricts the scored rows to the lessons its globs matched.
        const jsFilters = (filter.tools?.length ?? 0) > 0 || filter.command !== undefined;
        // With a path, only the lessons its globs matched are scored: `+rowid` keeps FTS5 walking
        // its matches (seeking each rowid would cost more) while SQLite skips bm25() for the rest.
        const pathIds = pathHits === undefined ? undefined : JSON.stringify([...pathHits.keys()]);

        type Row = LessonRow & {
          score: number;
          keep: number;
          id: string;
          priority: number;
          confidence: number;
          updatedAt: string;
        };
        type Candidate = { row: Row; matchedBy: string[]; voteScore: number; key: Rankable };
        /** Candidates in score order. */
        const run = (fts: string): Candidate[] => {
          // Rank inside FTS5 first (BM25 only, no records), then join the few rows that made the cut.
          let pool = jsFilters ? -1 : Math.max(filter.limit * 2, filter.limit + 20);
          for (;;) {
            const rows = database.all<Row>(
              `SELECT x.rowid AS rowid, x.score AS score, ${where === '' ? '1' : `(${where})`} AS keep,
                      l.id AS id, l.priority AS priority, l.confidence AS confidence,
                      l.updated_at AS updatedAt, l.record AS record,
                      l.file AS file, v.times AS times, v.last AS last
               FROM (SELECT rowid, bm25(lessons_fts, ${weightList}) AS score FROM lessons_fts
                     WHERE lessons_fts MATCH ?${
                       pathIds === undefined ? '' : ' AND +rowid IN (SELECT value FROM json_each(?))'
                     }
                     ORDER BY score LIMIT ?) x
               JOIN lessons l ON l.rowid = x.rowid
               LEFT JOIN votes v ON v.tier = l.tier AND v.id = l.id
               ORDER BY x.score`,
              ...params,
              fts,
              ...(pathIds === undefined ? [] : [pathIds]),
              pool,
            );
            const candidates: Candidate[] = [];
            for (const row of rows) {
              if (row.keep !== 1) continue;
              const matchedBy = matchDetails(
                () => JSON.parse(row.record) as Lesson,
                row.rowid,
                filter,
                pathHits,
              );
              if (!matchedBy) continue;
              const times = row.times ? (JSON.parse(row.times) as string[]) : [];
              const score = voteScore(times, nowMs, halfLifeDays);
              const key = {
                id: row.id,
                relevance: -row.score,
                voteScore: score,
                priority: row.priority,
                confidence: row.confidence,
                updatedAt: row.updatedAt,
              };
              candidates.push({ row, matchedBy, voteScore: score, key });
            }
            const last = rows[rows.length - 1];
            const boundary = candidates[filter.limit - 1];
            // Lessons below the cut score at most `last`; they cannot pass the limit-th result
            // unless it ties with them (then votes and priority decide): widen the pool and retry.
            const settled =
              pool < 0 ||
              rows.length < pool ||
              (boundary !== undefined &&
                last !== undefined &&
                quantizeScore(boundary.key.relevance) !== quantizeScore(-last.score));
            if (settled) return candidates;
            pool *= 4;
          }
        };

        const total = words.length > 1 ? lessonTotal(database) : 0;
        const rows = words.length > 1 ? wordRows(database, words, total) : new Map<string, number>();

        // Words in at least half of the lessons get a BM25 IDF of zero (FTS5 floors it at 1e-6):
        // they cannot order results, only make FTS5 score most of the store. Leave them out while
        // the other words still find a full page; the lessons they alone match would rank last.
        const strong = words.length > 1 ? words.filter((word) => (rows.get(word) ?? 0) * 2 < total) : words;
        let fts = full;
        let candidates: Candidate[] | undefined;
        if (strong.length > 0 && strong.length < words.length) {
          fts = ftsOr(strong) as string;
          candidates = run(fts);
          if (candidates.length < filter.limit) candidates = undefined;
        }
        if (candidates === undefined) {
          fts = full;
          candidates = run(fts);
        }

        const top = rankBy(candidates, (candidate) => candidate.key)
          .slice(0, filter.limit)
          .map(({ row, matchedBy, voteScore: score, key }) => ({
            rowid: row.rowid,
            result: { ...toIndexed(row), relevance: key.relevance, voteScore: score, matchedBy },
          }));
        addTextReasons(database, fts, top);
        return top.map(({ result }) => result);
      });
    },

    get(tier, id) {
      return guarded((database) => {
        const row = database.get<LessonRow>(
          `SELECT l.rowid AS rowid, l.record AS record, l.file AS file, v.times AS times, v.last AS last
           FROM lessons l LEFT JOIN votes v ON v.tier = l.tier AND v.id = l.id WHERE l.tier = ? AND l.id = ?`,
          tier,
          id,
        );
        return row ? toIndexed(row) : undefined;
      });
    },

    findRefs(ref) {
      return guarded((database) => {
        const wanted = ref.trim().toLowerCase();
        return database
          .all<Omit<RefEntry, 'aliases'> & { aliases: string | null }>(
            `SELECT id, slug, summary, tier, json_extract(record, '$.aliases') AS aliases FROM lessons
             WHERE substr(id, 1, length(?)) = ? OR slug = ? OR instr(slug, ?) > 0
               OR EXISTS (SELECT 1 FROM json_each(record, '$.aliases') WHERE lower(json_each.value) = ?)
             ORDER BY tier, id LIMIT 200`,
            wanted,
            wanted,
            wanted,
            wanted,
            wanted,
          )
          .map(({ aliases, ...entry }) =>
            aliases === null ? entry : { ...entry, aliases: JSON.parse(aliases) as string[] },
          );
      });
    },

    problems() {
      return guarded((database) => {
        return database
          .all<{
            file: string;
            line: number | null;
            field: string | null;
            message: string;
            severity: 'error' | 'warning';
          }>('SELECT file, line, field, message, severity FROM problems ORDER BY file, line')
          .map((row) => ({
            file: row.file,
            ...(row.line === null ? {} : { line: row.line }),
            ...(row.field === null ? {} : { field: row.field }),
            message: row.message,
            severity: row.severity,
          }));
      });
    },

    stats() {
      return guarded((database) => {
        const byStatus: Record<string, number> = {};
        let total = 0;
        for (const row of database.all<{ status: string; n: number }>(
          'SELECT status, count(*) AS n FROM lessons GROUP BY status',
        )) {
          byStatus[row.status] = row.n;
          total += row.n;
        }
        const indexedAt =
          database.get<{ value: string }>("SELECT value FROM meta WHERE key = 'indexedAt'")?.value ?? null;
        return { total, byStatus, indexedAt };
      });
    },

    close() {
      db?.close();
      db = undefined;
    },
  };
  return index;
}

function columnWeights(weights: FieldWeights): number[] {
  return FTS_COLUMNS.map((column) => {
    switch (column) {
      case 'summary':
        return weights.summary;
      case 'tags':
        return weights.tags;
      case 'structured':
        return weights.structured;
      case 'body':
        return weights.body;
      default:
        return weights.scope;
    }
  });
}

/**
 * `text:<field>` for every FTS column in which the query matched, found with highlight() in one
 * pass over the query's matches (`+rowid` keeps FTS5 from seeking each rowid, which costs more).
 */
function addTextReasons(
  database: SqlDatabase,
  fts: string,
  results: readonly { rowid: number; result: SearchResult }[],
): void {
  if (results.length === 0) return;
  const select = FTS_COLUMNS.map(
    (_, i) => `instr(highlight(lessons_fts, ${i}, char(1), char(2)), char(1)) > 0 AS c${i}`,
  ).join(', ');
  const rows = database.all<Record<string, number>>(
    `SELECT rowid AS rowid, ${select} FROM lessons_fts
     WHERE lessons_fts MATCH ? AND +rowid IN (SELECT value FROM json_each(?))`,
    fts,
    JSON.stringify(results.map(({ rowid }) => rowid)),
  );
  const byRowid = new Map(rows.map((row) => [row.rowid, row]));
  for (const { rowid, result } of results) {
    const row = byRowid.get(rowid);
    if (!row) continue;
    const text = FTS_COLUMNS.filter((_, i) => row[`c${i}`] === 1).map((column) => `text:${column}`);
    result.matchedBy = [...text, ...result.matchedBy];
  }
}

function removeDatabase(path: string): void {
  for (const suffix of ['', '-wal', '-shm', '-journal']) unlinkQuietly(`${path}${suffix}`);
}

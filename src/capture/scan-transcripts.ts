/**
 * A scan over many transcript files: find them (the agents' default folders, or `--path`
 * folders), match each to its reader, scan each incrementally against the state of the last
 * scan, and return the episodes found plus what was read. The state lives in the derived cache in
 * two JSON files: the signatures and offsets of every file (small, read by every scan) and, apart,
 * what each file's parser and detector carry over (the newest events, a few KB a file), read only
 * when a file changed. A scan with nothing new costs a directory walk, a stat per file and the
 * signatures file; only files whose signature changed are opened.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import type { Problem } from '../core/errors.js';
import type { Agent } from '../core/capture/events.js';
import type { Episode } from '../core/capture/episode.js';
import type { DetectorOptions } from '../core/capture/detect-episodes.js';
import type { RedactOptions } from '../core/capture/redact.js';
import { isAbandonedTemp, openAtomicWriter, unlinkQuietly, writeFileAtomic } from '../store/fs/fs-atomic.js';
import type { AtomicWriter } from '../store/fs/fs-atomic.js';
import { statNumbers } from '../store/fs/stat-numbers.js';
import type { StatNumbers } from '../store/fs/stat-numbers.js';
import { readCallCache, writeCallCache } from '../store/breadth/call-cache.js';
import { CALL_CACHE_LIMIT, createCallFloor, mergeCachedCalls } from '../core/breadth/cached-call.js';
import type { CachedCall } from '../core/breadth/cached-call.js';
import { redactCall } from './collect-recent-calls.js';
import { READERS, detectAgentOrSkip } from './readers.js';
import { walk } from './walk-files.js';
import type { SkippedPath } from './walk-files.js';
import { readTranscriptTree } from './transcript-tree.js';
import type { TranscriptTree } from './transcript-tree.js';
import { heldLineReady, signatureMatches } from './scan-file.js';
import type { FileScan, FileState, MarkerHit } from './scan-file.js';
import { holdHeapGrowth, scanInWorkers } from './scan-in-workers.js';
import { runScanJob } from './scan-job.js';
import type { ScanJob } from './scan-job.js';

export type ScanRoot = { path: string; agent?: Agent; shownAs?: string };

export type ScanOptions = {
  roots: ScanRoot[];
  /** Only this agent's transcripts. */
  source?: Agent;
  /**
   * ISO date: files last changed before it are skipped, and older events are not mined. The files
   * read keep the state they had: the next scan without `since` reads them as if this one had not.
   */
  since?: string;
  statePath: string;
  detector: DetectorOptions;
  redact: RedactOptions;
  onProgress?: (progress: { done: number; total: number; bytes: number }) => void;
  /**
   * Worker threads: `auto` (default) for a scan with at least 32 MB to read, `never`, or `always`
   * (whenever the compiled worker script is there; for tests).
   */
  threads?: 'auto' | 'never' | 'always';
  /**
   * The call cache to update (core/breadth/cached-call.ts): the calls of the files read are merged
   * into it, one write per scan. Absent: no calls are collected.
   */
  callCachePath?: string;
  /** Takes each file's episodes as they are found; they are then not kept in the report. */
  onEpisodes?: (episodes: Episode[], path: string) => void;
};

/** Malformed lines a report names, beyond which it only counts them (`skipped`). */
export const REPORTED_PROBLEMS = 20;

export type ScanReport = {
  files: number;
  changedFiles: number;
  bytes: number;
  lines: number;
  /** Malformed lines read (every one, counted). */
  skipped: number;
  /** Folders and files below the roots that could not be read, left out of the scan. */
  skippedPaths: number;
  /**
   * Those folders, then the first malformed lines, `REPORTED_PROBLEMS` in all, said (a long
   * history may hold thousands of malformed lines).
   */
  problems: Problem[];
  events: number;
  /** Every episode, unless `onEpisodes` took them. */
  episodes: Episode[];
  episodeCount: number;
  /** Feedback markers in the assistant messages read, in file order (rescans find them again). */
  markers: MarkerHit[];
  /** Worker threads that scanned files (0: all in this thread). */
  workers: number;
  /**
   * The call cache after this scan (with `callCachePath`): calls kept, how many of them this scan
   * read (new, or read again with their outcome), and whether the old one was damaged.
   */
  callCache?: { calls: number; added: number; damaged: boolean };
};

/** What every scan reads: where each file was left. */
type Signature = Omit<FileState, 'carry' | 'recent' | 'lastFind'> & { agent: Agent };
/**
 * What only a changed file needs: its parser's carry, the detector's newest events and the newest
 * find a #lesson block may still join.
 */
type Detail = Pick<FileState, 'carry' | 'recent' | 'lastFind'>;
/** Both files carry the same generation; a detail file of another generation is ignored. */
type StoredSignatures = { version: 2; generation: string; files: Record<string, Signature> };
type StoredDetails = { version: 2; generation: string; files: Record<string, Detail> };

/** Where the carried details of a state file live. */
export function detailPathOf(statePath: string): string {
  return statePath.replace(/(\.json)?$/, '-detail.json');
}

function readJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as unknown;
  } catch {
    return undefined; // no state yet, or a damaged one: those files are scanned again
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
const count = (value: unknown) => typeof value === 'number' && Number.isFinite(value) && value >= 0;

/** A file's entry as a scan writes it; any other (a hand edit, a damaged state) is dropped, and the file read again. */
function isSignature(value: unknown): value is Signature {
  return (
    isRecord(value) &&
    typeof value.agent === 'string' &&
    ['size', 'mtimeMs', 'ino', 'offset', 'line', 'malformed'].every((key) => count(value[key]))
  );
}

function isDetail(value: unknown): value is Detail {
  if (!isRecord(value) || !isRecord(value.carry) || !Array.isArray(value.recent)) return false;
  const { seen, calls, messages } = value.carry;
  return (
    (seen === undefined || Array.isArray(seen)) &&
    (calls === undefined || isRecord(calls)) &&
    (messages === undefined || isRecord(messages))
  );
}

/** The entries of a state file that have the expected shape. */
function validEntries<T>(files: unknown, valid: (value: unknown) => value is T): Record<string, T> {
  if (!isRecord(files)) return {};
  return Object.fromEntries(Object.entries(files).filter((entry): entry is [string, T] => valid(entry[1])));
}

function loadSignatures(path: string): StoredSignatures {
  const parsed = readJson(path) as Partial<StoredSignatures> | undefined;
  if (parsed?.version === 2 && typeof parsed.generation === 'string')
    return { version: 2, generation: parsed.generation, files: validEntries(parsed.files, isSignature) };
  return { version: 2, generation: '', files: {} };
}

function loadDetails(path: string, generation: string): Record<string, Detail> {
  const parsed = readJson(path) as Partial<StoredDetails> | undefined;
  if (parsed?.version === 2 && parsed.generation === generation) return validEntries(parsed.files, isDetail);
  return {};
}

/** Every transcript file a scan has read (from its state file), with its agent. */
export function knownTranscripts(statePath: string): { path: string; agent: Agent }[] {
  return Object.entries(loadSignatures(statePath).files).map(([path, signature]) => ({
    path,
    agent: signature.agent,
  }));
}

type Found = { path: string; shown: string; agent: Agent };

/** Each root's files (walk-files.ts), in order, and the folders below them that could not be listed. */
type Listings = { files: readonly (readonly string[])[]; skipped: readonly SkippedPath[] };

function listRoots(roots: readonly ScanRoot[]): Listings {
  const skipped: SkippedPath[] = [];
  const files = roots.map((root) => walk(resolve(root.path), (folder) => skipped.push(folder)));
  return { files, skipped };
}

/** A path below a root as the scan shows it: below the root's `shownAs`, else as it is. */
function shownPath(root: ScanRoot, path: string): string {
  const rel = relative(resolve(root.path), path);
  return root.shownAs !== undefined ? (rel === '' ? root.shownAs : `${root.shownAs}${sep}${rel}`) : path;
}

/** Folders and files left out of a scan, as the problems it reports (first, before any malformed line). */
function skippedProblems(roots: readonly ScanRoot[], skipped: readonly SkippedPath[]): Problem[] {
  return skipped.map((folder) => {
    const root = roots.find(
      (r) => folder.path === resolve(r.path) || folder.path.startsWith(`${resolve(r.path)}${sep}`),
    );
    return {
      file: root ? shownPath(root, folder.path) : folder.path,
      message: `${folder.folder ? 'folder ' : ''}could not be read (${folder.reason}): skipped, the rest scanned; give lore read access to it to scan it`,
      severity: 'warning' as const,
    };
  });
}

/** The transcripts below `roots`; `listings` holds each root's files (walk-files.ts), in order. */
function findFiles(
  roots: readonly ScanRoot[],
  source: Agent | undefined,
  state: StoredSignatures,
  listings: readonly (readonly string[])[],
  onSkipped: (file: SkippedPath) => void,
): Found[] {
  const found = new Map<string, Found>();
  for (const [index, root] of roots.entries()) {
    for (const path of listings[index] ?? []) {
      if (found.has(path)) continue;
      const known = state.files[path]?.agent;
      const agent = root.agent
        ? READERS[root.agent].isTranscript(path)
          ? root.agent
          : undefined
        : (known ?? detectAgentOrSkip(path, onSkipped));
      if (agent === undefined || (source !== undefined && agent !== source)) continue;
      found.set(path, { path, shown: shownPath(root, path), agent });
    }
  }
  return [...found.values()];
}

/** Is this file new or changed since the last scan (and not older than `since`)? */
function needsScan(
  signature: Signature | undefined,
  stat: StatNumbers | undefined,
  sinceMs: number | undefined,
) {
  if (!stat) return false;
  if (sinceMs !== undefined && stat.mtimeMs < sinceMs) return false;
  return (
    !(signature && signatureMatches(signature, stat)) || heldLineReady(signature, stat.mtimeMs, Date.now())
  );
}

/**
 * How many transcript files there are and how many changed since the last scan: the directory
 * walk and stats of a scan, without opening anything. `lore scan` asks first, so a scan with
 * nothing new loads none of the drafting and storing code. `withTree`: every file below the roots
 * is stat-ed, transcript or not, and the listing comes back with its numbers (for the scan stamp,
 * scan-stamp.ts): the numbers that decided "unchanged" are the ones kept.
 */
export function countChanges(
  options: Pick<ScanOptions, 'roots' | 'source' | 'since' | 'statePath'>,
  withTree = false,
): { files: number; changed: number; problems: Problem[]; tree?: TranscriptTree } {
  const state = loadSignatures(options.statePath);
  const tree = withTree ? readTranscriptTree(options.roots) : undefined;
  const listings = tree
    ? { files: tree.roots.map((root) => root.files), skipped: tree.skipped }
    : listRoots(options.roots);
  const skipped = [...listings.skipped];
  const files = findFiles(options.roots, options.source, state, listings.files, (file) => skipped.push(file));
  const sinceMs = options.since === undefined ? undefined : Date.parse(options.since);
  const statOf = (path: string) => (tree ? tree.stats.get(path) : statNumbers(path));
  const changed = files.filter((file) =>
    needsScan(state.files[file.path], statOf(file.path), sinceMs),
  ).length;
  // a last line held back until its file is quiet (scan-file.ts QUIET_MS) makes the answer
  // change with time alone: no tree, so no stamp
  const held = files.some((file) => state.files[file.path]?.held === true);
  const problems = skippedProblems(options.roots, skipped);
  return { files: files.length, changed, problems, ...(tree && !held ? { tree } : {}) };
}

/** A scan whose state is not written yet: see `scanTranscriptsUnsaved`. */
export type UnsavedScan = {
  report: ScanReport;
  /** Writes what the scan read (the scan state) and the call cache; once, after what came of it. */
  save(): void;
  /** Leaves the scan state as it was (what came of the scan was not kept); nothing after `save`. */
  discard(): void;
};

/** Scans, and writes the scan state before returning (for callers that keep nothing of their own). */
export function scanTranscripts(options: ScanOptions): ScanReport {
  const scan = scanTranscriptsUnsaved(options);
  try {
    scan.save();
  } finally {
    scan.discard();
  }
  return scan.report;
}

/**
 * The detail file of a scan, written as the files are read: each file's details go to disk when
 * its scan is consumed instead of staying in memory until the state is saved (on the capture
 * benchmark's corpus 16 MB of the scanning thread's heap, and a 10 MB string more to write them).
 * Written to a temporary name and renamed into place by `commit`, after the files the scan did not
 * read are copied from the old one: until then, the old detail file stays as it was.
 */
function createDetailWriter(detailPath: string) {
  let writer: AtomicWriter | undefined;
  let generation = '';
  const written = new Set<string>();
  const open = () => {
    if (writer !== undefined) return writer;
    const dir = dirname(detailPath);
    mkdirSync(dir, { recursive: true });
    // what a scan killed before its save left behind
    const prefix = `.${basename(detailPath)}.`;
    for (const name of readdirSync(dir))
      if (name.startsWith(prefix) && isAbandonedTemp(name)) unlinkQuietly(join(dir, name));
    generation = randomBytes(6).toString('hex');
    writer = openAtomicWriter(detailPath);
    writer.write(`{"version":2,"generation":${JSON.stringify(generation)},"files":{`);
    return writer;
  };
  return {
    add(path: string, detail: Detail) {
      const to = open();
      to.write(`${written.size > 0 ? ',' : ''}${JSON.stringify(path)}:${JSON.stringify(detail)}`);
      written.add(path);
    },
    has: (path: string) => written.has(path),
    /** Writes the end and renames the file into place; the generation it carries. */
    commit(): string {
      const to = open();
      to.write('}}');
      to.commit();
      return generation;
    },
    abort: () => writer?.abort(),
  };
}

/** The scan of each file that changed since the last scan (one stat each): only they are opened. */
function changedJobs(
  files: readonly Found[],
  state: StoredSignatures,
  detailsOf: () => Record<string, Detail>,
  options: ScanOptions,
  sinceMs: number | undefined,
): (ScanJob & { file: number })[] {
  const jobs: (ScanJob & { file: number })[] = [];
  files.forEach((file, index) => {
    const signature = state.files[file.path];
    const stat = statSync(file.path, { throwIfNoEntry: false });
    if (!stat || !needsScan(signature, stat, sinceMs)) return;
    const detail = signature ? detailsOf()[file.path] : undefined;
    const previous: FileState | undefined = signature
      ? {
          ...signature,
          carry: detail?.carry ?? {},
          recent: detail?.recent ?? [],
          ...(detail?.lastFind !== undefined ? { lastFind: detail.lastFind } : {}),
        }
      : undefined;
    jobs.push({
      file: index,
      agent: file.agent,
      path: file.path,
      shown: file.shown,
      previous,
      detector: options.detector,
      ...(options.since !== undefined ? { since: options.since } : {}),
      redact: options.redact,
      ...(options.callCachePath !== undefined ? { collectCalls: true } : {}),
      bytes: Math.max(0, stat.size - (previous?.offset ?? 0)),
    });
  });
  return jobs;
}

/**
 * Files deleted since the last scan (an agent's clean-up of old sessions) are forgotten, so the
 * state does not grow with every transcript ever read: only below this scan's roots, and only
 * what is really gone (a file `source` left out of the listing is still there). Whether any was.
 */
function forgetDeleted(
  state: StoredSignatures,
  files: readonly Found[],
  roots: readonly ScanRoot[],
): boolean {
  let forgot = false;
  const listed = new Set(files.map((file) => file.path));
  const bases = roots.map((root) => resolve(root.path));
  for (const path of Object.keys(state.files)) {
    if (listed.has(path) || !bases.some((base) => path === base || path.startsWith(`${base}${sep}`)))
      continue;
    if (statSync(path, { throwIfNoEntry: false }) !== undefined) continue;
    delete state.files[path];
    forgot = true;
  }
  return forgot;
}

/**
 * Scans, and leaves the scan state as it was until `save()`. The state says what has been read:
 * written before what the caller makes of the episodes (candidates, feedback), a scan killed in
 * between would lose them for good, since the next scan finds every file as it was read. Saved
 * last, a scan killed at any moment is read again by the next one, whose episodes merge into what
 * the killed one wrote without counting twice (a candidate knows its episodes by their anchors).
 */
export function scanTranscriptsUnsaved(options: ScanOptions): UnsavedScan {
  const state = loadSignatures(options.statePath);
  const detailPath = detailPathOf(options.statePath);
  let details: Record<string, Detail> | undefined;
  const detailsOf = () => (details ??= loadDetails(detailPath, state.generation));
  const listings = listRoots(options.roots);
  const skipped = [...listings.skipped];
  const files = findFiles(options.roots, options.source, state, listings.files, (file) => skipped.push(file));
  const sinceMs = options.since === undefined ? undefined : Date.parse(options.since);
  const report: ScanReport = {
    files: files.length,
    changedFiles: 0,
    bytes: 0,
    lines: 0,
    skipped: 0,
    skippedPaths: skipped.length,
    problems: skippedProblems(options.roots, skipped).slice(0, REPORTED_PROBLEMS),
    events: 0,
    episodes: [],
    markers: [],
    episodeCount: 0,
    workers: 0,
  };
  // Which files changed since the last scan (one stat each); only they are opened.
  const jobs = changedJobs(files, state, detailsOf, options, sinceMs);

  let dirty = forgetDeleted(state, files, options.roots);
  const newCalls: CachedCall[] = [];
  // The cache as it is, read first: its calls raise the floor older calls are left out below.
  const old = options.callCachePath === undefined ? undefined : readCallCache(options.callCachePath);
  const floor = createCallFloor();
  if (old !== undefined) floor.add(old.calls);
  const prepare = (job: ScanJob): ScanJob => {
    const since = job.collectCalls === true ? floor.floor() : undefined;
    return since === undefined ? job : { ...job, callsSince: since };
  };
  const written = createDetailWriter(detailPath);
  const consume = (at: number, scan: FileScan) => {
    const job = jobs[at] as ScanJob & { file: number };
    const previous = job.previous;
    if (scan.gone === true) {
      // deleted since it was listed: forgotten, as a file deleted between two scans is
      if (state.files[job.path] !== undefined) {
        delete state.files[job.path];
        dirty = true;
      }
      return;
    }
    if (!scan.changed) return;
    // A `since` scan is a filter for its own run, not a reading of the files: it leaves their
    // state as it was, so the next plain scan still mines the events it skipped (the episodes it
    // did write come again then, and merge by their anchors).
    if (options.since === undefined) {
      dirty = true;
      const { carry, recent, lastFind, ...where } = scan.state;
      state.files[job.path] = { ...where, agent: job.agent };
      written.add(job.path, { carry, recent, ...(lastFind !== undefined ? { lastFind } : {}) });
      if (details !== undefined) delete details[job.path];
    }
    report.changedFiles += 1;
    report.bytes += scan.bytes;
    report.lines += scan.lines;
    report.skipped +=
      scan.malformed.length === 0
        ? 0
        : scan.state.malformed - (scan.restarted ? 0 : (previous?.malformed ?? 0));
    const room = REPORTED_PROBLEMS - report.problems.length;
    if (room > 0) report.problems.push(...scan.malformed.slice(0, room));
    report.events += scan.events;
    if (options.onEpisodes) options.onEpisodes(scan.episodes, job.path);
    else report.episodes.push(...scan.episodes);
    report.episodeCount += scan.episodes.length;
    report.markers.push(...scan.markers);
    if (scan.calls !== undefined) {
      floor.add(scan.calls);
      newCalls.push(...scan.calls);
      // Keep the memory bounded on a first scan of a long history: only the newest are kept.
      if (newCalls.length > CALL_CACHE_LIMIT * 2)
        newCalls.splice(0, newCalls.length, ...mergeCachedCalls([], newCalls));
    }
    options.onProgress?.({ done: job.file + 1, total: files.length, bytes: report.bytes });
  };
  // A large scan runs on worker threads; a small one (and what the workers leave) runs here.
  const threads = options.threads ?? 'auto';
  // until the state is saved or the scan discarded
  let holding = jobs.length > 0;
  if (holding) holdHeapGrowth(true);
  const release = () => {
    if (holding) holdHeapGrowth(false);
    holding = false;
  };
  try {
    const pool =
      threads === 'never'
        ? { done: 0, workers: 0 }
        : scanInWorkers(jobs, consume, threads === 'always' ? 0 : undefined, prepare);
    report.workers = pool.workers;
    for (let at = pool.done; at < jobs.length; at += 1) consume(at, runScanJob(prepare(jobs[at] as ScanJob)));
  } catch (error) {
    written.abort();
    release();
    throw error;
  }
  let cache: CachedCall[] | undefined;
  if (options.callCachePath !== undefined && old !== undefined && (dirty || newCalls.length > 0)) {
    // Only the calls the cache keeps are redacted, once (the cached ones already were).
    const fresh = new Set(newCalls);
    let added = 0;
    cache = mergeCachedCalls(old.calls, newCalls).map((call) => {
      if (!fresh.has(call)) return call;
      added += 1;
      return redactCall(call, options.redact);
    });
    report.callCache = { calls: cache.length, added, damaged: old.status === 'damaged' };
  }
  let saved = false;
  const save = () => {
    if (saved) return;
    saved = true;
    if (dirty) {
      // The details first: a crash between the two writes leaves a generation mismatch, and the
      // old signatures with no details only cost a little context on the next scan. Those of the
      // files this scan did not read are the old ones; the details of a file go with its signature.
      for (const [path, detail] of Object.entries(detailsOf()))
        if (state.files[path] !== undefined && !written.has(path)) written.add(path, detail);
      const generation = written.commit();
      mkdirSync(dirname(options.statePath), { recursive: true });
      writeFileAtomic(options.statePath, JSON.stringify({ ...state, generation }));
    } else written.abort();
    // A cache: merged by call, so the calls of a scan read again are not kept twice.
    if (cache !== undefined && options.callCachePath !== undefined)
      writeCallCache(options.callCachePath, cache);
  };
  const discard = () => {
    written.abort();
    release();
  };
  return {
    report,
    save: () => {
      try {
        save();
      } finally {
        release();
      }
    },
    discard,
  };
}

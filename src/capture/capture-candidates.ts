/**
 * `lore scan` end to end: scan the transcripts, redact each episode, draft it, and merge it into
 * the candidates of the right tier (episodes from this repository go to the project, the rest to
 * the user tier; with explicit `--path` folders everything goes to the current tier). A #lesson
 * block joined with the heuristic find of its episode (scan-file.ts) merges into the candidate of
 * that find, when one is stored. Patterns someone already approved or rejected are not proposed
 * again.
 */
import { userInfo } from 'node:os';
import { basename, resolve, sep } from 'node:path';
import type { Agent } from '../core/capture/events.js';
import type { Episode } from '../core/capture/episode.js';
import type { CandidateDraft } from '../core/capture/draft-candidate.js';
import type { CandidateRecord, ScoringConfig } from '../core/capture/merge-candidate.js';
import type * as MergeModule from '../core/capture/merge-candidate.js';
import { redactDeep } from '../core/capture/redact.js';
import { LoreError } from '../core/errors.js';
import type { Config } from '../core/lesson/schema.js';
import type { OwnTier } from '../core/lesson/constants.js';
import type { CandidateStore, StoredCandidate } from '../store/candidates/candidate-store.js';
import { withLocksAsync } from '../store/fs/lock.js';
import { callCachePath } from '../store/breadth/call-cache.js';
import type { TierLayout } from '../store/fs/paths.js';
import type { Workspace } from '../store/workspace/workspace.js';
import { backlogPathOf, readBacklog, writeBacklog } from './capture-backlog.js';
import type { Backlog, BacklogItem } from './capture-backlog.js';
import { countChanges, REPORTED_PROBLEMS, scanTranscriptsUnsaved } from './scan-transcripts.js';
import type { ScanReport, ScanRoot } from './scan-transcripts.js';
import type { TranscriptTree } from './transcript-tree.js';

export type CaptureOptions = {
  roots: ScanRoot[];
  /** True when the roots came from `--path`: every candidate goes to the current tier. */
  explicit: boolean;
  source?: Agent;
  since?: string;
  nowMs: number;
  home: string;
  /** Worker threads for the scan itself (see scanTranscripts). */
  threads?: 'auto' | 'never' | 'always';
  /** List and stat every file below the roots first, for the scan stamp (countChanges `withTree`). */
  tree?: boolean;
  onProgress?: (progress: { done: number; total: number; bytes: number }) => void;
  /**
   * What else the caller makes of the scan (feedback from its markers), done before the scan state
   * is written, under the same lock: a scan killed before that is read again by the next one.
   */
  beforeSave?: (result: CaptureResult) => Promise<void>;
};

/** What a capture needs of the workspace: its capture settings and where things live. */
export type CaptureTarget = {
  capture: Config['capture'];
  cacheDir: string;
  projectRoot: string | undefined;
  /** Where each tier keeps its candidates (no project tier outside a repository). */
  layouts: { project?: TierLayout; user: TierLayout };
};

export function captureTargetOf(ws: Workspace): CaptureTarget {
  return {
    capture: ws.config.capture,
    cacheDir: ws.cacheDir,
    projectRoot: ws.projectRoot,
    layouts: { ...(ws.project ? { project: ws.project.layout } : {}), user: ws.user.layout },
  };
}

/**
 * The transcripts of the backlog this scan drains: those below its roots, of its `source`. A
 * `--since` scan drains none (it is a filter for that run: older drafts wait for a plain scan).
 */
function backlogInScope(backlog: Backlog, options: CaptureOptions): string[] {
  if (options.since !== undefined) return [];
  const bases = options.roots.map((root) => resolve(root.path));
  return [...backlog.entries()]
    .filter(
      ([path, items]) =>
        bases.some((base) => path === base || path.startsWith(`${base}${sep}`)) &&
        (options.source === undefined || items.some((item) => item.draft.agent === options.source)),
    )
    .map(([path]) => path);
}

/** Where the scan state lives, and what to scan: shared by `countChanges` and the scan. */
function scanWhere(target: CaptureTarget, options: CaptureOptions) {
  return {
    roots: options.roots,
    ...(options.source ? { source: options.source } : {}),
    ...(options.since ? { since: options.since } : {}),
    statePath: resolve(target.cacheDir, 'capture', 'scan-state.json'),
    callCachePath: callCachePath(target.cacheDir),
  };
}

export type TouchedCandidate = StoredCandidate & {
  tier: OwnTier;
  change: 'new' | 'merged';
  /** The transcript lines of this scan's episodes, with files as the scanner was given them. */
  evidence: { file: string; line: number }[];
};

/** A candidate this scan creates (no id yet) or merges into, with the drafts it gathered. */
type Pending = {
  tier: OwnTier;
  id: string | undefined;
  drafts: CandidateDraft[];
  evidence: { file: string; line: number }[];
};

export type CaptureResult = {
  report: ScanReport;
  touched: TouchedCandidate[];
  newCount: number;
  mergedCount: number;
  /** Episodes of patterns already approved or rejected. */
  decided: number;
  /** Episodes no advice can be made of: the fix repeats the failure, or changes nothing nameable. */
  dropped: number;
  /** New candidates past `capture.maxCandidatesPerScan`, left out of this scan. */
  capped: number;
  /** With `tree` and nothing new: what the roots held when they were found unchanged. */
  tree?: TranscriptTree;
};

export function scoringOf(capture: Config['capture']): ScoringConfig {
  return { floor: capture.confidenceFloor, confidence: capture.confidence, priority: capture.priority };
}

/** Names to scrub wherever they appear: the local account and the home folder's name. */
export function localNames(home: string): string[] {
  const names = new Set<string>([basename(home)]);
  try {
    names.add(userInfo().username);
  } catch {
    // no passwd entry (containers): the home folder's name is enough
  }
  return [...names].filter((name) => name !== '');
}

export async function captureCandidates(
  target: CaptureTarget,
  options: CaptureOptions,
): Promise<CaptureResult> {
  const names = localNames(options.home);
  const where = scanWhere(target, options);
  // Nothing new since the last scan (the usual answer to a background scan): say so without
  // loading the drafting, schema and YAML code.
  const changes = countChanges(where, options.tree === true);
  const backlogPath = backlogPathOf(where.statePath);
  if (changes.changed === 0 && backlogInScope(readBacklog(backlogPath), options).length === 0) {
    const report: ScanReport = {
      files: changes.files,
      ...{ changedFiles: 0, bytes: 0, lines: 0, skipped: 0, events: 0 },
      ...{ skippedPaths: changes.problems.length, problems: changes.problems.slice(0, REPORTED_PROBLEMS) },
      ...{ episodes: [], episodeCount: 0, markers: [], workers: 0 },
    };
    const tree = changes.tree ? { tree: changes.tree } : {};
    return { report, touched: [], newCount: 0, mergedCount: 0, decided: 0, dropped: 0, capped: 0, ...tree };
  }
  const [{ draftCandidate }, { createDraftMemo }, merging, { openCandidateStore }] = await Promise.all([
    import('../core/capture/draft-candidate.js'),
    import('../core/capture/draft-memo.js'),
    import('../core/capture/merge-candidate.js'),
    import('../store/candidates/candidate-store.js'),
  ]);
  const { candidateHashes, draftHashes } = merging;
  return withLocksAsync([resolve(target.cacheDir, 'locks', 'capture-scan.lock')], async () => {
    const scoring = scoringOf(target.capture);
    const nowIso = new Date(options.nowMs).toISOString();
    const stores = new Map<
      OwnTier,
      { store: CandidateStore; byHash: Map<string, string>; decided: Set<string> }
    >();
    const open = (tier: OwnTier) => {
      let entry = stores.get(tier);
      if (!entry) {
        const layout = tier === 'project' ? target.layouts.project : target.layouts.user;
        if (layout === undefined) throw new Error('no project tier to store candidates in');
        const store = openCandidateStore(layout);
        // Content hash to id (a candidate a block took over is found by the find's hash too): the
        // record itself is read again under its lock when merging.
        const byHash = new Map(
          store
            .list()
            .flatMap((c) => candidateHashes(c.record).map((hash) => [hash, `${tier}:${c.id}`] as const)),
        );
        entry = { store, byHash, decided: new Set(store.decisions().keys()) };
        stores.set(tier, entry);
      }
      return entry;
    };
    const projectRoot = target.projectRoot;
    const tierOf = (project: string | undefined): OwnTier => {
      if (target.layouts.project === undefined) return 'user';
      if (options.explicit || projectRoot === undefined) return 'project';
      const inside =
        project !== undefined && (project === projectRoot || resolve(project).startsWith(projectRoot + sep));
      return inside ? 'project' : 'user';
    };
    let newCount = 0;
    let decided = 0;
    let dropped = 0;
    let capped = 0;
    // lessons-learned's maxCandidatesPerScan: a first scan of a long history must not flood the
    // review queue. Merges into existing candidates are not capped. The drafts left out go to the
    // backlog (capture-backlog.ts), which the next scan writes first; the scan state moves on.
    // Read under the lock: another scan may have drained it since it was counted.
    const backlog = readBacklog(backlogPath);
    const draining = backlogInScope(backlog, options);
    const left: Backlog = new Map([...backlog].filter(([path]) => !draining.includes(path)));
    const maxNew = target.capture.maxCandidatesPerScan ?? Number.POSITIVE_INFINITY;
    // What the scan does to each candidate is gathered first and written once at the end: a
    // history that repeats a mistake a hundred times writes its candidate once, not a hundred
    // times (each a YAML read, a YAML write and an fsync).
    const pending = new Map<string, Pending>();
    // a resumed session repeats the history it continues: its episodes are drafted once
    const drafts = createDraftMemo(draftCandidate, (value) => redactDeep(value, { names }));
    const handle = (episode: Episode, path: string) => {
      const draft = drafts.draft(episode);
      if (draft.drop !== undefined) {
        dropped += 1;
        return;
      }
      place({ tier: tierOf(episode.project), draft, evidence: episode.evidence }, path);
    };
    const place = ({ tier: meant, draft, evidence }: BacklogItem, path: string) => {
      // a project tier gone since the draft was left out: the user tier keeps it
      const tier = meant === 'project' && target.layouts.project === undefined ? 'user' : meant;
      const entry = open(tier);
      const hashes = draftHashes(draft);
      if (hashes.some((hash) => entry.decided.has(hash))) {
        decided += 1;
        return;
      }
      const known = hashes.map((hash) => entry.byHash.get(hash)).find((key) => key !== undefined);
      let key = known;
      if (key === undefined) {
        if (newCount >= maxNew) {
          capped += 1;
          const waiting = left.get(path) ?? [];
          waiting.push({ tier, draft, evidence });
          left.set(path, waiting);
          return;
        }
        newCount += 1;
        key = `new:${tier}:${newCount}`;
        pending.set(key, { tier, id: undefined, drafts: [], evidence: [] });
      } else if (!pending.has(key)) {
        pending.set(key, { tier, id: key.slice(key.indexOf(':') + 1), drafts: [], evidence: [] });
      }
      const item = pending.get(key) as Pending;
      item.drafts.push(draft);
      item.evidence.push(...evidence);
      for (const hash of hashes) entry.byHash.set(hash, key);
    };
    // the backlog first, in the order it was found: older episodes before newer ones
    for (const path of draining) for (const item of backlog.get(path) ?? []) place(item, path);
    const scan = scanTranscriptsUnsaved({
      ...where,
      detector: { window: target.capture.window },
      redact: { names },
      ...(options.threads ? { threads: options.threads } : {}),
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
      onEpisodes: (episodes, path) => episodes.forEach((episode) => handle(episode, path)),
    });
    try {
      const report = scan.report;
      const { touched, mergedCount } = writeGathered(pending.values(), (tier) => open(tier).store, merging, {
        nowIso,
        scoring,
      });
      const result = { report, touched, newCount, mergedCount, decided, dropped, capped };
      // What was read is written last: killed before this, the next scan reads it all again and
      // merges its episodes into the candidates written here without counting them twice.
      await options.beforeSave?.(result);
      // The backlog before the scan state: killed between the two, the next scan reads the same
      // bytes again and finds the backlog's drafts a second time, which merge (capture-backlog.ts).
      if (draining.length > 0 || capped > 0) writeBacklog(backlogPath, left);
      scan.save();
      return result;
    } finally {
      // a failure before the save leaves the state as it was (the next scan reads the files again)
      scan.discard();
    }
  });
}

/**
 * Writes what a scan gathered: each candidate once, its drafts merged in order (created, or merged
 * into the stored one under its lock).
 */
function writeGathered(
  items: Iterable<Pending>,
  storeOf: (tier: OwnTier) => CandidateStore,
  { mergeCandidate, draftHashes }: Pick<typeof MergeModule, 'mergeCandidate' | 'draftHashes'>,
  { nowIso, scoring }: { nowIso: string; scoring: ScoringConfig },
): { touched: TouchedCandidate[]; mergedCount: number } {
  const touched: TouchedCandidate[] = [];
  let mergedCount = 0;
  for (const item of items) {
    const store = storeOf(item.tier);
    const context = { nowIso, tier: item.tier, scoring };
    /** The drafts merged in order onto `record` (none: the first makes the record). */
    const fold = (record: CandidateRecord | undefined, id: string) => {
      let changed = false;
      let out = record;
      for (const draft of item.drafts) {
        const merged = mergeCandidate(draft, out, { ...context, id });
        changed ||= merged.change !== 'unchanged';
        out = merged.record;
      }
      return { record: out as CandidateRecord, changed };
    };
    const create = () => {
      const stored = store.create((id) => fold(undefined, id).record);
      touched.push({ ...stored, tier: item.tier, change: 'new', evidence: item.evidence });
    };
    if (item.id === undefined) {
      create();
      continue;
    }
    let changed = false;
    let stored: StoredCandidate;
    try {
      stored = store.update(item.id, (current: CandidateRecord) => {
        const folded = fold(current, current.id);
        changed = folded.changed;
        return folded.record;
      });
    } catch (error) {
      // Removed while this scan ran: rejected (then its pattern is decided) or deleted by hand
      // (then its episodes make it again).
      if (!(error instanceof LoreError && error.code === 'not-found')) throw error;
      const decisions = store.decisions();
      if (item.drafts.some((draft) => draftHashes(draft).some((hash) => decisions.has(hash)))) continue;
      create();
      continue;
    }
    if (!changed) continue;
    mergedCount += 1;
    touched.push({ ...stored, tier: item.tier, change: 'merged', evidence: item.evidence });
  }
  return { touched, mergedCount };
}

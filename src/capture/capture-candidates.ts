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
import type { CandidateRecord, ScoringConfig } from '../core/capture/merge-candidate.js';
import { redactDeep } from '../core/capture/redact.js';
import type { Config } from '../core/lesson/schema.js';
import type { OwnTier } from '../core/lesson/constants.js';
import type { CandidateStore, StoredCandidate } from '../store/candidates/candidate-store.js';
import { withLocks } from '../store/fs/lock.js';
import { callCachePath } from '../store/breadth/call-cache.js';
import type { TierLayout } from '../store/fs/paths.js';
import type { Workspace } from '../store/workspace/workspace.js';
import { countChanges, scanTranscripts } from './scan-transcripts.js';
import type { ScanReport, ScanRoot } from './scan-transcripts.js';

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
  onProgress?: (progress: { done: number; total: number; bytes: number }) => void;
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
  const changes = countChanges(where);
  if (changes.changed === 0) {
    const report: ScanReport = {
      files: changes.files,
      ...{ changedFiles: 0, bytes: 0, lines: 0, skipped: 0, problems: [], events: 0 },
      ...{ episodes: [], episodeCount: 0, markers: [], workers: 0 },
    };
    return { report, touched: [], newCount: 0, mergedCount: 0, decided: 0, dropped: 0, capped: 0 };
  }
  const [{ draftCandidate }, { mergeCandidate, candidateHashes, draftHashes }, { openCandidateStore }] =
    await Promise.all([
      import('../core/capture/draft-candidate.js'),
      import('../core/capture/merge-candidate.js'),
      import('../store/candidates/candidate-store.js'),
    ]);
  return withLocks([resolve(target.cacheDir, 'locks', 'capture-scan.lock')], () => {
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
          store.list().flatMap((c) => candidateHashes(c.record).map((hash) => [hash, c.id] as const)),
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
    const touched = new Map<string, TouchedCandidate>();
    let newCount = 0;
    let mergedCount = 0;
    let decided = 0;
    let dropped = 0;
    let capped = 0;
    // lessons-learned's maxCandidatesPerScan: a first scan of a long history must not flood the
    // review queue. Merges into existing candidates are not capped.
    const maxNew = target.capture.maxCandidatesPerScan ?? Number.POSITIVE_INFINITY;
    const handle = (episode: Episode) => {
      const tier = tierOf(episode.project);
      const draft = draftCandidate(redactDeep(episode, { names }));
      if (draft.drop !== undefined) {
        dropped += 1;
        return;
      }
      const entry = open(tier);
      const hashes = draftHashes(draft);
      if (hashes.some((hash) => entry.decided.has(hash))) {
        decided += 1;
        return;
      }
      const existing = hashes.map((hash) => entry.byHash.get(hash)).find((id) => id !== undefined);
      let stored: StoredCandidate;
      let change: 'new' | 'merged';
      if (existing) {
        let result: 'merged' | 'unchanged' | 'new' = 'unchanged';
        stored = entry.store.update(existing, (current: CandidateRecord) => {
          const merged = mergeCandidate(draft, current, { id: current.id, nowIso, tier, scoring });
          result = merged.change;
          return merged.record;
        });
        if (result === 'unchanged') return;
        change = 'merged';
        mergedCount += touched.has(`${tier}:${stored.id}`) ? 0 : 1;
      } else if (newCount >= maxNew) {
        capped += 1;
        return;
      } else {
        stored = entry.store.create(
          (id) => mergeCandidate(draft, undefined, { id, nowIso, tier, scoring }).record,
        );
        change = 'new';
        newCount += 1;
      }
      for (const hash of hashes) entry.byHash.set(hash, stored.id);
      const key = `${tier}:${stored.id}`;
      const before = touched.get(key);
      touched.set(key, {
        ...stored,
        tier,
        change: before?.change ?? change,
        evidence: [...(before?.evidence ?? []), ...episode.evidence],
      });
    };
    const report = scanTranscripts({
      ...where,
      detector: { window: target.capture.window },
      redact: { names },
      ...(options.threads ? { threads: options.threads } : {}),
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
      onEpisodes: (episodes) => episodes.forEach(handle),
    });
    return { report, touched: [...touched.values()], newCount, mergedCount, decided, dropped, capped };
  });
}

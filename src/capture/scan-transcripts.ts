/**
 * A scan over many transcript files: find them (the agents' default folders, or `--path`
 * folders), match each to its reader, scan each incrementally against the state of the last
 * scan, and return the episodes found plus what was read. The state lives in one JSON file in the
 * derived cache; only files whose signature changed are opened, so a scan with nothing new costs
 * a directory walk and a stat per file.
 */
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';
import type { Problem } from '../core/errors.js';
import type { Agent, TranscriptEvent } from '../core/capture/events.js';
import type { Episode } from '../core/capture/episode.js';
import type { DetectorOptions } from '../core/capture/detect-episodes.js';
import { redactDeep } from '../core/capture/redact.js';
import type { RedactOptions } from '../core/capture/redact.js';
import { writeFileAtomic } from '../store/fs-atomic.js';
import { READERS, detectAgent, walk } from './readers.js';
import { scanFile, signatureMatches } from './scan-file.js';
import type { FileState } from './scan-file.js';

export type ScanRoot = { path: string; agent?: Agent; shownAs?: string };

export type ScanOptions = {
  roots: ScanRoot[];
  /** Only this agent's transcripts. */
  source?: Agent;
  /** ISO date: files last changed before it are skipped, and older events are not mined. */
  since?: string;
  statePath: string;
  detector: DetectorOptions;
  redact: RedactOptions;
  onProgress?: (progress: { done: number; total: number; bytes: number }) => void;
  /** Takes each file's episodes as they are found; they are then not kept in the report. */
  onEpisodes?: (episodes: Episode[]) => void;
};

export type ScanReport = {
  files: number;
  changedFiles: number;
  bytes: number;
  lines: number;
  skipped: number;
  problems: Problem[];
  events: number;
  /** Every episode, unless `onEpisodes` took them. */
  episodes: Episode[];
  episodeCount: number;
};

type StoredState = { version: 1; files: Record<string, FileState & { agent: Agent }> };

const TEXT_KEPT = 600;

function loadState(path: string): StoredState {
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as StoredState;
    if (parsed.version === 1 && typeof parsed.files === 'object') return parsed;
  } catch {
    // no state yet, or a damaged one: scan everything again
  }
  return { version: 1, files: {} };
}

/** The default folders of every reader (or of one), from the environment. */
export function defaultRoots(env: NodeJS.ProcessEnv, home: string, source?: Agent): ScanRoot[] {
  const agents = source ? [source] : (Object.keys(READERS) as Agent[]);
  return agents.flatMap((agent) => READERS[agent].defaultRoots(env, home).map((path) => ({ path, agent })));
}

type Found = { path: string; shown: string; agent: Agent };

function findFiles(roots: readonly ScanRoot[], source: Agent | undefined, state: StoredState): Found[] {
  const found = new Map<string, Found>();
  for (const root of roots) {
    const base = resolve(root.path);
    for (const path of walk(base)) {
      if (found.has(path)) continue;
      const known = state.files[path]?.agent;
      const agent = root.agent
        ? READERS[root.agent].isTranscript(path)
          ? root.agent
          : undefined
        : (known ?? detectAgent(path));
      if (agent === undefined || (source !== undefined && agent !== source)) continue;
      const rel = relative(base, path);
      const shown =
        root.shownAs !== undefined ? (rel === '' ? root.shownAs : `${root.shownAs}${sep}${rel}`) : path;
      found.set(path, { path, shown, agent });
    }
  }
  return [...found.values()];
}

function shorten(event: TranscriptEvent, redact: RedactOptions): TranscriptEvent {
  const copy = { ...event } as TranscriptEvent & { text?: string; input?: Record<string, unknown> };
  if (typeof copy.text === 'string' && copy.text.length > TEXT_KEPT)
    copy.text = copy.text.slice(0, TEXT_KEPT);
  if (copy.input !== undefined) {
    const text = JSON.stringify(copy.input);
    if (text.length > TEXT_KEPT * 4) {
      const command = copy.input.command ?? copy.input.cmd;
      const path = copy.input.file_path ?? copy.input.path;
      copy.input = {
        ...(typeof command === 'string' ? { command: command.slice(0, TEXT_KEPT) } : {}),
        ...(typeof path === 'string' ? { file_path: path } : {}),
        truncated: true,
      };
    }
  }
  // A fresh copy: a slice of a parsed string would keep the whole (maybe 50 KB) original alive.
  return JSON.parse(JSON.stringify(redactDeep(copy, redact))) as TranscriptEvent;
}

export function scanTranscripts(options: ScanOptions): ScanReport {
  const state = loadState(options.statePath);
  const files = findFiles(options.roots, options.source, state);
  const sinceMs = options.since === undefined ? undefined : Date.parse(options.since);
  const report: ScanReport = {
    files: files.length,
    changedFiles: 0,
    bytes: 0,
    lines: 0,
    skipped: 0,
    problems: [],
    events: 0,
    episodes: [],
    episodeCount: 0,
  };
  let dirty = false;
  files.forEach((file, index) => {
    const previous = state.files[file.path];
    const stat = statSync(file.path, { throwIfNoEntry: false });
    if (!stat) return;
    if (sinceMs !== undefined && stat.mtimeMs < sinceMs) return;
    if (previous && signatureMatches(previous, stat)) return;
    const scan = scanFile({
      reader: READERS[file.agent],
      path: file.path,
      shown: file.shown,
      previous,
      detector: options.detector,
      ...(options.since !== undefined ? { since: options.since } : {}),
      keep: (event) => shorten(event, options.redact),
    });
    if (!scan.changed) return;
    dirty = true;
    state.files[file.path] = { ...scan.state, agent: file.agent };
    report.changedFiles += 1;
    report.bytes += scan.bytes;
    report.lines += scan.lines;
    report.skipped +=
      scan.malformed.length === 0
        ? 0
        : scan.state.malformed - (scan.restarted ? 0 : (previous?.malformed ?? 0));
    report.problems.push(...scan.malformed);
    report.events += scan.events;
    if (options.onEpisodes) options.onEpisodes(scan.episodes);
    else report.episodes.push(...scan.episodes);
    report.episodeCount += scan.episodes.length;
    options.onProgress?.({ done: index + 1, total: files.length, bytes: report.bytes });
  });
  if (dirty) {
    mkdirSync(dirname(options.statePath), { recursive: true });
    writeFileAtomic(options.statePath, JSON.stringify(state));
  }
  return report;
}

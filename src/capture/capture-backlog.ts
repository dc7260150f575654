/**
 * The backlog of a capped scan, `<cache>/capture/scan-state-backlog.json`: the drafts a scan found
 * but did not write (past `capture.maxCandidatesPerScan`), by the transcript they came from. The
 * scan state moves past them like past every other line read, and the next scan writes the backlog
 * first, then reads only the bytes added since. Keeping the files' old offsets instead made every
 * later scan parse the whole capped files again until the backlog drained (on a first scan of a
 * long history with the default cap, all of it, scan after scan).
 *
 * Crash safety: the backlog is written before the scan state (scan-transcripts.ts `save`) and does
 * not depend on its generation. Killed between the two, the next scan holds the new backlog and
 * the old offsets: it reads the same bytes again and finds drafts the backlog also holds, which
 * merge as the same episodes (a candidate knows its episodes by their anchors). An extra entry is
 * harmless; a missing one would be lost, and no order of writes leaves one missing.
 */
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import type { CandidateDraft } from '../core/capture/draft-candidate.js';
import type { EvidenceRef } from '../core/capture/episode.js';
import type { OwnTier } from '../core/lesson/constants.js';
import { openAtomicWriter } from '../store/fs/fs-atomic.js';

/** One draft left out: the tier it was meant for, the draft (redacted) and its evidence as shown. */
export type BacklogItem = { tier: OwnTier; draft: CandidateDraft; evidence: EvidenceRef[] };
/** By the absolute path of the transcript the drafts came from, in the order they were found. */
export type Backlog = Map<string, BacklogItem[]>;

type StoredBacklog = { version: 1; files: Record<string, BacklogItem[]> };

/** Where the backlog of a state file lives. */
export function backlogPathOf(statePath: string): string {
  return statePath.replace(/(\.json)?$/, '-backlog.json');
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

const isEvidence = (value: unknown): value is EvidenceRef =>
  isRecord(value) && typeof value.file === 'string' && typeof value.line === 'number';

/** An item as `writeBacklog` writes it; anything else (a hand edit) is left out. */
function isItem(value: unknown): value is BacklogItem {
  if (!isRecord(value) || (value.tier !== 'project' && value.tier !== 'user')) return false;
  const { draft, evidence } = value;
  return (
    isRecord(draft) &&
    ['contentHash', 'summary', 'anchor', 'agent', 'session'].every((key) => typeof draft[key] === 'string') &&
    Array.isArray(draft.evidence) &&
    Array.isArray(evidence) &&
    evidence.every(isEvidence)
  );
}

/** The backlog; none when there is no file (the usual case) or it is damaged. */
export function readBacklog(path: string): Backlog {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8')) as unknown;
  } catch {
    return new Map();
  }
  if (!isRecord(parsed) || parsed.version !== 1 || !isRecord(parsed.files)) return new Map();
  const backlog: Backlog = new Map();
  for (const [file, items] of Object.entries(parsed.files)) {
    const valid = Array.isArray(items) ? items.filter(isItem) : [];
    if (valid.length > 0) backlog.set(file, valid);
  }
  return backlog;
}

/**
 * Writes the backlog whole (atomically); an empty one removes the file. Written a transcript at a
 * time, as `StoredBacklog`: a first scan of a long history leaves thousands of drafts (1,500 on
 * the capture benchmark's corpus), and one string of them all (5 MB, and its bytes again) was the
 * largest allocation of the scan's end.
 */
export function writeBacklog(path: string, backlog: Backlog): void {
  const files = [...backlog].filter(([, items]) => items.length > 0);
  if (files.length === 0) {
    rmSync(path, { force: true });
    return;
  }
  mkdirSync(dirname(path), { recursive: true });
  const writer = openAtomicWriter(path);
  try {
    const version: StoredBacklog['version'] = 1;
    writer.write(`{"version":${version},"files":{`);
    files.forEach(([file, items], index) =>
      writer.write(`${index > 0 ? ',' : ''}${JSON.stringify(file)}:${JSON.stringify(items)}`),
    );
    writer.write('}}');
    writer.commit();
  } finally {
    writer.abort();
  }
}

// What the capture eval and the replay eval share: the labeled transcripts and their split, and a
// half scanned, drafted and merged into candidates the way `lore scan` does. Reads dist/ (run
// `npm run build` first; `npm run eval` does).
//
// The split: labels.json records each file's half, assigned once by a rule (the first byte of the
// SHA-256 of the file's key: even is tuning). `checkSplit` refuses a file whose recorded half
// differs from the rule.
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { scanTranscripts } from '../dist/capture/scan-transcripts.js';
import { draftCandidate } from '../dist/core/capture/draft-candidate.js';
import { draftHashes, mergeCandidate } from '../dist/core/capture/merge-candidate.js';
import { redactDeep } from '../dist/core/capture/redact.js';

export const root = fileURLToPath(new URL('../test/fixtures/transcripts/', import.meta.url));
export const labels = JSON.parse(readFileSync(join(root, 'labels.json'), 'utf8')).files;
export const HALVES = ['tuning', 'held-out'];

/** The half the split rule puts a file in. */
export function halfOf(file) {
  return createHash('sha256').update(file).digest()[0] % 2 === 0 ? 'tuning' : 'held-out';
}

export function checkSplit() {
  const wrong = Object.entries(labels).filter(([file, entry]) => entry.half !== halfOf(file));
  for (const [file, entry] of wrong)
    console.error(
      entry.half === undefined
        ? `labels.json: ${file} has no half: add "half": "${halfOf(file)}" (the split rule's)`
        : `labels.json: ${file} is recorded in "${entry.half}", the split rule says "${halfOf(file)}"`,
    );
  if (wrong.length > 0) process.exit(1);
}

/** The labeled files of a half. */
export function filesOf(half) {
  return Object.keys(labels).filter((file) => labels[file].half === half);
}

/** Scan one half, draft and merge like `lore scan`; the candidates and the dropped episodes. */
export function scanHalf(files, scoring, window) {
  const temp = mkdtempSync(join(tmpdir(), 'lore-eval-'));
  try {
    const report = scanTranscripts({
      roots: files.map((file) => ({ path: join(root, file), shownAs: file })),
      statePath: join(temp, 'state.json'),
      detector: { window },
      redact: { names: [] },
    });
    const byHash = new Map();
    const dropped = [];
    report.episodes.forEach((raw, index) => {
      const episode = redactDeep(raw);
      const draft = draftCandidate(episode);
      if (draft.drop !== undefined) {
        dropped.push({ draft, episode });
        return;
      }
      // As `lore scan` does: a #lesson block joined with the heuristic find of its episode (the
      // scan joins them) merges into a candidate stored under either hash.
      const hashes = draftHashes(draft);
      const entry = hashes.map((hash) => byHash.get(hash)).find((found) => found !== undefined);
      const merged = mergeCandidate(draft, entry?.record, {
        id: entry?.record.id ?? `c${String(index).padStart(3, '0')}`,
        nowIso: '2026-01-01T00:00:00.000Z',
        tier: 'project',
        scoring,
      });
      const next = { record: merged.record, episodes: [...(entry?.episodes ?? []), { episode, draft }] };
      for (const [hash, value] of byHash) if (value === entry) byHash.set(hash, next);
      for (const hash of [...hashes, merged.record.contentHash]) byHash.set(hash, next);
    });
    return { candidates: [...new Set(byHash.values())], dropped };
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}

export const inRange = (lines, [start, end]) => lines.some((line) => line >= start && line <= end);
export const linesOf = (episode) => episode.evidence.map((ref) => ref.line);
export const fileOf = (episode) => episode.evidence[0]?.file;

/** The labeled episodes an episode found matches: same file, an evidence line inside the range. */
export function matches(episode, labeled) {
  return labeled.filter((l) => l.file === fileOf(episode) && inRange(linesOf(episode), l.lines));
}

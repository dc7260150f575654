// Capture quality on the hand-labeled transcripts (test/fixtures/transcripts/labels.json):
// `npm run eval` builds, scans the fixtures in-process, merges episodes into candidates the way
// `lore scan` does, and prints recall and precision at the default confidence floor.
//
// A detected episode matches a labeled one when it is in the same file and one of its evidence
// lines falls inside the labeled line range. Recall: labeled episodes matched by a detection at
// or above the floor. Precision: detections at or above the floor that match a labeled episode
// (matching only a near-miss, or nothing, is a false positive).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { scanTranscripts } from '../dist/capture/scan-transcripts.js';
import { draftCandidate } from '../dist/core/capture/draft-candidate.js';
import { draftHashes, mergeCandidate } from '../dist/core/capture/merge-candidate.js';
import { redactDeep } from '../dist/core/capture/redact.js';
import { defaultConfig } from '../dist/core/lesson/schema.js';

const root = fileURLToPath(new URL('../test/fixtures/transcripts/', import.meta.url));
const labels = JSON.parse(readFileSync(join(root, 'labels.json'), 'utf8')).files;
const verbose = process.argv.includes('--verbose');
const asJson = process.argv.includes('--json');

export function evaluate() {
  const config = defaultConfig().capture;
  const scoring = { floor: config.confidenceFloor, confidence: config.confidence, priority: config.priority };
  const temp = mkdtempSync(join(tmpdir(), 'lore-eval-'));
  try {
    const report = scanTranscripts({
      roots: Object.keys(labels).map((file) => ({ path: join(root, file), shownAs: file })),
      statePath: join(temp, 'state.json'),
      detector: { window: config.window },
      redact: { names: [] },
    });
    const byHash = new Map();
    // As `lore scan` does: a #lesson block joined with the heuristic find of its episode (the
    // scan joins them) merges into a candidate stored under either hash.
    const detections = report.episodes.map((episode, index) => {
      const draft = draftCandidate(redactDeep(episode));
      const hashes = draftHashes(draft);
      const existing = hashes.map((hash) => byHash.get(hash)).find((record) => record !== undefined);
      const merged = mergeCandidate(draft, existing, {
        id: `c${index}`,
        nowIso: '2026-01-01T00:00:00.000Z',
        tier: 'project',
        scoring,
      });
      for (const hash of [...hashes, merged.record.contentHash]) byHash.set(hash, merged.record);
      return { episode, draft };
    });
    const scored = detections.map(({ episode, draft }) => ({
      file: episode.evidence[0].file,
      lines: episode.evidence.map((ref) => ref.line),
      kind: episode.kind,
      summary: draft.summary,
      confidence: byHash.get(draft.contentHash).confidence,
    }));
    const inRange = (lines, [start, end]) => lines.some((line) => line >= start && line <= end);
    const labeled = Object.entries(labels).flatMap(([file, entry]) =>
      entry.episodes.map((episode) => ({ file, ...episode })),
    );
    const above = scored.filter((d) => d.confidence >= scoring.floor);
    const matchesLabel = (d) => labeled.filter((l) => l.file === d.file && inRange(d.lines, l.lines));
    const truePositives = above.filter((d) => matchesLabel(d).length > 0);
    const found = labeled.filter((l) => above.some((d) => d.file === l.file && inRange(d.lines, l.lines)));
    const recall = labeled.length === 0 ? 1 : found.length / labeled.length;
    const precision = above.length === 0 ? 1 : truePositives.length / above.length;
    return { labeled, found, above, truePositives, scored, recall, precision, floor: scoring.floor, report };
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}

const result = evaluate();
if (asJson) {
  console.log(
    JSON.stringify({
      recall: result.recall,
      precision: result.precision,
      floor: result.floor,
      labeled: result.labeled.length,
      found: result.found.length,
      detections: result.above.length,
      truePositives: result.truePositives.length,
    }),
  );
} else {
  const pct = (x) => `${(x * 100).toFixed(1)}%`;
  console.log(
    `capture eval on ${Object.keys(labels).length} labeled transcript files (floor ${result.floor})`,
  );
  console.log(`  labeled episodes:      ${result.labeled.length}`);
  console.log(`  detections >= floor:   ${result.above.length} (${result.truePositives.length} true)`);
  console.log(
    `  recall:    ${pct(result.recall)}  (${result.found.length}/${result.labeled.length}, target >= 80%)`,
  );
  console.log(
    `  precision: ${pct(result.precision)}  (${result.truePositives.length}/${result.above.length}, target >= 70%)`,
  );
  if (verbose) {
    for (const l of result.labeled.filter((x) => !result.found.includes(x)))
      console.log(`  MISSED ${l.file}:${l.lines.join('-')} ${l.note}`);
    for (const d of result.above.filter((x) => !result.truePositives.includes(x)))
      console.log(
        `  FALSE  ${d.file}:${d.lines.join(',')} ${d.kind} ${d.confidence} ${d.summary.slice(0, 120)}`,
      );
    for (const d of result.scored.filter((x) => x.confidence < result.floor))
      console.log(
        `  below  ${d.file}:${d.lines.join(',')} ${d.kind} ${d.confidence} ${d.summary.slice(0, 100)}`,
      );
  }
}

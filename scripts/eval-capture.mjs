// Capture quality on the hand-labeled transcripts (test/fixtures/transcripts/labels.json):
// `npm run eval` builds, then scans each half of the labeled files in-process, drafts and merges
// the episodes into candidates the way `lore scan` does (dropping the ones `lore scan` drops), and
// prints recall, precision and the share of advice-shaped candidates for the tuning half and the
// held-out half, then every candidate, so anyone can read what a reviewer would get.
//
// The split (scripts/eval-candidates.mjs): labels.json records each file's half, assigned once by
// a rule; the script refuses a file whose recorded half differs from it. Tune on the tuning half
// only; the held-out half is for reporting.
//
// Recall: labeled episodes matched by a candidate at or above the confidence floor (an episode of
// the candidate in the same file with an evidence line inside the labeled range). Precision:
// candidates at or above the floor (the injectable ones) with an episode that matches a labeled
// episode; matching only a near-miss, or nothing, is a false positive. Advice-shaped: the rule in
// src/core/capture/advice/advice-shape.ts (an imperative or "When ..." summary that names, in
// backticks, a command, flag or path found in the evidence, and a fix that differs from the
// failure), over every candidate of the half.
//
// Misses are counted by what their lines hold: a failing call, only the user's words, neither
// (the mistake shows only later, or in output that looked like success), or a line the owner's
// redaction broke; that says what kind of detector could find them.
//
// `--json` prints the figures and the candidates as data; `--half tuning|held-out` evaluates and
// prints that half alone.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileEvents } from '../dist/capture/file-events.js';
import { checkAdviceShape } from '../dist/core/capture/advice/advice-shape.js';
import { defaultConfig } from '../dist/core/lesson/schema.js';
import { checkSplit, fileOf, HALVES, labels, linesOf, matches, root, scanHalf } from './eval-candidates.mjs';

const TARGETS = { recall: 0.85, precision: 0.85, advice: 0.9 };

/** Every string a call or result carries: what a summary may name from the evidence. */
function textsOf(value) {
  if (typeof value === 'string') return [value];
  if (value === null || typeof value !== 'object') return [];
  return Object.values(value).flatMap(textsOf);
}

function evidenceTexts(episode) {
  return [
    ...episode.failures.flatMap((attempt) => [...textsOf(attempt.call.input), attempt.result.text]),
    ...(episode.fix ? textsOf(episode.fix.input) : []),
    ...(episode.enabler ? textsOf(episode.enabler.input) : []),
    ...(episode.userText ? [episode.userText] : []),
  ];
}

/**
 * What the lines of a missed episode hold, which says what a detector would need to find it: a
 * failing call; only the user's words; neither (the mistake shows only in what happened later,
 * or in output that looked like success); or a line in the span the owner's redaction broke.
 */
function missKind(label, events, lines) {
  const [start, end] = label.lines;
  const broken = (n) => {
    try {
      JSON.parse(lines[n - 1] ?? '');
      return false;
    } catch {
      return true;
    }
  };
  const span = Array.from({ length: end - start + 1 }, (_, i) => start + i);
  if (label.file.endsWith('.jsonl') && span.some(broken)) return 'broken line';
  const inside = events.filter((e) => e.line >= start && e.line <= end);
  if (inside.some((e) => e.kind === 'tool-result' && e.ok === false)) return 'failing call';
  if (inside.some((e) => e.kind === 'user-text')) return 'user words only';
  return 'no failure shown';
}

function missKinds(missed) {
  const counts = {};
  const byFile = new Map();
  for (const label of missed) {
    if (!byFile.has(label.file)) {
      const text = readFileSync(join(root, label.file), 'utf8');
      byFile.set(label.file, {
        events: fileEvents(join(root, label.file), label.file).events,
        lines: text.split('\n'),
      });
    }
    const { events, lines } = byFile.get(label.file);
    const kind = missKind(label, events, lines);
    label.kind = kind;
    counts[kind] = (counts[kind] ?? 0) + 1;
  }
  return counts;
}

/** The figures and the listing of one half. */
function evaluateHalf(half, scoring, window) {
  const files = Object.keys(labels).filter((file) => labels[file].half === half);
  const labeled = files.flatMap((file) => labels[file].episodes.map((e) => ({ file, ...e })));
  const { candidates, dropped } = scanHalf(files, scoring, window);
  const listed = candidates.map(({ record, episodes }) => {
    const shape = checkAdviceShape({
      summary: record.summary,
      mistake: record.mistake,
      remediation: record.remediation,
      evidence: episodes.flatMap(({ episode }) => evidenceTexts(episode)),
    });
    const hits = episodes.flatMap(({ episode }) => matches(episode, labeled));
    return {
      id: record.id,
      kind: record.capture.kind,
      confidence: record.confidence,
      injectable: record.confidence >= scoring.floor,
      labeled: hits.length > 0,
      evidence: episodes.map(({ episode }) => `${fileOf(episode)}:${linesOf(episode).join(',')}`),
      summary: record.summary,
      mistake: record.mistake,
      remediation: record.remediation,
      advice: shape.advice,
      faults: shape.faults,
      hits,
    };
  });
  const injectable = listed.filter((c) => c.injectable);
  const found = labeled.filter((l) => injectable.some((c) => c.hits.includes(l)));
  const ratio = (part, whole) => (whole === 0 ? 1 : part / whole);
  const agentOf = (file) => file.split('/')[0];
  const byAgent = {};
  for (const agent of [...new Set(files.map(agentOf))].sort()) {
    const mine = injectable.filter((c) => agentOf(c.evidence[0] ?? '') === agent);
    byAgent[agent] = {
      labeled: labeled.filter((l) => agentOf(l.file) === agent).length,
      found: found.filter((l) => agentOf(l.file) === agent).length,
      injectable: mine.length,
      truePositives: mine.filter((c) => c.labeled).length,
    };
  }
  return {
    half,
    files: files.length,
    labeled: labeled.length,
    found: found.length,
    missed: labeled.filter((l) => !found.includes(l)),
    missKinds: missKinds(labeled.filter((l) => !found.includes(l))),
    byAgent,
    candidates: listed.length,
    injectable: injectable.length,
    truePositives: injectable.filter((c) => c.labeled).length,
    recall: ratio(found.length, labeled.length),
    precision: ratio(injectable.filter((c) => c.labeled).length, injectable.length),
    adviceShaped: listed.filter((c) => c.advice).length,
    advice: ratio(listed.filter((c) => c.advice).length, listed.length),
    fixEqualsFailure: listed.filter((c) => c.faults.includes('fix-equals-failure')).length,
    dropped: dropped.map(({ draft, episode }) => ({
      reason: draft.drop,
      kind: draft.kind,
      evidence: `${fileOf(episode)}:${linesOf(episode).join(',')}`,
      summary: draft.summary,
      labeled: matches(episode, labeled).length > 0,
    })),
    listed,
  };
}

function evaluate(halves) {
  checkSplit();
  const config = defaultConfig().capture;
  const scoring = { floor: config.confidenceFloor, confidence: config.confidence, priority: config.priority };
  return { floor: scoring.floor, halves: halves.map((half) => evaluateHalf(half, scoring, config.window)) };
}

const pct = (x) => `${(x * 100).toFixed(1)}%`;

function printFigures(result) {
  const row = (name, f) =>
    `  ${name.padEnd(22)}${result.halves.map((h) => f(h).padEnd(24)).join('')}`.trimEnd();
  console.log(`capture eval: ${Object.keys(labels).length} labeled transcript files, split once by file`);
  console.log(`(floor ${result.floor}; targets on the held-out half: recall >= 85%, precision >= 85%,`);
  console.log(' >= 90% advice-shaped, no fix equal to its failure)\n');
  console.log(row('', (h) => h.half));
  console.log(row('files', (h) => String(h.files)));
  console.log(row('labeled episodes', (h) => String(h.labeled)));
  console.log(row('candidates', (h) => `${h.candidates} (${h.injectable} injectable)`));
  console.log(row('recall', (h) => `${pct(h.recall)} (${h.found}/${h.labeled})`));
  console.log(row('precision', (h) => `${pct(h.precision)} (${h.truePositives}/${h.injectable})`));
  console.log(row('advice-shaped', (h) => `${pct(h.advice)} (${h.adviceShaped}/${h.candidates})`));
  console.log(row('fix equals failure', (h) => String(h.fixEqualsFailure)));
  console.log(row('dropped episodes', (h) => String(h.dropped.length)));
  console.log('\n  by agent (found/labeled, true/injectable):');
  for (const agent of [...new Set(result.halves.flatMap((h) => Object.keys(h.byAgent)))].sort())
    console.log(
      row(`  ${agent}`, (h) => {
        const a = h.byAgent[agent];
        return a === undefined ? '-' : `${a.found}/${a.labeled}, ${a.truePositives}/${a.injectable}`;
      }),
    );
  console.log('\n  misses by what their lines hold (what a detector would need to see):');
  for (const kind of ['failing call', 'user words only', 'no failure shown', 'broken line'])
    console.log(row(`  ${kind}`, (h) => String(h.missKinds[kind] ?? 0)));
}

function printListing(h) {
  console.log(
    `\n== ${h.half} half: every candidate (TP: matches a labeled episode; FP: does not; below: under the floor)`,
  );
  for (const c of h.listed) {
    const mark = !c.injectable ? 'below' : c.labeled ? 'TP' : 'FP';
    console.log(`\n[${mark}] ${c.id} ${c.kind} ${c.confidence.toFixed(2)}  ${c.evidence.join('  ')}`);
    console.log(`  summary: ${c.summary}`);
    console.log(`  mistake: ${c.mistake ?? '-'}`);
    console.log(`  fix:     ${c.remediation ?? '-'}`);
    console.log(`  advice:  ${c.advice ? 'yes' : `no (${c.faults.join(', ')})`}`);
  }
  for (const d of h.dropped)
    console.log(
      `\n[dropped: ${d.reason}${d.labeled ? ', labeled' : ''}] ${d.kind}  ${d.evidence}\n  ${d.summary}`,
    );
  for (const l of h.missed) console.log(`\n[MISSED: ${l.kind}] ${l.file}:${l.lines.join('-')}  ${l.note}`);
}

const only = process.argv.includes('--half') ? process.argv[process.argv.indexOf('--half') + 1] : undefined;
if (only !== undefined && !HALVES.includes(only)) {
  console.error(`eval-capture: --half takes ${HALVES.join(' or ')}, not ${only ?? 'nothing'}`);
  process.exit(2);
}
// With --half the other half is not even scanned: whoever tunes on the tuning half sees no figure
// of the held-out half, not even in passing.
const result = evaluate(only === undefined ? HALVES : [only]);
if (process.argv.includes('--json')) {
  console.log(JSON.stringify({ floor: result.floor, targets: TARGETS, halves: result.halves }, null, 2));
} else {
  printFigures(result);
  for (const h of result.halves) printListing(h);
}

// Replay quality on the hand-labeled transcripts (test/fixtures/transcripts/labels.json), the
// replay stage of `npm run eval`: for each half of the split (scripts/eval-candidates.mjs), scan
// it the way `lore scan` does, approve every injectable candidate as a project lesson in a
// temporary workspace, replay the half's transcripts through the hook's pipeline (`lore replay`'s
// engine, in process) and print, for the tuning half and the held-out half (the targets apply to
// the held-out half):
//
// - precision: the share of injections that land at a labeled mistake: a call it came with (or
//   denied) inside the line range of a labeled episode or of a labeled repeat of one in that file;
//   before-call context lands when a call of its turn does. Target >= 90%. Beside it, the share
//   among lessons waiting for an error and lessons firing before calls, and among injections on a
//   call of the lesson's own evidence (where a capture false positive lands) and elsewhere (how
//   broad a trigger is).
// - trigger fidelity: of the labeled mistakes a lesson was captured from (an episode of its
//   candidate matches the label), the share whose failing call the lesson's trigger matches (the
//   calls of its own evidence inside the range, whatever their result: a background launch or a
//   saved error page looked like success; without one, the range's first failed call). Target
//   >= 80%. Beside it: the share the replayed lesson actually reached (delivered on or before
//   that call in the session).
// - prevention (--as-of, lessons exist from the failure they were captured from): of the labeled
//   repeats (`repeats` of a labeled episode: later lines where the same mistake came back) whose
//   mistake has a lesson, the share each delivery form stops: a guard (its trigger matches the
//   repeat, the lesson existed), a checkpoint (it existed and matched a call of the session at or
//   before the repeat), before-call context (delivered at or before it), after-call context
//   (delivered on an earlier call). Without repeats labeled it says so.
// - volume: bytes injected per 10 tool calls. Target under 1 KB.
//
// `--json` prints the figures as data; `--half tuning|held-out` lists that half's unfaithful lessons
// and the injections that landed at no labeled mistake (episodes and their labeled repeats).
import crypto from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { claudeCodeAdapter } from '../dist/adapters/claude-code/hook-adapter.js';
import { codexAdapter } from '../dist/adapters/codex/hook-adapter.js';
import { geminiAdapter } from '../dist/adapters/gemini/hook-adapter.js';
import { readReplayTranscripts } from '../dist/capture/replay-transcripts.js';
import { defaultConfig } from '../dist/core/lesson/schema.js';
import { draftOf } from '../dist/store/candidates/candidate-actions.js';
import { tierLayout } from '../dist/store/fs/paths.js';
import { addLesson } from '../dist/store/lessons/lesson-writes.js';
import { replayLessons, replayWithManifest } from '../dist/store/replay/run-replay.js';
import { initTier } from '../dist/store/workspace/init-tier.js';
import { openWorkspace } from '../dist/store/workspace/workspace.js';
import { checkSplit, filesOf, HALVES, labels, matches, root, scanHalf } from './eval-candidates.mjs';

const TARGETS = { precision: 0.9, fidelity: 0.8, bytesPer10Calls: 1024 };
const HOSTS = { 'claude-code': claudeCodeAdapter, codex: codexAdapter, gemini: geminiAdapter };
const FORMS = ['guard', 'checkpoint', 'before-call', 'after-call'];
const NOW_MS = Date.parse('2026-12-01T00:00:00.000Z');

/** A temporary repository whose project tier holds every injectable candidate, approved. */
/**
 * Lesson ids drawn from a seeded sequence while `run` adds the lessons: the hook breaks a tie
 * between equally ranked lessons by id, and random ids would make the figures vary run to run.
 */
async function withSeededIds(run) {
  const real = crypto.randomBytes;
  let state = 0x9e3779b9;
  crypto.randomBytes = (size) => {
    const bytes = Buffer.alloc(size);
    for (let i = 0; i < size; i += 1) {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      bytes[i] = state >>> 24;
    }
    return bytes;
  };
  syncBuiltinESMExports();
  try {
    return await run();
  } finally {
    crypto.randomBytes = real;
    syncBuiltinESMExports();
  }
}

async function approvedWorkspace(candidates, floor) {
  const temp = mkdtempSync(join(tmpdir(), 'lore-eval-replay-'));
  const repo = join(temp, 'repo');
  mkdirSync(join(repo, '.git'), { recursive: true });
  initTier(tierLayout(join(repo, '.lore')));
  const env = { HOME: join(temp, 'home'), LORE_HOME: join(temp, 'home', '.lore') };
  const ws = await openWorkspace({ cwd: repo, env, warn: () => {} });
  await ws.ready();
  const lessonOf = new Map();
  await withSeededIds(async () => {
    for (const candidate of candidates) {
      const { record } = candidate;
      if (record.confidence < floor) continue;
      const added = await addLesson(ws, draftOf(record, {}), {
        tier: 'project',
        nowMs: NOW_MS,
        createdBy: 'eval',
        provenance: {
          sourceSessions: record.sourceSessions,
          occurrences: record.occurrences,
          contentHash: record.contentHash,
        },
      });
      lessonOf.set(candidate, added.id);
    }
  });
  return { ws, lessonOf, done: () => (ws.close(), rmSync(temp, { recursive: true, force: true })) };
}

const ratio = (part, whole) => (whole === 0 ? null : part / whole);

/** Where each call of the replay is: by file and line, with its session and index. */
function callIndex(sessions) {
  const byFile = new Map();
  for (const replay of sessions)
    replay.session.calls.forEach((call, index) => {
      const list = byFile.get(call.file) ?? [];
      list.push({ call, index, replay });
      byFile.set(call.file, list);
    });
  return byFile;
}

const cut = (text, n = 140) => (text.length <= n ? text : `${text.slice(0, n - 1)}…`);
const callText = (call) => cut(call.command ?? call.keys.join(' '));

function triggerOf(lessons, id) {
  const lesson = lessons.find((l) => l.id === id);
  if (lesson === undefined) return id;
  const scope = [
    ...lesson.tools.map((t) => `tool:${t}`),
    ...lesson.commands.map((c) => `command:${c}`),
    ...lesson.paths.map((p) => `path:${p}`),
  ];
  return `${id} [${scope.join(' ')}] ${cut(lesson.summary, 100)}`;
}

function describeInjection(injection, replay) {
  const call = replay.session.calls[injection.at];
  const where = call === undefined ? replay.session.session : `${call.file}:${call.line} ${callText(call)}`;
  return `${injection.form} ${injection.lesson} at ${where}`;
}

/** The first failed call inside a file's line range. */
function failingCall(byFile, file, [start, end]) {
  return (byFile.get(file) ?? []).find(
    ({ call }) => call.line >= start && call.line <= end && call.outcome === 'failed',
  );
}

function landsAtMistake(injection, replay, labeled) {
  const calls = replay.session.calls;
  const reached =
    injection.form === 'before-call' ? calls.slice(injection.at, injection.until) : [calls[injection.at]];
  return reached.some(
    (call) =>
      call !== undefined &&
      labeled.some((l) => l.file === call.file && call.line >= l.lines[0] && call.line <= l.lines[1]),
  );
}

async function evaluateHalf(half, scoring, window) {
  const files = filesOf(half);
  const labeled = files.flatMap((file) => labels[file].episodes.map((e) => ({ file, ...e })));
  // Where a mistake was made: the labeled episodes, and the later lines where one came back
  // (`repeats`, labeled in either half), for the files of this half.
  const inHalf = new Set(files);
  const mistakes = [
    ...labeled,
    ...Object.entries(labels).flatMap(([, entry]) =>
      entry.episodes.flatMap((e) => (e.repeats ?? []).filter((r) => inHalf.has(r.file))),
    ),
  ];
  const { candidates } = scanHalf(files, scoring, window);
  const { ws, lessonOf, done } = await approvedWorkspace(candidates, scoring.floor);
  try {
    const { manifest, lessons } = await replayLessons(ws, NOW_MS);
    const transcripts = readReplayTranscripts(
      files.map((file) => ({ path: join(root, file), shownAs: file })),
    );
    const run = (asOf) =>
      replayWithManifest(transcripts, manifest, lessons, {
        options: { sources: [], paths: files, since: null, asOf, lessons: [] },
        hosts: HOSTS,
        nowMs: NOW_MS,
      });
    const plain = run(false);
    const asOf = run(true);

    // precision
    const noiseList = [];
    const byForm = Object.fromEntries(FORMS.map((form) => [form, { injections: 0, atMistake: 0 }]));
    for (const replay of plain.sessions)
      for (const injection of replay.injections) {
        byForm[injection.form].injections += 1;
        if (landsAtMistake(injection, replay, mistakes)) byForm[injection.form].atMistake += 1;
        else noiseList.push(describeInjection(injection, replay));
      }
    const injections = FORMS.reduce((n, f) => n + byForm[f].injections, 0);
    const atMistake = FORMS.reduce((n, f) => n + byForm[f].atMistake, 0);
    // by how the lesson fires: waiting for its error, or before calls its trigger matches
    const waits = new Set(lessons.filter((l) => l.errors.length > 0).map((l) => l.id));
    const byWait = { waiting: { injections: 0, atMistake: 0 }, before: { injections: 0, atMistake: 0 } };
    for (const replay of plain.sessions)
      for (const injection of replay.injections) {
        const figures = byWait[waits.has(injection.lesson) ? 'waiting' : 'before'];
        figures.injections += 1;
        if (landsAtMistake(injection, replay, mistakes)) figures.atMistake += 1;
      }
    // where it fired: on a call of its own evidence (a capture false positive, or evidence outside
    // the labeled lines, lands there), or elsewhere (how broad its trigger is)
    const evidenceOf = new Map(
      [...lessonOf].map(([candidate, id]) => [
        id,
        new Set(
          candidate.episodes.flatMap(({ episode }) => episode.evidence.map((r) => `${r.file}:${r.line}`)),
        ),
      ]),
    );
    const byPlace = { own: { injections: 0, atMistake: 0 }, elsewhere: { injections: 0, atMistake: 0 } };
    for (const replay of plain.sessions)
      for (const injection of replay.injections) {
        const call = replay.session.calls[injection.at];
        const own =
          injection.form !== 'before-call' &&
          call !== undefined &&
          evidenceOf.get(injection.lesson)?.has(`${call.file}:${call.line}`) === true;
        const figures = byPlace[own ? 'own' : 'elsewhere'];
        figures.injections += 1;
        if (landsAtMistake(injection, replay, mistakes)) figures.atMistake += 1;
      }
    // as a user meets them: each lesson only after it existed (never at the failure it came from)
    const asOfFigures = { injections: 0, atMistake: 0 };
    for (const replay of asOf.sessions)
      for (const injection of replay.injections) {
        asOfFigures.injections += 1;
        if (landsAtMistake(injection, replay, mistakes)) asOfFigures.atMistake += 1;
      }

    // trigger fidelity: the lesson captured from each labeled mistake, at its failing call
    const byFile = callIndex(plain.sessions);
    const captured = [];
    for (const label of labeled) {
      const mine = [...lessonOf].filter(([candidate]) =>
        candidate.episodes.some(({ episode }) => matches(episode, [label]).length > 0),
      );
      if (mine.length === 0) continue;
      const lessonIds = mine.map(([, id]) => id);
      const evidenceLines = new Set(
        mine.flatMap(([candidate]) =>
          candidate.episodes.flatMap(({ episode }) => episode.failures.map((attempt) => attempt.call.line)),
        ),
      );
      // Its own evidence whatever the call's result (a background launch or a saved error page
      // looked like success to the call), else the range's first failed call.
      const inRange = (byFile.get(label.file) ?? []).filter(
        ({ call }) => call.line >= label.lines[0] && call.line <= label.lines[1],
      );
      const own = inRange.filter(({ call }) => evidenceLines.has(call.line));
      const failing =
        own.length > 0 ? own : inRange.filter(({ call }) => call.outcome === 'failed').slice(0, 1);
      const matchedBy = ({ replay, index }) =>
        lessonIds.some((id) => replay.matched.get(index)?.has(id) === true);
      const reachedBy = ({ replay, index }) =>
        replay.injections.some((i) => lessonIds.includes(i.lesson) && i.at <= index);
      captured.push({
        label,
        lessons: lessonIds,
        failingCall: failing.length > 0,
        matches: failing.some(matchedBy),
        reached: failing.some(reachedBy),
      });
    }

    // prevention, as of each lesson's birth
    const asOfByFile = callIndex(asOf.sessions);
    const repeats = [];
    let labeledRepeats = 0;
    for (const item of captured) {
      for (const repeat of item.label.repeats ?? []) {
        labeledRepeats += 1;
        const found = failingCall(asOfByFile, repeat.file, repeat.lines);
        if (found === undefined) {
          repeats.push({ label: item.label, repeat, stoppedBy: [], noFailingCall: true });
          continue;
        }
        const { replay, index } = found;
        const stoppedBy = FORMS.filter((form) =>
          item.lessons.some((id) => {
            const from = asOf.existsFrom?.(replay.session, id) ?? 0;
            // a guard or checkpoint acts before the call: on its trigger, not waiting for an error
            const matchedAt = (i) => replay.matchedBefore.get(i)?.has(id) === true;
            const delivered = (f, reaches) =>
              replay.injections.some((inj) => inj.lesson === id && inj.form === f && reaches(inj.at));
            if (form === 'guard') return index >= from && matchedAt(index);
            if (form === 'checkpoint')
              return replay.session.calls.some((_, i) => i >= from && i <= index && matchedAt(i));
            if (form === 'before-call') return delivered('before-call', (at) => at <= index);
            return delivered('after-call', (at) => at < index);
          }),
        );
        repeats.push({ label: item.label, repeat, stoppedBy });
      }
    }
    for (const label of labeled)
      if (!captured.some((c) => c.label === label)) labeledRepeats += (label.repeats ?? []).length;

    const calls = plain.report.calls;
    return {
      half,
      files: files.length,
      labeled: labeled.length,
      lessons: lessons.length,
      calls,
      callsWithInjection: plain.report.callsWithInjection,
      injections,
      atMistake,
      precision: ratio(atMistake, injections),
      byForm,
      byWait,
      byPlace,
      asOfFigures,
      captured: captured.length,
      withFailingCall: captured.filter((c) => c.failingCall).length,
      fidelityMatches: captured.filter((c) => c.matches).length,
      fidelity: ratio(captured.filter((c) => c.matches).length, captured.length),
      reached: captured.filter((c) => c.reached).length,
      labeledRepeats,
      repeatsWithLesson: repeats.length,
      prevention: Object.fromEntries(
        FORMS.map((form) => [
          form,
          ratio(repeats.filter((r) => r.stoppedBy.includes(form)).length, repeats.length),
        ]),
      ),
      bytes: plain.report.bytes,
      bytesPer10Calls: calls === 0 ? 0 : (plain.report.bytes / calls) * 10,
      unfaithful: captured.filter((c) => !c.matches).map((c) => `${c.label.file}:${c.label.lines.join('-')}`),
      details: {
        unfaithful: captured
          .filter((c) => !c.matches)
          .map((c) => ({
            label: `${c.label.file}:${c.label.lines.join('-')}`,
            lessons: c.lessons.map((id) => triggerOf(lessons, id)),
            failing: (byFile.get(c.label.file) ?? [])
              .filter(
                ({ call }) =>
                  call.line >= c.label.lines[0] && call.line <= c.label.lines[1] && call.outcome === 'failed',
              )
              .slice(0, 3)
              .map(({ call }) => `${call.line} ${call.tool} ${callText(call)}`),
          })),
        noise: noiseList,
        noisiest: Object.entries(
          noiseList.reduce((acc, line) => {
            const id = line.split(' ')[1];
            acc[id] = (acc[id] ?? 0) + 1;
            return acc;
          }, {}),
        )
          .sort((a, b) => b[1] - a[1])
          .slice(0, 15)
          .map(([id, n]) => `${n}x ${triggerOf(lessons, id)}`),
      },
    };
  } finally {
    done();
  }
}

const pct = (x) => (x === null ? '-' : `${(x * 100).toFixed(1)}%`);
const verdict = (ok) => (ok === null ? '' : ok ? 'pass' : 'MISS');

function printFigures(halves) {
  const [tuning, held] = halves;
  const row = (name, f, check) =>
    console.log(
      `  ${name.padEnd(32)}${f(tuning).padEnd(26)}${f(held).padEnd(26)}${check === undefined ? '' : check}`,
    );
  console.log(`replay eval: the candidates capture finds in each half, approved, replayed through the hook`);
  console.log('(targets on the held-out half)\n');
  row('', (h) => h.half, 'target');
  row('files', (h) => String(h.files));
  row('labeled mistakes', (h) => String(h.labeled));
  row('lessons approved', (h) => String(h.lessons));
  row('tool calls', (h) => String(h.calls));
  row('calls with an injection', (h) => String(h.callsWithInjection));
  row(
    'precision',
    (h) => `${pct(h.precision)} (${h.atMistake}/${h.injections})`,
    `>= 90%   ${verdict(held.precision === null ? null : held.precision >= TARGETS.precision)}`,
  );
  for (const form of FORMS)
    row(`  ${form}`, (h) => {
      const f = h.byForm[form];
      return f.injections === 0
        ? '-'
        : `${pct(ratio(f.atMistake, f.injections))} (${f.atMistake}/${f.injections})`;
    });
  const share = (f) =>
    f.injections === 0 ? '-' : `${pct(ratio(f.atMistake, f.injections))} (${f.atMistake}/${f.injections})`;
  row('  lessons waiting for an error', (h) => share(h.byWait.waiting));
  row('  lessons firing before calls', (h) => share(h.byWait.before));
  row('  on its own evidence', (h) => share(h.byPlace.own));
  row('  elsewhere', (h) => share(h.byPlace.elsewhere));
  row("  as of each lesson's birth", (h) => share(h.asOfFigures), 'reported');
  row(
    'trigger fidelity',
    (h) => `${pct(h.fidelity)} (${h.fidelityMatches}/${h.captured})`,
    `>= 80%   ${verdict(held.fidelity === null ? null : held.fidelity >= TARGETS.fidelity)}`,
  );
  row('  reached by the lesson', (h) => `${pct(ratio(h.reached, h.captured))} (${h.reached}/${h.captured})`);
  if (tuning.labeledRepeats + held.labeledRepeats === 0) {
    row('prevention (--as-of)', () => 'no repeats labeled');
  } else {
    row('repeats labeled (with lesson)', (h) => `${h.labeledRepeats} (${h.repeatsWithLesson})`);
    for (const form of FORMS) row(`prevention: ${form}`, (h) => pct(h.prevention[form]), 'reported');
  }
  row(
    'volume: bytes per 10 calls',
    (h) => `${Math.round(h.bytesPer10Calls)} B`,
    `< 1 KB   ${verdict(held.bytesPer10Calls < TARGETS.bytesPer10Calls)}`,
  );
}

checkSplit();
const config = defaultConfig().capture;
const scoring = { floor: config.confidenceFloor, confidence: config.confidence, priority: config.priority };
const halves = [];
for (const half of HALVES) halves.push(await evaluateHalf(half, scoring, config.window));
const listed = process.argv.includes('--half') ? process.argv[process.argv.indexOf('--half') + 1] : undefined;
if (process.argv.includes('--json')) console.log(JSON.stringify({ targets: TARGETS, halves }, null, 2));
else {
  printFigures(halves);
  for (const h of halves.filter((x) => x.half === listed)) {
    console.log(`\n${h.half}: lessons whose trigger misses their own mistake`);
    for (const u of h.details.unfaithful) {
      console.log(`  ${u.label}`);
      for (const l of u.lessons) console.log(`    lesson  ${l}`);
      for (const f of u.failing) console.log(`    failing ${f}`);
    }
    console.log(`\n${h.half}: the lessons most often injected at no labeled mistake`);
    for (const n of h.details.noisiest) console.log(`  ${n}`);
    console.log(`\n${h.half}: injections not at a labeled mistake`);
    for (const n of h.details.noise) console.log(`  ${n}`);
  }
}

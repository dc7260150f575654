// Replay benchmark (`node bench/run.mjs --only replay`, also part of `npm run bench`): `lore replay`'s
// engine over the real labeled transcripts (test/fixtures/transcripts, every session copied
// under new ids until there are a few thousand tool calls) against the generated 1,000-lesson
// store, in process: tool calls per second (median of --runs replays), beside the hook's own cost
// per call measured in the same run (the in-process `selectLessons` over the same calls and
// manifest) and a bare `node -e ''` spawn (what every hook call pays before lore's first line).
// Figures go to bench/.data/replay-last-run.json.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { claudeCodeAdapter } from '../dist/adapters/claude-code/hook-adapter.js';
import { codexAdapter } from '../dist/adapters/codex/hook-adapter.js';
import { geminiAdapter } from '../dist/adapters/gemini/hook-adapter.js';
import { readReplayTranscripts } from '../dist/capture/replay-transcripts.js';
import { manifestReaders } from '../dist/core/inject/candidate-ordinals.js';
import { parseHookPayload } from '../dist/core/inject/parse-hook-input.js';
import { selectLessons } from '../dist/core/inject/select-lessons.js';
import { callPayloads, pathsInside, sessionCwd } from '../dist/core/replay/replay-payload.js';
import { replayLessons, replayWithManifest } from '../dist/store/replay/run-replay.js';
import { openWorkspace } from '../dist/store/workspace/workspace.js';
import { ensureStore } from './generate.mjs';
import { summarize } from './stats.mjs';

const FIXTURES = fileURLToPath(new URL('../test/fixtures/transcripts/', import.meta.url));
const HOSTS = { 'claude-code': claudeCodeAdapter, codex: codexAdapter, gemini: geminiAdapter };
const ms = (v, d = 3) => `${v.toFixed(d)} ms`;

/** The fixtures' sessions, copied under new session ids until there are at least `calls` calls. */
function sessionsFor(calls) {
  const read = readReplayTranscripts([{ path: FIXTURES }]);
  const sessions = [];
  let total = 0;
  for (let copy = 0; total < calls; copy += 1)
    for (const session of read.sessions) {
      const id = `${session.session}#${copy}`;
      sessions.push({
        ...session,
        session: id,
        calls: session.calls.map((call) => ({ ...call, session: id })),
      });
      total += session.calls.length;
    }
  return { ...read, sessions, files: read.files, total };
}

/** The hook's own selection per call (fresh session state each call), over the same calls. */
function selectPerCall(source, manifest) {
  const readers = manifestReaders(manifest);
  const events = [];
  for (const session of source.sessions)
    for (const call of session.calls) {
      const host = HOSTS[session.agent];
      const raw = callPayloads(call, 'main').at(-1);
      const event = parseHookPayload(host.normalizeInput(raw));
      if (event !== undefined) events.push({ event, root: sessionCwd(session.project), max: host.maxChars });
    }
  const run = ({ event, root, max }) =>
    selectLessons({
      event,
      head: manifest.head,
      ...readers,
      repoPaths: pathsInside(event.paths ?? [], root),
      state: { seen: new Set(), shownCount: 0, stateAvailable: true },
      settings: { ...manifest.head.settings, maxChars: Math.min(manifest.head.settings.maxChars, max) },
    });
  for (const e of events.slice(0, 300)) run(e); // warm-up
  const started = performance.now();
  for (const e of events) run(e);
  return { calls: events.length, msPerCall: (performance.now() - started) / events.length };
}

export async function runReplayBench({ dataDir, runs = 5, calls = 6000, log = console.log }) {
  mkdirSync(dataDir, { recursive: true });
  log('\n== replay (lore replay in process): tool calls per second, beside the hook per call');
  const store = ensureStore(dataDir, 1000, (line) => log(`  ${line}`));
  const env = { HOME: join(dataDir, 'replay-home'), LORE_HOME: join(dataDir, 'replay-home', '.lore') };
  const ws = await openWorkspace({ cwd: store.root, env, warn: () => {} });
  await ws.ready();
  const { manifest, lessons } = await replayLessons(ws, Date.now());
  ws.close();
  const source = sessionsFor(calls);
  const options = { sources: [], paths: [FIXTURES], since: null, asOf: false, lessons: [] };
  const replay = () =>
    replayWithManifest(source, manifest, lessons, { options, hosts: HOSTS, nowMs: Date.now() });
  replay(); // warm-up
  const rates = [];
  let report;
  for (let i = 0; i < runs; i += 1) {
    const started = performance.now();
    report = replay().report;
    rates.push(report.calls / ((performance.now() - started) / 1000));
  }
  const asOfStarted = performance.now();
  replayWithManifest(source, manifest, lessons, {
    options: { ...options, asOf: true },
    hosts: HOSTS,
    nowMs: Date.now(),
  });
  const asOfRate = report.calls / ((performance.now() - asOfStarted) / 1000);
  const hook = selectPerCall(source, manifest);
  const spawns = [];
  for (let i = 0; i < 20; i += 1) {
    const started = performance.now();
    spawnSync(process.execPath, ['-e', ''], { env: { ...process.env, NODE_EXTRA_CA_CERTS: '' } });
    spawns.push(performance.now() - started);
  }
  const rate = summarize(rates);
  const node = summarize(spawns);
  const result = {
    lessons: lessons.length,
    sessions: source.sessions.length,
    calls: report.calls,
    injections: report.injections,
    runs,
    callsPerSecond: rate,
    asOfCallsPerSecond: asOfRate,
    replayMsPerCall: 1000 / rate.p50,
    hookSelectMsPerCall: hook.msPerCall,
    nodeSpawn: node,
  };
  log(
    `  ${lessons.length} lessons; ${source.sessions.length} sessions (the fixtures, copied), ${report.calls} tool calls`,
  );
  log(
    `  replay: ${Math.round(rate.p50)} calls/s median of ${runs} (min ${Math.round(rate.min)}, max ${Math.round(rate.max)}); ${ms(1000 / rate.p50)} per call`,
  );
  log(`  replay --as-of: ${Math.round(asOfRate)} calls/s (one run)`);
  log(`  the hook's selectLessons per call, in process: ${ms(hook.msPerCall)} (${hook.calls} calls)`);
  log(`  bare node -e '' spawn (every hook call pays it first): ${ms(node.p50, 1)} median of ${node.n}`);
  writeFileSync(join(dataDir, 'replay-last-run.json'), `${JSON.stringify(result, null, 2)}\n`);
  return result;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const here = fileURLToPath(new URL('.', import.meta.url));
  await runReplayBench({ dataDir: join(here, '.data') });
}

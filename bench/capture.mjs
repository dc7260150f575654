// Capture benchmark: `node bench/capture.mjs [--runs 5] [--only claude-code|mix|generated]
// [--baseline DIST]` (after `npm run build`; also `node bench/run.mjs --only capture`).
//
// It times the real `lore scan` (a whole process: the default roots under a HOME, drafting, candidate
// writes, the scan state and the call cache) on three corpora, each laid out as a user's home:
//
// - claude-code: the real Claude Code transcripts of test/fixtures/transcripts/claude-code,
//   duplicated with fresh session ids per copy until the corpus holds >= 200 MiB and >= 1,000 files
//   (file sizes as they come). The targets apply to this one.
// - mix: the Claude Code, Codex and Gemini CLI fixtures together, duplicated the same way to
//   >= 200 MiB (Codex `.zst` counted as the compressed bytes read).
// - generated: a transcript-shaped corpus made up from a seed (the old benchmark's shape).
//
// Beside each, in the same run and on the same files, the floor: a process that reads every file
// into a Buffer and finds each line end with indexOf(10), nothing else. Then, with nothing changed,
// the rescan: whole-process `lore scan` against a bare `node -e ''` interleaved with it, and the
// same scan in process (captureCandidates with its modules loaded). Figures are medians of --runs
// runs, each scan in a fresh process with a fresh workspace; peak RSS and CPU time are the
// process's own (read at exit through --import). With `--baseline DIST` (another build's dist/)
// every run is made with that build too, interleaved, so both see the same machine load. The
// corpora are built once and cached under bench/.data/ (gitignored); the figures go to
// bench/.data/capture-last-run.json.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import os from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const dataDir = join(here, '.data');
const fixtures = join(here, '..', 'test', 'fixtures', 'transcripts');
const MiB = 1048576;

const TARGETS = { mbPerS: 300, floorRatio: 5, rssMb: 150, rescanInProcessMs: 50, rescanRatio: 2 };

function parseArgs(argv) {
  const options = { runs: 5, only: undefined, baseline: undefined, child: undefined };
  for (let i = 0; i < argv.length; i += 1) {
    const [flag, inline] = argv[i].split('=');
    const value = () => inline ?? argv[++i];
    if (flag === '--runs') options.runs = Number(value());
    else if (flag === '--only') options.only = value();
    else if (flag === '--baseline') options.baseline = value();
    else if (flag === '--child') options.child = value();
    else if (flag === '--help' || flag === '-h') {
      console.log(
        'usage: node bench/capture.mjs [--runs 5] [--only claude-code|mix|generated] [--baseline DIST]',
      );
      process.exit(0);
    } else throw new Error(`unknown argument ${argv[i]}`);
  }
  if (!Number.isInteger(options.runs) || options.runs < 1) throw new Error('--runs: a whole number >= 1');
  if (options.only !== undefined && !['claude-code', 'mix', 'generated'].includes(options.only))
    throw new Error('--only: claude-code, mix or generated');
  return options;
}

// ---------------------------------------------------------------------------------------------
// the generated corpus

/** Deterministic pseudo-random numbers (mulberry32). */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS =
  'the file test build error module import function return value config path agent tool result node npm git'.split(
    ' ',
  );
function text(rand, size) {
  let out = '';
  while (out.length < size) out += `${WORDS[Math.floor(rand() * WORDS.length)]} `;
  return out.slice(0, size);
}

function lineMaker(rand, session) {
  let n = 0;
  const base = () => ({
    parentUuid: null,
    isSidechain: false,
    userType: 'external',
    cwd: '/home/bench/work/project',
    sessionId: session,
    version: '2.1.330',
    uuid: `u-${session}-${(n += 1)}`,
    timestamp: new Date(1_790_000_000_000 + n * 1000).toISOString(),
  });
  const size = () => {
    const r = rand();
    return r < 0.5
      ? 100 + Math.floor(rand() * 900)
      : r < 0.85
        ? 1000 + Math.floor(rand() * 9000)
        : 10_000 + Math.floor(rand() * 40_000);
  };
  return {
    attachment: () => ({
      ...base(),
      type: 'attachment',
      attachment: { type: 'hook_additional_context', content: [text(rand, size())] },
    }),
    blob: () => ({ ...base(), type: 'api-request-blob', blob: [{ type: 'text', text: text(rand, size()) }] }),
    assistantText: (id) => ({
      ...base(),
      type: 'assistant',
      message: {
        id,
        role: 'assistant',
        content: [{ type: 'text', text: text(rand, 200 + Math.floor(rand() * 1500)) }],
      },
    }),
    toolUse: (id, callId, command) => ({
      ...base(),
      type: 'assistant',
      message: {
        id,
        role: 'assistant',
        content: [{ type: 'tool_use', id: callId, name: 'Bash', input: { command, description: 'run' } }],
      },
    }),
    toolResult: (callId, ok) => ({
      ...base(),
      type: 'user',
      message: {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: callId,
            content: ok ? text(rand, size()) : `Exit code 1\nError: ${text(rand, 200)}`,
            is_error: !ok,
          },
        ],
      },
      toolUseResult: ok ? { stdout: 'ok', stderr: '', interrupted: false } : 'Error: Exit code 1',
    }),
  };
}

function writeSession(path, seed, targetBytes) {
  const rand = random(seed);
  const session = `s${seed}`;
  const make = lineMaker(rand, session);
  const fd = openSync(path, 'w');
  let bytes = 0;
  let i = 0;
  const put = (record) => {
    const line = `${JSON.stringify(record)}\n`;
    bytes += Buffer.byteLength(line);
    writeSync(fd, line);
  };
  while (bytes < targetBytes) {
    i += 1;
    const r = rand();
    if (r < 0.3) put(make.attachment());
    else if (r < 0.5) put(make.blob());
    else if (r < 0.6) put(make.assistantText(`m${i}`));
    else {
      const callId = `t${i}`;
      const fail = rand() < 0.08;
      put(make.toolUse(`m${i}`, callId, fail ? `pytest tests/t${i % 7}.py` : `ls src/${i % 13}`));
      put(make.toolResult(callId, !fail));
      if (fail) {
        put(make.toolUse(`m${i}b`, `${callId}b`, `CI=1 pytest -p no:cacheprovider tests/t${i % 7}.py`));
        put(make.toolResult(`${callId}b`, true));
      }
    }
  }
  closeSync(fd);
  return bytes;
}

function ensureCorpus(mb, files) {
  const dir = join(dataDir, `capture-generated-${mb}mb-${files}`);
  const marker = join(dir, 'DONE');
  if (existsSync(marker)) return dir;
  rmSync(dir, { recursive: true, force: true });
  const perFile = Math.ceil((mb * 1048576) / files);
  const started = performance.now();
  let total = 0;
  for (let f = 0; f < files; f += 1) {
    const project = join(dir, 'home', '.claude', 'projects', `-home-bench-work-p${f % 20}`);
    mkdirSync(project, { recursive: true });
    total += writeSession(join(project, `session-${f}.jsonl`), f + 1, perFile);
  }
  writeFileSync(marker, `${total} ${files}\n`);
  console.error(
    `generated ${(total / 1048576).toFixed(0)} MB in ${files} files (${((performance.now() - started) / 1000).toFixed(1)} s)`,
  );
  return dir;
}

// ---------------------------------------------------------------------------------------------
// corpora built from the real fixtures

/** The fixture transcripts of an agent (relative paths under test/fixtures/transcripts/<agent>). */
function fixtureFiles(agent) {
  const out = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.(jsonl|json|jsonl\.zst)$/.test(entry.name) && entry.name !== 'labels.json') out.push(path);
    }
  };
  walk(join(fixtures, agent));
  return out;
}

/** A session id for a copy, as the agents write them, the same on every run. */
function freshId(seed) {
  const hex = createHash('sha256').update(seed).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

/** Every occurrence of each old id replaced by its fresh one. */
function renamed(text, ids) {
  let out = text;
  for (const [old, fresh] of ids) out = out.split(old).join(fresh);
  return out;
}

/** Where one copy of a fixture goes in the home, and its text (or bytes) with fresh session ids. */
function copyOf(agent, path, copy) {
  const name = basename(path);
  if (agent === 'claude-code') {
    const text = readFileSync(path, 'utf8');
    const ids = new Map(
      [...new Set([...text.matchAll(/"sessionId":"([^"]+)"/g)].map((m) => m[1]))].map((id) => [
        id,
        freshId(`${copy}:${id}`),
      ]),
    );
    const session = UUID.exec(name)?.[0];
    const file =
      session !== undefined && ids.has(session) && name.endsWith(`${session}.jsonl`)
        ? `${ids.get(session)}.jsonl`
        : name.replace(/\.jsonl$/, `-c${copy}.jsonl`);
    return { dest: join('.claude', 'projects', `-home-bench-copy${copy}`, file), data: renamed(text, ids) };
  }
  if (agent === 'codex') {
    const rel = relative(join(fixtures, 'codex'), path);
    const session = UUID.exec(name)?.[0];
    const fresh = session === undefined ? undefined : freshId(`${copy}:${session}`);
    const file =
      fresh === undefined
        ? name.replace(/(\.jsonl(?:\.zst)?)$/, `-c${copy}$1`)
        : name.replace(session, fresh);
    const dest = join('.codex', dirname(rel), file);
    if (name.endsWith('.zst')) return { dest, data: readFileSync(path) };
    const text = readFileSync(path, 'utf8');
    return { dest, data: fresh === undefined ? text : renamed(text, new Map([[session, fresh]])) };
  }
  const text = readFileSync(path, 'utf8');
  const ids = new Map(
    [...new Set([...text.matchAll(/"sessionId":\s*"([^"]+)"/g)].map((m) => m[1]))].map((id) => [
      id,
      freshId(`${copy}:${id}`),
    ]),
  );
  return {
    dest: join('.gemini', 'tmp', `bench-copy-${copy}`, 'chats', name.replace(/\.json$/, `-c${copy}.json`)),
    data: renamed(text, ids),
  };
}

const REAL = {
  'claude-code': { agents: ['claude-code'], minMb: 200, minFiles: 1000 },
  mix: { agents: ['claude-code', 'codex', 'gemini'], minMb: 200, minFiles: 0 },
};

/** A home whose agent folders hold copies of the fixtures, built once (rebuilt when they change). */
function ensureRealCorpus(name) {
  const { agents, minMb, minFiles } = REAL[name];
  const sources = agents.flatMap((agent) => fixtureFiles(agent).map((path) => ({ agent, path })));
  const fingerprint = createHash('sha256')
    .update(sources.map((s) => `${relative(fixtures, s.path)}:${statSync(s.path).size}`).join('\n'))
    .digest('hex')
    .slice(0, 12);
  const dir = join(dataDir, `capture-real-${name}-${fingerprint}`);
  if (existsSync(join(dir, 'DONE'))) return dir;
  rmSync(dir, { recursive: true, force: true });
  const started = performance.now();
  let bytes = 0;
  let files = 0;
  for (let copy = 0; bytes < minMb * MiB || files < minFiles; copy += 1) {
    for (const { agent, path } of sources) {
      const { dest, data } = copyOf(agent, path, copy);
      const target = join(dir, 'home', dest);
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, data);
      bytes += typeof data === 'string' ? Buffer.byteLength(data) : data.length;
      files += 1;
    }
  }
  writeFileSync(join(dir, 'DONE'), `${bytes} ${files}\n`);
  console.error(
    `built the ${name} corpus: ${(bytes / MiB).toFixed(0)} MiB in ${files} files from ${sources.length} fixtures (${((performance.now() - started) / 1000).toFixed(1)} s)`,
  );
  return dir;
}

// ---------------------------------------------------------------------------------------------
// the runs

/** Every file under a folder. */
function allFiles(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true }))
    if (entry.isFile()) out.push(join(entry.parentPath ?? entry.path, entry.name));
  return out;
}

/** The floor, in a child: read every file into a Buffer and find each line end, nothing else. */
function floorChild(home) {
  const started = performance.now();
  let bytes = 0;
  let lines = 0;
  for (const file of allFiles(home)) {
    const buffer = readFileSync(file);
    bytes += buffer.length;
    for (let at = buffer.indexOf(10); at !== -1; at = buffer.indexOf(10, at + 1)) lines += 1;
  }
  process.stdout.write(JSON.stringify({ ms: performance.now() - started, bytes, lines }));
}

/** The no-change rescan in process, in a child: the scan's modules loaded first, then timed. */
async function rescanChild(spec) {
  const { home, work, dist } = JSON.parse(spec);
  const load = (path) => import(pathToFileURL(join(dist, path)).href);
  const [{ captureCandidates, captureTargetOf }, { defaultRoots }, { openWorkspace }] = await Promise.all([
    load('capture/capture-candidates.js'),
    // a build before default-roots.ts (a --baseline) has defaultRoots in scan-transcripts.js
    existsSync(join(dist, 'capture', 'default-roots.js'))
      ? load('capture/default-roots.js')
      : load('capture/scan-transcripts.js'),
    load('store/workspace/workspace.js'),
  ]);
  const env = { ...process.env, HOME: home, LORE_HOME: join(work, 'lore-home') };
  const ws = await openWorkspace({ cwd: join(work, 'repo'), env });
  try {
    const target = captureTargetOf(ws);
    const options = { roots: defaultRoots(env, home), explicit: false, nowMs: Date.now(), home };
    const times = [];
    let changed = 0;
    for (let i = 0; i < 5; i += 1) {
      const started = performance.now();
      const result = await captureCandidates(target, options);
      times.push(performance.now() - started);
      changed = result.report.changedFiles;
    }
    process.stdout.write(JSON.stringify({ ms: median(times), changed }));
  } finally {
    ws.close();
  }
}

/** The process's own peak RSS and CPU time, written at exit to $LORE_BENCH_USAGE. */
const USAGE_PROBE = `data:text/javascript,${encodeURIComponent(
  "import{writeFileSync}from'node:fs';process.on('exit',()=>{const u=process.resourceUsage();" +
    'writeFileSync(process.env.LORE_BENCH_USAGE,JSON.stringify({maxRssMb:u.maxRSS/1024,cpuMs:(u.userCPUTime+u.systemCPUTime)/1000}))})',
)}`;

function spawnTimed(args, options = {}) {
  const started = performance.now();
  const result = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 256 * MiB, ...options });
  const ms = performance.now() - started;
  if (result.status !== 0) throw new Error(`${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  return { ms, stdout: result.stdout };
}

/** A fresh repository with lore set up, and a fresh user tier: what a first `lore scan` meets. */
function freshWorkspace(dist) {
  const work = mkdtempSync(join(os.tmpdir(), 'lore-bench-capture-'));
  mkdirSync(join(work, 'repo', '.git'), { recursive: true });
  const env = { ...process.env, HOME: join(work, 'empty-home'), LORE_HOME: join(work, 'lore-home') };
  spawnTimed([join(dist, 'cli', 'bin.js'), 'init'], { cwd: join(work, 'repo'), env });
  return work;
}

/** `lore scan --json` as a user runs it, over the corpus home: wall time, bytes, peak RSS, CPU. */
function scanProcess(home, work, dist) {
  const usage = join(work, 'usage.json');
  const env = {
    ...process.env,
    HOME: home,
    LORE_HOME: join(work, 'lore-home'),
    LORE_BENCH_USAGE: usage,
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${USAGE_PROBE}`.trim(),
  };
  delete env.NODE_EXTRA_CA_CERTS;
  const { ms, stdout } = spawnTimed([join(dist, 'cli', 'bin.js'), 'scan', '--json'], {
    cwd: join(work, 'repo'),
    env,
  });
  const data = JSON.parse(stdout);
  const used = JSON.parse(readFileSync(usage, 'utf8'));
  return {
    ms,
    bytes: data.bytes,
    files: data.files,
    episodes: data.episodes,
    candidates: data.new + data.merged,
    ...used,
  };
}

/**
 * The full scan writes `capture.maxCandidatesPerScan` (50) new candidates and leaves the rest in its
 * backlog, which the next scans write 50 at a time: those scans have work to do. Before the
 * no-change rescans are timed, one untimed scan with the cap lifted writes the backlog out, and the
 * config goes back as it was: the rescans then meet nothing new, as the figure says.
 */
function drainBacklog(home, work, dist) {
  const config = join(work, 'repo', '.lore', 'config.yaml');
  const text = readFileSync(config, 'utf8');
  writeFileSync(config, `${text.trimEnd()}\ncapture:\n  maxCandidatesPerScan: 100000\n`);
  try {
    scanProcess(home, work, dist);
  } finally {
    writeFileSync(config, text);
  }
}

function bareNode() {
  const env = { ...process.env };
  delete env.NODE_EXTRA_CA_CERTS;
  return spawnTimed(['-e', ''], { env }).ms;
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];
const spread = (values, digits = 0) =>
  `${Math.min(...values).toFixed(digits)}-${Math.max(...values).toFixed(digits)}`;
const load = () => os.loadavg()[0].toFixed(1);

/** One run of one build on one corpus: a full scan, the floor, and the rescans. */
function runOnce(home, dist) {
  const work = freshWorkspace(dist);
  try {
    const full = scanProcess(home, work, dist);
    const floor = JSON.parse(spawnTimed([fileURLToPath(import.meta.url), '--child', `floor|${home}`]).stdout);
    drainBacklog(home, work, dist);
    const rescan = [];
    const bare = [];
    for (let i = 0; i < 3; i += 1) {
      bare.push(bareNode());
      rescan.push(scanProcess(home, work, dist).ms);
    }
    const inProcess = JSON.parse(
      spawnTimed([
        fileURLToPath(import.meta.url),
        '--child',
        `rescan|${JSON.stringify({ home, work, dist })}`,
      ]).stdout,
    );
    return { full, floor, rescan: median(rescan), bare: median(bare), inProcess };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function summarize(runs) {
  const mbps = runs.map((r) => r.full.bytes / MiB / (r.full.ms / 1000));
  const floorMbps = runs.map((r) => r.floor.bytes / MiB / (r.floor.ms / 1000));
  const first = runs[0].full;
  return {
    corpusMb: Math.round(first.bytes / MiB),
    files: first.files,
    episodes: first.episodes,
    candidates: first.candidates,
    fullScanMs: median(runs.map((r) => r.full.ms)),
    fullScanMbPerS: median(mbps),
    fullScanMbPerSRange: spread(mbps),
    fullScanCpuMbPerS: median(runs.map((r) => r.full.bytes / MiB / (r.full.cpuMs / 1000))),
    floorMs: median(runs.map((r) => r.floor.ms)),
    floorMbPerS: median(floorMbps),
    // each run's scan against the floor on the same files in the same run
    timesFloor: median(runs.map((r) => r.full.ms / r.floor.ms)),
    peakRssMb: median(runs.map((r) => r.full.maxRssMb)),
    peakRssMbMax: Math.max(...runs.map((r) => r.full.maxRssMb)),
    rescanInProcessMs: median(runs.map((r) => r.inProcess.ms)),
    rescanInProcessMsRange: spread(
      runs.map((r) => r.inProcess.ms),
      1,
    ),
    rescanChanged: runs[0].inProcess.changed,
    rescanMs: median(runs.map((r) => r.rescan)),
    bareNodeMs: median(runs.map((r) => r.bare)),
    rescanTimesBare: median(runs.map((r) => r.rescan / r.bare)),
  };
}

function print(corpus, label, r, targets) {
  const verdict = (ok) => (targets ? `   ${ok ? 'PASS' : 'MISS'}` : '');
  console.log(
    `\n${corpus} (${label}): ${r.corpusMb} MiB in ${r.files} files, ${r.episodes} episodes, ${r.candidates} candidates written or merged`,
  );
  console.log(
    `  full scan      ${r.fullScanMbPerS.toFixed(0)} MiB/s (runs ${r.fullScanMbPerSRange}; ${(r.fullScanMs / 1000).toFixed(2)} s; ` +
      `${r.fullScanCpuMbPerS.toFixed(0)} MiB/s of CPU time)${targets ? `   target >= ${TARGETS.mbPerS}` : ''}${verdict(r.fullScanMbPerS >= TARGETS.mbPerS)}`,
  );
  console.log(
    `  floor          ${r.floorMbPerS.toFixed(0)} MiB/s (${(r.floorMs / 1000).toFixed(2)} s: read each file, find each line end); ` +
      `the scan takes ${r.timesFloor.toFixed(1)}x the floor's time${targets ? `   target <= ${TARGETS.floorRatio}x` : ''}${verdict(r.timesFloor <= TARGETS.floorRatio)}`,
  );
  console.log(
    `  peak RSS       ${r.peakRssMb.toFixed(0)} MB (max ${r.peakRssMbMax.toFixed(0)})${targets ? `   target < ${TARGETS.rssMb} MB` : ''}${verdict(r.peakRssMbMax < TARGETS.rssMb)}`,
  );
  console.log(
    `  rescan, nothing changed: in process ${r.rescanInProcessMs.toFixed(1)} ms (runs ${r.rescanInProcessMsRange}; ${r.rescanChanged} files re-read)` +
      `${targets ? `   target < ${TARGETS.rescanInProcessMs} ms` : ''}${verdict(r.rescanInProcessMs < TARGETS.rescanInProcessMs)}`,
  );
  console.log(
    `                 whole process ${r.rescanMs.toFixed(0)} ms, bare node ${r.bareNodeMs.toFixed(0)} ms: ${r.rescanTimesBare.toFixed(2)}x` +
      `${targets ? `   target <= ${TARGETS.rescanRatio}x` : ''}${verdict(r.rescanTimesBare <= TARGETS.rescanRatio)}`,
  );
}

export async function runCaptureBench(argv = []) {
  const options = parseArgs(argv);
  const corpora = [
    { name: 'claude-code', home: () => join(ensureRealCorpus('claude-code'), 'home'), targets: true },
    { name: 'mix', home: () => join(ensureRealCorpus('mix'), 'home'), targets: false },
    { name: 'generated', home: () => join(ensureCorpus(200, 1000), 'home'), targets: false },
  ].filter((c) => options.only === undefined || options.only === c.name);
  const builds = [{ name: 'this build', dist: join(here, '..', 'dist') }];
  if (options.baseline)
    builds.push({ name: `baseline ${options.baseline}`, dist: resolve(options.baseline) });
  const homes = corpora.map((c) => c.home());
  const loadBefore = load();
  const runs = corpora.map(() => builds.map(() => []));
  for (let run = 0; run < options.runs; run += 1)
    corpora.forEach((_, c) => builds.forEach((build, b) => runs[c][b].push(runOnce(homes[c], build.dist))));
  const machine = `${os.cpus().length} cores, ${os.cpus()[0]?.model ?? '?'}, Node ${process.version}, load average ${loadBefore} -> ${load()}`;
  console.log(`\ncapture benchmark: whole-process lore scan, medians of ${options.runs} runs (${machine})`);
  const result = { machine, runs: options.runs, targets: TARGETS, corpora: {} };
  corpora.forEach((corpus, c) => {
    result.corpora[corpus.name] = builds.map((build, b) => {
      const figures = summarize(runs[c][b]);
      print(corpus.name, build.name, figures, corpus.targets);
      return { build: build.name, ...figures };
    });
  });
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(join(dataDir, 'capture-last-run.json'), `${JSON.stringify(result, null, 2)}\n`);
  return result;
}

const direct = process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1];
if (direct) {
  const options = parseArgs(process.argv.slice(2));
  if (options.child?.startsWith('floor|')) floorChild(options.child.slice('floor|'.length));
  else if (options.child?.startsWith('rescan|')) await rescanChild(options.child.slice('rescan|'.length));
  else await runCaptureBench(process.argv.slice(2));
}

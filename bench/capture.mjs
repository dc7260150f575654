// Capture benchmark: `node bench/capture.mjs [--mb 520] [--files 1000] [--runs 5] [--baseline DIST]`
// (after `npm run build`).
//
// Generates (once, cached in bench/.data/capture-corpus-*/, gitignored) a transcript-shaped corpus:
// Claude Code sessions with the real line mix (attachments and request blobs that the prefilter
// skips, assistant text and tool calls, tool results from 100 bytes to 50 KB, failures and their
// fixes), spread over --files files under a projects folder. Then, --runs times, each in a fresh
// process: a full scan (MB/s, CPU time, peak RSS), and a rescan with nothing changed. It prints
// the medians, the spread, the machine's load average and a verdict per target. With
// `--baseline DIST` (another build's dist/ folder, e.g. main's), the same runs are made with that
// build too, interleaved with this one, so both see the same machine load.
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import os from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const dataDir = join(here, '.data');

function parseArgs(argv) {
  const options = { mb: 520, files: 1000, runs: 5, baseline: undefined };
  for (let i = 0; i < argv.length; i += 1) {
    const [flag, inline] = argv[i].split('=');
    const value = () => Number(inline ?? argv[++i]);
    if (flag === '--mb') options.mb = value();
    else if (flag === '--files') options.files = value();
    else if (flag === '--runs') options.runs = value();
    else if (flag === '--baseline') options.baseline = inline ?? argv[++i];
    else if (flag === '--child') options.child = inline ?? argv[++i];
    else if (flag === '--help' || flag === '-h') {
      console.log('usage: node bench/capture.mjs [--mb 520] [--files 1000] [--runs 5] [--baseline DIST]');
      process.exit(0);
    } else throw new Error(`unknown argument ${argv[i]}`);
  }
  return options;
}

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
  const dir = join(dataDir, `capture-corpus-${mb}mb-${files}`);
  const marker = join(dir, 'DONE');
  if (existsSync(marker)) return dir;
  rmSync(dir, { recursive: true, force: true });
  const perFile = Math.ceil((mb * 1048576) / files);
  const started = performance.now();
  let total = 0;
  for (let f = 0; f < files; f += 1) {
    const project = join(dir, 'projects', `-home-bench-work-p${f % 20}`);
    mkdirSync(project, { recursive: true });
    total += writeSession(join(project, `session-${f}.jsonl`), f + 1, perFile);
  }
  writeFileSync(marker, `${total}\n`);
  console.error(
    `generated ${(total / 1048576).toFixed(0)} MB in ${files} files (${((performance.now() - started) / 1000).toFixed(1)} s)`,
  );
  return dir;
}

async function child(mode) {
  const [corpus, statePath, dist] = mode.split('|');
  const { scanTranscripts } = await import(pathToFileURL(join(dist, 'capture', 'scan-transcripts.js')).href);
  const cpu = process.cpuUsage();
  const started = performance.now();
  const report = scanTranscripts({
    roots: [{ path: join(corpus, 'projects'), agent: 'claude-code' }],
    statePath,
    detector: { window: 40 },
    redact: { names: [] },
    onEpisodes: () => undefined,
  });
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  process.stdout.write(
    JSON.stringify({
      ms,
      cpuMs: (used.user + used.system) / 1000,
      bytes: report.bytes,
      files: report.files,
      changed: report.changedFiles,
      episodes: report.episodeCount,
      workers: report.workers ?? 0,
      maxRssMb: process.resourceUsage().maxRSS / 1024,
    }),
  );
}

function runChild(corpus, statePath, dist) {
  const result = spawnSync(
    process.execPath,
    [fileURLToPath(import.meta.url), '--child', `${corpus}|${statePath}|${dist}`],
    { encoding: 'utf8' },
  );
  if (result.status !== 0) throw new Error(result.stderr);
  return JSON.parse(result.stdout);
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];
const spread = (values) => `${Math.min(...values).toFixed(0)}-${Math.max(...values).toFixed(0)}`;
const load = () => os.loadavg()[0].toFixed(1);

function summarize(full, rescan) {
  const mbps = full.map((r) => r.bytes / 1048576 / (r.ms / 1000));
  const cpuMbps = full.map((r) => r.bytes / 1048576 / (r.cpuMs / 1000));
  return {
    corpusMb: Math.round(full[0].bytes / 1048576),
    files: full[0].files,
    fullScanMbPerS: median(mbps),
    fullScanMbPerSRange: spread(mbps),
    fullScanMs: median(full.map((r) => r.ms)),
    fullScanCpuMbPerS: median(cpuMbps),
    peakRssMb: median(full.map((r) => r.maxRssMb)),
    peakRssMbMax: Math.max(...full.map((r) => r.maxRssMb)),
    rescanMs: median(rescan.map((r) => r.ms)),
    rescanMsRange: spread(rescan.map((r) => r.ms)),
    rescanChanged: rescan[0].changed,
    episodes: full[0].episodes,
    workers: full[0].workers,
  };
}

function print(label, r) {
  const verdict = (ok) => (ok ? 'PASS' : 'FAIL');
  console.log(`\n${label}`);
  console.log(
    `  corpus:        ${r.corpusMb} MB in ${r.files} files, ${r.episodes} episodes, ${r.workers} worker thread(s)`,
  );
  console.log(
    `  full scan:     ${r.fullScanMbPerS.toFixed(0)} MB/s wall (runs ${r.fullScanMbPerSRange}; ${(r.fullScanMs / 1000).toFixed(2)} s), ` +
      `${r.fullScanCpuMbPerS.toFixed(0)} MB/s of CPU time   target >= 300 MB/s: ${verdict(r.fullScanMbPerS >= 300)}`,
  );
  console.log(
    `  peak RSS:      ${r.peakRssMb.toFixed(0)} MB (max ${r.peakRssMbMax.toFixed(0)})   target < 150 MB: ${verdict(r.peakRssMbMax < 150)}`,
  );
  console.log(
    `  no-change rescan of ${r.files} files: ${r.rescanMs.toFixed(1)} ms (runs ${r.rescanMsRange}; ${r.rescanChanged} files re-read)   target < 100 ms: ${verdict(r.rescanMs < 100)}`,
  );
}

export async function runCaptureBench(argv = []) {
  const options = parseArgs(argv);
  const corpus = ensureCorpus(options.mb, options.files);
  const builds = [{ name: 'this build', dist: join(here, '..', 'dist') }];
  if (options.baseline)
    builds.push({ name: `baseline (${options.baseline})`, dist: resolve(options.baseline) });
  const runs = builds.map(() => ({ full: [], rescan: [] }));
  const loadBefore = load();
  for (let run = 0; run < options.runs; run += 1) {
    builds.forEach((build, b) => {
      const statePath = join(dataDir, `capture-state-${process.pid}.json`);
      rmSync(statePath, { force: true });
      rmSync(statePath.replace(/\.json$/, '-detail.json'), { force: true });
      runs[b].full.push(runChild(corpus, statePath, build.dist));
      runs[b].rescan.push(runChild(corpus, statePath, build.dist));
      rmSync(statePath, { force: true });
      rmSync(statePath.replace(/\.json$/, '-detail.json'), { force: true });
    });
  }
  const machine = `${os.cpus().length} cores, ${os.cpus()[0]?.model ?? '?'}, Node ${process.version}, load average ${loadBefore} -> ${load()}`;
  const results = builds.map((build, b) => ({
    build: build.name,
    ...summarize(runs[b].full, runs[b].rescan),
  }));
  console.log(`\ncapture benchmark: medians of ${options.runs} runs (${machine})`);
  results.forEach((r) => print(r.build, r));
  const result = {
    machine,
    runs: options.runs,
    ...results[0],
    ...(results[1] ? { baseline: results[1] } : {}),
  };
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(join(dataDir, 'capture-last-run.json'), `${JSON.stringify(result, null, 2)}\n`);
  return result;
}

const direct = process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1];
if (direct) {
  const options = parseArgs(process.argv.slice(2));
  if (options.child) await child(options.child);
  else await runCaptureBench(process.argv.slice(2));
}

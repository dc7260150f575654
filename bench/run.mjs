// lore benchmark: `npm run bench` (builds first), or `node bench/run.mjs [--sizes 1000,10000] [--runs 30]`.
//
// For each store size: full `lore sync --force` (whole process), in-process search and list --path
// (p50/p99, steady state) and the freshness check they pay once, whole-process `lore search`,
// `lore list --path` and `lore sync` with nothing changed interleaved with a bare `node -e ''`
// baseline, and a stage breakdown of one whole-process read. Figures are medians (and tails), plus ratios against the baseline measured
// in the same run, since these machines are noisy. Stores are generated deterministically and
// cached under bench/.data/stores/; the figures go to bench/.data/last-run.json.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureStore } from './generate.mjs';
import { openWorkspace } from '../dist/store/workspace/workspace.js';
import { runHookBench } from './hook.mjs';
import { quantile, summarize } from './stats.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const dataDir = join(here, '.data');
/** The package's `lore` (package.json `bin`): what a person or an agent runs. */
const bin = fileURLToPath(
  new URL(
    `../${JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).bin.lore}`,
    import.meta.url,
  ),
);
const stagesScript = join(here, 'stages.mjs');

// ---------------------------------------------------------------------------------------------
// arguments

function parseArgs(argv) {
  const options = {
    sizes: [1000, 10000],
    runs: 30,
    syncRuns: undefined,
    inProcess: 300,
    only: undefined,
    hookSizes: ['100', '1000', '10000', 'd10000'],
    hookRuns: 200,
    dims: 768,
  };
  for (let i = 0; i < argv.length; i += 1) {
    const [flag, inline] = argv[i].split('=');
    const value = () => inline ?? argv[++i];
    if (flag === '--sizes') options.sizes = value().split(',').map(Number);
    else if (flag === '--runs') options.runs = Number(value());
    else if (flag === '--sync-runs') options.syncRuns = Number(value());
    else if (flag === '--queries') options.inProcess = Number(value());
    else if (flag === '--only') options.only = value();
    else if (flag === '--hook-sizes') options.hookSizes = value().split(',');
    else if (flag === '--hook-runs') options.hookRuns = Number(value());
    else if (flag === '--dims') options.dims = Number(value());
    else if (flag === '--help' || flag === '-h') {
      console.log(
        'usage: node bench/run.mjs [--only store|hook|hosts|capture|replay|mcp|docs|vectors|org] [--sizes 1000,10000] [--runs 30] [--sync-runs N] [--queries 300]\n' +
          '                          [--hook-sizes 100,1000,10000,d10000] [--hook-runs 200] [--dims 768]',
      );
      process.exit(0);
    } else throw new Error(`unknown argument ${argv[i]}`);
  }
  if (options.sizes.some((n) => !Number.isInteger(n) || n < 1)) throw new Error('--sizes: whole numbers');
  options.runs = Math.max(5, options.runs);
  options.inProcess = Math.max(200, options.inProcess);
  if (
    options.only !== undefined &&
    !['store', 'hook', 'hosts', 'capture', 'replay', 'mcp', 'docs', 'vectors', 'org'].includes(options.only)
  )
    throw new Error('--only: store, hook, hosts, capture, replay, mcp, docs, vectors or org');
  return options;
}

// ---------------------------------------------------------------------------------------------
// statistics

const ms = (value, digits = 1) => (Number.isFinite(value) ? `${value.toFixed(digits)} ms` : '-');
const ratio = (value, base) => `${(value / base).toFixed(2)}x`;

// ---------------------------------------------------------------------------------------------
// workload

/** Realistic queries: tool names, error words, multi-word, punctuation, common and rare words. */
const QUERIES = [
  'pytest hangs',
  'mock.patch',
  'git stash untracked',
  'docker build cache',
  'npm install lockfile',
  'tsconfig paths',
  'migration NOT NULL default',
  'flaky test timeout',
  'force push',
  'eslint fix generated files',
  'unwrap panic',
  'kubectl apply production context',
  'secrets .env',
  'select_related N+1',
  'vitest watch mode never exits',
  'terraform apply plan file',
  'rm -rf unset variable',
  'useEffect cleanup',
  'goroutines loop variable',
  'pip install system python',
  'prisma migrate reset',
  'CREATE INDEX CONCURRENTLY',
  'helm upgrade values',
  'ledger-worker',
  'payments service retries',
  'ESM imports .js extension',
  'test',
  'error',
  'the file',
  'run tests before committing',
  'how do I avoid breaking the build when upgrading dependencies in the monorepo',
  'fixture',
  'snapshot',
  'race detector',
  'BuildKit',
  'cache key lockfile hash',
  'Write replaced whole file',
  'curl sh installer',
  'xylophone quantum',
  'lang:python',
];

/** Repo-relative paths for `list --path`: deep, shallow, matching many lessons or none. */
const PATHS = [
  'src/api/handlers.ts',
  'tests/test_billing.py',
  'tests/unit/test_models.py',
  'src/components/Button.tsx',
  'migrations/0042_add_index.sql',
  'package.json',
  'Dockerfile',
  '.github/workflows/ci.yml',
  'cmd/server/main.go',
  'k8s/prod/deployment.yaml',
  'src/lib/utils.ts',
  'app/settings.py',
  'scripts/release.sh',
  'infra/main.tf',
  'README.md',
  'docs/guide/intro.md',
  '.env',
  'assets/logo.png',
];

// ---------------------------------------------------------------------------------------------
// processes

function childEnv(extra = {}) {
  const env = { ...process.env, NO_COLOR: '1', ...extra };
  delete env.NODE_EXTRA_CA_CERTS;
  delete env.NODE_OPTIONS;
  return env;
}

/** Runs a process to completion and returns its wall time in ms (spawn to exit, as a shell sees it). */
function timed(args, { cwd, env, check = true }) {
  const started = performance.now();
  const result = spawnSync(process.execPath, args, { cwd, env, encoding: 'utf8', maxBuffer: 64 << 20 });
  const wall = performance.now() - started;
  if (check && result.status !== 0) {
    throw new Error(`node ${args.join(' ')} exited ${result.status}: ${result.stderr || result.stdout}`);
  }
  return { wall, stdout: result.stdout, stderr: result.stderr };
}

function caBundle() {
  if (process.env.NODE_EXTRA_CA_CERTS) return { path: process.env.NODE_EXTRA_CA_CERTS, fromEnv: true };
  const system = '/etc/ssl/certs/ca-certificates.crt';
  return existsSync(system) ? { path: system, fromEnv: false } : undefined;
}

// ---------------------------------------------------------------------------------------------
// measurements

/** `lore sync --force`: the full rebuild of the index and the manifest, every run. */
function measureSync(root, env, runs) {
  const walls = [];
  const inner = [];
  let last;
  for (let i = 0; i < runs; i += 1) {
    const run = timed([bin, 'sync', '--force', '--json'], { cwd: root, env });
    last = JSON.parse(run.stdout);
    if (last.errors > 0)
      throw new Error(`sync reported ${last.errors} error(s): the generator wrote bad lessons`);
    walls.push(run.wall);
    inner.push(last.ms);
  }
  return {
    wall: summarize(walls),
    inProcessMs: summarize(inner),
    lessons: last.lessons,
    byStatus: last.byStatus,
  };
}

async function measureInProcess(root, env, count) {
  const now = Date.now();
  const ws = await openWorkspace({ cwd: root, env });
  const first = await ws.ready();
  if (!first.fresh) throw new Error('index was not fresh after sync');
  const weights = ws.config.search.weights;

  // Freshness check on an unchanged store: what every whole-process read pays once.
  const refresh = [];
  for (let i = 0; i < 30; i += 1) {
    const started = performance.now();
    const report = await ws.index.refresh();
    refresh.push(performance.now() - started);
    if (!report.fresh) throw new Error('refresh() found changes in an unchanged store');
  }

  // Opening a workspace with modules already loaded: config cache + SQLite open + freshness check.
  const openReady = [];
  for (let i = 0; i < 10; i += 1) {
    const started = performance.now();
    const other = await openWorkspace({ cwd: root, env });
    await other.ready();
    other.close();
    openReady.push(performance.now() - started);
  }

  // Steady-state search: the index refreshed once above; every call below is the query alone.
  const search = (query) =>
    ws.index.search(query, { status: 'active', limit: 10 }, weights, now, ws.halfLifeDays);
  for (let i = 0; i < 40; i += 1) await search(QUERIES[i % QUERIES.length]);
  const searchTimes = [];
  const perQuery = new Map();
  let hits = 0;
  for (let i = 0; i < count; i += 1) {
    const query = QUERIES[i % QUERIES.length];
    const started = performance.now();
    const results = await search(query);
    const elapsed = performance.now() - started;
    searchTimes.push(elapsed);
    perQuery.set(query, [...(perQuery.get(query) ?? []), elapsed]);
    hits += results.length;
  }
  const slowest = [...perQuery.entries()]
    .map(([query, times]) => ({ query, p50: quantile(times, 0.5) }))
    .sort((a, b) => b.p50 - a.p50)
    .slice(0, 3);

  const list = (path) => ws.index.list({ status: 'active', path }, now, ws.halfLifeDays);
  for (let i = 0; i < 20; i += 1) await list(PATHS[i % PATHS.length]);
  const listTimes = [];
  let listed = 0;
  const listCount = Math.max(200, Math.round(count / 2));
  for (let i = 0; i < listCount; i += 1) {
    const started = performance.now();
    const results = await list(PATHS[i % PATHS.length]);
    listTimes.push(performance.now() - started);
    listed += results.length;
  }
  ws.close();
  return {
    freshnessCheck: summarize(refresh),
    openReady: summarize(openReady),
    search: { ...summarize(searchTimes), meanResults: hits / count, slowest },
    listPath: { ...summarize(listTimes), meanResults: listed / listCount },
  };
}

/**
 * Where a full sync goes, in-process: the crash sweep, reading and parsing every lesson file, and
 * the rebuild itself (which reads and parses them again, then writes SQLite); the rebuild minus
 * read and parse approximates SQLite writes, glob compiling and stats.
 */
async function measureSyncParts(root, env) {
  const { parseLessonYaml } = await import('../dist/core/lesson/lesson-yaml.js');
  const ws = await openWorkspace({ cwd: root, env });
  const parts = {};
  let started = performance.now();
  for (const tier of ws.tiers) tier.sweep();
  parts['sweep (readdir + stat every lesson dir)'] = performance.now() - started;
  started = performance.now();
  const texts = ws.project.list().dirs.map((dir) => [dir.yamlPath, readFileSync(dir.yamlPath, 'utf8')]);
  parts[`read ${texts.length} lesson.yaml`] = performance.now() - started;
  started = performance.now();
  for (const [file, text] of texts) parseLessonYaml(text, file);
  parts['parseLessonYaml (yaml + zod) all'] = performance.now() - started;
  started = performance.now();
  await ws.index.rebuild();
  const rebuild = performance.now() - started;
  parts['index.rebuild() total'] = rebuild;
  parts['  rebuild minus the read and parse above (approx. SQLite, globs, stats)'] =
    rebuild - parts[`read ${texts.length} lesson.yaml`] - parts['parseLessonYaml (yaml + zod) all'];
  ws.close();
  return parts;
}

/**
 * Whole-process runs, interleaved with the baseline so machine noise hits all of them alike:
 * `lore search`, `lore list --path` and `lore sync` with nothing changed since the last one (it
 * keeps the index and the manifest: `rebuilt: false`, checked on every run).
 */
function measureWholeProcess(root, env, runs) {
  const baseline = [];
  const search = [];
  const list = [];
  const sync = [];
  const jobs = [
    () => baseline.push(timed(['-e', ''], { cwd: root, env }).wall),
    (i) => {
      const run = timed([bin, 'search', QUERIES[i % QUERIES.length]], { cwd: root, env });
      search.push(run.wall);
    },
    (i) => list.push(timed([bin, 'list', '--path', PATHS[i % PATHS.length]], { cwd: root, env }).wall),
    () => {
      const run = timed([bin, 'sync', '--json'], { cwd: root, env });
      if (JSON.parse(run.stdout).rebuilt !== false) throw new Error('lore sync rebuilt an unchanged store');
      sync.push(run.wall);
    },
  ];
  for (let i = 0; i < 3; i += 1) jobs.forEach((job) => job(i)); // warm the OS caches
  baseline.length = search.length = list.length = sync.length = 0;
  for (let i = 0; i < runs; i += 1) {
    // rotate the order so no kind always runs right after another
    for (let k = 0; k < jobs.length; k += 1) jobs[(i + k) % jobs.length](i);
  }
  return {
    baseline: summarize(baseline),
    search: summarize(search),
    listPath: summarize(list),
    syncUnchanged: summarize(sync),
    loadavg: os.loadavg(),
  };
}

/**
 * Whole-process `lore add` (one lesson into the big store), interleaved with the baseline. A write
 * patches the hook manifest instead of rebuilding it; the figures say how many runs did. The added
 * lessons are removed afterwards and the store synced back to what it was.
 */
function measureAdd(root, env, runs) {
  const baseline = [];
  const add = [];
  const added = [];
  let patched = 0;
  const headOf = () => {
    try {
      return JSON.parse(readFileSync(join(root, '.lore', 'cache', 'manifest', 'head.json'), 'utf8'));
    } catch {
      return undefined;
    }
  };
  const addOne = (i) => {
    const run = timed(
      [
        bin,
        'add',
        '--summary',
        `bench add ${i}: run the benchadd tool with --dry-run first`,
        '--command',
        '^benchadd\\b',
        '--tag',
        'bench',
        '-q',
      ],
      { cwd: root, env },
    );
    added.push(run.stdout.trim());
    return run.wall;
  };
  try {
    addOne(-1); // warm the OS caches; a stale manifest is rebuilt in full here
    for (let i = 0; i < runs; i += 1) {
      baseline.push(timed(['-e', ''], { cwd: root, env }).wall);
      const before = headOf();
      add.push(addOne(i));
      const after = headOf();
      if (before && after && before.generation === after.generation && before.revision !== after.revision)
        patched += 1;
    }
  } finally {
    for (const id of added)
      if (/^[a-z0-9]+$/.test(id))
        rmSync(join(root, '.lore', 'lessons', id), { recursive: true, force: true });
    timed([bin, 'sync', '--json'], { cwd: root, env });
  }
  return { baseline: summarize(baseline), add: summarize(add), patched };
}

/**
 * Where one whole-process `lore search` goes: real runs with LORE_STAGES=1 (src/cli/stage-marks.ts
 * prints when each stage ended), then the parts of the freshness check alone (bench/stages.mjs).
 */
function measureStages(root, env, runs) {
  const byStage = new Map();
  const components = new Map();
  const add = (map, key, value) => map.set(key, [...(map.get(key) ?? []), value]);
  const walls = [];
  for (let i = 0; i < runs; i += 1) {
    const run = timed([bin, 'search', QUERIES[i % QUERIES.length]], {
      cwd: root,
      env: { ...env, LORE_STAGES: '1' },
    });
    walls.push(run.wall);
    const marks = run.stderr
      .split('\n')
      .filter((line) => line.startsWith('LORE_STAGES '))
      .flatMap((line) => JSON.parse(line.slice('LORE_STAGES '.length)))
      .sort((a, b) => a[1] - b[1]);
    let last = 0;
    for (const [name, at] of [['node start (to the first line of lore)', marks[0][1]], ...marks.slice(1)]) {
      add(byStage, name, at - last);
      last = at;
    }
    add(byStage, 'exit (wall - last mark)', run.wall - last);
    const parts = JSON.parse(timed([stagesScript], { cwd: root, env }).stdout).components;
    for (const [name, value] of Object.entries(parts)) add(components, name, value);
  }
  const medians = (map) => [...map.entries()].map(([name, values]) => ({ name, p50: quantile(values, 0.5) }));
  return { wall: summarize(walls), stages: medians(byStage), components: medians(components) };
}

// ---------------------------------------------------------------------------------------------
// report

function table(rows) {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((row) => String(row[c]).length)));
  return rows
    .map((row, r) => {
      const line = row.map((cell, c) =>
        c === 0 ? String(cell).padEnd(widths[c]) : String(cell).padStart(widths[c]),
      );
      return `  ${line.join('  ')}${r === 0 ? `\n  ${widths.map((w) => '-'.repeat(w)).join('  ')}` : ''}`;
    })
    .join('\n');
}

function machine() {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model ?? 'unknown',
    cores: cpus.length,
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
    loadavg: os.loadavg().map((n) => Number(n.toFixed(2))),
  };
}

/** Capture benchmark (bench/capture.mjs): transcript scan MB/s, peak RSS, no-change rescan. */
async function runCapture() {
  await (await import('./capture.mjs')).runCaptureBench([]);
}

/** Vector search benchmark (bench/vectors.mjs): hybrid and exact search at each size. */
async function runVectors(options) {
  return (await import('./vectors.mjs')).runVectorsBench({
    dataDir,
    sizes: options.sizes,
    dims: options.dims,
    queries: Math.ceil(options.inProcess / 12),
  });
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  if (options.only === 'hook') {
    mkdirSync(dataDir, { recursive: true });
    await runHookBench({ dataDir, sizes: options.hookSizes, runs: options.hookRuns });
    return;
  }
  if (options.only === 'hosts') {
    mkdirSync(dataDir, { recursive: true });
    await (await import('./hosts.mjs')).runHostsBench({ dataDir, runs: options.hookRuns });
    return;
  }
  if (options.only === 'capture') {
    await runCapture();
    return;
  }
  if (options.only === 'replay') {
    await (await import('./replay.mjs')).runReplayBench({ dataDir });
    return;
  }
  if (options.only === 'mcp') {
    mkdirSync(dataDir, { recursive: true });
    await (await import('./mcp.mjs')).runMcpBench({ dataDir });
    return;
  }
  if (options.only === 'org') {
    mkdirSync(dataDir, { recursive: true });
    await (await import('./org.mjs')).runOrgBench({ dataDir });
    return;
  }
  if (options.only === 'docs') {
    mkdirSync(dataDir, { recursive: true });
    await (await import('./docs.mjs')).runDocsBench({ dataDir, runs: options.runs });
    return;
  }
  if (options.only === 'vectors') {
    mkdirSync(dataDir, { recursive: true });
    await runVectors(options);
    return;
  }
  const started = performance.now();
  mkdirSync(dataDir, { recursive: true });
  const m = machine();
  console.log('lore benchmark');
  console.log(`  machine: ${m.cpu} x ${m.cores}, ${m.platform}, node ${m.node}, load ${m.loadavg.join(' ')}`);
  console.log(
    `  sizes: ${options.sizes.join(', ')}; whole-process runs: ${options.runs}; in-process queries: ${options.inProcess}`,
  );

  // An empty user tier, so only the generated project tier is measured.
  const loreHome = join(dataDir, 'user-home', '.lore');
  mkdirSync(loreHome, { recursive: true });
  const env = childEnv({ LORE_HOME: loreHome });

  const ca = caBundle();
  let caBaseline;
  if (ca) {
    const withCa = { ...env, NODE_EXTRA_CA_CERTS: ca.path };
    const withCaTimes = [];
    const without = [];
    for (let i = 0; i < 10; i += 1) {
      withCaTimes.push(timed(['-e', ''], { cwd: dataDir, env: withCa }).wall);
      without.push(timed(['-e', ''], { cwd: dataDir, env }).wall);
    }
    caBaseline = {
      bundle: ca.path,
      setInParentEnv: ca.fromEnv,
      withCa: summarize(withCaTimes),
      without: summarize(without),
    };
  }

  const results = { machine: m, options, date: new Date().toISOString(), caBaseline, sizes: {} };
  for (const size of options.sizes) {
    const store = ensureStore(dataDir, size, (line) => console.log(`  ${line}`));
    console.log(
      `\n== ${size.toLocaleString('en-US')} lessons (${store.cached ? 'cached store' : `generated in ${ms(store.generateMs, 0)}`}: ${store.root})`,
    );
    const syncRuns = options.syncRuns ?? (size >= 5000 ? 3 : 5);
    process.stdout.write('  sync ...');
    const sync = measureSync(store.root, env, syncRuns);
    process.stdout.write(' sync parts ...');
    const syncParts = await measureSyncParts(store.root, env);
    process.stdout.write(' in-process ...');
    const inProcess = await measureInProcess(store.root, env, options.inProcess);
    process.stdout.write(' whole-process ...');
    const whole = measureWholeProcess(store.root, env, options.runs);
    process.stdout.write(' stages ...');
    const stages = measureStages(store.root, env, 10);
    process.stdout.write(' add ...\n');
    const addRuns = size >= 5000 ? 10 : 15;
    const adds = measureAdd(store.root, env, addRuns);
    const base = whole.baseline.p50;
    results.sizes[size] = {
      store: { key: store.key, votesFiles: store.votesFiles },
      sync,
      syncParts,
      inProcess,
      whole,
      stages,
      add: adds,
    };

    console.log(
      `  store: ${sync.lessons} lessons (${Object.entries(sync.byStatus)
        .map(([k, v]) => `${v} ${k}`)
        .join(', ')}), ${store.votesFiles} votes.jsonl`,
    );
    console.log('\n  in-process (modules loaded, workspace open, index fresh)');
    console.log(
      table([
        ['', 'n', 'p50', 'p90', 'p99', 'max', 'mean results'],
        ...[
          ['search (steady state)', inProcess.search],
          ['list --path', inProcess.listPath],
        ].map(([name, s]) => [
          name,
          s.n,
          ms(s.p50, 2),
          ms(s.p90, 2),
          ms(s.p99, 2),
          ms(s.max, 2),
          s.meanResults.toFixed(1),
        ]),
        ...[
          ['freshness check: refresh(), unchanged', inProcess.freshnessCheck],
          ['openWorkspace + ready + close', inProcess.openReady],
        ].map(([name, s]) => [name, s.n, ms(s.p50, 2), ms(s.p90, 2), ms(s.p99, 2), ms(s.max, 2), '']),
      ]),
    );
    console.log(
      `  slowest queries (p50): ${inProcess.search.slowest.map((q) => `"${q.query}" ${ms(q.p50, 2)}`).join(', ')}`,
    );
    console.log(
      `\n  whole process (spawn to exit; NODE_EXTRA_CA_CERTS unset in the child; load ${whole.loadavg.map((n) => n.toFixed(2)).join(' ')} after)`,
    );
    console.log(
      table([
        ['', 'n', 'median', 'p90', 'x baseline', 'over baseline'],
        ["baseline: node -e ''", whole.baseline.n, ms(base), ms(whole.baseline.p90), '1.00x', ''],
        ...[
          ['lore search QUERY', whole.search],
          ['lore list --path P', whole.listPath],
          ['lore sync (nothing changed)', whole.syncUnchanged],
        ].map(([name, s]) => [name, s.n, ms(s.p50), ms(s.p90), ratio(s.p50, base), `+${ms(s.p50 - base)}`]),
        [
          `lore add (${adds.patched}/${adds.add.n} patched the manifest)`,
          adds.add.n,
          ms(adds.add.p50),
          ms(adds.add.p90),
          ratio(adds.add.p50, adds.baseline.p50),
          `+${ms(adds.add.p50 - adds.baseline.p50)}`,
        ],
        [
          'lore sync --force (full rebuild)',
          sync.wall.n,
          ms(sync.wall.p50, 0),
          ms(sync.wall.max, 0),
          ratio(sync.wall.p50, base),
          `(in-process ${ms(sync.inProcessMs.p50, 0)})`,
        ],
      ]),
    );
    console.log('\n  full sync, by part (in-process, one run)');
    console.log(
      table([['part', 'ms'], ...Object.entries(syncParts).map(([name, value]) => [name, ms(value, 0)])]),
    );
    console.log(
      `\n  one whole-process search, by stage (median of ${stages.wall.n}, wall ${ms(stages.wall.p50)})`,
    );
    console.log(table([['stage', 'p50'], ...stages.stages.map((s) => [s.name, ms(s.p50, 2)])]));
    console.log(
      `  parts of the freshness check in ready(), alone: ${stages.components.map((c) => `${c.name} ${ms(c.p50, 2)}`).join('; ')}`,
    );
  }

  // targets (the issues): at 10,000 lessons. Times in ms, and (issue 18) whole-process times as
  // ratios to the bare `node -e ''` measured interleaved with them in the same run.
  const big = results.sizes[10000];
  const base = big?.whole.baseline.p50;
  const targets = [
    ['in-process search p99 @10,000', big?.inProcess.search.p99, 5, 'ms'],
    ['whole-process lore search median @10,000', big?.whole.search.p50, 150, 'ms'],
    ['whole-process lore search p90 @10,000', big?.whole.search.p90, 150, 'ms'],
    ['lore sync --force (full) median @10,000', big?.sync.wall.p50, 5000, 'ms'],
    ['lore search median / bare node @10,000', big && big.whole.search.p50 / base, 3, 'x'],
    [
      'lore sync, nothing changed, median / bare node @10,000',
      big && big.whole.syncUnchanged.p50 / base,
      10,
      'x',
    ],
  ].map(([name, value, limit, unit]) => ({
    name,
    value,
    limit,
    unit,
    verdict: value === undefined ? 'not run' : value <= limit ? 'PASS' : 'MISS',
  }));
  results.targets = targets;
  console.log(
    `\ntargets (load average ${(big?.whole.loadavg ?? os.loadavg()).map((n) => n.toFixed(2)).join(' ')} on ${m.cores} cores${base === undefined ? '' : `; bare node median ${ms(base)}`})`,
  );
  console.log(
    table([
      ['target', 'measured', 'limit', 'verdict'],
      ...targets.map((t) => [
        t.name,
        t.value === undefined
          ? '-'
          : t.unit === 'x'
            ? `${t.value.toFixed(2)}x`
            : ms(t.value, t.limit >= 1000 ? 0 : 2),
        t.unit === 'x' ? `<= ${t.limit}x` : `< ${ms(t.limit, 0)}`,
        t.verdict,
      ]),
    ]),
  );

  console.log('\nnotes');
  console.log(
    "  - Every child runs with NODE_EXTRA_CA_CERTS unset (it adds tens of ms to each Node start, see DESIGN.md section 3): the figures are lore's own cost.",
  );
  if (caBaseline) {
    console.log(
      `  - For information, baseline node -e '' with NODE_EXTRA_CA_CERTS=${caBaseline.bundle}${caBaseline.setInParentEnv ? ' (set in this shell)' : ''}: median ${ms(caBaseline.withCa.p50)} vs ${ms(caBaseline.without.p50)} unset (+${ms(caBaseline.withCa.p50 - caBaseline.without.p50)}, n=${caBaseline.withCa.n}).`,
    );
  }
  console.log(
    '  - Whole-process times include spawn and exit; ratios are against the interleaved baseline median.',
  );
  if (options.only !== 'store') {
    results.hook = await runHookBench({ dataDir, sizes: options.hookSizes, runs: options.hookRuns });
    results.hosts = await (await import('./hosts.mjs')).runHostsBench({ dataDir, runs: options.hookRuns });
    await runCapture();
    results.replay = await (await import('./replay.mjs')).runReplayBench({ dataDir });
    results.mcp = await (await import('./mcp.mjs')).runMcpBench({ dataDir });
    results.docs = await (await import('./docs.mjs')).runDocsBench({ dataDir, runs: options.runs });
    results.vectors = await runVectors(options);
    results.org = await (await import('./org.mjs')).runOrgBench({ dataDir });
  }
  results.totalMs = performance.now() - started;
  writeFileSync(join(dataDir, 'last-run.json'), `${JSON.stringify(results, null, 2)}\n`);
  console.log(
    `  - Figures written to bench/.data/last-run.json; the whole run took ${(results.totalMs / 1000).toFixed(0)} s.`,
  );
}

await main();

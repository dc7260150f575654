// Docs benchmark (`node bench/run.mjs --only docs`): whole-process `lore docs list` and
// `lore search --kind doc` on a generated corpus of 5,000 Markdown docs (a third with a
// frontmatter, the rest inferred), warm (the docs cache filled by a first run), interleaved with a
// bare `node -e ''` baseline measured in the same run. Medians, p90 and ratios; load average shown.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { quantile } from './stats.mjs';

const bin = fileURLToPath(new URL('../dist/cli/bin.js', import.meta.url));
const CORPUS_VERSION = 1;
const FEATURES = ['auth', 'billing', 'search', 'checkout', 'notifications', 'reports', 'admin', 'sync'];
const WORDS = (
  'retry backoff token session cache eviction queue worker tenant invoice refund migration schema ' +
  'index shard replica latency budget timeout deadline webhook signature rollout canary flag ' +
  'rollback incident pager runbook metric trace span log rotation secret vault permission role'
).split(' ');
const QUERIES = ['retry', 'auth', 'design', 'cache eviction', 'tenant', 'zzz-no-match'];

function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function sentence(rand, n) {
  const words = Array.from({ length: n }, () => WORDS[Math.floor(rand() * WORDS.length)]);
  return `${words.join(' ')}.`;
}

function docFor(i, rand) {
  const kind = i % 5;
  const feature = FEATURES[i % FEATURES.length];
  const dir =
    kind === 0
      ? `design/${feature}`
      : kind === 1
        ? 'patterns'
        : kind === 2
          ? `ops/runbooks/${feature}`
          : kind === 3
            ? `context/${feature}/${i % 7}`
            : `guides/${feature}`;
  const title = `${sentence(rand, 4).slice(0, -1)} ${i}`;
  const body = Array.from({ length: 8 }, () => sentence(rand, 18)).join('\n\n');
  const text =
    i % 3 === 0
      ? `---\ntype: ${['design', 'pattern', 'runbook', 'context', 'glossary'][kind]}\nsummary: ${title}\n` +
        `tags: [${feature}, ${WORDS[i % WORDS.length]}]\npaths: ["src/${feature}/**"]\n---\n# ${title}\n\n${body}\n`
      : `<!-- doc ${i} -->\n# ${title}\n\n${body}\n`;
  return { path: `docs/${dir}/doc-${String(i).padStart(5, '0')}.md`, text };
}

function ensureCorpus(dataDir, count) {
  const root = join(dataDir, `docs-corpus-${count}`);
  const stamp = join(root, '.bench-version');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === `${CORPUS_VERSION}`) return root;
  rmSync(root, { recursive: true, force: true });
  mkdirSync(join(root, '.git'), { recursive: true });
  const rand = random(7);
  for (let i = 0; i < count; i += 1) {
    const doc = docFor(i, rand);
    mkdirSync(dirname(join(root, doc.path)), { recursive: true });
    writeFileSync(join(root, doc.path), doc.text);
  }
  writeFileSync(join(root, '.gitignore'), 'docs/guides/admin/\n');
  const init = spawnSync(process.execPath, [bin, 'init'], { cwd: root, encoding: 'utf8' });
  if (init.status !== 0) throw new Error(`lore init failed: ${init.stderr}`);
  writeFileSync(stamp, `${CORPUS_VERSION}`);
  return root;
}

const cpuReport = new URL('./cpu-exit.mjs', import.meta.url).href;

/** Wall time (spawn to exit) and the child's own CPU time (user + system, from cpu-exit.mjs). */
function timed(args, cwd, env) {
  const started = performance.now();
  const result = spawnSync(process.execPath, ['--import', cpuReport, ...args], {
    cwd,
    env,
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  const wall = performance.now() - started;
  if (result.status !== 0)
    throw new Error(`node ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  const cpu = Number(/LORE_BENCH_CPU_MS ([\d.]+)/.exec(result.stderr)?.[1] ?? NaN);
  return { wall, cpu, stdout: result.stdout };
}

export async function runDocsBench({ dataDir, runs = 20, count = 5000 }) {
  const env = { ...process.env, NO_COLOR: '1', LORE_HOME: join(dataDir, 'docs-user-home', '.lore') };
  delete env.NODE_EXTRA_CA_CERTS;
  delete env.NODE_OPTIONS;
  mkdirSync(env.LORE_HOME, { recursive: true });
  const generated = performance.now();
  const root = ensureCorpus(dataDir, count);
  console.log('lore docs benchmark');
  console.log(
    `  node ${process.version}, ${os.cpus().length} cores, load ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(
        ' ',
      )}; corpus ${count} docs (${((performance.now() - generated) / 1000).toFixed(1)} s to prepare)`,
  );
  for (const file of ['docs.db', 'docs-records.json', 'docs-walk.json']) {
    rmSync(join(root, '.lore', 'cache', file), { force: true });
  }
  const cold = timed([bin, 'docs', 'list', '--json'], root, env);
  const listed = JSON.parse(cold.stdout).docs.length;
  console.log(
    `  cold docs list (parses every file, fills the cache): ${cold.wall.toFixed(0)} ms, ${listed} docs`,
  );
  timed([bin, 'docs', 'list'], root, env);
  const walls = { baseline: [], list: [], search: [] };
  const cpus = { baseline: [], list: [], search: [] };
  let hits = 0;
  const record = (name, run) => {
    walls[name].push(run.wall);
    cpus[name].push(run.cpu);
    return run;
  };
  for (let i = 0; i < runs; i += 1) {
    record('baseline', timed(['-e', ''], root, env));
    record('list', timed([bin, 'docs', 'list'], root, env));
    const query = QUERIES[i % QUERIES.length];
    const search = record('search', timed([bin, 'search', '--kind', 'doc', query, '--json'], root, env));
    hits += JSON.parse(search.stdout).results.length;
  }
  const base = quantile(walls.baseline, 0.5);
  const baseCpu = quantile(cpus.baseline, 0.5);
  const rows = [
    ["node -e ''", 'baseline'],
    ['lore docs list', 'list'],
    ['lore search --kind doc', 'search'],
  ].map(([label, name]) => {
    const p50 = quantile(walls[name], 0.5);
    const p90 = quantile(walls[name], 0.9);
    const cpu = quantile(cpus[name], 0.5);
    return (
      `  ${label.padEnd(24)} wall p50 ${p50.toFixed(1).padStart(7)} ms  p90 ${p90.toFixed(1).padStart(7)} ms` +
      `  ${(p50 / base).toFixed(2)}x baseline   cpu p50 ${cpu.toFixed(1).padStart(6)} ms  ${(cpu / baseCpu).toFixed(2)}x baseline`
    );
  });
  console.log(`  warm, whole process, ${runs} interleaved runs each (${hits} search hits in all):`);
  for (const row of rows) console.log(row);
  const result = {
    count,
    listed,
    runs,
    loadavg: os.loadavg(),
    coldListMs: cold.wall,
    p50: { baseline: base, list: quantile(walls.list, 0.5), search: quantile(walls.search, 0.5) },
    cpuP50: { baseline: baseCpu, list: quantile(cpus.list, 0.5), search: quantile(cpus.search, 0.5) },
    target: 'under 300 ms warm',
  };
  writeFileSync(join(dataDir, 'last-docs-run.json'), `${JSON.stringify(result, null, 2)}\n`);
  console.log(
    `  load after: ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
  );
  return result;
}

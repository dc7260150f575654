// The hook benchmark (`node bench/run.mjs --only hook`, also part of `npm run bench`): whole-process
// wall time of plugin/bin/lore-hook.cjs against a bare `node -e ''` measured interleaved in the
// same run (NODE_EXTRA_CA_CERTS cleared in both), for Bash, Edit and prompt (UserPromptSubmit)
// inputs over 100, 1,000 and 10,000 generated lessons (topics that share their scopes) and 10,000
// lessons that each have their own trigger, as a store grown from capture has (`d10000`); the size
// of the manifest's head and literal index, and the load average beside the figures; and the
// in-process pipeline (runHook: read manifest, match, plan, claim, format) per call. Figures go to
// bench/.data/hook-last-run.json.
import { spawnSync } from 'node:child_process';
import v8 from 'node:v8';
import vm from 'node:vm';
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDistinctStore, ensureStore } from './generate.mjs';
import { rebuildManifestFromFiles } from '../dist/store/manifest/manifest-build.js';
import { runHook } from '../dist/hook/run-hook.js';
import { summarize as stats } from './stats.mjs';

const hookBundle = fileURLToPath(new URL('../plugin/bin/lore-hook.cjs', import.meta.url));

/** Realistic, varied inputs: commands and files an agent touches in such repositories. */
const BASH = [
  'pytest -v tests/unit/test_api.py',
  'git status --short',
  'npm install --save-dev vitest',
  'docker build -t app:dev .',
  'ls -la src',
  'cargo test --release',
  'kubectl apply -f k8s/deploy.yaml',
  'make build',
  'go test ./...',
  'terraform plan -out plan.tfplan',
  'python -m pytest -x tests/integration',
  'git stash push -m wip',
  'rm -rf node_modules && npm ci',
  'psql -c "select 1" $DATABASE_URL',
];
const EDIT = [
  'src/api/handlers.ts',
  'tests/unit/test_models.py',
  'README.md',
  'Dockerfile',
  'src/components/Button.tsx',
  'internal/server/server.go',
  '.github/workflows/ci.yml',
  'migrations/0042_add_index.sql',
  'package.json',
  'src/lib.rs',
  'charts/app/values-prod.yaml',
  'docs/guide.md',
];

/** Prompts as users type them: a sentence or a paragraph, naming commands and files now and then. */
const PROMPTS = [
  'the tests in tests/unit/test_api.py fail after the last merge, can you find out why and fix them?',
  'Run the build and tell me what breaks.',
  'add a --dry-run flag to the deploy script and make sure `terraform plan` still works in CI',
  'why does docker build take so long here? look at the Dockerfile and the compose file',
  'Refactor src/api/handlers.ts so the auth checks live in one place, then run npm test.',
  'please bump vitest and fix whatever breaks',
  'kubectl apply keeps failing on the staging cluster with a forbidden error; what is wrong with k8s/deploy.yaml?',
  'Write a migration that adds an index on orders.created_at without locking the table, and explain the rollout.',
  'git push was rejected, sort it out without losing my local commits',
  'summarize what changed in internal/server/server.go this week and whether anything needs a follow-up',
];

const ms = (v, d = 1) => `${v.toFixed(d)} ms`;

/** A young-generation collection, through the gc() that --expose-gc gives a fresh context. */
const minorGc = (() => {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc');
  return () => gc({ type: 'minor' });
})();

function payload(root, kind, i, sessionId) {
  const session = { session_id: sessionId, transcript_path: '/tmp/t.jsonl', cwd: root };
  if (kind === 'prompt')
    return { ...session, hook_event_name: 'UserPromptSubmit', prompt: PROMPTS[i % PROMPTS.length] };
  const base = { ...session, hook_event_name: 'PreToolUse', tool_use_id: `t${i}` };
  if (kind === 'bash')
    return { ...base, tool_name: 'Bash', tool_input: { command: BASH[i % BASH.length], description: 'x' } };
  return {
    ...base,
    tool_name: 'Edit',
    tool_input: { file_path: join(root, EDIT[i % EDIT.length]), old_string: 'a', new_string: 'b' },
  };
}

function timed(args, input, env) {
  const started = performance.now();
  const result = spawnSync(process.execPath, args, { input, env, encoding: 'utf8' });
  const wall = performance.now() - started;
  if (result.status !== 0)
    throw new Error(`node ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  return { wall, stdout: result.stdout };
}

function table(rows) {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => String(row[i]).length)));
  return rows
    .map((row) => `    ${row.map((cell, i) => String(cell).padEnd(widths[i])).join('  ')}`)
    .join('\n');
}

/** The size of the manifest's head and of its literal index (in the head, or the files it names). */
function manifestSizes(root) {
  const dir = join(root, '.lore', 'cache', 'manifest');
  const text = readFileSync(join(dir, 'head.json'), 'utf8');
  const head = JSON.parse(text);
  if (head.index === undefined)
    return {
      head: Buffer.byteLength(text),
      index: Buffer.byteLength(JSON.stringify(head.literals)),
      indexFiles: 0,
    };
  const files = Object.values(head.index).map((name) => statSync(join(dir, head.generation, name)).size);
  return { head: Buffer.byteLength(text), index: files.reduce((a, b) => a + b, 0), indexFiles: files.length };
}

const KINDS = [
  ['bash', 'hook, Bash'],
  ['edit', 'hook, Edit'],
  ['prompt', 'hook, prompt'],
];

const kb = (bytes) => `${(bytes / 1024).toFixed(0)} KB`;
const load = () => os.loadavg().map((v) => v.toFixed(2));

export async function runHookBench({
  dataDir,
  sizes = ['100', '1000', '10000', 'd10000'],
  runs = 200,
  inProcess = 2000,
  log = console.log,
}) {
  const loreHome = join(dataDir, 'hook-home', '.lore');
  const tmp = join(dataDir, 'hook-tmp');
  mkdirSync(loreHome, { recursive: true });
  const env = { ...process.env, LORE_HOME: loreHome, TMPDIR: tmp, NO_COLOR: '1', NODE_EXTRA_CA_CERTS: '' };
  delete env.NODE_OPTIONS;
  delete env.LORE_DEBUG;
  delete env.LORE_DISABLED;
  const results = { runs, inProcess, sizes: {} };
  log(
    '\n== hook (plugin/bin/lore-hook.cjs), whole process vs bare node, interleaved; NODE_EXTRA_CA_CERTS cleared',
  );
  log(`  load average at start: ${load().join(' ')} (${os.cpus().length} cores)`);
  for (const spec of sizes.map(String)) {
    const distinct = spec.startsWith('d');
    const size = Number(spec.replace(/^d/, ''));
    rmSync(tmp, { recursive: true, force: true });
    mkdirSync(tmp, { recursive: true });
    const store = distinct
      ? await ensureDistinctStore(dataDir, size, (line) => log(`  ${line}`))
      : ensureStore(dataDir, size, (line) => log(`  ${line}`));
    const built = performance.now();
    const manifest = rebuildManifestFromFiles({ start: store.root, env, nowMs: Date.now() });
    const buildMs = performance.now() - built;
    const files = manifestSizes(store.root);

    const loadBefore = load();
    const base = [];
    const times = { bash: [], edit: [], prompt: [] };
    let injected = 0;
    let denied = 0;
    for (let i = 0; i < runs; i += 1) {
      const session = `bench-${spec}-${i}`;
      // the baseline and the three calls in turn, starting one later each round, so that no kind
      // always runs right after the same other one
      const order = ['base', ...KINDS.map(([kind]) => kind)];
      for (let k = 0; k < order.length; k += 1) {
        const kind = order[(i + k) % order.length];
        if (kind === 'base') {
          base.push(timed(['-e', ''], '', env).wall);
          continue;
        }
        const run = timed([hookBundle], JSON.stringify(payload(store.root, kind, i, session)), env);
        times[kind].push(run.wall);
        if (run.stdout.includes('additionalContext')) injected += 1;
        if (run.stdout.includes('"deny"')) denied += 1;
      }
    }
    const loadAfter = load();

    const deps = { argv: [], env, tmpdir: tmp, uid: 'bench', requestRebuild: () => undefined };
    const kindOf = (i) => KINDS[i % KINDS.length][0];
    // The hook runs one call per process, where no garbage collection ever happens; a loop of
    // calls in one process piles up their garbage and pays for it in scavenges of a few ms every
    // ~50 calls. So each timed call starts after a young-generation collection (outside the
    // timing); the same loop without it is reported as well.
    const inproc = [];
    const inprocNoGc = [];
    for (let i = 0; i < 300; i += 1) {
      // warm-up (the JIT), untimed
      const stdin = JSON.stringify(payload(store.root, kindOf(i), i, `warm-${spec}-${i}`));
      runHook(stdin, { ...deps, nowMs: Date.now() });
    }
    for (const [list, collect] of [
      [inproc, true],
      [inprocNoGc, false],
    ]) {
      for (let i = 0; i < inProcess; i += 1) {
        const stdin = JSON.stringify(payload(store.root, kindOf(i), i, `inproc-${spec}-${collect}-${i}`));
        if (collect) minorGc();
        const started = performance.now();
        runHook(stdin, { ...deps, nowMs: Date.now() });
        list.push(performance.now() - started);
      }
    }
    const r = {
      store: distinct ? 'distinct triggers' : 'generated topics',
      lessons: manifest.lessons,
      manifestBuildMs: buildMs,
      headBytes: files.head,
      indexBytes: files.index,
      indexFiles: files.indexFiles,
      loadAverage: { before: loadBefore, after: loadAfter },
      baseline: stats(base),
      bash: stats(times.bash),
      edit: stats(times.edit),
      prompt: stats(times.prompt),
      inProcess: stats(inproc),
      inProcessWithoutGcBetweenCalls: stats(inprocNoGc),
      outputs: { injected, denied, of: runs * KINDS.length },
    };
    results.sizes[spec] = r;
    const what = distinct ? 'lessons, each with its own command regex or path glob' : 'generated lessons';
    log(
      `\n  ${size.toLocaleString('en-US')} ${what} (${manifest.lessons} active in the manifest, built from files in ${ms(buildMs, 0)}); ${runs} runs each; ${injected} of ${runs * KINDS.length} calls injected, ${denied} denied`,
    );
    log(
      `  head.json ${kb(files.head)}; literal index ${kb(files.index)} ${files.indexFiles === 0 ? 'of it' : `in ${files.indexFiles} files`}; load average ${loadBefore.join(' ')} before, ${loadAfter.join(' ')} after`,
    );
    log(
      table([
        ['', 'p50', 'p90', 'p99', 'p50 / base', 'p99 / base'],
        ["node -e ''", ms(r.baseline.p50), ms(r.baseline.p90), ms(r.baseline.p99), '1.00x', '1.00x'],
        ...KINDS.map(([kind, name]) => [
          name,
          ms(r[kind].p50),
          ms(r[kind].p90),
          ms(r[kind].p99),
          `${(r[kind].p50 / r.baseline.p50).toFixed(2)}x`,
          `${(r[kind].p99 / r.baseline.p99).toFixed(2)}x`,
        ]),
        [
          `in-process runHook (n=${inProcess})`,
          ms(r.inProcess.p50, 3),
          ms(r.inProcess.p90, 3),
          ms(r.inProcess.p99, 3),
          '',
          '',
        ],
        [
          '  same, no GC between calls',
          ms(r.inProcessWithoutGcBetweenCalls.p50, 3),
          ms(r.inProcessWithoutGcBetweenCalls.p90, 3),
          ms(r.inProcessWithoutGcBetweenCalls.p99, 3),
          '',
          '',
        ],
      ]),
    );
  }
  rmSync(tmp, { recursive: true, force: true });

  const ratio = (spec) => {
    const r = results.sizes[spec];
    return r === undefined ? undefined : Math.max(...KINDS.map(([kind]) => r[kind].p99)) / r.baseline.p99;
  };
  const targets = [
    ['hook p99 / baseline p99 @1,000', ratio('1000'), 1.15, 'x'],
    ['hook p99 / baseline p99 @10,000 distinct triggers', ratio('d10000'), 1.25, 'x'],
    ['hook p99 / baseline p99 @10,000 generated', ratio('10000'), 1.25, 'x'],
    ['in-process pipeline p99 @1,000', results.sizes['1000']?.inProcess.p99, 2, 'ms'],
  ].map(([name, value, limit, unit]) => ({
    name,
    value,
    limit,
    unit,
    verdict: value === undefined ? 'not run' : value <= limit ? 'PASS' : 'MISS',
  }));
  results.targets = targets;
  results.loadAverageAtEnd = load();
  log(
    `\n  hook targets (worst of Bash, Edit and prompt); load average now ${results.loadAverageAtEnd.join(' ')}`,
  );
  log(
    table([
      ['target', 'measured', 'limit', 'verdict'],
      ...targets.map((t) => [
        t.name,
        t.value === undefined ? '-' : `${t.value.toFixed(2)}${t.unit === 'x' ? 'x' : ' ms'}`,
        `<= ${t.limit}${t.unit === 'x' ? 'x' : ' ms'}`,
        t.verdict,
      ]),
    ]),
  );
  log(
    '  (p99 of a few hundred spawns on a shared 2-core machine is noisy: compare against the baseline of the same run)',
  );
  writeFileSync(
    join(dataDir, 'hook-last-run.json'),
    `${JSON.stringify({ date: new Date().toISOString(), ...results }, null, 2)}\n`,
  );
  return results;
}

// The organisation server's benchmark (`node bench/run.mjs --only org`, also part of `npm run bench`):
// - search p99 at 100,000 organisation lessons, over loopback HTTP, against GET /api/org/whoami
//   (the same token check and one indexed query) interleaved as the baseline;
// - `lore push` of 1,000 user lessons, and `lore pull` of 10,000 into an empty user tier (whole
//   processes: index, manifest and all), against `lore --version` as the baseline;
// - the hook with 10,000 organisation lessons pulled, against a bare `node -e ''`, interleaved.
// Search runs at 10,000 on PGlite (one process seeding 100,000 takes longer than the rest of the
// bench). Each on a real PostgreSQL server (Debian's, a throw-away cluster on a free port; skipped with the
// reason when there is none) and on the embedded PGlite, with the machine and server version
// noted. Figures go to bench/.data/org-last-run.json.
import { spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLessonId } from '../dist/core/lesson/lesson-id.js';
import { createApp } from '../dist/adapters/http/create-app.js';
import { createOrgApp } from '../dist/adapters/http/create-org-app.js';
import { createHttpServer, listen } from '../dist/adapters/http/serve-http.js';
import { openOrgDb } from '../dist/store/org/org-db.js';
import { migrate } from '../dist/store/org/org-migrations.js';
import { createToken } from '../dist/store/org/org-tokens.js';
import { lessonHash, searchColumns } from '../dist/store/org/org-lesson-writes.js';
import { createRng, ensureStore, makeLesson } from './generate.mjs';
import { summarize } from './stats.mjs';

const bin = fileURLToPath(new URL('../dist/cli/bin.js', import.meta.url));
const hookBundle = fileURLToPath(new URL('../plugin/bin/lore-hook.cjs', import.meta.url));
const ms = (v, d = 1) => (Number.isFinite(v) ? `${v.toFixed(d)} ms` : '-');

const QUERIES = [
  'pytest hangs',
  'docker build cache',
  'npm install lockfile',
  'migration NOT NULL default',
  'flaky test timeout',
  'force push',
  'kubectl apply production context',
  'terraform apply plan file',
  'useEffect cleanup',
  'prisma migrate reset',
  'helm upgrade values',
  'race detector',
  'test',
  'error',
  'xylophone quantum',
];

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Debian's PostgreSQL in a throw-away cluster (as the postgres user when root), or why not. */
export async function startPostgres() {
  const root = '/usr/lib/postgresql';
  const version = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(join(root, v, 'bin', 'postgres')))
        .sort((a, b) => b - a)[0]
    : undefined;
  if (!version) return { skip: 'no PostgreSQL server installed (apt-get install postgresql)' };
  const binDir = join(root, version, 'bin');
  const dir = mkdtempSync(join(os.tmpdir(), 'lore-bench-pg-'));
  chmodSync(dir, 0o755);
  const asRoot = process.getuid?.() === 0;
  const wrap = (argv) => (asRoot ? ['runuser', '-u', 'postgres', '--', ...argv] : argv);
  if (asRoot) {
    const uid = Number(spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout.trim());
    const gid = Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout.trim());
    chownSync(dir, uid, gid);
  }
  const data = join(dir, 'data');
  const [ic, ...ia] = wrap([
    join(binDir, 'initdb'),
    '-D',
    data,
    '-U',
    'lore',
    '--auth=trust',
    '-E',
    'UTF8',
    '--no-sync',
  ]);
  if (spawnSync(ic, ia).status !== 0) return { skip: 'initdb failed' };
  const port = await freePort();
  const [pc, ...pa] = wrap([
    join(binDir, 'postgres'),
    '-D',
    data,
    '-p',
    String(port),
    '-k',
    dir,
    '-c',
    'listen_addresses=127.0.0.1',
  ]);
  const child = spawn(pc, pa, { stdio: 'ignore' });
  for (let i = 0; i < 300; i += 1) {
    if (spawnSync(join(binDir, 'pg_isready'), ['-h', '127.0.0.1', '-p', String(port), '-q']).status === 0)
      break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const stop = async () => {
    const pid = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
    process.kill(pid, 'SIGINT');
    await new Promise((r) => (child.exitCode !== null ? r() : child.once('exit', r)));
    rmSync(dir, { recursive: true, force: true });
  };
  return { url: `postgres://lore@127.0.0.1:${port}/postgres`, stop };
}

/** `count` generated lessons (valid records, the bench's realistic topics and words). */
function lessons(count, seed) {
  const rng = createRng(seed);
  const out = [];
  const seen = new Set();
  while (out.length < count) {
    const bytes = new Uint8Array(7);
    for (let i = 0; i < 7; i += 1) bytes[i] = rng.int(0, 255);
    const id = createLessonId(bytes);
    if (seen.has(id)) continue;
    seen.add(id);
    const lesson = makeLesson(rng, id, undefined);
    out.push({ ...lesson, tier: 'user', status: 'active' });
  }
  return out;
}

/**
 * An organisation with `count` accepted lessons, written in bulk (the columns push computes, with
 * the same functions): seeding measures nothing, so it skips the per-lesson push path.
 */
export async function seed(db, org, count, seedValue) {
  const token = (await createToken(db, { org, user: 'seeder', role: 'admin', actor: 'bench' })).token;
  const rows = await db.query('SELECT id FROM orgs WHERE name = $1', [org]);
  const orgId = Number(rows[0].id);
  const all = lessons(count, seedValue);
  for (let at = 0; at < all.length; at += 2000) {
    const batch = all.slice(at, at + 2000).map((lesson) => ({ lesson, search: searchColumns(lesson) }));
    await db.query(
      `INSERT INTO lessons (org_id, id, version, state, status, record, content_hash, summary, tags_text,
         structured_text, body, priority, confidence, proposed_by, updated_by)
       SELECT $1, u.id, 1, 'accepted', u.status, u.record::jsonb, u.hash, u.summary, u.tags, u.structured, u.body,
         u.priority, u.confidence, 'seeder', 'seeder'
       FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[],
         $10::int[], $11::real[]) AS u(id, status, record, hash, summary, tags, structured, body, priority, confidence)`,
      [
        orgId,
        batch.map((c) => c.lesson.id),
        batch.map((c) => c.lesson.status),
        batch.map((c) => JSON.stringify(c.lesson)),
        batch.map((c) => lessonHash(c.lesson)),
        batch.map((c) => c.lesson.summary),
        batch.map((c) => c.search.tags),
        batch.map((c) => c.search.structured),
        batch.map((c) => c.search.body),
        batch.map((c) => c.lesson.priority),
        batch.map((c) => c.lesson.confidence),
      ],
    );
  }
  return token;
}

function run(args, env, options = {}) {
  const started = performance.now();
  const result = spawnSync(process.execPath, args, {
    env,
    encoding: 'utf8',
    maxBuffer: 64 << 20,
    ...options,
  });
  const wall = performance.now() - started;
  if (result.status !== 0)
    throw new Error(`node ${args[0]} ${args[1] ?? ''} exited ${result.status}: ${result.stderr}`);
  return { wall, stdout: result.stdout };
}

/** `lore ARGS` in a child (async), its stdout. */
function runOutput(args, env, cwd) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    child.on('close', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`lore ${args[0]}: exit ${code}: ${err}`)),
    );
  });
}

/** Whole-process `lore` in a child (async, so this process's server keeps answering). */
function runAsync(args, env, cwd) {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.on('data', (c) => (err += c));
    child.stdout.resume();
    child.on('close', (code) =>
      code === 0
        ? resolve(performance.now() - started)
        : reject(new Error(`lore ${args[0]}: exit ${code}: ${err}`)),
    );
  });
}

async function benchBackend(name, target, dataDir, log, searchSize) {
  const db = await openOrgDb({ target, maxConnections: 8 });
  await migrate(db);
  const version = (await db.serverVersion()).split(' on ')[0];
  const base = createApp({ cwd: dataDir, env: {}, policy: { token: undefined } });
  const server = createHttpServer(createOrgApp({ db, base }));
  const url = `http://127.0.0.1:${await listen(server, 0, '127.0.0.1')}`;
  const result = { backend: name, version };
  log(`\n  ${name}: ${version}`);
  try {
    // search at searchSize (100,000 on a server)
    let started = performance.now();
    const token = await seed(db, 'bench-search', searchSize, 1);
    result.seed100kMs = performance.now() - started;
    const headers = { authorization: `Bearer ${token}` };
    const get = async (path) => {
      const t = performance.now();
      const response = await globalThis.fetch(`${url}${path}`, { headers });
      await response.text();
      return performance.now() - t;
    };
    const searches = [];
    const baseline = [];
    for (let i = 0; i < 40; i += 1)
      await get(`/api/org/search?q=${encodeURIComponent(QUERIES[i % QUERIES.length])}`);
    for (let i = 0; i < 300; i += 1) {
      baseline.push(await get('/api/org/whoami'));
      searches.push(
        await get(`/api/org/search?q=${encodeURIComponent(QUERIES[i % QUERIES.length])}&limit=10`),
      );
    }
    result.search = {
      lessons: searchSize,
      seedMs: result.seed100kMs,
      query: summarize(searches),
      baseline: summarize(baseline),
    };
    log(
      `    seeded ${searchSize.toLocaleString('en-US')} lessons in ${(result.seed100kMs / 1000).toFixed(1)} s`,
    );
    log(
      `    search @${searchSize.toLocaleString('en-US')}: p50 ${ms(result.search.query.p50)}, p99 ${ms(result.search.query.p99)}; whoami baseline p50 ${ms(result.search.baseline.p50)}, p99 ${ms(result.search.baseline.p99)} (p99 ratio ${(result.search.query.p99 / result.search.baseline.p99).toFixed(2)}x)`,
    );

    // push 1,000 and pull 10,000, whole processes
    const store1k = ensureStore(dataDir, 1000);
    const store10k = ensureStore(dataDir, 10000);
    const pullToken = await seed(db, 'bench-pull', 10_000, 2);
    const env = { ...process.env, NODE_EXTRA_CA_CERTS: '', NO_COLOR: '1' };
    delete env.LORE_DEBUG;
    const scratch = mkdtempSync(join(os.tmpdir(), 'lore-bench-org-'));
    const versionRuns = [];
    const pushes = [];
    const pulls = [];
    for (let i = 0; i < 3; i += 1) {
      versionRuns.push(run([bin, '--version'], env).wall);
      // push: the 1,000-lesson store as a user tier, a fresh organisation each run
      const pushToken = (
        await createToken(db, { org: `bench-push-${i}`, user: 'pusher', role: 'curate', actor: 'bench' })
      ).token;
      // a user tier of its own holding the generated lessons, indexed before the push is timed
      const pushHome = join(scratch, `push-${i}`);
      cpSync(join(store1k.root, '.lore', 'lessons'), join(pushHome, 'lessons'), { recursive: true });
      const pushEnv = { ...env, LORE_HOME: pushHome };
      const listed = JSON.parse(
        run([bin, 'list', '--tier', 'user', '--status', 'any', '--json'], pushEnv, { cwd: scratch }).stdout,
      );
      if (listed.lessons.length !== 1000)
        throw new Error(`the push store holds ${listed.lessons.length} user lessons, not 1,000`);
      run([bin, 'remote', 'add', 'acme', url], pushEnv, { cwd: scratch });
      await runAsync(['login', 'acme', '--token', pushToken], pushEnv, scratch);
      const startedPush = performance.now();
      const pushed = await runOutput(['push', '--json'], pushEnv, scratch);
      pushes.push(performance.now() - startedPush);
      const created = JSON.parse(pushed).results.filter((r) => r.outcome === 'created').length;
      if (created !== 1000) throw new Error(`push created ${created} lessons, not 1,000`);
      // pull: 10,000 into an empty user tier
      const pullHome = join(scratch, `pull-${i}`);
      const pullEnv = { ...env, LORE_HOME: pullHome };
      run([bin, 'remote', 'add', 'acme', url], pullEnv, { cwd: scratch });
      await runAsync(['login', 'acme', '--token', pullToken], pullEnv, scratch);
      pulls.push(await runAsync(['pull'], pullEnv, scratch));
    }
    result.push = { lessons: 1000, wall: summarize(pushes), baseline: summarize(versionRuns) };
    result.pull = { lessons: 10_000, wall: summarize(pulls), baseline: summarize(versionRuns) };
    log(
      `    lore push of 1,000: median ${ms(result.push.wall.p50, 0)}; lore pull of 10,000 into an empty user tier: median ${ms(result.pull.wall.p50, 0)} (lore --version median ${ms(result.push.baseline.p50)})`,
    );

    // the hook with 10,000 organisation lessons pulled, in the 1,000-lesson repository
    const hookEnv = {
      ...env,
      LORE_HOME: join(scratch, 'pull-0'),
      TMPDIR: join(scratch, 'tmp'),
      LORE_NO_SCAN: '1',
    };
    mkdirSync(hookEnv.TMPDIR, { recursive: true });
    run([bin, 'sync'], hookEnv, { cwd: store1k.root });
    const hook = [];
    const bare = [];
    for (let i = 0; i < 100; i += 1) {
      bare.push(run(['-e', ''], hookEnv).wall);
      const payload = {
        session_id: `org-bench-${i}`,
        cwd: store1k.root,
        hook_event_name: 'PreToolUse',
        tool_name: 'Bash',
        tool_input: { command: i % 2 ? 'terraform apply' : 'pytest -x tests' },
        tool_use_id: `t${i}`,
      };
      hook.push(run([hookBundle], hookEnv, { input: JSON.stringify(payload) }).wall);
    }
    result.hook = {
      orgLessons: 10_000,
      projectLessons: 1000,
      hook: summarize(hook),
      baseline: summarize(bare),
    };
    log(
      `    hook with 10,000 org lessons pulled: p50 ${ms(result.hook.hook.p50)}, p99 ${ms(result.hook.hook.p99)}; node -e '' p50 ${ms(result.hook.baseline.p50)}, p99 ${ms(result.hook.baseline.p99)} (p50 ratio ${(result.hook.hook.p50 / result.hook.baseline.p50).toFixed(2)}x)`,
    );
    rmSync(scratch, { recursive: true, force: true });
    void store10k;
  } finally {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    await db.close();
  }
  return result;
}

export async function runOrgBench({ dataDir, log = console.log, backends = ['postgresql', 'pglite'] }) {
  const cpus = os.cpus();
  const machine = {
    cpu: cpus[0]?.model ?? 'unknown',
    cores: cpus.length,
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
  };
  log(
    '\n== organisation server (lore serve --org): search @100,000 (PostgreSQL) or @10,000 (PGlite), push 1,000, pull 10,000, hook with 10,000 pulled',
  );
  log(`  machine: ${machine.cpu} x ${machine.cores}, ${machine.platform}, node ${machine.node}`);
  const results = { machine, backends: {} };
  if (backends.includes('postgresql')) {
    const pg = await startPostgres();
    if (pg.skip) log(`  postgresql: skipped: ${pg.skip}`);
    else {
      try {
        results.backends.postgresql = await benchBackend('postgresql', pg.url, dataDir, log, 100_000);
      } finally {
        await pg.stop();
      }
    }
  }
  if (backends.includes('pglite')) {
    const dir = mkdtempSync(join(os.tmpdir(), 'lore-bench-pglite-'));
    try {
      results.backends.pglite = await benchBackend('pglite', dir, dataDir, log, 10_000);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  writeFileSync(join(dataDir, 'org-last-run.json'), `${JSON.stringify(results, null, 2)}\n`);
  return results;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dataDir = fileURLToPath(new URL('.data', import.meta.url));
  mkdirSync(dataDir, { recursive: true });
  const only = process.argv
    .slice(2)
    .find((a) => a.startsWith('--backend='))
    ?.split('=')[1];
  await runOrgBench({ dataDir, ...(only ? { backends: [only] } : {}) });
}

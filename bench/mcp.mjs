// The MCP benchmark (`node bench/run.mjs --only mcp`, also part of `npm run bench`): `lore mcp` over
// the SDK's stdio client at 10,000 generated lessons. (1) lore_search round trips, warm, p50/p99,
// interleaved with MCP pings (the protocol's own floor) measured in the same run; (2) server start
// to first answer (spawn, initialize, one lore_search; the package's `lore`, as `lore install mcp`
// registers it), interleaved with a bare `node -e ''` (issue 18: at most 4 times it), and the same
// with no V8 code caches for the bundles (as the first start after a build or a Node upgrade: it
// compiles, then writes the caches). The server's temp directory (code cache) is the
// bench's own. Figures go to bench/.data/mcp-last-run.json.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ensureStore } from './generate.mjs';
import { summarize as stats } from './stats.mjs';

/** The package's `lore` (package.json `bin`), which `lore install mcp` registers. */
const bin = fileURLToPath(
  new URL(
    `../${JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).bin.lore}`,
    import.meta.url,
  ),
);

const QUERIES = [
  'pytest hangs',
  'docker build platform',
  'migration',
  'npm install lockfile',
  'git stash',
  'terraform plan',
  'effect cleanup',
  'flaky test timeout',
  'kubectl apply',
  'cargo release',
  'cache invalidation',
  'null pointer',
];
const PATHS = [
  'src/api/handlers.ts',
  'tests/unit/test_models.py',
  'Dockerfile',
  'src/components/Button.tsx',
  '.github/workflows/ci.yml',
  'db/migrations/0042_users.sql',
];

const ms = (value, digits = 2) => `${value.toFixed(digits)} ms`;

function table(rows) {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => String(row[i]).length)));
  return rows
    .map((row) => `    ${row.map((cell, i) => String(cell).padEnd(widths[i])).join('  ')}`)
    .join('\n');
}

async function connect(root, env) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin, 'mcp'],
    cwd: root,
    env,
    stderr: 'ignore',
  });
  const client = new Client({ name: 'lore-bench', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

function search(client, i) {
  const args = { query: QUERIES[i % QUERIES.length] };
  if (i % 2 === 1) args.path = PATHS[i % PATHS.length];
  return client.callTool({ name: 'lore_search', arguments: args });
}

export async function runMcpBench({ dataDir, size = 10000, calls = 500, starts = 20, log = console.log }) {
  const loreHome = join(dataDir, 'mcp-home', '.lore');
  mkdirSync(loreHome, { recursive: true });
  const tmp = join(dataDir, 'mcp-tmp');
  mkdirSync(tmp, { recursive: true });
  const env = { ...process.env, LORE_HOME: loreHome, NO_COLOR: '1', NODE_EXTRA_CA_CERTS: '', TMPDIR: tmp };
  // the MCP server's bundle (lore mcp does not load the fast verbs' bundle)
  const codeCaches = ['lore-mcp'].map((name) => join(tmp, `${name}-${process.getuid?.() ?? 'user'}`));
  for (const name of ['NODE_OPTIONS', 'LORE_DEBUG', 'LORE_SESSION_ID', 'CLAUDE_CODE_SESSION_ID'])
    delete env[name];
  const store = ensureStore(dataDir, size, (line) => log(`  ${line}`));
  // The index is built once (a first `lore sync`), as it is on any machine that used lore before.
  spawnSync(process.execPath, [bin, 'sync'], { cwd: store.root, env });
  log(
    `\n== mcp (lore mcp over stdio, SDK client), ${size.toLocaleString('en-US')} lessons; load ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
  );

  // (1) warm round trips
  const client = await connect(store.root, env);
  for (let i = 0; i < 30; i += 1) {
    await search(client, i);
    await client.ping();
  }
  const searches = [];
  const pings = [];
  let withLearnings = 0;
  let results = 0;
  for (let i = 0; i < calls; i += 1) {
    let started = performance.now();
    await client.ping();
    pings.push(performance.now() - started);
    started = performance.now();
    const answer = await search(client, i);
    searches.push(performance.now() - started);
    if (answer.isError) throw new Error(`lore_search failed: ${JSON.stringify(answer.content)}`);
    results += answer.structuredContent.results.length;
    if (answer.structuredContent.learnings.length > 0) withLearnings += 1;
  }
  await client.close();

  // (2) start to first answer
  const firsts = [];
  const colds = [];
  const bare = [];
  for (let i = 0; i < starts; i += 1) {
    let started = performance.now();
    spawnSync(process.execPath, ['-e', ''], { env });
    bare.push(performance.now() - started);
    started = performance.now();
    const fresh = await connect(store.root, env);
    await search(fresh, i);
    firsts.push(performance.now() - started);
    await fresh.close();
    if (i % 2 === 0) {
      // every other start: no code cache (this start writes it again for the next)
      for (const dir of codeCaches) rmSync(dir, { recursive: true, force: true });
      started = performance.now();
      const cold = await connect(store.root, env);
      await search(cold, i);
      colds.push(performance.now() - started);
      await cold.close();
    }
  }

  const r = {
    size,
    loadavg: os.loadavg(),
    search: stats(searches),
    ping: stats(pings),
    start: stats(firsts),
    startCold: stats(colds),
    bareNode: stats(bare),
    answers: { calls, results, withLearnings },
  };
  log(
    `  ${calls} lore_search calls (every other with a path: ${withLearnings} carried learnings), ${starts} starts (${colds.length} more without a code cache)`,
  );
  log(
    table([
      ['', 'p50', 'p90', 'p99', 'p50 / base', 'p99 / base'],
      ['MCP ping (base)', ms(r.ping.p50, 3), ms(r.ping.p90, 3), ms(r.ping.p99, 3), '1.00x', '1.00x'],
      [
        'lore_search round trip',
        ms(r.search.p50, 3),
        ms(r.search.p90, 3),
        ms(r.search.p99, 3),
        `${(r.search.p50 / r.ping.p50).toFixed(2)}x`,
        `${(r.search.p99 / r.ping.p99).toFixed(2)}x`,
      ],
      [
        "node -e '' (base)",
        ms(r.bareNode.p50, 1),
        ms(r.bareNode.p90, 1),
        ms(r.bareNode.p99, 1),
        '1.00x',
        '1.00x',
      ],
      [
        'start to first answer',
        ms(r.start.p50, 1),
        ms(r.start.p90, 1),
        ms(r.start.p99, 1),
        `${(r.start.p50 / r.bareNode.p50).toFixed(2)}x`,
        `${(r.start.p99 / r.bareNode.p99).toFixed(2)}x`,
      ],
      [
        '  cold (no code cache)',
        ms(r.startCold.p50, 1),
        ms(r.startCold.p90, 1),
        ms(r.startCold.p99, 1),
        `${(r.startCold.p50 / r.bareNode.p50).toFixed(2)}x`,
        `${(r.startCold.p99 / r.bareNode.p99).toFixed(2)}x`,
      ],
    ]),
  );
  // issue 18: start to first answer as a ratio to the bare node of the same run
  const targets = [
    ['lore_search p99 warm @10,000', r.search.p99, 10, 'ms'],
    ['start to first answer p50', r.start.p50, 300, 'ms'],
    ['start to first answer p50 / bare node p50', r.start.p50 / r.bareNode.p50, 4, 'x'],
  ].map(([name, value, limit, unit]) => ({
    name,
    value,
    limit,
    unit,
    verdict: value <= limit ? 'PASS' : 'MISS',
  }));
  r.targets = targets;
  log(
    `  targets (load average ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')} after the starts)`,
  );
  log(
    table([
      ['target', 'measured', 'limit', 'verdict'],
      ...targets.map((t) => [
        t.name,
        t.unit === 'x' ? `${t.value.toFixed(2)}x` : ms(t.value, 2),
        t.unit === 'x' ? `<= ${t.limit}x` : `<= ${t.limit} ms`,
        t.verdict,
      ]),
    ]),
  );
  writeFileSync(
    join(dataDir, 'mcp-last-run.json'),
    `${JSON.stringify({ date: new Date().toISOString(), ...r }, null, 2)}\n`,
  );
  return r;
}

// Where a whole-process read goes: run as a fresh process (cwd = the repository), it does what
// `lore search` / `lore list --path` do, timing each stage from the process start, and prints JSON.
// Usage: node bench/stages.mjs search "QUERY" | node bench/stages.mjs list PATH
import { statSync } from 'node:fs';
import { join } from 'node:path';

const marks = [['node start (to first user code)', performance.now()]];
const mark = (name) => marks.push([name, performance.now()]);

await import('../dist/store/sqlite/sqlite.js'); // the driver, loaded the way lore loads it
mark('load libsql (native)');
const { openWorkspace } = await import('../dist/store/workspace/workspace.js');
await import('../dist/cli/main.js');
await import('../dist/cli/open-workspace.js');
await import('../dist/cli/output.js');
mark('load lore modules');

const [mode, arg] = process.argv.slice(2);
const ws = await openWorkspace({ cwd: process.cwd(), env: process.env });
mark('openWorkspace (config)');
const report = await ws.ready();
mark('ready(): stat files + open SQLite + hash');
let results;
if (mode === 'list') {
  results = await ws.index.list({ status: 'active', path: arg }, Date.now(), ws.halfLifeDays);
} else {
  results = await ws.index.search(
    arg,
    { status: 'active', limit: ws.config.search.limit },
    ws.config.search.weights,
    Date.now(),
    ws.halfLifeDays,
  );
}
mark(mode === 'list' ? 'list --path query' : 'search query');
await ws.index.problems();
mark('problems()');
ws.close();
mark('close');

// Components of ready(), measured again afterwards (the OS caches are as warm as they were above).
const components = {};
let started = performance.now();
const listing = ws.project.list();
components['readdir lessons/'] = performance.now() - started;
started = performance.now();
let files = 0;
for (const dir of listing.dirs) {
  if (statSync(dir.yamlPath, { throwIfNoEntry: false })) files += 1;
  if (statSync(dir.votesPath, { throwIfNoEntry: false })) files += 1;
}
components[`stat ${listing.dirs.length * 2} paths (${files} exist)`] = performance.now() - started;
started = performance.now();
const { openSqlite } = await import('../dist/store/sqlite/sqlite.js');
const db = openSqlite(join(ws.cacheDir, 'index.db'));
db.get("SELECT value FROM meta WHERE key = 'aggregate'");
db.close();
components['open SQLite + read 1 row'] = performance.now() - started;

const stages = marks.map(([name, at], i) => ({ name, ms: i === 0 ? at : at - marks[i - 1][1] }));
process.stdout.write(
  JSON.stringify({
    stages,
    components,
    total: performance.now(),
    fresh: report.fresh,
    results: results.length,
  }),
);

// The parts of the freshness check a whole-process read pays in ready(), each measured alone in a
// fresh process (cwd = the repository), printed as JSON: run by bench/run.mjs after the stage
// breakdown of real `lore search` runs (LORE_STAGES=1, src/cli/stage-marks.ts).
// Usage: node bench/stages.mjs
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { openWorkspace } from '../dist/store/workspace/workspace.js';
import { statNumbers } from '../dist/store/fs/stat-numbers.js';
import { openSqlite } from '../dist/store/sqlite/sqlite.js';

const ws = await openWorkspace({ cwd: process.cwd(), env: process.env });
const components = {};
const time = (name, fn) => {
  const started = performance.now();
  const result = fn();
  components[name] = performance.now() - started;
  return result;
};
const dir = ws.project.layout.lessonsDir;
const names = time('readdir lessons/', () => readdirSync(dir));
const paths = names.map((name) => join(dir, name, 'lesson.yaml'));
time(`stat ${paths.length} lesson.yaml (Stats-free, as the scan)`, () =>
  paths.forEach((p) => statNumbers(p)),
);
time(`stat ${paths.length} lesson.yaml (statSync)`, () =>
  paths.forEach((p) => statSync(p, { throwIfNoEntry: false })),
);
time('open SQLite + read 1 row', () => {
  const db = openSqlite(join(ws.cacheDir, 'index.db'));
  db.get("SELECT value FROM meta WHERE key = 'aggregate'");
  db.close();
});
ws.close();
process.stdout.write(JSON.stringify({ components }));

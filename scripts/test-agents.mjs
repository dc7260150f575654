// Runs the real-agent end-to-end tests (test/e2e-agents): Claude Code, Codex, Gemini CLI and the MCP Inspector, pinned in that
// folder's own package, driven offline by a scripted model server. Installs them from the
// lockfile on first use, like test-node22.mjs does for Node 22.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const agents = fileURLToPath(new URL('../test/e2e-agents/', import.meta.url));
const binaries = [
  `${agents}node_modules/@anthropic-ai/claude-code/bin/claude.exe`,
  `${agents}node_modules/@openai/codex/bin/codex.js`,
  `${agents}node_modules/@google/gemini-cli/bundle/gemini.js`,
  `${agents}node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js`,
];

if (!binaries.every((binary) => existsSync(binary))) {
  console.error(
    'test:agents: installing Claude Code, Codex and Gemini CLI from the lockfile into test/e2e-agents (once)',
  );
  const install = spawnSync('npm', ['ci', '--prefix', agents, '--no-audit', '--no-fund'], {
    stdio: 'inherit',
  });
  if (install.status !== 0) process.exit(install.status ?? 1);
}
const run = spawnSync(
  process.execPath,
  [`${root}node_modules/vitest/vitest.mjs`, 'run', '--config', `${agents}vitest.config.ts`],
  { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_EXTRA_CA_CERTS: '' } },
);
process.exit(run.status ?? 1);

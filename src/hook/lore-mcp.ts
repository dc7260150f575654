/**
 * The plugin's MCP launcher (`plugin/bin/lore-mcp.cjs`, named in `plugin/.mcp.json`): runs
 * `lore mcp` with the client's stdio. Inside the npm package (or a built checkout) the CLI sits two
 * levels up, in `dist/cli/lore.cjs`, and runs in this process (no second Node to start); a plugin
 * installed on its own from a marketplace has no CLI next to it, so `lore` on PATH runs instead,
 * and without one the client is told how to install it. Node built-ins only, like the hook.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

const MISSING =
  'lore mcp: the lore CLI is not installed next to the plugin nor on PATH; install it with `npm install -g lore`, then restart the session\n';

/**
 * The CLI next to the plugin, in this process, as `lore mcp ARGS`: its CommonJS bundle
 * (`dist/cli/lore.cjs`, the package's `lore`), required, not the ES module entry beside it, which
 * would cost Node's ES module loader (about 9 ms) before the CLI's first line.
 */
function runLocal(bin: string, args: string[]): void {
  process.argv = [process.execPath, bin, 'mcp', ...args];
  // what the spawned CLI had: nothing it starts reads extra CA certificates
  process.env.NODE_EXTRA_CA_CERTS = '';
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the CommonJS require of this bundle
    require(bin);
  } catch (error) {
    process.stderr.write(`lore mcp: could not start ${bin}: ${(error as Error)?.message ?? String(error)}\n`);
    process.exitCode = 1;
  }
}

/** `lore` on PATH, as a child with the client's stdio. */
function runOnPath(args: string[]): void {
  const child = spawn('lore', ['mcp', ...args], {
    stdio: 'inherit',
    env: { ...process.env, NODE_EXTRA_CA_CERTS: '' },
  });
  child.on('error', () => {
    process.stderr.write(MISSING);
    process.exitCode = 1;
  });
  child.on('exit', (code, signal) => {
    process.exitCode = code ?? (signal ? 1 : 0);
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => child.kill(signal));
  }
}

function main(): void {
  const local = join(dirname(process.argv[1] ?? '.'), '..', '..', 'dist', 'cli', 'lore.cjs');
  const args = process.argv.slice(2);
  if (existsSync(local)) runLocal(local, args);
  else runOnPath(args);
}

main();

/**
 * The plugin's MCP launcher (`plugin/bin/lore-mcp.cjs`, named in `plugin/.mcp.json`): runs
 * `lore mcp` with the client's stdio. Inside the npm package (or a built checkout) the CLI sits two
 * levels up, in `dist/cli/bin.js`; a plugin installed on its own from a marketplace has no CLI next
 * to it, so `lore` on PATH runs instead, and without one the client is told how to install it.
 * Node built-ins only, like the hook.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

function main(): void {
  const local = join(dirname(process.argv[1] ?? '.'), '..', '..', 'dist', 'cli', 'bin.js');
  const [command, args] = existsSync(local)
    ? [process.execPath, [local, 'mcp', ...process.argv.slice(2)]]
    : ['lore', ['mcp', ...process.argv.slice(2)]];
  const child = spawn(command, args, { stdio: 'inherit', env: { ...process.env, NODE_EXTRA_CA_CERTS: '' } });
  child.on('error', () => {
    process.stderr.write(
      'lore mcp: the lore CLI is not installed next to the plugin nor on PATH; install it with `npm install -g lore`, then restart the session\n',
    );
    process.exitCode = 1;
  });
  child.on('exit', (code, signal) => {
    process.exitCode = code ?? (signal ? 1 : 0);
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => child.kill(signal));
  }
}

main();

/**
 * The browser the dashboard suite drives: Debian's chromium, found or installed on first use, so
 * `npm test` passes on a fresh machine the way test:agents and test:node22 do (they install what
 * they need too). playwright-core never downloads a browser; apt is the one source.
 *
 * Order: `LORE_CHROMIUM` when it names an existing file, then `chromium` on PATH or at
 * /usr/bin/chromium; otherwise `apt-get update && apt-get install -y chromium` when running as root
 * or with password-less sudo; otherwise an error whose message is the exact command to run.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

const DEBIAN_PATH = '/usr/bin/chromium';

/** The install command for this user: plain as root, through sudo otherwise. */
export function installCommand(uid: number): string[] {
  const apt = [
    'sh',
    '-c',
    'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium',
  ];
  return uid === 0 ? apt : ['sudo', '-n', ...apt];
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** An existing chromium: the named one, else PATH, else Debian's location; undefined when none. */
export function findChromium(env: NodeJS.ProcessEnv): string | undefined {
  const named = env.LORE_CHROMIUM;
  if (named && isExecutable(named)) return named;
  const onPath = (env.PATH ?? '')
    .split(delimiter)
    .filter(Boolean)
    .map((dir) => join(dir, 'chromium'));
  return [...onPath, DEBIAN_PATH].find(isExecutable);
}

function canSudo(): boolean {
  return spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0;
}

/** Finds chromium, installing Debian's package when this user may; throws with the command otherwise. */
export function findOrInstallChromium(env: NodeJS.ProcessEnv = process.env): string {
  const found = findChromium(env);
  if (found) return found;
  const uid = process.getuid?.() ?? -1;
  const manual = 'sudo apt-get update && sudo apt-get install -y chromium';
  if (uid !== 0 && !canSudo()) {
    throw new Error(`the dashboard tests need Debian's chromium; install it with: ${manual}`);
  }
  const [command, ...args] = installCommand(uid);
  process.stderr.write(`dashboard tests: installing Debian's chromium (${manual})\n`);
  const run = spawnSync(command!, args, { stdio: ['ignore', 'inherit', 'inherit'] });
  const installed = findChromium({ PATH: env.PATH });
  if (run.status !== 0 || !installed) {
    throw new Error(`installing chromium failed (exit ${run.status}); install it with: ${manual}`);
  }
  return installed;
}

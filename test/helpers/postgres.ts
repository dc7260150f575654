/**
 * A real PostgreSQL server for the organisation tier's tests: Debian's `postgresql` package,
 * found or installed on first use (as root, like chromium.ts), a cluster of its own in a temp
 * directory on a free loopback port, removed afterwards. `initdb` and `postgres` refuse to run as
 * root, so as root they run as the `postgres` user in a directory it owns.
 *
 * `startPostgres()` resolves with the URL, or with `skip` (the reason, printed by the caller) when
 * the server cannot be found or installed here.
 */
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type Postgres = {
  url: string;
  /** The server's version line. */
  version: string;
  /** Kills the server at once (SIGKILL: no shutdown checkpoint), for crash tests. */
  kill(): void;
  /** Starts it again on the same directory and port (crash recovery replays the WAL). */
  restart(): Promise<void>;
  stop(): Promise<void>;
};

export type PostgresResult = { postgres: Postgres } | { skip: string };

function binDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((name) => existsSync(join(root, name, 'bin', 'postgres')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(root, versions[0], 'bin');
}

function findOrInstall(): string | { skip: string } {
  const found = binDir();
  if (found) return found;
  if ((process.getuid?.() ?? -1) !== 0)
    return {
      skip: 'PostgreSQL is not installed and this user cannot install it (sudo apt-get install -y postgresql)',
    };
  process.stderr.write("org tests: installing Debian's postgresql (apt-get install -y postgresql)\n");
  const run = spawnSync(
    'sh',
    ['-c', 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql'],
    { stdio: 'inherit' },
  );
  const after = binDir();
  if (run.status !== 0 || !after) return { skip: `apt-get install postgresql failed (exit ${run.status})` };
  return after;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** argv run as the postgres user when we are root (initdb and postgres refuse root). */
function asOwner(argv: string[]): string[] {
  return (process.getuid?.() ?? -1) === 0 ? ['runuser', '-u', 'postgres', '--', ...argv] : argv;
}

async function waitReady(bin: string, dir: string, port: number, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`postgres exited with ${child.exitCode}`);
    const ready = spawnSync(join(bin, 'pg_isready'), ['-h', '127.0.0.1', '-p', String(port), '-q']);
    if (ready.status === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`postgres in ${dir} did not become ready on port ${port}`);
}

export async function startPostgres(): Promise<PostgresResult> {
  const bin = findOrInstall();
  if (typeof bin !== 'string') return bin;
  const dir = mkdtempSync(join(tmpdir(), 'lore-pg-'));
  chmodSync(dir, 0o755);
  if ((process.getuid?.() ?? -1) === 0) {
    const pw = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
    const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
    if (pw.status !== 0)
      return { skip: 'running as root and there is no postgres user to run the server as' };
    chownSync(dir, Number(pw.stdout.trim()), Number(gid.stdout.trim()));
  }
  const data = join(dir, 'data');
  const [initCmd, ...initArgs] = asOwner([
    join(bin, 'initdb'),
    '-D',
    data,
    '-U',
    'lore',
    '--auth=trust',
    '-E',
    'UTF8',
    '--no-sync',
  ]);
  const init = spawnSync(initCmd as string, initArgs, { encoding: 'utf8' });
  if (init.status !== 0) return { skip: `initdb failed: ${init.stderr.trim().split('\n').pop()}` };
  const port = await freePort();
  let child: ChildProcess;
  const start = async (): Promise<void> => {
    const [cmd, ...args] = asOwner([
      join(bin, 'postgres'),
      '-D',
      data,
      '-p',
      String(port),
      '-k',
      dir,
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'max_connections=100',
      '-c',
      'fsync=on',
    ]);
    child = spawn(cmd as string, args, { stdio: 'ignore' });
    await waitReady(bin, dir, port, child);
  };
  await start();
  const url = `postgres://lore@127.0.0.1:${port}/postgres`;
  const version = spawnSync(join(bin, 'postgres'), ['--version'], { encoding: 'utf8' }).stdout.trim();
  const exited = (): Promise<void> =>
    child.exitCode !== null || child.signalCode !== null
      ? Promise.resolve()
      : new Promise((resolve) => child.once('exit', () => resolve()));
  const postmasterPid = (): number | undefined => {
    try {
      const pid = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
      return Number.isInteger(pid) && pid > 0 ? pid : undefined;
    } catch {
      return undefined;
    }
  };
  const alive = (pid: number): boolean => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  let lastPid: number | undefined;
  const killTree = (signal: NodeJS.Signals): void => {
    // The postmaster by the pid in its own pid file (runuser stands between us and it).
    lastPid = postmasterPid();
    if (lastPid !== undefined) process.kill(lastPid, signal);
    child.kill(signal);
  };
  return {
    postgres: {
      url,
      version,
      kill: () => killTree('SIGKILL'),
      async restart() {
        await exited();
        // a killed postmaster's backends notice and exit a moment later; wait for the postmaster to go
        for (let i = 0; i < 100 && lastPid !== undefined && alive(lastPid); i += 1)
          await new Promise((resolve) => setTimeout(resolve, 100));
        rmSync(join(data, 'postmaster.pid'), { force: true });
        await start();
      },
      async stop() {
        killTree('SIGINT');
        await exited();
        rmSync(dir, { recursive: true, force: true });
      },
    },
  };
}

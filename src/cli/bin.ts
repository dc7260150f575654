#!/usr/bin/env node
/**
 * The `lore` executable, bundled as CommonJS into dist/cli/lore.cjs (the package's `bin`; the
 * dist/cli/bin.js that agents' MCP configurations and the plugin name only imports it): an ES
 * module entry alone costs about 9 ms before the first line runs (Node's ES module loader, and its
 * fs/promises and streams). The fast verbs (fast-verbs.ts) run from their own CommonJS bundle,
 * from V8's code cache (fast-launch.ts), but `lore mcp`, which runs from here (mcp-verb.ts) into
 * the server's bundle; `lore scan` with nothing new answers from here (unchanged-scan.ts); every
 * other verb from main.ts's CommonJS bundle (dist/cli-bundle/full-core.cjs), from V8's code cache.
 */
import { createDirectOutput } from './direct-output.js';
import { isFastVerb } from './fast-verbs.js';
import { runCliBundle, runFastCli } from './fast-launch.js';
import { runCommand } from './run-command.js';
import type { Io } from './run-command.js';
import { MCP_VERB } from './mcp-verb.js';
import { markStage } from './stage-marks.js';
import type { runCli as RunCli } from './main.js';

markStage('entry');

async function readAllStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** A hash of full-core.cjs, set by scripts/bundle-cli.mjs (the cache file is named after it). */
declare const LORE_FULL_CLI_BUILD: string;

/**
 * The whole CLI (main.ts), in one CommonJS bundle run from V8's code cache, one cache per verb,
 * as the fast verbs run (fast-launch.ts). As ES modules the same code cost a `lore add` about
 * 190 ms before its first line ran on this machine (resolving, reading and compiling a dozen
 * chunks and the packages they import), a third of the command.
 */
function full(io: Io): Promise<number> {
  const bundle = {
    file: 'full-core.cjs',
    build: LORE_FULL_CLI_BUILD,
    cachePrefix: 'lore-cli-full',
    stage: 'full bundle loaded',
  };
  return runCliBundle(bundle, io.argv[0], (exports) => (exports as { runCli: typeof RunCli }).runCli(io));
}

/** The exit code, and whether the command ran without the whole CLI (a fast verb, a scan's stamp). */
async function run(io: Io): Promise<{ code: number; fast: boolean }> {
  const [verb, ...rest] = io.argv;
  if (verb === 'mcp') return { code: await runCommand(io, verb, MCP_VERB, rest, full), fast: true };
  if (verb === 'scan') {
    // nothing new since the last scan: its answer again, before any of the CLI loads
    const { answerUnchangedScan } = await import('./unchanged-scan.js');
    const code = answerUnchangedScan(io);
    if (code !== undefined) return { code, fast: true };
  }
  if (isFastVerb(verb)) {
    const code = await runFastCli(io, full);
    if (code !== undefined) return { code, fast: true };
  }
  return { code: await full(io), fast: false };
}

// straight to the file descriptors: see direct-output.ts
const stdout = createDirectOutput(1, () => process.stdout);
const stderr = createDirectOutput(2, () => process.stderr);

/**
 * A fast verb's process (and a scan answered from its stamp) leaves as soon as its output is
 * written (stdout and stderr hold nothing pending), rather than after Node tears its heap and the
 * SQLite driver down: a few ms of every `lore search`. Every other verb ends as Node ends it, with
 * whatever it left running.
 */
function leave(code: number, fast: boolean): void {
  process.exitCode = code;
  if (fast && !stdout.pending() && !stderr.pending()) process.exit(code);
}

/** The working directory; undefined when it was deleted or moved under the shell (then process.cwd() throws). */
function workingDirectory(): string | undefined {
  try {
    return process.cwd();
  } catch {
    return undefined;
  }
}

const argv = process.argv.slice(2);
const cwd = workingDirectory();
if (cwd === undefined) {
  stderr.write(
    'lore: the current folder no longer exists (it was deleted or moved after this shell entered it); cd into a folder that exists and run the command again\n',
  );
  process.exitCode = 1;
} else {
  run({
    argv,
    cwd,
    env: process.env,
    stdout: stdout.write,
    stderr: stderr.write,
    // asked on use: process.stderr is the stream direct-output.ts spares
    get isTTY() {
      return process.stderr.isTTY === true;
    },
    readStdin: readAllStdin,
  }).then(
    ({ code, fast }) => leave(code, fast),
    (error: unknown) => {
      stderr.write(`lore: ${(error as Error)?.stack ?? String(error)}\n`);
      process.exitCode = 70;
    },
  );
}

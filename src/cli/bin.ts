#!/usr/bin/env node
/**
 * The `lore` executable: wires the real process to the CLI. The fast verbs (fast-verbs.ts) run
 * from the CommonJS bundle that `require` loads (fast-launch.ts, fast-cli.ts); every other verb,
 * or all of them when that bundle is missing (an unbundled build), from main.ts.
 */
import { isFastVerb } from './fast-verbs.js';
import type { Io } from './run-command.js';
import type { runFastCli } from './fast-launch.js';

const FAST_BUNDLE = '../cli-bundle/fast.cjs';

async function readAllStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** The bundle's entry, or undefined when there is no bundle. */
function fastCli(): typeof runFastCli | undefined {
  const { createRequire } = process.getBuiltinModule('node:module');
  const require = createRequire(import.meta.url);
  let file: string;
  try {
    file = require.resolve(FAST_BUNDLE);
  } catch {
    return undefined;
  }
  return (require(file) as { runFastCli: typeof runFastCli }).runFastCli;
}

const io: Io = {
  argv: process.argv.slice(2),
  cwd: process.cwd(),
  env: process.env,
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  isTTY: process.stderr.isTTY === true,
  readStdin: readAllStdin,
};
const full = async (run: Io): Promise<number> => (await import('./main.js')).runCli(run);
const fast = isFastVerb(io.argv[0]) ? fastCli() : undefined;
process.exitCode = (await fast?.(io, full)) ?? (await full(io));

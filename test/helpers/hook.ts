/**
 * Runs the committed hook bundle (plugin/bin/lore-hook.cjs) as the agents do: a fresh process,
 * the payload on stdin, NODE_EXTRA_CA_CERTS cleared, the sandbox's HOME and its own TMPDIR.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, watch } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Sandbox } from './cli.js';

export const HOOK_BUNDLE = fileURLToPath(new URL('../../plugin/bin/lore-hook.cjs', import.meta.url));
/** What the hook bundle (a launcher) runs: it must sit next to it. */
export const HOOK_CORE = fileURLToPath(new URL('../../plugin/bin/lore-hook-core.cjs', import.meta.url));
export const MANIFEST_BUNDLE = fileURLToPath(new URL('../../plugin/bin/lore-manifest.cjs', import.meta.url));

export type HookResult = { code: number | null; stdout: string; stderr: string; ms: number };

export type HookOptions = { env?: Record<string, string>; args?: readonly string[] };

export function hookEnv(sandbox: Sandbox, extra: Record<string, string> = {}): Record<string, string> {
  const tmp = join(sandbox.base, 'tmp');
  mkdirSync(tmp, { recursive: true });
  // LORE_NO_SCAN, LORE_NO_PULL: SessionStart would start a real background scan (and, with an
  // organisation remote, a pull) that outlives the test.
  return {
    ...sandbox.env,
    TMPDIR: tmp,
    NODE_EXTRA_CA_CERTS: '',
    LORE_NO_SCAN: '1',
    LORE_NO_PULL: '1',
    ...extra,
  };
}

export function runHookBundle(
  sandbox: Sandbox,
  stdin: string | object,
  options: HookOptions = {},
): HookResult {
  const started = performance.now();
  const result = spawnSync(process.execPath, [HOOK_BUNDLE, ...(options.args ?? [])], {
    input: typeof stdin === 'string' ? stdin : JSON.stringify(stdin),
    env: hookEnv(sandbox, options.env),
    cwd: sandbox.base,
    encoding: 'utf8',
    maxBuffer: 64 << 20,
    timeout: 30_000,
  });
  return {
    code: result.status,
    stdout: result.stdout,
    stderr: result.stderr,
    ms: performance.now() - started,
  };
}

export function runHookAsync(
  sandbox: Sandbox,
  stdin: object,
  options: HookOptions = {},
): Promise<HookResult> {
  const started = performance.now();
  const child = spawn(process.execPath, [HOOK_BUNDLE, ...(options.args ?? [])], {
    env: hookEnv(sandbox, options.env),
    cwd: sandbox.base,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdin.end(JSON.stringify(stdin));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr, ms: performance.now() - started }));
  });
}

/** The parsed stdout; hookSpecificOutput's fields when present. */
export function output(result: HookResult): {
  hookSpecificOutput?: {
    hookEventName: string;
    additionalContext?: string;
    permissionDecision?: string;
    permissionDecisionReason?: string;
  };
} {
  return JSON.parse(result.stdout) as ReturnType<typeof output>;
}

/** Resolves once `path` exists (a signal from the file system, not a timer). */
export function fileAppears(path: string): Promise<void> {
  mkdirSync(dirname(path), { recursive: true });
  return new Promise((resolve) => {
    const watcher = watch(dirname(path), (_event, name) => {
      if ((name === null || name === basename(path)) && existsSync(path)) {
        watcher.close();
        resolve();
      }
    });
    if (existsSync(path)) {
      watcher.close();
      resolve();
    }
  });
}

/** A recorded Claude Code payload moved into the sandbox repository. */
export function inRepo<T extends Record<string, unknown>>(
  sandbox: Sandbox,
  payload: T,
  fields: Record<string, unknown> = {},
): T {
  return { ...payload, cwd: sandbox.repo, ...fields };
}

/** Resolves once `path` is gone (e.g. the background rebuilder removed its lock). */
export function fileDisappears(path: string): Promise<void> {
  return new Promise((resolve) => {
    if (!existsSync(path)) {
      resolve();
      return;
    }
    const watcher = watch(dirname(path), () => {
      if (!existsSync(path)) {
        watcher.close();
        resolve();
      }
    });
    if (!existsSync(path)) {
      watcher.close();
      resolve();
    }
  });
}

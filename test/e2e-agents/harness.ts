/**
 * Runs the real agents (the pinned Claude Code and Codex of this package) offline: each in a fresh
 * temporary git repository with `.lore/` set up by the built `lore` CLI, an isolated HOME, dummy
 * keys and a minimal environment (`env -i` style: nothing of the caller's leaks in), talking to a
 * scripted model server on 127.0.0.1. Everything a test makes is removed when it finishes, and an
 * agent still running then is killed.
 */
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, onTestFinished } from 'vitest';
import type { ModelServer } from './model-server.js';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export const REPO_ROOT = here('../../');
export const PLUGIN_DIR = here('../../plugin');
export const LORE_BIN = here('../../dist/cli/bin.js');
export const CLAUDE_BIN = here('./node_modules/@anthropic-ai/claude-code/bin/claude.exe');
export const CODEX_BIN = here('./node_modules/@openai/codex/bin/codex.js');
export const GEMINI_BIN = here('./node_modules/@google/gemini-cli/bundle/gemini.js');
export const GEMINI_EXTENSION_DIR = here('../../gemini-extension');

export type Exit = { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string };

export type Workspace = {
  base: string;
  home: string;
  /** The git repository the agent works in (has `.lore/`). */
  repo: string;
  /** Scratch space outside the repository (marketplace copies and such). */
  scratch: string;
  /** The minimal environment every process of the workspace gets. */
  env: Record<string, string>;
  /** Runs the built `lore` in the repository; throws unless it exits 0. */
  lore(args: readonly string[]): string;
  /** `lore add ... -q`: the new lesson's id. */
  addLesson(args: readonly string[]): string;
};

/**
 * A fake `pytest` (prints a passing run) on the PATH of both the agent and a login shell (Codex
 * runs commands with `bash -lc`, which resets PATH from /etc/profile and then reads
 * ~/.bash_profile).
 */
function installFakeTools(home: string, bin: string): void {
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'pytest'), '#!/bin/sh\necho "collected 1 item"\necho "1 passed in 0.01s"\n');
  chmodSync(join(bin, 'pytest'), 0o755);
  writeFileSync(join(home, '.bash_profile'), `export PATH="${bin}:$PATH"\n`);
}

function run(command: string, args: readonly string[], cwd: string, env: Record<string, string>): string {
  const result = spawnSync(command, args, { cwd, env, encoding: 'utf8', timeout: 60_000 });
  if (result.status !== 0) {
    throw new Error(
      `${command} ${args.join(' ')} exited ${result.status}:\n${result.stdout}\n${result.stderr}`,
    );
  }
  return result.stdout;
}

export function createWorkspace(): Workspace {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'lore-agents-')));
  onTestFinished(() => rmSync(base, { recursive: true, force: true }));
  const home = join(base, 'home');
  const repo = join(base, 'repo');
  const bin = join(base, 'bin');
  const scratch = join(base, 'scratch');
  for (const dir of [home, repo, scratch]) mkdirSync(dir, { recursive: true });
  installFakeTools(home, bin);
  const env: Record<string, string> = {
    HOME: home,
    USER: 'dev',
    SHELL: '/bin/bash',
    LANG: 'C.UTF-8',
    TZ: 'UTC',
    NO_COLOR: '1',
    TERM: 'dumb',
    PATH: `${bin}:${dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin`,
    TMPDIR: join(base, 'tmp'),
    NODE_EXTRA_CA_CERTS: '',
    // No background transcript scan from SessionStart: it would outlive the run and its temp HOME.
    LORE_NO_SCAN: '1',
    LORE_NO_PULL: '1',
    GIT_CONFIG_NOSYSTEM: '1',
  };
  mkdirSync(env.TMPDIR!);
  run('git', ['init', '-q', '-b', 'main'], repo, env);
  mkdirSync(join(repo, 'tests'));
  mkdirSync(join(repo, 'build'));
  writeFileSync(join(repo, 'tests', 'test_app.py'), 'def test_ok():\n    assert True\n');
  writeFileSync(join(repo, 'build', 'artifact.txt'), 'an hour of compiling\n');

  const lore = (args: readonly string[]) => run(process.execPath, [LORE_BIN, ...args], repo, env);
  lore(['init']);
  return {
    base,
    home,
    repo,
    scratch,
    env,
    lore,
    addLesson: (args) => lore(['add', ...args, '-q']).trim(),
  };
}

/** Starts an agent and resolves with its exit; kills it if the test ends first. */
export function runAgent(
  command: string,
  args: readonly string[],
  cwd: string,
  env: Record<string, string>,
): Promise<Exit> {
  const child: ChildProcess = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** Claude Code's environment: the workspace's, the model server, a dummy key, root allowed. */
export function claudeEnv(ws: Workspace, server: ModelServer): Record<string, string> {
  return {
    ...ws.env,
    ANTHROPIC_BASE_URL: server.url,
    ANTHROPIC_API_KEY: 'sk-ant-e2e-dummy',
    IS_SANDBOX: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  };
}

/** `claude -p PROMPT` with permissions skipped, plus `extra` (such as `--plugin-dir`). */
export function runClaude(
  ws: Workspace,
  server: ModelServer,
  prompt: string,
  extra: readonly string[] = [],
): Promise<Exit> {
  return runAgent(
    CLAUDE_BIN,
    ['-p', prompt, '--dangerously-skip-permissions', '--output-format', 'json', ...extra],
    ws.repo,
    claudeEnv(ws, server),
  );
}

/** `claude ARGS` (plugin management) in the workspace; throws unless it exits 0. */
export function claude(ws: Workspace, server: ModelServer, args: readonly string[]): string {
  return run(CLAUDE_BIN, args, ws.repo, claudeEnv(ws, server));
}

/** An isolated CODEX_HOME whose config sends the model to the scripted server. */
export function codexEnv(ws: Workspace, server: ModelServer): Record<string, string> {
  const codexHome = join(ws.home, '.codex');
  mkdirSync(codexHome, { recursive: true });
  writeFileSync(
    join(codexHome, 'config.toml'),
    [
      'model = "gpt-5.1-codex"',
      'model_provider = "scripted"',
      '',
      '[model_providers.scripted]',
      'name = "scripted model server"',
      `base_url = "${server.url}/v1"`,
      'wire_api = "responses"',
      'env_key = "OPENAI_API_KEY"',
      'request_max_retries = 0',
      'stream_max_retries = 0',
      '',
    ].join('\n'),
    { flag: 'wx' },
  );
  return { ...ws.env, CODEX_HOME: codexHome, OPENAI_API_KEY: 'sk-e2e-dummy' };
}

/** `codex ARGS` (plugin management) in the workspace; throws unless it exits 0. */
export function codex(ws: Workspace, env: Record<string, string>, args: readonly string[]): string {
  return run(process.execPath, [CODEX_BIN, ...args], ws.repo, env);
}

/** `codex exec PROMPT` without sandbox or approvals; hooks run without the trust review. */
export function runCodex(ws: Workspace, env: Record<string, string>, prompt: string): Promise<Exit> {
  return runAgent(
    process.execPath,
    [
      CODEX_BIN,
      'exec',
      '--dangerously-bypass-approvals-and-sandbox',
      '--dangerously-bypass-hook-trust',
      '--skip-git-repo-check',
      prompt,
    ],
    ws.repo,
    env,
  );
}

/**
 * A marketplace directory laid out as this repository is (`.claude-plugin/marketplace.json` +
 * `plugin/`), copied so that an install copies only the plugin and not the whole checkout.
 */
export function copyMarketplace(ws: Workspace): string {
  const market = join(ws.scratch, 'lore-marketplace');
  cpSync(join(REPO_ROOT, '.claude-plugin'), join(market, '.claude-plugin'), { recursive: true });
  cpSync(PLUGIN_DIR, join(market, 'plugin'), { recursive: true });
  return market;
}

/** The raw body of the agent's request after its `n`-th tool call (n = 0: its first request). */
export function turn(server: ModelServer, n: number): string {
  const request = server.agentTurns().find((candidate) => candidate.toolResults === n);
  if (request === undefined) {
    throw new Error(`no agent request after ${n} tool call(s); ${server.requests.length} request(s) logged`);
  }
  return request.raw;
}

/** One line of the hook's audit log: the fields these tests check. */
export type AuditLine = {
  host: string;
  event: string;
  tool: string | null;
  /** `outcome`: a call's result (PostToolUseFailure, Codex's PostToolUse), answered as its PreToolUse's other half. */
  phase?: string;
  lessons: { id: string; matched_by: string[]; form: string }[];
  call_id?: string;
  command?: string;
};

/** The hook's audit log of the workspace's repository (`.lore/cache/audit.jsonl`), line by line. */
export function auditLines(ws: Workspace): AuditLine[] {
  return readFileSync(join(ws.repo, '.lore', 'cache', 'audit.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as AuditLine);
}

/**
 * The one audit line of lesson `id` in an error-gated run: the failed `ls`'s result, recorded as a
 * half of its PreToolUse (`outcome` for Claude Code's PostToolUseFailure and Codex's PostToolUse,
 * `after` for Gemini's AfterTool), matched by the lesson's error.
 */
export function expectOutcomeAuditLine(
  ws: Workspace,
  id: string,
  host: string,
  phase: 'outcome' | 'after' = 'outcome',
): void {
  const lines = auditLines(ws).filter((line) => line.lessons.some((shown) => shown.id === id));
  expect(lines).toEqual([
    expect.objectContaining({
      host,
      event: 'PreToolUse',
      phase,
      tool: 'Bash',
      command: 'ls /definitely/not/here',
    }),
  ]);
  expect(lines[0]!.lessons.find((shown) => shown.id === id)!.matched_by).toContain(
    'error:No such file or directory',
  );
}

/**
 * The turns of an error-gated run (`ls tests`, then `ls /definitely/not/here`): the lesson is in no
 * request before the failure, not after the `ls` that worked, and once after the failed one.
 */
export function expectLsErrorTurns(server: ModelServer, marker: string): void {
  expect(occurrences(turn(server, 0), marker)).toBe(0);
  expect(occurrences(turn(server, 1), 'test_app.py')).toBeGreaterThan(0);
  expect(occurrences(turn(server, 1), marker)).toBe(0);
  expect(occurrences(turn(server, 2), marker)).toBe(1);
}

/** How many times `needle` occurs in `text`. */
export function occurrences(text: string, needle: string): number {
  return text.split(needle).length - 1;
}

/**
 * Gemini CLI's environment: the model server as its API (`GOOGLE_GEMINI_BASE_URL`), a dummy key,
 * and user settings that pick API-key auth and turn off telemetry, update checks and the
 * interactive trust prompt (written only if no test wrote settings first).
 */
export function geminiEnv(ws: Workspace, server: ModelServer): Record<string, string> {
  const dir = join(ws.home, '.gemini');
  mkdirSync(dir, { recursive: true });
  const settings = {
    security: { auth: { selectedType: 'gemini-api-key' }, folderTrust: { enabled: false } },
    privacy: { usageStatisticsEnabled: false },
    general: { disableAutoUpdate: true, disableUpdateNag: true },
    telemetry: { enabled: false },
  };
  try {
    writeFileSync(join(dir, 'settings.json'), `${JSON.stringify(settings, null, 2)}\n`, { flag: 'wx' });
  } catch {
    // a test installed something first: keep its settings
  }
  return {
    ...ws.env,
    GEMINI_API_KEY: 'gemini-e2e-dummy',
    GOOGLE_GEMINI_BASE_URL: server.url,
    GEMINI_CLI_NO_RELAUNCH: 'true',
  };
}

/** `gemini ARGS` (extension management) in the workspace; throws unless it exits 0. */
export function gemini(ws: Workspace, env: Record<string, string>, args: readonly string[]): string {
  return run(process.execPath, [GEMINI_BIN, ...args], ws.repo, env);
}

/** `gemini -p PROMPT --yolo`: non-interactive, every tool call allowed. */
export function runGemini(ws: Workspace, env: Record<string, string>, prompt: string): Promise<Exit> {
  return runAgent(
    process.execPath,
    [GEMINI_BIN, '-p', prompt, '--yolo', '--output-format', 'json'],
    ws.repo,
    env,
  );
}

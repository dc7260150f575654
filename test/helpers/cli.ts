/**
 * Spawns the built `lore` (dist/cli/bin.js) the way a person would: in a temporary repository
 * (a directory with `.git`), with a temporary HOME, TZ=UTC, NO_COLOR=1 and no inherited LORE_*
 * variables. Every sandbox is removed when the test that made it finishes.
 */
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import type { Dirent } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { onTestFinished } from 'vitest';
import { isProcessAlive } from '../../src/store/fs/fs-atomic.js';

export const LORE_BIN = fileURLToPath(new URL('../../dist/cli/bin.js', import.meta.url));
export const LORE_MAIN_URL = new URL('../../dist/cli/main.js', import.meta.url).href;

export type Run = {
  args: readonly string[];
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON. */
  json<T = unknown>(): T;
};

export type RunOptions = {
  /** Working directory; default the repository. */
  cwd?: string;
  /** Extra environment, merged over the sandbox's. */
  env?: Record<string, string>;
  /** Text piped to stdin. */
  input?: string;
};

export type Sandbox = {
  /** The temporary directory holding everything below. */
  base: string;
  home: string;
  /** The repository (has `.git`; `.lore/` only after `lore init`). */
  repo: string;
  /** `$LORE_HOME` when the sandbox sets it, else `~/.lore` of the temporary HOME. */
  userTier: string;
  env: Record<string, string>;
  run(args: readonly string[], options?: RunOptions): Run;
  runAsync(args: readonly string[], options?: RunOptions): Promise<Run>;
  spawn(args: readonly string[], options?: RunOptions): ChildProcess;
  /** `lore add ... --json` that must succeed; returns the id. */
  add(args: readonly string[], options?: RunOptions): string;
  /** A path inside the repository. */
  inRepo(...parts: string[]): string;
  /** lesson.yaml of a lesson; project tier unless `tier` is 'user'. */
  lessonFile(id: string, tier?: 'project' | 'user'): string;
};

export type SandboxOptions = {
  /** Run `lore init` in the repository (default true). */
  init?: boolean;
  /** Set LORE_HOME to a directory outside HOME (default false: the user tier is ~/.lore). */
  loreHome?: boolean;
};

function toRun(
  args: readonly string[],
  code: number | null,
  signal: NodeJS.Signals | null,
  stdout: string,
  stderr: string,
): Run {
  return {
    args,
    code,
    signal,
    stdout,
    stderr,
    json<T>() {
      try {
        return JSON.parse(stdout) as T;
      } catch (error) {
        throw new Error(
          `lore ${args.join(' ')}: stdout is not JSON (${(error as Error).message}):\n${stdout}\nstderr:\n${stderr}`,
          { cause: error },
        );
      }
    },
  };
}

/**
 * Waits (at most 15 s) for the manifest rebuilds a test's hook calls started in the background:
 * the hook takes `rebuild.lock` before it spawns the detached builder, which removes it when done.
 * Removing the sandbox under a running builder fails with ENOTEMPTY.
 */
async function backgroundRebuildsDone(base: string): Promise<void> {
  const locks = () =>
    (readdirSync(base, { recursive: true, withFileTypes: true }) as Dirent[]).filter(
      (entry) => entry.name === 'rebuild.lock',
    );
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    let pending: Dirent[];
    try {
      pending = locks();
    } catch {
      return;
    }
    if (pending.length === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export function createSandbox(options: SandboxOptions = {}): Sandbox {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'lore-cli-')));
  onTestFinished(async () => {
    await backgroundRebuildsDone(base);
    rmSync(base, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
  });
  const home = join(base, 'home');
  const repo = join(base, 'repo');
  mkdirSync(home);
  mkdirSync(join(repo, '.git'), { recursive: true });
  const env: Record<string, string> = {
    HOME: home,
    TZ: 'UTC',
    NO_COLOR: '1',
    NODE_EXTRA_CA_CERTS: '',
    PATH: process.env.PATH ?? '/usr/bin:/bin',
  };
  if (options.loreHome === true) env.LORE_HOME = join(base, 'lore-home');
  const userTier = env.LORE_HOME ?? join(home, '.lore');

  const childEnv = (extra: Record<string, string> | undefined) => ({ ...env, ...extra });

  const sandbox: Sandbox = {
    base,
    home,
    repo,
    userTier,
    env,
    run(args, runOptions = {}) {
      const result = spawnSync(process.execPath, [LORE_BIN, ...args], {
        cwd: runOptions.cwd ?? repo,
        env: childEnv(runOptions.env),
        input: runOptions.input ?? '',
        encoding: 'utf8',
        timeout: 60_000,
      });
      return toRun(args, result.status, result.signal, result.stdout, result.stderr);
    },
    runAsync(args, runOptions = {}) {
      const child = sandbox.spawn(args, runOptions);
      let stdout = '';
      let stderr = '';
      child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
      child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      return new Promise((resolve, reject) => {
        child.on('error', reject);
        child.on('close', (code, signal) => resolve(toRun(args, code, signal, stdout, stderr)));
      });
    },
    spawn(args, runOptions = {}) {
      const child = spawn(process.execPath, [LORE_BIN, ...args], {
        cwd: runOptions.cwd ?? repo,
        env: childEnv(runOptions.env),
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      child.stdin?.end(runOptions.input ?? '');
      return child;
    },
    add(args, runOptions) {
      const result = sandbox.run(['add', ...args, '--json'], runOptions);
      if (result.code !== 0)
        throw new Error(`lore add ${args.join(' ')} failed (${result.code}):\n${result.stderr}`);
      return result.json<{ id: string }>().id;
    },
    inRepo: (...parts) => join(repo, ...parts),
    lessonFile: (id, tier = 'project') =>
      tier === 'user'
        ? join(userTier, 'lessons', id, 'lesson.yaml')
        : join(repo, '.lore', 'lessons', id, 'lesson.yaml'),
  };
  if (options.init ?? true) {
    const init = sandbox.run(['init']);
    if (init.code !== 0) throw new Error(`lore init failed (${init.code}):\n${init.stderr}`);
  }
  return sandbox;
}

/** A lesson as `--json` prints it (the fields the tests look at). */
export type LessonJson = {
  id: string;
  slug: string;
  summary: string;
  body?: string;
  tier: 'project' | 'user';
  status: 'active' | 'superseded' | 'archived';
  type: string;
  category: string;
  severity: string;
  priority: number;
  confidence: number;
  tools: string[];
  commands: string[];
  paths: string[];
  tags: string[];
  stack: string[];
  supersedes: string[];
  supersededBy?: string;
  evidence: { kind: string; ref: string; note?: string }[];
  createdAt: string;
  updatedAt: string;
};

export type ListedLesson = LessonJson & {
  file: string;
  votes: { count: number; lastVotedAt: string | null; score: number };
  matchedBy: string[];
};

export type ProblemJson = {
  file: string;
  line?: number;
  field?: string;
  message: string;
  severity: 'error' | 'warning';
};

export type ListJson = { lessons: ListedLesson[]; problems: ProblemJson[]; path?: string };
export type SearchJson = {
  query: string;
  results: (ListedLesson & { score: number })[];
  problems: ProblemJson[];
};
export type ShowJson = {
  lesson: LessonJson;
  file: string;
  votes: {
    count: number;
    lastVotedAt: string | null;
    score: number;
    votes: { model: string; task: string; at: string }[];
  };
  problems: ProblemJson[];
};
export type CheckJson = {
  ok: boolean;
  lessons: number;
  errors: number;
  warnings: number;
  problems: ProblemJson[];
};
export type ErrorJson = { error: { code: string; message: string; hint: string | null; details: unknown } };
export type ExportJson = {
  format: string;
  version: number;
  exportedAt: string;
  lessons: (LessonJson & { votes: { model: string; task: string; at: string }[] })[];
};

/** Ids of `lore list --status any --json` (both tiers), sorted. */
export function listIds(sandbox: Sandbox, args: readonly string[] = [], options?: RunOptions): string[] {
  const result = sandbox.run(['list', '--status', 'any', '--json', ...args], options);
  if (result.code !== 0) throw new Error(`lore list failed (${result.code}):\n${result.stderr}`);
  return result
    .json<ListJson>()
    .lessons.map((lesson) => lesson.id)
    .sort();
}

/** Directory names under `<tier>/lessons` (lesson ids), sorted; [] if there is none. */
export function lessonDirs(tierDir: string): string[] {
  const dir = join(tierDir, 'lessons');
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'))
    .map((entry) => entry.name)
    .sort();
}

/** Every file below `dir` (relative paths), recursively. */
export function walkFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1))
    .sort();
}

/** The 1-based line of the first line of `file` that starts with `prefix`. */
export function lineOf(file: string, prefix: string): number {
  const index = readFileSync(file, 'utf8')
    .split('\n')
    .findIndex((line) => line.startsWith(prefix));
  if (index < 0) throw new Error(`no line starting with "${prefix}" in ${file}`);
  return index + 1;
}

/**
 * Writes a lore export holding `lessons` (minimal records: the rest takes the schema defaults)
 * and imports it, so a test gets many lessons with known ids from one process.
 */
export function seedLessons(
  sandbox: Sandbox,
  lessons: readonly (Partial<LessonJson> & {
    id: string;
    summary: string;
    votes?: { model: string; task: string; at: string }[];
  })[],
): void {
  const now = '2025-01-01T00:00:00.000Z';
  const document = {
    format: 'lore',
    version: 1,
    exportedAt: now,
    lessons: lessons.map((lesson) => ({
      schemaVersion: 1,
      slug: lesson.summary
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-|-$/g, ''),
      createdAt: now,
      updatedAt: now,
      ...lesson,
    })),
  };
  const file = join(sandbox.base, `seed-${Date.now()}-${Math.random().toString(16).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(document));
  const result = sandbox.run(['import', file]);
  if (result.code !== 0)
    throw new Error(`seeding failed (${result.code}):\n${result.stdout}\n${result.stderr}`);
}

/** Resolves with the exit of a child (code or signal). */
export function exited(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null)
      resolve({ code: child.exitCode, signal: child.signalCode });
    else child.once('exit', (code, signal) => resolve({ code, signal }));
  });
}

/** The pid of a process that has already exited (for "a writer that died" fixtures). */
export function deadPid(): number {
  const result = spawnSync(process.execPath, ['-e', ''], { stdio: 'ignore' });
  if (result.pid === undefined) throw new Error('could not spawn a process');
  return result.pid;
}

/**
 * Waits (up to 30 s) for a detached process to end; whether it has ended is lore's own answer
 * (`isProcessAlive`: gone, or exited and not reaped yet). True once it has.
 */
export async function waitForExit(pid: number, timeoutMs = 30_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (isProcessAlive(pid) && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 50));
  return !isProcessAlive(pid);
}

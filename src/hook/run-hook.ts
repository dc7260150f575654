/**
 * One hook call, start to end: stdin text in, stdout text out. Parses, finds the project and the
 * manifest, notices a stale manifest (and asks for a background rebuild), runs the pipeline,
 * claims what it injects, appends to the audit log. Fail-open: anything unexpected gives `{}`.
 *
 * Imports Node built-ins and lore's own files only (eslint enforces it): this is bundled into
 * plugin/bin/lore-hook.cjs, which must start as fast as a bare `node`.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { claudeCodeAdapter } from '../adapters/claude-code/hook-adapter.js';
import { codexAdapter, isCodexPayload } from '../adapters/codex/hook-adapter.js';
import { cursorAdapter, isCursorPayload } from '../adapters/cursor/hook-adapter.js';
import { geminiAdapter, geminiStopPayload, isGeminiPayload } from '../adapters/gemini/hook-adapter.js';
import { formatDecision } from '../core/inject/format-decision.js';
import { parseHookPayload } from '../core/inject/parse-hook-input.js';
import { applyClaims, preambleFor, selectLessons } from '../core/inject/select-lessons.js';
import { DEFAULT_INJECT_SETTINGS, HARD_MAX_CHARS, MANIFEST_VERSION } from '../core/inject/types.js';
import type { HookAdapter, HookDecision, HookEvent, ManifestHead } from '../core/inject/types.js';
import { appendAudit, auditRecord } from '../store/hook-state/audit-log.js';
import { fileSignature } from '../store/fs/file-signature.js';
import {
  FULL_CHECK_INTERVAL_MS,
  lastFullCheck,
  readManifestHead,
  readManifestWords,
  staleSources,
  withManifestReader,
} from '../store/hook-state/manifest-files.js';
import { findHookCache, repoRelativePaths } from '../store/fs/paths.js';
import { LiteralIndexError } from '../store/hook-state/literal-index.js';
import { openSessionState, wipeSession } from '../store/hook-state/session-state.js';
import { maybeStartPull } from './background-pull.js';
import type { PullRequest } from './background-pull.js';
import { loreCursorHooksFile } from './cursor-hooks-installed.js';
import { handleStop } from './stop-markers.js';
import type { FeedbackRequest } from './stop-markers.js';
import { ranWithin } from '../core/utc-time.js';

export type RebuildRequest = {
  /** Where the rebuilder starts looking for `.lore/` (the project root, or the cwd). */
  start: string;
  cacheDir: string;
  reason: 'missing' | 'stale' | 'lesson-changed' | 'check';
  /** Only compare signatures and rebuild when something changed (the periodic check). */
  onlyIfChanged: boolean;
};

/** `lore scan --background` from the SessionStart hook: where, and from which directory. */
export type ScanRequest = { cwd: string };

/** Where `lore scan --background` leaves its stamp (see src/cli/commands/scan.ts). */
export function scanStamp(cacheDir: string): string {
  return join(cacheDir, 'capture', 'background.stamp');
}

export type HookDeps = {
  argv: readonly string[];
  env: NodeJS.ProcessEnv;
  nowMs: number;
  tmpdir: string;
  uid: number | string;
  home?: string;
  requestRebuild(request: RebuildRequest): void;
  /** Starts a detached `lore scan --background`; false when the lore CLI cannot be found. */
  startScan?(request: ScanRequest): boolean;
  /** `lore pull --background` (absent with LORE_NO_PULL=1). */
  startPull?(request: PullRequest): boolean;
  /** Starts detached `lore feedback --session` runs for a Stop hook's markers. */
  recordFeedback?(request: FeedbackRequest): boolean;
  /** The hook process's working directory (a Stop payload may not carry `cwd`). */
  cwd?: string;
};

export type HookRun = { stdout: string; debug: Record<string, unknown> };

export const EMPTY_OUTPUT = '{}';

/** The `--host` the hook command names, if any. */
export function hostArgument(argv: readonly string[]): string | undefined {
  const i = argv.indexOf('--host');
  return i >= 0 ? argv[i + 1] : argv.find((arg) => arg.startsWith('--host='))?.slice(7);
}

export function chooseAdapter(
  argv: readonly string[],
  raw: unknown,
  env: NodeJS.ProcessEnv = {},
): HookAdapter {
  const host = hostArgument(argv);
  if (host === 'codex') return codexAdapter;
  if (host === 'gemini') return geminiAdapter;
  if (host === 'cursor') return cursorAdapter;
  if (host === 'claude-code') return claudeCodeAdapter;
  if (isCodexPayload(raw)) return codexAdapter;
  if (isCursorPayload(raw)) return cursorAdapter;
  return isGeminiPayload(raw, env) ? geminiAdapter : claudeCodeAdapter;
}

function emptyHead(projectRoot: string | null): ManifestHead {
  return {
    version: MANIFEST_VERSION,
    generation: 'none',
    builtAtMs: 0,
    projectRoot,
    settings: DEFAULT_INJECT_SETTINGS,
    stack: [],
    sources: [],
    blockSize: 1,
    lessonCount: 0,
    guards: 0,
    ranked: 0,
    index: {},
    keys: {},
    always: '',
    startup: [],
    startupScores: [],
    patched: {},
  };
}

/** Serializes the output, cutting the context until the whole line fits the host limit. */
export function serializeOutput(adapter: HookAdapter, decision: HookDecision): string {
  let current = decision;
  for (let attempt = 0; attempt < 6; attempt += 1) {
    const text = JSON.stringify(adapter.toOutput(current));
    if (text.length <= HARD_MAX_CHARS) return text;
    const excess = text.length - HARD_MAX_CHARS + 64;
    const cut = (value: string | undefined) =>
      value === undefined ? undefined : value.slice(0, Math.max(0, value.length - excess * 2));
    current = {
      ...current,
      context: cut(current.context),
      deny: current.deny === undefined ? undefined : cut(current.deny) || 'lore guard',
    };
  }
  return EMPTY_OUTPUT;
}

/**
 * Transcript capture in the background, at most once per interval: one stat of the stamp that
 * `lore scan --background` writes decides, so most session starts cost nothing more.
 */
function maybeStartScan(deps: HookDeps, cacheDir: string, cwd: string, intervalHours: number): string {
  const last = statSync(scanStamp(cacheDir), { throwIfNoEntry: false })?.mtimeMs;
  if (ranWithin(last, deps.nowMs, intervalHours * 3_600_000)) return 'ran recently';
  try {
    return deps.startScan?.({ cwd }) === true ? 'started' : 'no lore CLI next to the hook';
  } catch {
    return 'could not start';
  }
}

export function runHook(stdin: string, deps: HookDeps): HookRun {
  const debug: Record<string, unknown> = {};
  if (deps.env.LORE_DISABLED === '1') return { stdout: EMPTY_OUTPUT, debug: { skipped: 'LORE_DISABLED=1' } };
  let raw: unknown;
  try {
    raw = JSON.parse(stdin);
  } catch {
    return { stdout: EMPTY_OUTPUT, debug: { skipped: 'stdin is not JSON', bytes: stdin.length } };
  }
  const stopPayload =
    raw !== null &&
    typeof raw === 'object' &&
    (raw as { hook_event_name?: unknown }).hook_event_name === 'Stop'
      ? (raw as Record<string, unknown>)
      : geminiStopPayload(raw);
  if (stopPayload !== undefined) {
    const stop = handleStop(stopPayload, {
      env: deps.env,
      home: deps.home,
      cwd: deps.cwd ?? '.',
      recordFeedback: deps.recordFeedback,
    });
    return { stdout: EMPTY_OUTPUT, debug: { event: 'Stop', ...stop } };
  }
  const adapter = chooseAdapter(deps.argv, raw, deps.env);
  debug.host = adapter.host;
  const parsed = parseHookPayload(adapter.normalizeInput(raw));
  if (parsed === undefined || !adapter.events.includes(parsed.event)) {
    return { stdout: EMPTY_OUTPUT, debug: { ...debug, skipped: 'not an event lore handles' } };
  }
  if (adapter.host === 'cursor' && hostArgument(deps.argv) !== 'cursor') {
    // Cursor running lore's Claude-format hooks: lore's own Cursor hooks answer instead, once
    const native = loreCursorHooksFile(parsed.cwd, deps.home ?? deps.env.HOME);
    if (native !== undefined) {
      return { stdout: EMPTY_OUTPUT, debug: { ...debug, skipped: `lore's Cursor hooks answer (${native})` } };
    }
  }
  const phase = parsed.event === 'PreToolUse' ? adapter.callPhase?.(raw) : undefined;
  const event: HookEvent = { ...parsed, host: adapter.host, ...(phase === undefined ? {} : { phase }) };
  debug.event = event.event;
  if (phase !== undefined) debug.phase = phase;
  debug.tool = event.tool;

  const place = findHookCache(event.cwd, deps.env, deps.home);
  if (place === undefined) {
    return { stdout: EMPTY_OUTPUT, debug: { ...debug, skipped: 'no .lore/ project and no user tier' } };
  }
  const cacheDir = place.cacheDir;
  const projectRoot = place.projectRoot ?? null;
  debug.cacheDir = cacheDir;
  if (place.disabled) {
    return { stdout: EMPTY_OUTPUT, debug: { ...debug, skipped: 'disabled by `lore disable`' } };
  }

  const start = projectRoot ?? event.cwd;
  let head = readManifestHead(cacheDir);
  if (head === undefined) {
    deps.requestRebuild({ start, cacheDir, reason: 'missing', onlyIfChanged: false });
    debug.manifest = 'missing';
    head = emptyHead(projectRoot);
  } else {
    const stale = staleSources(head);
    if (stale.length > 0) {
      deps.requestRebuild({ start, cacheDir, reason: 'stale', onlyIfChanged: false });
      debug.manifest = `stale: ${stale.map((s) => s.path).join(', ')}`;
    } else if (deps.nowMs - lastFullCheck(cacheDir) > FULL_CHECK_INTERVAL_MS) {
      deps.requestRebuild({ start, cacheDir, reason: 'check', onlyIfChanged: true });
      debug.manifest = 'full check due';
    }
  }
  const settings = { ...head.settings, maxChars: Math.min(head.settings.maxChars, adapter.maxChars) };

  if (event.event === 'SessionStart' && deps.startScan !== undefined) {
    debug.scan = maybeStartScan(deps, cacheDir, projectRoot ?? event.cwd, head.scanIntervalHours ?? 24);
  }
  if (event.event === 'SessionStart')
    debug.pull = maybeStartPull(deps.env, deps.nowMs, projectRoot ?? event.cwd, deps.startPull);
  if (event.event === 'SessionStart' && event.source === 'clear')
    wipeSession(deps.tmpdir, event.sessionId, deps.uid);
  const state = openSessionState(deps.tmpdir, event.sessionId, event.agentId, deps.uid);
  if (event.event === 'SessionStart' && event.source === 'compact') {
    const forget = [...state.entries]
      .filter(([, priority]) => priority >= settings.compactForgetPriority)
      .map(([id]) => id);
    state.forget(forget);
    debug.forgotten = forget;
  }

  const repoPaths = repoRelativePaths(event.paths ?? [], projectRoot ?? event.cwd);
  let selection: ReturnType<typeof selectLessons>;
  try {
    selection = withManifestReader(cacheDir, head, (reader) =>
      selectLessons({
        event,
        head,
        readLesson: reader.readLesson,
        readText: reader.readText,
        literals: reader.literals,
        words: event.event === 'UserPromptSubmit' ? readManifestWords(cacheDir, head) : undefined,
        repoPaths,
        state: {
          seen: state.seen,
          seenElsewhere: state.seenElsewhere,
          shownCount: state.seen.size,
          stateAvailable: state.available,
        },
        settings,
      }),
    );
  } catch (error) {
    // A literal index file the head names is missing or corrupt: nothing to say this time, and a
    // rebuild for the next call.
    if (!(error instanceof LiteralIndexError) && (error as NodeJS.ErrnoException).code !== 'ENOENT')
      throw error;
    deps.requestRebuild({ start, cacheDir, reason: 'missing', onlyIfChanged: false });
    return { stdout: EMPTY_OUTPUT, debug: { ...debug, manifest: `unreadable: ${(error as Error).message}` } };
  }
  const plan = applyClaims(selection.decision.plan, (wanted) => state.claimAll(wanted));
  const decision = formatDecision(event.event, plan, preambleFor(event.event));
  if (phase === 'outcome')
    decision.hostEvent = String((raw as { hook_event_name?: unknown }).hook_event_name);

  const shown = new Set([...plan.included, ...plan.denied].map((item) => item.id));
  if (
    selection.matches.some(({ lesson }) => {
      const text = selection.texts.get(lesson.n);
      return shown.has(lesson.id) && text !== undefined && fileSignature(text.file) !== text.sig;
    })
  ) {
    deps.requestRebuild({ start, cacheDir, reason: 'lesson-changed', onlyIfChanged: false });
  }

  const stdout = serializeOutput(adapter, decision);
  if (plan.included.length > 0 || plan.denied.length > 0) {
    try {
      appendAudit(
        cacheDir,
        auditRecord(event, decision, adapter.host, deps.nowMs, Buffer.byteLength(stdout)),
      );
    } catch (error) {
      debug.auditError = (error as Error).message;
    }
  }
  Object.assign(debug, {
    candidates: selection.candidates,
    read: selection.read,
    included: plan.included.map((item) => item.id),
    denied: plan.denied.map((item) => item.id),
    skipped: plan.skipped,
    stateAvailable: state.available,
  });
  return { stdout, debug };
}

export type { HookEvent };

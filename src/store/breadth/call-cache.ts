/**
 * The call cache: the newest tool calls `lore scan` read and what became of them (see
 * core/breadth/cached-call.ts), one JSON file in the tier's cache dir, written whole and
 * atomically once per scan. A missing file means scan never ran; a damaged one reads as empty and
 * says so, and the next scan writes a fresh one.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CALL_OUTCOMES } from '../../core/outcome/call-outcome.js';
import { mergeCachedCalls } from '../../core/breadth/cached-call.js';
import type { CachedCall } from '../../core/breadth/cached-call.js';
import { writeFileAtomic } from '../fs/fs-atomic.js';

/** Relative to a tier's cache dir, beside the scan state. */
export const CALL_CACHE_FILE = join('capture', 'call-cache.json');

export type CallCacheRead =
  | { status: 'ok'; calls: CachedCall[]; skipped: number }
  | { status: 'missing' | 'damaged'; calls: []; skipped: 0 };

/**
 * On disk the calls are grouped by session, which each call then need not repeat (a third of the
 * size), and a call's keys are left out when they are just its tool (`todowrite`).
 */
type StoredCall = Omit<CachedCall, 'session' | 'agent' | 'project' | 'keys'> & { keys?: string[] };
type StoredSession = { session: string; agent: CachedCall['agent']; project?: string; calls: StoredCall[] };
type StoredCallCache = { version: 1; sessions: StoredSession[] };

function isStoredCall(value: unknown): value is StoredCall {
  if (value === null || typeof value !== 'object') return false;
  const call = value as Record<string, unknown>;
  const optional = (key: string, type: 'string') => call[key] === undefined || typeof call[key] === type;
  const strings = (key: string) =>
    call[key] === undefined ||
    (Array.isArray(call[key]) && (call[key] as unknown[]).every((item) => typeof item === 'string'));
  // every field the breadth check reads, of the type it reads it as
  return (
    typeof call.id === 'string' &&
    typeof call.tool === 'string' &&
    optional('time', 'string') &&
    optional('command', 'string') &&
    optional('error', 'string') &&
    optional('errorClass', 'string') &&
    strings('keys') &&
    strings('paths') &&
    (CALL_OUTCOMES as readonly unknown[]).includes(call.outcome)
  );
}

function storedForm(calls: readonly CachedCall[]): StoredCallCache {
  const sessions = new Map<string, StoredSession>();
  for (const { session, agent, project, keys, ...rest } of calls) {
    let stored = sessions.get(session);
    if (stored === undefined) {
      stored = { session, agent, ...(project !== undefined ? { project } : {}), calls: [] };
      sessions.set(session, stored);
    }
    const plain = keys.length === 1 && keys[0] === rest.tool.toLowerCase();
    stored.calls.push({ ...rest, ...(plain ? {} : { keys }) });
  }
  return { version: 1, sessions: [...sessions.values()] };
}

export function callCachePath(cacheDir: string): string {
  return join(cacheDir, CALL_CACHE_FILE);
}

/** The cached calls; entries of another shape are skipped and counted. */
export function readCallCache(path: string): CallCacheRead {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return { status: 'missing', calls: [], skipped: 0 };
  }
  try {
    const parsed = JSON.parse(text) as Partial<StoredCallCache>;
    if (parsed.version !== 1 || !Array.isArray(parsed.sessions))
      return { status: 'damaged', calls: [], skipped: 0 };
    const calls: CachedCall[] = [];
    let skipped = 0;
    for (const stored of parsed.sessions as unknown[]) {
      const s = stored as Partial<StoredSession> | null;
      if (
        s === null ||
        typeof s.session !== 'string' ||
        typeof s.agent !== 'string' ||
        !Array.isArray(s.calls)
      ) {
        skipped += 1;
        continue;
      }
      for (const call of s.calls as unknown[]) {
        if (!isStoredCall(call)) {
          skipped += 1;
          continue;
        }
        calls.push({
          ...call,
          session: s.session,
          agent: s.agent,
          ...(typeof s.project === 'string' ? { project: s.project } : {}),
          keys: call.keys ?? [call.tool.toLowerCase()],
        });
      }
    }
    return { status: 'ok', calls: mergeCachedCalls([], calls, Number.POSITIVE_INFINITY), skipped };
  } catch {
    return { status: 'damaged', calls: [], skipped: 0 };
  }
}

export function writeCallCache(path: string, calls: readonly CachedCall[]): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileAtomic(path, JSON.stringify(storedForm(calls)));
}
